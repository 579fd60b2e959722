"""The table options' command-line flags (``protocol.table_flags``): their helps, and the
flags that give a set of options back."""

from __future__ import annotations

import argparse

from protocol.table_flags import add_table_flags, given_table_options, table_flag_args


def test_a_switchs_usual_value_is_its_flag_in_every_language() -> None:
    """A switch's server default is said by the flag that gives it (``--no-seven-o``),
    which reads the same in every language, not as ``false`` inside a German help."""
    parser = argparse.ArgumentParser()
    add_table_flags(parser.add_argument_group("table options"), server_decides=True)
    helps = {action.dest: action.help or "" for action in parser._actions}
    assert helps["seven_o"].endswith("usually --no-seven-o)")
    assert helps["turn_seconds"].endswith("usually 60)")
    assert not any("usually false" in text or "usually true" in text for text in helps.values())


def test_the_flags_of_some_options_give_them_back() -> None:
    options = {"seven_o": True, "jump_in": False, "turn_seconds": 0, "stack": "progressive"}
    argv = table_flag_args(options)
    assert argv == ["--seven-o", "--no-jump-in", "--turn-seconds", "0", "--stack", "progressive"]
    parser = argparse.ArgumentParser()
    add_table_flags(parser.add_argument_group("table options"))
    assert given_table_options(parser.parse_args(argv)) == options
