"""``uno-bot``: run scripted bots against a server, for solo play, tests and load.

    uno-bot --spawn-server --bots 4 --games 3 --deck bts --seed 1 --json
    uno-bot --server 192.168.1.20:7531 --table Friday --bots 2 --strategy random
    uno-bot --table Friday --create --bots 3     # find a server on the LAN (mDNS)

With ``--spawn-server`` a private ``uno-server`` is started on 127.0.0.1 (port 0, never
advertised) for the run and stopped after it. With neither ``--server`` nor
``--spawn-server`` the bots look for servers on the network (client/discovery.py) and join
the first compatible one; ``--mdns-interface`` says where to look. ``--json`` prints one
JSON object at the end (after a Ctrl-C too).

This module is the command line only, light enough that ``--help`` loads no Trio; what runs
the bots is ``client.bots.command``, imported once the arguments are read.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence

from client.bots.choices import CHALLENGE_MODES, DANCE_MODES, STRATEGY_NAMES
from client.i18n import _, choose, language_from, pgettext
from protocol.table_flags import add_table_flags

__all__ = ["build_parser", "main"]


class _HelpFormatter(argparse.HelpFormatter):
    """Adds ``(default: X)``, in the chosen language, to a flag's help only when the help
    does not already say its default and there is a default worth saying (not None, off or
    empty). (``argparse.ArgumentDefaultsHelpFormatter`` adds it to every help, in English.)"""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        if "default" in text or action.default in (None, False, "", [], argparse.SUPPRESS):
            return text
        return text + _(" (default: %(default)s)")


def build_parser() -> argparse.ArgumentParser:
    """The command line of ``uno-bot``."""
    parser = argparse.ArgumentParser(
        prog="uno-bot",
        description=_("Scripted UNO bots that play over the real protocol."),
        formatter_class=_HelpFormatter,
    )
    where = parser.add_argument_group(_("where to play"))
    target = where.add_mutually_exclusive_group()
    target.add_argument(
        "--server",
        metavar="HOST:PORT",
        help=_("the server to connect to (default: the first one found on the network)"),
    )
    target.add_argument(
        "--spawn-server",
        action="store_true",
        help=_("start a private uno-server on 127.0.0.1 for this run (not advertised)"),
    )
    where.add_argument(
        "--mdns-interface",
        action="append",
        default=[],
        metavar="IP",
        help=_(
            "without --server: look for servers on the interface with this address "
            "(repeatable; default every interface)"
        ),
    )
    where.add_argument(
        "--discover-seconds",
        type=float,
        default=10.0,
        help=_("without --server: how long to look for a server"),
    )
    where.add_argument("--table", default="bots", help=_("the table's name"))
    where.add_argument(
        "--create",
        action="store_true",
        help=_("create the table (implied by --spawn-server); otherwise join it by name"),
    )
    where.add_argument("--password", default=None, help=_("the table's password"))
    where.add_argument(
        "--server-arg",
        action="append",
        default=[],
        metavar="ARG",
        help=_(
            "extra argument for a spawned server (repeatable), e.g. --server-arg=--turn-seconds=5"
        ),
    )

    play = parser.add_argument_group(_("the bots"))
    play.add_argument("--bots", type=int, default=4, help=_("bots in this process"))
    play.add_argument(
        "--strategy",
        "--level",
        default="basic",
        choices=sorted(STRATEGY_NAMES),
        help=_(
            "how the bots choose: easy, normal (alias basic), hard (searches); random "
            "picks any legal command"
        ),
    )
    play.add_argument(
        "--strategies",
        default="",
        metavar="S1,S2,...",
        help=_("a strategy per bot, in seat order (the rest use --strategy)"),
    )
    play.add_argument("--games", type=int, default=1, help=_("matches to play"))
    play.add_argument(
        "--seed", type=int, default=None, help=_("seed for bots (and a spawned server)")
    )
    play.add_argument("--name", default="bot", help=_("name prefix; bots are NAME1, NAME2..."))
    play.add_argument(
        "--rate",
        type=float,
        default=None,
        help=_("messages per second per bot at most (default: 15, unlimited with --spawn-server)"),
    )
    play.add_argument("--timeout", type=float, default=900.0, help=_("give up after this many s"))
    play.add_argument(
        "--reconnect-seconds",
        type=float,
        default=30.0,
        help=_(
            "when the server goes away, how long the bots try to take their seats back "
            "before they give up (exit status 2)"
        ),
    )
    play.add_argument("--json", action="store_true", help=_("print one JSON summary at the end"))

    knobs = parser.add_argument_group(_("knobs (how human or adversarial the bots are)"))
    knobs.add_argument(
        "--think-ms",
        type=int,
        nargs=2,
        default=(0, 0),
        metavar=("LOW", "HIGH"),
        help=_("time to think before each command of its own turn"),
    )
    knobs.add_argument(
        "--jump-in-ms",
        type=int,
        nargs=2,
        default=(600, 1200),
        metavar=("LOW", "HIGH"),
        help=_("the reaction time before a jump-in (a play out of turn under jump_in)"),
    )
    knobs.add_argument(
        "--forget-uno", type=float, default=0.0, help=_("probability of not declaring UNO")
    )
    knobs.add_argument(
        "--catch",
        action=argparse.BooleanOptionalAction,
        default=True,
        help=_("catch opponents who forgot UNO"),
    )
    knobs.add_argument("--catch-delay-ms", type=int, default=0, help=_("reaction time for a catch"))
    knobs.add_argument(
        "--challenge",
        choices=CHALLENGE_MODES,
        default="auto",
        help=_("answering a Wild Draw Four: auto (the strategy weighs it), always, never"),
    )
    knobs.add_argument(
        "--dance",
        choices=DANCE_MODES,
        default="auto",
        help=_("answering a Dancing Wild: auto, correct, wrong (a wrong sequence) or refuse"),
    )

    add_table_flags(
        parser.add_argument_group(_("table options (with --create)")),
        server_decides=True,
        translate=pgettext,
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``uno-bot``; exit status 0 when every match finished cleanly, 130
    after Ctrl-C (with a one-line summary), 2 when it could not play. Its help and
    argparse's errors read in the environment's language (``LANGUAGE``, ``LC_ALL``,
    ``LANG``); what the bots print as they play stays English."""
    choose(language_from(None, None, os.environ))
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.bots < 1 or args.games < 1:
        parser.error(_("--bots and --games must be at least 1"))
    from client.bots.command import play  # noqa: PLC0415 (--help never loads Trio)

    return play(args)
