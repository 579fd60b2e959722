"""Play in your own language (issue 29): the catalogues are complete and current, every
event kind reads in every shipped language, the language is chosen the usual ways, and
the pseudo-locale shows that every visible line of every screen comes from the catalogue
(but names, card labels and numbers)."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from enum import StrEnum

import pytest
from test_client_model import _sample
from test_client_width import SCREENS, _text

from client import i18n
from client.catalogues import problems
from client.cli import build_parser
from client.ui.describe import describe_event
from client.ui.model import case_words
from client.ui.page_copy import language_table
from client.ui.page_words import PAGE_WORDS
from client.ui.render import screen_lines
from client.ui.sentences import SENTENCES, coded, say, say_count
from protocol.events import EVENT_TYPES, EventBody, EventKind, SeenEvent
from protocol.options import house_rule_words


@pytest.fixture
def language() -> Iterator[None]:
    """Whatever a test chooses, the next one starts in English."""
    yield
    i18n.choose("en")


@pytest.mark.parametrize("lang", i18n.LANGUAGES[1:])
def test_every_shipped_catalogue_is_complete_and_current(lang: str) -> None:
    # No entry missing, untranslated, fuzzy or obsolete; the .mo compiled from the .po.
    assert problems(lang) == [], "run `make catalogues` and translate what it lists"


def _variants(kind: EventKind) -> list[EventBody]:
    """An event of ``kind`` for every value of each of its enum fields (every reason)."""
    plain = _sample(EVENT_TYPES[kind])
    found = [plain]
    for spec in dataclasses.fields(plain):
        value = getattr(plain, spec.name)
        if isinstance(value, StrEnum):
            found += [dataclasses.replace(plain, **{spec.name: v}) for v in type(value)]
    return found


@pytest.mark.usefixtures("language")
@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_event_kind_reads_in_every_language(lang: str) -> None:
    i18n.choose("en")
    english = {k: [describe_event(SeenEvent(1, b), str) for b in _variants(k)] for k in EventKind}
    i18n.choose(lang)
    for kind in EventKind:
        for body, in_english in zip(_variants(kind), english[kind], strict=True):
            line = describe_event(SeenEvent(1, body), str)
            assert line or kind is EventKind.TURN, (lang, kind)
            assert "{" not in line and "}" not in line, (lang, kind, line)
            if lang != "en" and line:
                assert line != in_english, f"{lang}: {kind} reads in English: {line!r}"


@pytest.mark.usefixtures("language")
def test_plural_forms_come_from_the_catalogue() -> None:
    expected = {"en": ("1 card", "2 cards"), "de": ("1 Karte", "2 Karten")}
    expected["es"] = ("1 carta", "2 cartas")
    for lang, (one, two) in expected.items():
        i18n.choose(lang)
        assert (say_count("cards", 1), say_count("cards", 2)) == (one, two)


# Counts that read alike whatever the number: a label's value, a unit's symbol.
_COUNTS_WITHOUT_PLURAL = {"drew.stack", "page.draw-pile", "page.stack", "page.seconds"}


def test_every_counted_sentence_has_its_plural_forms() -> None:
    """A sentence with a ``{count}`` is a plural (``.one`` / ``.other``), so a language
    whose "1" and "2" read differently can say both ("1 schaut zu", "2 schauen zu"),
    unless it is one of the few whose count is a label's value."""
    singular = {
        key
        for words in (SENTENCES, PAGE_WORDS)
        for key, english in words.items()
        if "{count}" in english and not key.endswith((".one", ".other"))
    }
    assert singular == _COUNTS_WITHOUT_PLURAL


@pytest.mark.usefixtures("language")
def test_names_and_card_labels_are_never_translated() -> None:
    i18n.choose("de")
    line = say("played", player="Rot", card="W+4")
    assert line == "Rot: W+4 gelegt"


def test_the_language_is_chosen_by_flag_then_config_then_environment() -> None:
    env = {"LANGUAGE": "fr:es", "LANG": "de_DE.UTF-8"}
    assert i18n.language_from("de", "es", env) == "de"
    assert i18n.language_from(None, "es", {"LANG": "de_DE.UTF-8"}) == "es"
    assert i18n.language_from(None, None, env) == "es"  # the first shipped one listed
    assert i18n.language_from(None, None, {"LC_ALL": "de_AT.UTF-8"}) == "de"
    assert i18n.language_from(None, None, {"LANG": "C"}) == "en"
    assert i18n.language_from(None, 42, {"LANG": "ja_JP.UTF-8"}) == "en"


@pytest.mark.usefixtures("language")
def test_help_reads_in_the_chosen_language() -> None:
    i18n.choose("es")
    assert "jugar solo: un servidor privado con bots" in build_parser().format_help()
    i18n.choose("en")
    assert "play alone: a private server with bots" in build_parser().format_help()


@pytest.mark.usefixtures("language")
@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("de", "uno-client: Fehler: Argument --bots: ungültiger int-Wert: 'many'"),
        ("es", "uno-client: error: argumento --bots: valor int no válido: 'many'"),
    ],
)
def test_argparses_own_error_lines_read_in_the_chosen_language(
    lang: str, said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    i18n.choose(lang)
    with pytest.raises(SystemExit):
        build_parser().parse_args(["--bots", "many"])
    assert said in capsys.readouterr().err


@pytest.mark.usefixtures("language")
def test_house_rules_and_their_flags_read_in_the_chosen_language() -> None:
    codes = ("stack:progressive", "seven_o", "skip_any", "stack:newer-kind")
    assert house_rule_words(codes) == (
        "stacking progressive, 7-0, Skip names anyone, stack:newer-kind"
    )
    i18n.choose("de")
    assert house_rule_words(codes, i18n.pgettext) == (
        "progressives Stapeln, 7-0, Aussetzen trifft jeden, stack:newer-kind"
    )
    assert house_rule_words((), i18n.pgettext) == "keine (die offiziellen Regeln)"
    i18n.choose("es")
    assert house_rule_words(("jump_in",), i18n.pgettext) == "adelantarse"


@pytest.mark.usefixtures("language")
def test_a_rejections_limit_reads_in_its_plural_forms() -> None:
    said = {}
    for lang in i18n.LANGUAGES:
        i18n.choose(lang)
        said[lang] = [coded("rejected", "too-many-tables", "", limit=n) for n in (1, 3)]
    assert said["en"] == [
        "your address may keep 1 table open; join it",
        "your address may keep 3 tables open; join one of them",
    ]
    assert (
        said["de"][1]
        == "von deiner Adresse dürfen nur 3 Tische offen sein; setz dich an einen davon"
    )
    assert said["es"][0] == "tu dirección solo puede tener 1 mesa abierta; únete a ella"


@pytest.mark.usefixtures("language")
def test_a_bad_options_rejection_names_the_option_in_the_readers_language() -> None:
    said = {}
    for lang in i18n.LANGUAGES:
        i18n.choose(lang)
        said[lang] = coded("rejected", "bad-options", "", **case_words({"option": "seven_o"}))
    assert said["en"] == "the table's options do not go together: check seven o"
    assert said["de"] == "die Optionen des Tisches passen nicht zusammen: prüfe sieben null"
    assert said["es"] == "las opciones de la mesa no encajan: revisa siete cero"


def test_the_pages_tables_hold_every_sentence_in_every_language() -> None:
    for lang in i18n.LANGUAGES:
        table = language_table(lang)
        assert table.keys() == SENTENCES.keys()
        assert all(table.values()), lang
    assert language_table("de")["cards.other"] == "{count} Karten"


# -- the pseudo-locale ---------------------------------------------------------------------

_MARKED = re.compile(r"⟦[^⟦⟧]*⟧")
_LABEL = re.compile(r"(?<!\w)[RYGBW][0-9]?[+⊘⟲⇄≋✱♪✸0-9]*(?!\w)")
_NAMES = (
    "Annabelle", "Ann", "Bob", "Cy", "Kitchen", "Garage", "Friday night", "Friday", "Late",
    "192.168.1.20", "127.0.0.1", "UNO", "uno-lan", "HOST:PORT",
    "Bot 1", "ann", "bob", "cy",  # the players of tests/fixtures/replay-v1.jsonl
)  # fmt: skip
_CHAT = re.compile(r"line \d+ of what the lobby said")
_FIXTURE_WORDS = ("(5 cards)", "(6 cards)")  # test_client_width's picker writes its own words


def _unmark(text: str) -> str:
    """``text`` with every marked span blanked, lines kept: a sentence wrapped over lines
    opens its mark on one line and closes it on a later one."""

    def blank(found: re.Match[str]) -> str:
        return " " + "\n" * found[0].count("\n")

    while _MARKED.search(text):
        text = _MARKED.sub(blank, text)
    # A page scrolled or cut mid-sentence: a mark open at the end, or closed at the start.
    return re.sub(r"\A[^⟦⟧]*⟧|⟦[^⟦⟧]*\Z", blank, text)


def unmarked(text: str) -> str:
    """What is left of a line once the pseudo-locale's marks, names, chat, card labels,
    numbers and symbols are taken out: words that bypassed the catalogue."""
    text = _CHAT.sub(" ", _unmark(text))
    for name in (*_FIXTURE_WORDS, *_NAMES):
        text = text.replace(name, " ")
    text = _LABEL.sub(" ", text)
    return " ".join(re.findall(r"[^\W\d_]{2,}", text))


def test_the_checker_sees_words_outside_the_marks() -> None:
    assert unmarked("⟦Your hand (3)⟧  R7 W+4 [B⟲]  Bob 12") == ""
    assert unmarked("⟦a ⟦nested⟧ one⟧ · seat 3") == "seat"
    assert _unmark("⟦one sentence\nwrapped⟧ here").split("\n")[1].strip() == "here"


@pytest.mark.usefixtures("language")
@pytest.mark.parametrize("size", ((80, 24), (60, 20)), ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_visible_line_of_every_screen_comes_from_the_catalogue(
    size: tuple[int, int],
) -> None:
    i18n.choose(i18n.PSEUDO)
    width, height = size
    found = []
    for name, build in SCREENS.items():
        texts = [_text(line) for line in screen_lines(build(), width, height, 0.0)]
        blanked = _unmark("\n".join(texts)).split("\n")
        for number, (text, left) in enumerate(zip(texts, blanked, strict=True), start=1):
            words = unmarked(left)
            if words:
                found.append(f"{name}, line {number}: {words!r} in {text.strip()!r}")
    assert not found, "words that bypass the catalogue:\n" + "\n".join(found)
