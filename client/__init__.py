"""The client side of uno-lan: the network session, finding servers, and the bots.

``client.session`` is the Trio network session every client uses (``connect``,
``open_session``); ``client.discovery`` finds servers on the LAN over mDNS
(``find_server``, ``browse``, ``keep_listed``); ``client.bots`` holds the strategies, the
bot API and ``uno-bot`` (``connect_bot``, ``choose``, ``run_bots``). Their public names are
re-exported here. ``client.ui`` is the prompt-toolkit program behind ``uno-client``; it is
not re-exported, so importing ``client`` never loads prompt-toolkit.
The client never imports the server: it learns legal moves from the views it is sent.
"""

from client.bots import (
    STRATEGIES,
    Bot,
    Knobs,
    RefusedError,
    RunSettings,
    Stats,
    TableNotFoundError,
    UnknownStrategyError,
    choose,
    connect_bot,
    open_bot,
    play_bot,
    run_bots,
)
from client.discovery import (
    SERVICE_TYPE,
    DiscoveryUnavailableError,
    FoundServer,
    NoServerFoundError,
    browse,
    describe,
    find_server,
    keep_listed,
)
from client.session import (
    ClientSession,
    ConnectionLostError,
    InvalidLocalCommandError,
    Reply,
    ResumeState,
    ServerClosedError,
    ServerProtocolError,
    SessionError,
    connect,
    open_session,
)

__all__ = [
    "SERVICE_TYPE",
    "STRATEGIES",
    "Bot",
    "ClientSession",
    "ConnectionLostError",
    "DiscoveryUnavailableError",
    "FoundServer",
    "InvalidLocalCommandError",
    "Knobs",
    "NoServerFoundError",
    "RefusedError",
    "Reply",
    "ResumeState",
    "RunSettings",
    "ServerClosedError",
    "ServerProtocolError",
    "SessionError",
    "Stats",
    "TableNotFoundError",
    "UnknownStrategyError",
    "browse",
    "choose",
    "connect",
    "connect_bot",
    "describe",
    "find_server",
    "keep_listed",
    "open_bot",
    "open_session",
    "play_bot",
    "run_bots",
]
