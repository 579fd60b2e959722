"""Engine benchmark: head to head with RLCard's UNO, then a mixed soak over every option.

Run from the repository root::

    .venv/bin/python tests/bench/engine.py            # human summary
    .venv/bin/python tests/bench/engine.py --json     # one JSON object, nothing else

Head to head: two-player classic rounds, the same random policy on both sides (play a
uniformly random playable card, a random colour for a wild, declare UNO when the play leaves
one card; with nothing playable draw, then play the drawn card if it can be played, else
pass). Each side asks its engine in its own way: ours through the cheap queries a bot would
use (``playable_cards``, ``may_draw``), RLCard through its legal action list. RLCard folds
a draw and the play of the drawn card into one step, so the fair unit is the round, not the
command. The two engines run in alternating slices so that machine noise falls on both.

Mixed soak: rounds rotating through every deck, 2 to 10 seats and a spread of house rules,
played with random legal commands from any seat (off-turn catches, UNO calls and jump-ins
included) and the table's own commands (timeouts when a deadline has passed, next round),
every house rule in the rotation (``stack``, ``seven_o``, ``jump_in``, draw until playable,
force play). After every
command the cards are counted; an exception, a rejection of a command the engine itself
listed as legal, a miscount or a round that never ends is an ``error``.

This is a measurement, not a test: it prints numbers and never asserts a time.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
# The repository root goes first: run as a script, this file's own folder leads sys.path,
# and a neighbouring benchmark (tests/bench/server.py) would shadow the ``server`` package.
sys.path[:] = [str(ROOT), *(entry for entry in sys.path if entry != str(ROOT))]

from protocol.cards import COLORS, Card, Color, Rank  # noqa: E402
from protocol.commands import (  # noqa: E402
    Accept,
    ChooseColor,
    Command,
    Draw,
    NextRound,
    Pass,
    Play,
    SeatCommand,
    Timeout,
)
from protocol.options import (  # noqa: E402
    CustomRule,
    DanceCheck,
    DeckName,
    Scoring,
    Stack,
    TableConfig,
)
from server.engine import EventKind, Match, Rejected  # noqa: E402

SLICE_SECONDS = 0.25
"""How long one engine runs before the other gets the machine."""

ROUND_COMMAND_LIMIT = 20_000
"""A mixed round still running after this many commands is abandoned and counted as stalled."""


# --------------------------------------------------------------------------------------
# The shared policy, on our engine
# --------------------------------------------------------------------------------------


def choose_policy_command(legal: Sequence[SeatCommand], rng: random.Random) -> SeatCommand:
    """The benchmark policy over our fully expanded legal list.

    A random playable card first (each distinct card equally likely), then a random colour
    and target among that card's variants, preferring the variants that declare UNO. With
    no card to play: accept a Wild Draw Four, name a colour for a first-card wild, draw, or
    pass, in that order of preference; anything else (a dance) at random.
    """
    variants: dict[Card, list[Play]] = {}
    others: dict[type, SeatCommand] = {}
    for command in legal:
        if type(command) is Play:
            card_variants = variants.get(command.card)
            if card_variants is None:
                variants[command.card] = [command]
            else:
                card_variants.append(command)
        else:
            others.setdefault(type(command), command)
    if variants:
        cards = list(variants)
        choices = variants[rng.choice(cards) if len(cards) > 1 else cards[0]]
        if len(choices) == 1:
            return choices[0]
        declaring = [play for play in choices if play.uno]
        return rng.choice(declaring or choices)
    for kind in (Accept, ChooseColor, Draw, Pass):
        if kind in others:
            if kind is ChooseColor:
                return rng.choice([command for command in legal if type(command) is kind])
            return others[kind]
    return rng.choice(list(legal))


_PlayVariants = tuple[tuple[Play, ...], tuple[Play, ...]]


class PlayPolicy:
    """The same policy through the engine's cheap queries (``playable_cards``,
    ``may_draw``, ``hand_count``) instead of the fully expanded legal list.

    A random distinct playable card, a random colour for a wild, UNO declared when the play
    leaves one card (the hand holds two); else draw. A playable drawn card is in
    ``playable_cards`` and is played. Anything else (an Accept, a first-card colour, a
    pass, a card that needs a target or a dance) goes to ``choose_policy_command``.
    Commands are values, so each card's plays are built once and shared.
    """

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.variants: dict[Card, _PlayVariants] = {}

    def choose(self, match: Match, seat: int) -> SeatCommand:
        rng = self.rng
        cards = match.playable_cards(seat)
        if cards:
            card = cards[0] if len(cards) == 1 else rng.choice(cards)
            variants = self.variants.get(card)
            if variants is None:
                variants = self._variants(match, seat, card)
                if variants is None:
                    return choose_policy_command(match.legal_commands(seat), rng)
            choices = variants[match.hand_count(seat) == 2]
            return choices[0] if len(choices) == 1 else rng.choice(choices)
        if match.may_draw(seat):
            return DRAW
        return choose_policy_command(match.legal_commands(seat), rng)

    def _variants(self, match: Match, seat: int, card: Card) -> _PlayVariants | None:
        if card.rank in (Rank.SWAP_HANDS, Rank.DANCE) or (
            card.rank is Rank.SKIP and match.config.skip_any
        ):
            return None  # targets and dances: the full legal list decides
        colors: tuple[Color | None, ...] = COLORS if card.color is None else (None,)
        plain = tuple(Play(card, color) for color in colors)
        declaring = tuple(Play(card, color, uno=True) for color in colors)
        variants = self.variants[card] = (plain, declaring)
        return variants


DRAW = Draw()


class OurSide:
    """Plays two-player classic rounds on our engine and counts rounds and commands.

    ``legal_list`` picks through the fully expanded ``legal_commands`` list (what the
    server builds for every view it sends) instead of the cheap queries. The matches are
    quiet (no events, no log: what a bot's playout runs, and all RLCard does) unless
    ``recording``, the server's way, where every command's events are built.
    """

    def __init__(self, seed: int, legal_list: bool = False, recording: bool = False) -> None:
        self.rng = random.Random(seed)
        self.quiet = not recording
        self.config = TableConfig(seats=2)
        self.match = self._new_match()
        self.now_ms = 0
        self.rounds = 0
        self.commands = 0
        self.choose: Callable[[Match, int], SeatCommand] = (
            self._choose_from_legal_list if legal_list else PlayPolicy(self.rng).choose
        )

    def _choose_from_legal_list(self, match: Match, seat: int) -> SeatCommand:
        return choose_policy_command(match.legal_commands(seat), self.rng)

    def _new_match(self) -> Match:
        return Match(self.config, seed=self.rng.getrandbits(64), now_ms=0, quiet=self.quiet)

    def play_round(self) -> None:
        """Play until the current round ends, then start the next one (or a new match)."""
        match = self.match
        choose = self.choose
        now_ms = self.now_ms
        commands = 0
        while True:
            seat = match.to_act()
            if seat is None:
                break
            command = choose(match, seat)
            now_ms += 100
            result = match.apply(seat, command, now_ms)
            commands += 1
            if type(result) is Rejected:
                raise RuntimeError(f"policy command {command} rejected: {result}")
        self.now_ms = now_ms
        self.commands += commands
        self.rounds += 1
        if match.is_over:
            self.match = self._new_match()
            self.now_ms = 0
        else:
            result = match.apply(None, NextRound(), self.now_ms)
            self.commands += 1
            if isinstance(result, Rejected):
                raise RuntimeError(f"next round rejected: {result}")


# --------------------------------------------------------------------------------------
# The shared policy, on RLCard
# --------------------------------------------------------------------------------------


class RLCardSide:
    """Plays RLCard ``UnoGame`` rounds with the same policy.

    RLCard lists each playable coloured card once per copy in hand and every wild as four
    colour actions; the policy groups those so that each distinct card is equally likely,
    as on our side. Its ``draw`` step plays the drawn card itself when it matches.
    """

    def __init__(self, seed: int) -> None:
        # Installed only with the bench extra, and without type information.
        import numpy as np  # type: ignore[import-not-found, unused-ignore]
        from rlcard.games.uno.game import (  # type: ignore[import-not-found, import-untyped, unused-ignore]
            UnoGame,
        )

        self.rng = random.Random(seed)
        self.game = UnoGame(num_players=2)
        self.game.np_random = np.random.RandomState(seed % 2**32)
        self.rounds = 0
        self.steps = 0

    def play_round(self) -> None:
        game = self.game
        rng = self.rng
        game.init_game()
        while not game.is_over():
            legal: list[str] = game.get_legal_actions()
            if legal[0] == "draw":
                action = "draw"
            else:
                by_card: dict[str, list[str]] = {}
                for action in legal:
                    by_card.setdefault(_rlcard_card(action), []).append(action)
                choices = by_card[rng.choice(list(by_card))] if len(by_card) > 1 else legal
                action = choices[0] if len(choices) == 1 else rng.choice(choices)
            game.step(action)
            self.steps += 1
        self.rounds += 1


def _rlcard_card(action: str) -> str:
    """The card an RLCard action plays: ``r-wild`` and ``g-wild`` are the same card."""
    return action[2:] if action[2] == "w" else action


# --------------------------------------------------------------------------------------
# Head to head
# --------------------------------------------------------------------------------------


def head_to_head(seconds: float, seed: int) -> dict[str, Any]:
    """Alternate slices of the four peers until each has run ``seconds``; report rates.

    The peers: ours quiet through the cheap queries, ours quiet through the full legal
    list, ours recording every event through the cheap queries, RLCard.
    """
    ours = OurSide(seed)
    listed = OurSide(seed, legal_list=True)
    recording = OurSide(seed, recording=True)
    theirs = RLCardSide(seed)
    peers: list[Callable[[], None]] = [
        ours.play_round,
        listed.play_round,
        recording.play_round,
        theirs.play_round,
    ]
    elapsed = [0.0] * len(peers)
    while min(elapsed) < seconds:
        for index, play_round in enumerate(peers):
            if elapsed[index] < seconds:
                elapsed[index] += _run_slice(play_round)
    ours_elapsed, listed_elapsed, recording_elapsed, theirs_elapsed = elapsed
    rounds_per_s = ours.rounds / ours_elapsed
    rlcard_rounds_per_s = theirs.rounds / theirs_elapsed
    listed_rounds_per_s = listed.rounds / listed_elapsed
    recording_rounds_per_s = recording.rounds / recording_elapsed
    return {
        "seconds": seconds,
        "rounds": ours.rounds,
        "rounds_per_s": round(rounds_per_s, 1),
        "rlcard_rounds": theirs.rounds,
        "rlcard_rounds_per_s": round(rlcard_rounds_per_s, 1),
        "ratio": round(rounds_per_s / rlcard_rounds_per_s, 3),
        "commands": ours.commands,
        "commands_per_s": round(ours.commands / ours_elapsed, 1),
        "us_per_command": round(ours_elapsed / ours.commands * 1e6, 2),
        "rlcard_steps_per_s": round(theirs.steps / theirs_elapsed, 1),
        "legal_list_rounds_per_s": round(listed_rounds_per_s, 1),
        "ratio_legal_list": round(listed_rounds_per_s / rlcard_rounds_per_s, 3),
        "legal_list_us_per_command": round(listed_elapsed / listed.commands * 1e6, 2),
        "recording_rounds_per_s": round(recording_rounds_per_s, 1),
        "ratio_recording": round(recording_rounds_per_s / rlcard_rounds_per_s, 3),
        "recording_us_per_command": round(recording_elapsed / recording.commands * 1e6, 2),
    }


def _run_slice(play_round: Callable[[], None]) -> float:
    """Run whole rounds for about one slice; return the time they took."""
    start = time.perf_counter()
    elapsed = 0.0
    while elapsed < SLICE_SECONDS:
        play_round()
        elapsed = time.perf_counter() - start
    return elapsed


# --------------------------------------------------------------------------------------
# Mixed soak
# --------------------------------------------------------------------------------------

DECKS: tuple[DeckName, ...] = tuple(DeckName)


def mixed_config(index: int, rng: random.Random) -> TableConfig:
    """The index-th table of the soak: decks in rotation, seats and options at random."""
    deck = DECKS[index % len(DECKS)]
    seats = 2 + (index // len(DECKS)) % 9
    scorings = [Scoring.STANDARD, Scoring.LOWEST, Scoring.ELIMINATION]
    if seats >= 4 and seats % 2 == 0:
        scorings.append(Scoring.TEAMS)
    hand_size = rng.choice([1, 2, 3, 5, 7, 7, 7, 10])
    while seats * hand_size > 100:
        hand_size -= 1
    return TableConfig(
        deck=deck,
        seats=seats,
        target_score=rng.choice([1, 50, 200, 500]),
        scoring=rng.choice(scorings),
        hand_size=hand_size,
        stack=rng.choice(list(Stack)),
        skip_any=rng.random() < 0.3,
        seven_o=rng.random() < 0.4,
        jump_in=rng.random() < 0.4,
        draw_until_playable=rng.random() < 0.3,
        force_play=rng.random() < 0.3,
        wd4_bluff=rng.random() < 0.7,
        custom_wilds=rng.randint(1, 3),
        custom_rule=rng.choice(list(CustomRule)),
        dance_check=rng.choice(list(DanceCheck)),
        catch_grace_ms=rng.choice([0, 0, 1500]),
        false_catch_penalty=rng.choice([0, 0, 2]),
        turn_seconds=rng.choice([0, 10, 60]),
        decision_seconds=rng.choice([1, 15]),
        dance_seconds=rng.choice([1, 15]),
        round_pause_seconds=rng.choice([0, 10]),
    )


class MixedSoak:
    """Random legal play over rotating configurations, counting rounds and errors."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.tables = 0
        self.rounds = 0
        self.commands = 0
        self.errors = 0
        self.stalled = 0
        self.jump_ins = 0
        self.error_samples: list[str] = []

    def run(self, rounds: int) -> None:
        while self.rounds < rounds:
            self._play_match(rounds)

    def _error(self, what: str) -> None:
        self.errors += 1
        if len(self.error_samples) < 10:
            self.error_samples.append(what)

    def _play_match(self, round_budget: int) -> None:
        config = mixed_config(self.tables, self.rng)
        self.tables += 1
        seed = self.rng.getrandbits(64)
        where = f"table {self.tables - 1} seed {seed} {config.to_data()}"
        try:
            match = Match(config, seed=seed, now_ms=0)
        except Exception as error:
            self._error(f"{where}: Match() raised {error!r}")
            return
        now_ms = 0
        commands_this_round = 0
        while self.rounds < round_budget:
            try:
                step = self._step(match, now_ms)
            except Exception as error:
                self._error(f"{where}: raised {error!r}")
                return
            if step is None:
                return  # the match is over
            now_ms, _command, round_ended = step
            self.commands += 1
            commands_this_round += 1
            if round_ended:
                self.rounds += 1
                commands_this_round = 0
            elif commands_this_round > ROUND_COMMAND_LIMIT:
                # Random play at a crowded table can circulate the cards for a very long
                # time; that is the policy's doing, not an engine error. Leave the table.
                self.stalled += 1
                return

    def _step(self, match: Match, now_ms: int) -> tuple[int, Command, bool] | None:
        """Advance the clock, apply one random legal command; None when the match is over."""
        rng = self.rng
        now_ms += rng.choice((0, 50, 300, 1000, 3000))
        deadline = match.deadline_ms()
        if deadline is not None and now_ms < deadline and rng.random() < 0.02:
            now_ms = deadline
        actor: int | None
        command: Command | None
        table_commands = match.legal_table_commands(now_ms)
        if deadline is not None and now_ms >= deadline and rng.random() < 0.8:
            actor, command = None, Timeout()
        else:
            actor, command = self._pick(match, table_commands)
            if command is None:
                if match.is_over:
                    return None
                raise RuntimeError("nobody has a legal command and the match is not over")
        result = match.apply(actor, command, now_ms)
        if isinstance(result, Rejected):
            self._error(f"listed command {command} by {actor} rejected: {result}")
            return now_ms, command, False
        kinds = [event.kind for event in result.events]
        round_ended = EventKind.ROUND_OVER in kinds
        self.jump_ins += EventKind.JUMPED_IN in kinds
        self._check_cards(match, thoroughly=round_ended)
        return now_ms, command, round_ended

    def _pick(
        self, match: Match, table_commands: Sequence[Command]
    ) -> tuple[int | None, Command | None]:
        rng = self.rng
        seat = match.to_act()
        if seat is None:
            commands: list[Command] = [c for c in table_commands if type(c) is NextRound]
            commands = commands or list(table_commands)
            return (None, rng.choice(commands)) if commands else (None, None)
        if rng.random() < 0.01 and table_commands:
            return None, rng.choice(list(table_commands))  # pause, away and back, now and then
        if rng.random() < 0.15:
            other = rng.randrange(match.config.seats)
            off_turn = match.legal_commands(other)
            if off_turn:
                return other, rng.choice(off_turn)
        legal = match.legal_commands(seat)
        if not legal:
            raise RuntimeError(f"seat {seat} is to act but has no legal command")
        # Mostly the benchmark's sensible policy, so that rounds end; sometimes anything listed
        # (a draw while holding a playable card, a challenge, an early UNO call).
        if rng.random() < 0.8:
            return seat, choose_policy_command(legal, rng)
        return seat, rng.choice(legal)

    def _check_cards(self, match: Match, thoroughly: bool) -> None:
        """Count the cards after every command; compare them card by card at a round's end."""
        view = match.view(None, 0).to_data()
        held = sum(view["counts"])
        total = held + view["draw_count"] + view["discard_count"]
        if total != match.deck_size:
            self._error(f"cards not accounted for: {total} != {match.deck_size}")
        elif thoroughly and not match.cards_accounted_for():
            self._error("the cards in play are not the table's deck")


def mixed(rounds: int, seed: int) -> dict[str, Any]:
    """Play ``rounds`` mixed rounds and report their rate and the errors found."""
    soak = MixedSoak(seed)
    start = time.perf_counter()
    soak.run(rounds)
    elapsed = time.perf_counter() - start
    return {
        "mixed_rounds": soak.rounds,
        "mixed_tables": soak.tables,
        "mixed_commands": soak.commands,
        "mixed_rounds_per_s": round(soak.rounds / elapsed, 1),
        "mixed_stalled_tables": soak.stalled,
        "mixed_jump_ins": soak.jump_ins,
        "errors": soak.errors,
        "error_samples": soak.error_samples,
    }


# --------------------------------------------------------------------------------------
# Command line
# --------------------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--json", action="store_true", help="print one JSON object only")
    parser.add_argument("--seconds", type=float, default=5.0, help="head-to-head time per side")
    parser.add_argument("--mixed-rounds", type=int, default=300, help="rounds of the mixed soak")
    parser.add_argument("--seed", type=int, default=20_261_130, help="seed of every random choice")
    args = parser.parse_args(argv)

    figures = head_to_head(args.seconds, args.seed)
    figures.update(mixed(args.mixed_rounds, args.seed))
    if args.json:
        print(json.dumps(figures))
    else:
        print_summary(figures)
    return 1 if figures["errors"] else 0


def print_summary(figures: dict[str, Any]) -> None:
    print(f"Head to head, 2-player classic, {figures['seconds']:g} s per side")
    print(f"  uno-lan   {figures['rounds_per_s']:>10,.0f} rounds/s  ({figures['rounds']} rounds)")
    print(
        f"  RLCard    {figures['rlcard_rounds_per_s']:>10,.0f} rounds/s"
        f"  ({figures['rlcard_rounds']} rounds)"
    )
    print(f"  ratio     {figures['ratio']:>10.2f}  (ours / RLCard)")
    print(
        f"  uno-lan through the full legal list: {figures['legal_list_rounds_per_s']:,.0f}"
        f" rounds/s, ratio {figures['ratio_legal_list']:.2f},"
        f" {figures['legal_list_us_per_command']:.1f} us per command"
    )
    print(
        f"  uno-lan recording every event (the server's way):"
        f" {figures['recording_rounds_per_s']:,.0f} rounds/s,"
        f" ratio {figures['ratio_recording']:.2f},"
        f" {figures['recording_us_per_command']:.1f} us per command"
    )
    print(
        f"  commands  {figures['commands_per_s']:>10,.0f} /s, "
        f"{figures['us_per_command']:.1f} us per command"
    )
    print(f"Mixed soak over every deck and option: {figures['mixed_rounds']} rounds")
    print(f"  jump-ins  {figures['mixed_jump_ins']:>10,}")
    print(f"  rate      {figures['mixed_rounds_per_s']:>10,.1f} rounds/s")
    print(f"  errors    {figures['errors']:>10}")
    for sample in figures["error_samples"]:
        print(f"    {sample}")


if __name__ == "__main__":
    sys.exit(main())
