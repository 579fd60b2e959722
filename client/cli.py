"""``uno-client`` (also ``python -m client``): play UNO in the terminal.

    uno-client --solo --bots 3 --deck bts     # alone against bots on a private server
    uno-client --serve                        # host the evening: a server for the LAN
    uno-client --server 192.168.1.20:7531     # join a friend's server
    uno-client                                # find a server on the LAN (or type its address)
    uno-client --mdns-interface 192.168.1.20  # ... looking on that interface only

The log goes to a file (``--log-file``; by default under ``$XDG_STATE_HOME``), never over
the screen: while the client runs, standard error (and a spawned server's) goes there too.

This module is the command line only, light enough that ``--help`` loads none of Trio,
prompt-toolkit or zeroconf; ``client.command`` runs the client once the arguments are read.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from pathlib import Path

from client.bots.choices import DEFAULT_LEVEL, LEVEL_CHOICES
from client.config import load_config
from client.i18n import LANGUAGES, _, choose, language_from, pgettext
from protocol.options import DeckName
from protocol.table_flags import add_table_flags

__all__ = ["OWN_FLAGS", "build_parser", "main"]

OWN_FLAGS = ("deck", "seats")
"""Table options with flags of their own here (``--seats`` counts the new table's seats)."""


def build_parser() -> argparse.ArgumentParser:
    """The command line of ``uno-client``."""
    parser = argparse.ArgumentParser(
        prog="uno-client",
        description=_("Play UNO in the terminal, alone against bots or with friends on the LAN."),
    )
    where = parser.add_mutually_exclusive_group()
    where.add_argument(
        "--solo", action="store_true", help=_("play alone: a private server with bots")
    )
    where.add_argument(
        "--serve", action="store_true", help=_("host: start a server for the network and sit down")
    )
    where.add_argument(
        "--server",
        metavar="HOST:PORT",
        help=_("join the server at this address (default: list the servers found on the network)"),
    )
    where.add_argument(
        "--replay",
        metavar="FILE",
        type=Path,
        help=_("watch a replay file (uno-server replay MATCH_ID --out FILE) in the table screen"),
    )
    parser.add_argument("--name", help=_("your name at the table (remembered for next time)"))
    parser.add_argument("--table", metavar="NAME", help=_("with --server: join this table"))
    parser.add_argument(
        "--spectate", action="store_true", help=_("with --server: watch a table instead of playing")
    )
    parser.add_argument(
        "--password",
        default=None,
        help=_("with --table: the table's password; with --serve: lock the new table with it"),
    )
    parser.add_argument(
        "--bots", type=int, default=None, help=_("bots at the table (--solo: 3, --serve: 0)")
    )
    parser.add_argument(
        "--level",
        choices=LEVEL_CHOICES,
        default=DEFAULT_LEVEL,
        help=_("--solo, --serve: the bots' level (default {level})").format(level=DEFAULT_LEVEL),
    )
    parser.add_argument(
        "--deck",
        choices=[deck.value for deck in DeckName],
        default=DeckName.CLASSIC.value,
        help=_("the deck"),
    )
    parser.add_argument(
        "--seats", type=int, default=4, help=_("--serve: seats at the new table (default 4)")
    )
    parser.add_argument(
        "--port",
        type=int,
        default=None,
        help=_("--serve: the port (default 7531, or a free one if that is taken; 0 picks one)"),
    )
    parser.add_argument(
        "--server-arg",
        action="append",
        default=[],
        metavar="ARG",
        help=_("extra argument for the server --solo/--serve starts, e.g. --server-arg=--seed=1"),
    )
    parser.add_argument(
        "--mdns-interface",
        action="append",
        default=[],
        metavar="IP",
        help=_(
            "without --server: look for servers on the interface with this address; "
            "with --serve: advertise on it (repeatable; default every interface)"
        ),
    )
    parser.add_argument(
        "--host",
        metavar="IP",
        default=None,
        help=_("with --serve: listen only on this address, e.g. 127.0.0.1 (default: every one)"),
    )
    parser.add_argument(
        "--no-mdns",
        action="store_true",
        help=_(
            "with --serve: do not advertise the server on the network; otherwise: do not "
            "look for servers (type the address instead)"
        ),
    )
    parser.add_argument(
        "--lang",
        choices=LANGUAGES,
        default=None,
        help=_("the language you read (default: the config's, else LANGUAGE, LC_ALL or LANG)"),
    )
    parser.add_argument("--log-file", type=Path, default=None, help=_("where the log goes"))
    parser.add_argument(
        "--no-mouse", action="store_true", help=_("leave the mouse to the terminal")
    )
    add_table_flags(
        parser.add_argument_group(
            _(
                "house rules (--solo, --serve: the server's defaults, so also of the new "
                "table; --solo plays without a turn clock unless --turn-seconds says otherwise)"
            )
        ),
        server_decides=True,
        leave_out=OWN_FLAGS,
        translate=pgettext,
    )
    return parser


def _language(argv: Sequence[str] | None) -> str:
    """The language of everything shown, ``--help`` included, so chosen before the parser
    is built: ``--lang``, else the config's ``lang``, else the environment."""
    early = argparse.ArgumentParser(add_help=False)
    early.add_argument("--lang", default=None)
    flag = early.parse_known_args(argv)[0].lang
    return language_from(flag, load_config().get("lang"), os.environ)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``uno-client``; 0 after a normal quit."""
    choose(_language(argv))
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.replay is not None:
        from client.replay_command import watch  # noqa: PLC0415 (as below)

        return watch(args.replay)
    from client.command import play  # noqa: PLC0415 (--help never loads the client)

    return play(parser, args)
