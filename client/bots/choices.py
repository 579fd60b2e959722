"""The names the command lines offer for bots, in a module light enough for ``--help``.

``client.bots.strategies`` holds what the names mean (and checks at import that every
strategy it defines is named here); the form of ``uno-client`` offers the levels too.
"""

from __future__ import annotations

__all__ = [
    "CHALLENGE_MODES",
    "DANCE_MODES",
    "DEFAULT_LEVEL",
    "LEVEL_CHOICES",
    "STRATEGY_NAMES",
]

LEVEL_CHOICES = ("easy", "normal", "hard", "random")
"""The server bots' levels (``client.bots.strategies.LEVELS``) in the order the form, the
add-bot picker and ``uno-client --level`` offer them."""
DEFAULT_LEVEL = "normal"
STRATEGY_NAMES = (*LEVEL_CHOICES, "basic")
"""Every strategy ``uno-bot --strategy`` accepts: the levels and their older aliases."""
CHALLENGE_MODES = ("auto", "always", "never")
"""How a bot answers a Wild Draw Four (``Knobs.challenge``)."""
DANCE_MODES = ("auto", "correct", "wrong", "refuse")
"""How a bot answers a Dancing Wild (``Knobs.dance``)."""
