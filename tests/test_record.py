"""Hand records: the JSON form, the text form, card notation, and round trips."""

from __future__ import annotations

import dataclasses
import json
import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cuatrola_solver.game.auction import CALLS
from cuatrola_solver.game.cards import (NUM_CARDS, format_card, format_cards, parse_card, parse_cards)
from cuatrola_solver.errors import CuatrolaError, NotationError, RecordError
from cuatrola_solver.game.hand import HandState
from cuatrola_solver.game.match import Score
from cuatrola_solver.notation.record import (SYMBOLS, Cante, HandRecord, format_rules, read_json, read_record, read_text, write_json, write_record, write_text)
from cuatrola_solver.game.rules import PRESETS, get_rules

from helpers import random_game
from cuatrola_solver.notation.replay import replay
from cuatrola_solver.notation.replay import record_of

FAST = settings(max_examples=200, deadline=None)

DESIGN_EXAMPLE = {
    "rules": "online",
    "muestra": "3o",
    "hands": ["Ao 3c Rb Ce Sb", "Ro Co Ac Rc Cc", "So Sc Ae 3e Re", "Se Ab 3b Cb 3o"],
    "auction": ["paso", "solo", "paso", "paso"],
    "tricks": [["Ao", "Ro", "Se"], ["Ac", "3c", "Ab"]],
    "cantes": [{"after_trick": 1, "seat": 2, "suit": "o"}],
    "score": {"A": 3, "B": 5},
}

EXAMPLE_TEXT = """\
{Sunday match, hand 7.  Seat 2 bids solo.}
[Rules "online"]
[Score "3-5"]
[Muestra "3o"]
[Seat1 "Ao 3c Rb Ce Sb"]
[Seat2 "Ro Co Ac Rc Cc"]
[Seat3 "So Sc Ae 3e Re"]   ; seat 3 sits out
[Seat4 "Se Ab 3b Cb 3o"]
[Auction "paso solo paso paso"]

1. Ao Ro?! {the rey was worth keeping} Se
cante 2 oros
2. Ac! 3c Ab
"""


def example_record() -> HandRecord:
    return HandRecord(
        rules=get_rules("online"), muestra=parse_card("3o"),
        hands=[parse_cards(h) for h in DESIGN_EXAMPLE["hands"]],
        auction=["paso", "solo", "paso", "paso"],
        tricks=[parse_cards("Ao Ro Se"), parse_cards("Ac 3c Ab")],
        cantes=[Cante(1, 2, 0)], score=Score(3, 5))


# --- the JSON form ---------------------------------------------------------------

def test_json_reader_reads_the_design_example():
    rec = read_json(json.dumps(DESIGN_EXAMPLE))
    assert rec == example_record()
    assert json.loads(write_json(rec)) == DESIGN_EXAMPLE


def test_json_optional_fields_and_rules_object():
    obj = {"rules": {"preset": "narro", "tie_break": "mano"}, "muestra": "3o",
           "hands": DESIGN_EXAMPLE["hands"], "schema": 1}
    rec = read_json(json.dumps(obj))
    assert rec.auction is None and rec.tricks == [] and rec.cantes == [] and rec.score is None
    assert rec.rules == get_rules("narro,tie_break=mano")
    assert json.loads(write_json(rec))["rules"] == {"preset": "narro", "tie_break": "mano"}
    assert "auction" not in json.loads(write_json(rec))


def _bad(**changes):
    obj = dict(DESIGN_EXAMPLE)
    for key, value in changes.items():
        if value is _DROP:
            obj.pop(key)
        else:
            obj[key] = value
    return obj


_DROP = object()


@pytest.mark.parametrize("obj, needle", [
    ([1, 2], "expected a JSON object"),
    (_bad(colour="red"), "'colour'"),
    (_bad(schema=2), "'schema'"),
    (_bad(rules="bridge"), "'rules'"),
    (_bad(rules={"preset": "narro", "monte": "lots"}), "'rules'"),
    (_bad(muestra=_DROP), "'muestra'"),
    (_bad(muestra=3), "'muestra'"),
    (_bad(muestra="Xo"), "field 'muestra'"),
    (_bad(hands=["Ao"]), "'hands'"),
    (_bad(hands=["Ao 3c Rb Ce Zb", "", "", ""]), "seat 1"),
    (_bad(hands=["Ao Ao", "", "", ""]), "twice"),
    (_bad(auction="paso"), "'auction'"),
    (_bad(auction=["paso", "double"]), "auction[1]"),
    (_bad(auction=["paso", 3]), "auction[1]"),
    (_bad(tricks={"1": ["Ao"]}), "'tricks'"),
    (_bad(tricks=[["Ao"], "Ro"]), "trick 2"),
    (_bad(tricks=[["Ao", "Qq"]]), "trick 1, card 2"),
    (_bad(cantes={"after_trick": 1}), "'cantes'"),
    (_bad(cantes=[{"after_trick": 1, "seat": 5, "suit": "o"}]), "cantes[0]"),
    (_bad(cantes=[{"after_trick": True, "seat": 1, "suit": "o"}]), "cantes[0]"),
    (_bad(cantes=[{"after_trick": -1, "seat": 1, "suit": "o"}]), "cantes[0]"),
    (_bad(cantes=[{"after_trick": 1, "seat": 1, "suit": "x"}]), "cantes[0]"),
    (_bad(cantes=[{"after_trick": 1, "seat": 1}]), "cantes[0]"),
    (_bad(score={"A": 1}), "'score'"),
    (_bad(score={"A": -1, "B": 0}), "'score'"),
    (_bad(score={"A": True, "B": 0}), "'score'"),
])
def test_bad_json_names_the_field(obj, needle):
    with pytest.raises(RecordError) as err:
        read_json(json.dumps(obj), "game.json")
    assert needle in str(err.value)
    assert "game.json" in str(err.value)


def test_json_syntax_error_says_where():
    with pytest.raises(RecordError, match=r"line 2, column"):
        read_json('{"muestra": "3o",\n "hands": [}')


# --- the text form: examples ---------------------------------------------------------

def test_text_example_reads_as_expected():
    rec = read_text(EXAMPLE_TEXT)
    plain = example_record()
    assert (rec.rules, rec.muestra, rec.hands, rec.auction, rec.tricks, rec.cantes, rec.score) == (
        plain.rules, plain.muestra, plain.hands, plain.auction, plain.tricks, plain.cantes,
        plain.score)
    assert rec.comment == "Sunday match, hand 7.  Seat 2 bids solo."
    assert rec.annotations == {(1, 2): {"symbol": "?!", "comment": "the rey was worth keeping"},
                               (2, 1): {"symbol": "!"}}
    assert read_text(write_text(rec)) == rec


def test_text_and_json_forms_agree_on_the_example():
    assert read_record(EXAMPLE_TEXT).to_json_obj() == DESIGN_EXAMPLE
    assert read_record(json.dumps(DESIGN_EXAMPLE)) == example_record()
    assert read_record("\ufeff\n " + json.dumps(DESIGN_EXAMPLE)) == example_record()


def test_written_text_looks_like_the_documentation():
    rec = example_record()
    rec.annotations = {(1, 2): {"symbol": "?!", "comment": "the rey was worth keeping"}}
    rec.comment = "Sunday match"
    assert write_text(rec) == """\
[Rules "online"]
[Score "3-5"]
[Muestra "3o"]
[Seat1 "Ao 3c Rb Ce Sb"]
[Seat2 "Ro Co Ac Rc Cc"]
[Seat3 "So Sc Ae 3e Re"]
[Seat4 "Se Ab 3b Cb 3o"]
[Auction "paso solo paso paso"]

{Sunday match}
1. Ao Ro?! {the rey was worth keeping} Se
cante 2 oros
2. Ac 3c Ab
"""


def test_text_is_lenient_where_notation_is():
    text = """
    [muestra "3O"] [SEAT1 "ao,3c kb ne jb"] [Seat2 "Ro Co Ac Rc Cc"]
    [Seat3 "So Sc Ae 3e Re"] [Seat4 "Se Ab 3b Cb 3o"] [rules "narro, tie_break=mano"]
    1.AO ro , SE   ; commas and no space after the number
    Cante 2 O
    2. ac ? {a bad lead} ; symbol and comment apart from the card
    """
    rec = read_text(text)
    assert rec.hands[0] == parse_cards("Ao 3c Rb Ce Sb")
    assert rec.rules == get_rules("narro,tie_break=mano")
    assert rec.auction is None
    assert rec.tricks == [parse_cards("Ao Ro Se"), parse_cards("Ac")]
    assert rec.cantes == [Cante(1, 2, 0)]
    assert rec.annotations == {(2, 1): {"symbol": "?", "comment": "a bad lead"}}


def test_comments_kept_only_where_the_record_has_room():
    text = EXAMPLE_TEXT.replace("cante 2 oros", "cante 2 oros {sung late} ; why not")
    text = text.replace("2. Ac!", "2. {lead} Ac!")
    rec = read_text(text)
    assert rec.annotations[(2, 1)] == {"symbol": "!"}
    assert rec.comment == "Sunday match, hand 7.  Seat 2 bids solo."


def test_several_comments_in_one_place_join_a_line_each():
    text = EXAMPLE_TEXT.replace("{Sunday", "{} {first} {Sunday").replace(
        "Ro?!", "Ro?! {} {one}  {two}")
    rec = read_text(text)
    assert rec.comment == "first\nSunday match, hand 7.  Seat 2 bids solo."
    assert rec.annotations[(1, 2)]["comment"] == "one\ntwo\nthe rey was worth keeping"
    assert read_text(write_text(rec)) == rec
    assert read_text(EXAMPLE_TEXT.replace("Ro?!", "Ro?! {}").replace(
        " {the rey was worth keeping}", "")).annotations[(1, 2)] == {"symbol": "?!", "comment": ""}

def test_braces_and_backslashes_in_comments_round_trip():
    rec = example_record()
    rec.comment = "a {brace} and a \\ backslash\nover two lines; not a ; comment"
    rec.annotations = {(2, 3): {"comment": "}{"}}
    text = write_text(rec)
    assert read_text(text) == rec


def test_cantes_out_of_place_say_their_trick():
    rec = example_record()
    rec.cantes = [Cante(2, 1, 3), Cante(1, 2, 0), Cante(7, 4, 2), Cante(0, 3, 1)]
    text = write_text(rec)
    assert "cante 2 oros after 1" in text and "cante 3 copas after 0" in text
    assert read_text(text) == rec


def test_empty_auction_is_not_no_auction():
    rec = example_record()
    rec.auction = []
    assert '[Auction ""]' in write_text(rec)
    assert read_text(write_text(rec)).auction == []
    rec.auction = None
    assert "Auction" not in write_text(rec)


@pytest.mark.parametrize("rules", [
    "online", "narro,tie_break=mano", "app,early_end=true,monte=0",
    "italiano,cantes_in=paso solo,cante_after_tricks=1 3",
    "narro,cantes_in=,cante_after_tricks=",
])
def test_format_rules_round_trips(rules):
    rs = get_rules(rules)
    assert get_rules(format_rules(rs)) == rs
    assert read_text(write_text(HandRecord(rs, 19, [[], [], [], [19]]))).rules == rs


def test_write_record_and_read_record_pick_the_form():
    rec = example_record()
    assert write_record(rec) == write_text(rec)
    assert write_record(rec, "json") == write_json(rec)
    assert json.loads(write_record(rec, "json", indent=2)) == DESIGN_EXAMPLE
    with pytest.raises(RecordError, match="'yaml'"):
        write_record(rec, "yaml")
    # a text record may start with a comment: that is not JSON
    assert read_record(EXAMPLE_TEXT) == read_text(EXAMPLE_TEXT)
    with pytest.raises(RecordError, match="not valid JSON"):
        read_record('{"muestra": ')


def test_writer_refuses_annotations_it_cannot_place():
    rec = example_record()
    rec.annotations = {(3, 1): {"symbol": "?"}}
    with pytest.raises(RecordError, match="no such card"):
        write_text(rec)
    rec.annotations = {(1, "2"): {"symbol": "?"}}
    with pytest.raises(RecordError, match="no such card"):
        write_text(rec)
    rec.annotations = {(1, 1): {"symbol": "?!?"}}
    with pytest.raises(RecordError, match="bad symbol"):
        write_text(rec)


# --- the text form: errors -----------------------------------------------------------

def _mutate(old: str, new: str) -> str:
    assert old in EXAMPLE_TEXT
    return EXAMPLE_TEXT.replace(old, new, 1)


@pytest.mark.parametrize("text, needles", [
    (_mutate("2. Ac! 3c Ab", "2. Ac! 3c Xq"),
     ["line 13, column 11", "bad card 'Xq' (card 3 of trick 2)", "expected"]),
    (_mutate('[Muestra "3o"]', '[Muestra "3o"] [Dealer "4"]'), ["line 4", "unknown tag [Dealer]"]),
    (_mutate('[Muestra "3o"]', '[Muestra "3o"] [muestra "Ao"]'),
     ["line 4, column 16", "duplicate tag [muestra]", "first at line 4, column 1"]),
    (_mutate('[Muestra "3o"]', ""), ["missing tag [Muestra"]),
    (_mutate("{Sunday", "{Sunday {"), ["line 1", "unbalanced braces", "comments do not nest"]),
    (_mutate("{the rey was worth keeping}", "{the rey was worth keeping"),
     ["line 11", "never closed"]),
    (_mutate("Se\n", "Se }\n"), ["line 11", "unbalanced braces", "'}'"]),
    (_mutate("2. Ac!", "3. Ac!"), ["line 13", "'3.' out of order", "expected 2"]),
    (_mutate("1. Ao", "2. Ao"), ["line 11", "'2.' out of order", "expected 1"]),
    (_mutate("cante 2 oros", "cante 5 oros"), ["line 12", "bad seat '5'"]),
    (_mutate("cante 2 oros", "cante 2 rojos"), ["line 12", "bad suit 'rojos'"]),
    (_mutate("cante 2 oros", "cante 2 oros after x"), ["line 12", "bad trick number 'x'"]),
    (_mutate("cante 2 oros", "cante 2"), ["line 12", "unfinished cante"]),
    (_mutate("1. Ao", "cante 1 copas\n1. Ao"), ["line 11", "cante before the first trick"]),
    (_mutate("cante 2 oros", "cante 2 oros Ac"), ["line 12", "unexpected 'Ac'", "'2.'", "a cante ends"]),
    (_mutate("1. Ao", "Ao 1. Ao"), ["line 11, column 1", "unexpected 'Ao'", "'1.'"]),
    (_mutate("Ro?!", "Ro?!?"), ["line 11", "bad annotation '?!?'"]),
    (_mutate("Ro?!", "Ro?! ??"), ["line 11", "second annotation '??'", "card 2 of trick 1"]),
    (_mutate("1. Ao", "1. ! Ao"), ["line 11", "annotation '!' follows no card"]),
    (_mutate("cante 2 oros", "cante 2 oros\n[Rules \"app\"]"), ["line 13", "play section"]),
    (_mutate('[Rules "online"]', '[Rules "bridge"]'), ["line 2", "unknown preset 'bridge'"]),
    (_mutate('[Rules "online"]', '[Rules "narro,monte=lots"]'), ["line 2", "'lots'"]),
    (_mutate('[Score "3-5"]', '[Score "3:5"]'), ["line 3", "bad score '3:5'"]),
    (_mutate('[Muestra "3o"]', '[Muestra "3x"]'), ["line 4", "bad card '3x'", "Muestra"]),
    (_mutate('[Seat1 "Ao 3c Rb Ce Sb"]', '[Seat1 "Ao 3c Rb Ce Sq"]'),
     ["line 5", "bad card 'Sq'", "card 5 of tag [Seat1]"]),
    (_mutate('[Auction "paso solo paso paso"]', '[Auction "paso solo pass paso"]'),
     ["line 9", "bad bid 'pass'", "call 3"]),
    (_mutate('[Rules "online"]', '[Rules online]'), ["line 2", "bad tag", "[Name \"value\"]"]),
    (_mutate("1. Ao", '1. "Ao"'), ["line 11", "unexpected '\"'"]),
    (_mutate("1. Ao", "1. Ao ]"), ["line 11", "unexpected ']'"]),
    ("", ["missing tag [Muestra"]),
])
def test_bad_text_names_the_token_and_where(text, needles):
    with pytest.raises(RecordError) as err:
        read_text(text, "hand7.txt")
    message = str(err.value)
    assert message.startswith("hand7.txt")
    for needle in needles:
        assert needle in message, (needle, message)


FRAGMENTS = ['[Rules "narro"]', '[Rules "x,y=z"]', '[Muestra "3o"]', '[Seat1 "Ao 3c"]',
             '[Seat2 ""]', '[Seat3 "So"]', '[Seat4 "3o"]', '[Auction "paso"]', '[Score "1-2"]',
             "1.", "2.", "1.Ao", "Ao", "3c?", "!", "??", "{", "}", "{x}", "\\", ";", "\n",
             "cante", "2", "oros", "after", "9", "{}", "{ }", "[", "]", '"', ",", "x", "{\\}", "\ufeff"]


@FAST
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=30), st.sampled_from([" ", "", "\n"]))
def test_reader_raises_only_record_errors_on_fragments(parts, sep):
    try:
        rec = read_record(sep.join(parts))
    except RecordError:
        return
    assert read_text(write_text(rec)) == rec


@FAST
@given(st.integers(0, len(EXAMPLE_TEXT)), st.integers(0, 5), st.text(max_size=4))
def test_reader_raises_only_record_errors_on_damaged_records(at, cut, insert):
    text = EXAMPLE_TEXT[:at] + insert + EXAMPLE_TEXT[at + cut:]
    for reader in (read_text, read_record):
        try:
            rec = reader(text)
        except RecordError:
            continue
        assert read_text(write_text(rec)) == rec


@FAST
@given(st.text(max_size=60))
def test_readers_raise_only_record_errors_on_any_text(text):
    for reader in (read_text, read_json, read_record):
        try:
            reader(text)
        except RecordError:
            pass

# --- card notation ------------------------------------------------------------------

cards = st.integers(0, NUM_CARDS - 1)
ENGLISH = {"R": "K", "C": "N", "S": "J"}


@FAST
@given(cards, st.sampled_from([str, str.lower, str.upper, str.swapcase]))
def test_card_notation_round_trips_in_any_case(c, case):
    assert parse_card(case(format_card(c))) == c


@FAST
@given(cards, st.booleans())
def test_english_rank_aliases(c, lower):
    text = format_card(c)
    english = ENGLISH.get(text[0], text[0]) + text[1]
    assert parse_card(english.lower() if lower else english) == c


@FAST
@given(st.lists(cards, unique=True), st.sampled_from([" ", ",", ", ", "  ,\t"]))
def test_card_lists_round_trip(cs, sep):
    assert parse_cards(format_cards(cs)) == cs
    assert parse_cards(sep.join(format_card(c) for c in cs)) == cs


@FAST
@given(st.text(max_size=3))
def test_parse_card_raises_only_notation_errors(text):
    try:
        c = parse_card(text)
    except NotationError as e:
        assert repr(text) in str(e)
    else:
        assert format_card(c).lower() == text.strip().lower().translate(
            str.maketrans("kNnJj", "rccss"))


# --- random records -----------------------------------------------------------------

comments = st.text(max_size=30).map(str.strip)


@st.composite
def rule_sets(draw):
    preset = draw(st.sampled_from(sorted(PRESETS)))
    overrides = draw(st.fixed_dictionaries({}, optional={
        "tie_break": st.sampled_from(["last_trick", "mano"]),
        "early_end": st.booleans(),
        "monte": st.integers(0, 20),
        "cantes_in": st.lists(st.sampled_from(CALLS), unique=True).map(tuple),
        "cante_after_tricks": st.lists(st.integers(1, 4), unique=True).map(tuple),
    }))
    return get_rules({"preset": preset, **overrides})


@st.composite
def records(draw, notes: bool = True):
    order = draw(st.permutations(range(NUM_CARDS)))
    hands = [list(order[5 * i:5 * i + 5]) for i in range(4)]
    muestra = draw(st.sampled_from(hands[3]))
    auction = draw(st.none() | st.lists(st.sampled_from(CALLS), max_size=5))
    play = draw(st.permutations(range(NUM_CARDS)))
    n = draw(st.integers(0, 20))
    sizes = draw(st.lists(st.integers(0, 4), min_size=6, max_size=6))
    tricks, used = [], 0
    for size in sizes:
        if used >= n:
            break
        tricks.append(list(play[used:min(n, used + size)]))
        used += size
    cantes = draw(st.lists(st.builds(Cante, st.integers(0, 6), st.integers(1, 4),
                                     st.integers(0, 3)), max_size=4))
    score = draw(st.none() | st.builds(Score, st.integers(0, 30), st.integers(0, 30)))
    rec = HandRecord(draw(rule_sets()), muestra, hands, auction, tricks, cantes, score)
    if notes:
        places = [(t, j) for t, trick in enumerate(tricks, 1) for j in range(1, len(trick) + 1)]
        if places:
            note = st.fixed_dictionaries({}, optional={"symbol": st.sampled_from(SYMBOLS),
                                                       "comment": comments}).filter(bool)
            rec.annotations = draw(st.dictionaries(st.sampled_from(places), note, max_size=4))
        rec.comment = draw(comments)
    return rec


@FAST
@given(records())
def test_text_form_round_trips(rec):
    text = write_text(rec)
    assert read_text(text, "random") == rec
    assert read_record(text) == rec
    assert write_text(read_text(text)) == text


@FAST
@given(records(notes=False))
def test_json_form_round_trips(rec):
    assert read_json(write_json(rec)) == rec
    assert read_record(write_json(rec, indent=2)) == rec


@FAST
@given(records(notes=False))
def test_text_to_json_to_text(rec):
    text = write_text(rec)
    again = write_text(read_json(write_json(read_text(text))))
    assert again == text


@FAST
@given(records())
def test_json_drops_only_annotations_and_comment(rec):
    back = read_json(write_json(read_text(write_text(rec))))
    assert back.annotations == {} and back.comment == ""
    rec.annotations, rec.comment = {}, ""
    assert back == rec


# --- replayed games -----------------------------------------------------------------

def _assert_round_trips_and_replays(hand: HandState) -> None:
    rec = record_of(hand)
    for back in (read_text(write_text(rec)), read_json(write_json(rec)),
                 read_record(write_record(rec, "json")), read_record(write_record(rec))):
        assert back == rec
        again = replay(back)
        assert again.result() == hand.result()
        assert again.renuncios == hand.renuncios


@settings(max_examples=100, deadline=None)
@given(st.randoms(use_true_random=False), st.sampled_from(sorted(PRESETS)))
def test_random_passed_game_round_trips_and_replays(rng, preset):
    order = list(range(NUM_CARDS))
    rng.shuffle(order)
    hand = HandState([order[5 * i:5 * i + 5] for i in range(4)], order[19], get_rules(preset))
    hand.pass_all()
    while not hand.is_over():
        hand.play(rng.choice(hand.legal_cards()))
    assert hand.result() is not None
    _assert_round_trips_and_replays(hand)


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(sorted(PRESETS)),
       st.sampled_from(["paso", "solo", "cuatrola", "quintola"]))
def test_random_game_with_cantes_and_renuncios_round_trips(seed, preset, contract):
    hand = random_game(random.Random(seed), get_rules(preset), contract, renuncio_rate=0.05)
    _assert_round_trips_and_replays(hand)


def test_all_errors_are_cuatrola_errors():
    assert issubclass(RecordError, CuatrolaError) and issubclass(RecordError, ValueError)


# --- the documentation --------------------------------------------------------------

def _doc_block(lang: str, index: int = 0) -> str:
    path = Path(__file__).resolve().parent.parent / "docs" / "record-format.md"
    blocks = re.findall(rf"```{lang}\n(.*?)```", path.read_text(encoding="utf-8"), re.S)
    return blocks[index]


def test_documented_example_reads_replays_and_matches_its_json():
    rec = read_record(_doc_block("text"), "docs example")
    assert rec.comment.startswith("Sunday match, hand 7.")
    assert rec.annotations == {
        (2, 1): {"symbol": "?!", "comment": "giving the lead away; Ab first keeps it"},
        (4, 2): {"symbol": "!"}}
    assert rec.cantes == [Cante(1, 3, 1)]
    assert json.loads(write_json(rec)) == json.loads(_doc_block("json"))
    hand = replay(rec)
    assert hand.result() is not None and not hand.renuncios
    assert read_text(write_text(rec)) == rec


def test_takebacks_are_kept_in_both_forms_and_left_out_when_none():
    rec = read_json(json.dumps(DESIGN_EXAMPLE))
    assert rec.takebacks == 0
    assert "Takebacks" not in write_text(rec) and "takebacks" not in write_json(rec)
    practised = dataclasses.replace(rec, takebacks=3)
    text, obj = write_text(practised), json.loads(write_json(practised))
    assert '[Takebacks "3"]' in text and obj["takebacks"] == 3
    assert read_text(text).takebacks == read_json(json.dumps(obj)).takebacks == 3
    assert read_text(text) == practised != rec


@pytest.mark.parametrize("value", ["-1", "x", "1.5", "", "\u00b2", "9999999"])
def test_a_bad_takebacks_tag_is_one_line(value):
    text = write_text(read_json(json.dumps(DESIGN_EXAMPLE)))
    with pytest.raises(RecordError, match=r"line \d+, column 1: bad takebacks"):
        read_text(text.replace("\n\n", f'\n[Takebacks "{value}"]\n\n', 1), "r.txt")


@pytest.mark.parametrize("value", [-1, "2", 1.5, True, None, []])
def test_a_bad_takebacks_field_is_one_line(value):
    obj = {**DESIGN_EXAMPLE, "takebacks": value}
    with pytest.raises(RecordError, match="field 'takebacks': expected a whole number"):
        read_json(json.dumps(obj))
