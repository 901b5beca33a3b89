"""Taking down a hand entry by entry (notation.hand_entry): the same record as written by
hand, undo, refused entries that change nothing, renuncios accepted and marked."""

from __future__ import annotations

import random

import pytest

from cuatrola_solver.errors import CuatrolaError, IllegalCanteError, IllegalPlayError
from cuatrola_solver.game.cards import format_card, parse_cards
from cuatrola_solver.notation.hand_entry import (CardEntry, HandEntry, MuestraEntry,
                                                 parse_hands, parse_players)
from cuatrola_solver.notation.record import read_text, write_text
from cuatrola_solver.notation.replay import replay

FULL = """\
[Rules "narro,tie_break=mano"]
[Muestra "Re"]
[Seat1 "So Se Ae Cb 3b"]
[Seat2 "Ro 3o Ac Ce Rb"]
[Seat3 "Ao Sc Cc Rc Ab"]
[Seat4 "Co 3c Re 3e Sb"]
[Auction "paso paso solo paso"]
[Player1 "Ana"]
[Player3 "Eva"]

1. Ro Ao Co
cante 3 copas
2. Cc 3c Ac
3. Rb Ab Sb
4. Sc 3e Ce
5. Re 3o Rc
"""
FULL_ENTRIES = ("Re paso paso solo paso Ro Ao Co", "cante 3 copas",
                "Cc 3c Ac Rb Ab Sb Sc 3e Ce Re 3o Rc")

#: seat 3 does not follow copas in trick 2 (Se) and later plays 3o: its card in trick 5
#: proves the renuncio (the example of docs/record-format.md)
UNSEEN = """\
[Rules "online"]
[Muestra "Ab"]
[Seat1 "?"]
[Seat2 "Co Ro Sb Rb 3b"]
[Seat3 "?"]
[Seat4 "?"]
[Auction "paso paso paso paso"]

1. Sc Sb Rc 3c
cante 2 oros
2. Ro Se So Ao
3. Ac Rb 3e Ab
4. Ce Ae 3b Re
5. Co 3o Cb Cc
"""
UNSEEN_ENTRIES = ("Ab paso paso paso paso Sc Sb Rc 3c", "cante 2 oros",
                  "Ro Se So Ao Ac Rb 3e Ab Ce Ae 3b Re Co 3o Cb Cc")


def entry_of(text: str) -> HandEntry:
    """An empty entry with the rules, hands and players of the record ``text``."""
    rec = read_text(text)
    return HandEntry(rec.rules, rec.hands, rec.players)


def take_down(entry: HandEntry, lines) -> list:
    marks = []
    for line in lines:
        if line.startswith("cante"):
            marks += entry.enter_text(line)
        else:
            for word in line.split():
                marks += entry.enter_text(word)
    return marks


@pytest.mark.parametrize("text, lines", [(FULL, FULL_ENTRIES), (UNSEEN, UNSEEN_ENTRIES)])
def test_the_entries_give_the_record_written_by_hand(text, lines):
    entry = entry_of(text)
    take_down(entry, lines)
    assert entry.record() == read_text(text)
    assert write_text(entry.record()) == text
    assert entry.stage == "over"
    checked = replay(read_text(text))
    assert entry.result() == checked.result()
    assert entry.hand.renuncios == checked.renuncios


def test_undo_back_to_the_start_and_again_gives_the_same_record():
    entry = entry_of(FULL)
    take_down(entry, FULL_ENTRIES)
    first = write_text(entry.record())
    entries = list(entry.entries)
    while entry.entries:
        entry.undo()
    assert entry.stage == "muestra" and entry.muestra is None
    with pytest.raises(CuatrolaError, match="nothing to undo"):
        entry.undo()
    for e in entries:
        entry.enter(e)
    assert write_text(entry.record()) == first


def test_undo_in_the_middle_takes_back_one_entry():
    entry = entry_of(FULL)
    take_down(entry, ["Re paso paso solo paso Ro Ao"])
    assert entry.undo() == CardEntry(parse_cards("Ao")[0])
    assert entry.record().tricks == [parse_cards("Ro")]
    assert entry.allowed().seat == 3


def refused(entry: HandEntry, text: str, error=CuatrolaError) -> str:
    """``text`` is refused with a one-line message and nothing changes."""
    before = (list(entry.entries), entry.stage, write_text(entry.record())
              if entry.muestra is not None else None, entry.allowed())
    with pytest.raises(error) as e:
        entry.enter_text(text)
    after = (list(entry.entries), entry.stage, write_text(entry.record())
             if entry.muestra is not None else None, entry.allowed())
    assert before == after
    message = str(e.value)
    assert "\n" not in message
    return message


def test_illegal_entries_get_their_message_and_change_nothing():
    entry = HandEntry("online")                     # no hand known
    assert "bad card" in refused(entry, "Xq")
    take_down(entry, ["Ab paso paso paso paso"])
    # the muestra before the dealer plays it
    assert "the muestra, which the dealer keeps" in refused(entry, "Ab", IllegalPlayError)
    take_down(entry, ["Sc"])
    # a card already played
    assert "seat 1 already played it in trick 1" in refused(entry, "Sc", IllegalPlayError)
    # a cante in the middle of a trick, and before any trick
    assert "between tricks" in refused(entry, "cante 2 oros", IllegalCanteError)
    take_down(entry, ["Sb Rc 3c"])
    # a cante by a seat that cannot hold the pair (Rc was played)
    assert "played Rc in trick 1" in refused(entry, "cante 3 copas", IllegalCanteError)
    # a cante the rules forbid: the side that won no trick
    assert "has not won a trick yet" in refused(entry, "cante 1 oros", IllegalCanteError)
    assert "bad bid" not in refused(entry, "cante 5 oros")
    assert "2 entries" in refused(entry, "Ro Se")


def test_the_muestra_must_be_the_dealers_when_its_hand_is_known():
    entry = HandEntry("online", parse_hands(["4=Co 3c Re 3e Sb"]))
    assert "is not in seat 4's hand" in refused(entry, "Ab")
    assert entry.allowed().cards == tuple(sorted(parse_cards("Co 3c Re 3e Sb")))


def test_what_may_be_entered_now():
    entry = entry_of(FULL)
    a = entry.allowed()
    assert a.stage == "muestra" and a.seat is None
    take_down(entry, ["Re paso"])
    a = entry.allowed()
    assert a.stage == "call" and a.seat == 2 and "solo" in a.calls
    take_down(entry, ["paso solo paso Ro"])
    a = entry.allowed()
    assert (a.stage, a.seat) == ("card", 3)
    # seat 3 is known: all its cards may be entered (a renuncio is accepted), the
    # legal ones are told apart
    assert a.cards == tuple(sorted(parse_cards("Ao Sc Cc Rc Ab")))
    assert a.legal == tuple(parse_cards("Ao"))
    take_down(entry, ["Ao Co"])
    assert (3, 1) in entry.allowed().cantes        # copas, by seat 3, which won trick 1
    # a hand not known: every card not played and not ruled out by a known fact
    entry = entry_of(UNSEEN)
    take_down(entry, ["Ab paso paso paso paso Sc"])
    a = entry.allowed()
    assert a.seat == 2 and a.cards == tuple(sorted(parse_cards("Co Ro Sb Rb 3b")))
    take_down(entry, ["Sb"])
    a = entry.allowed()
    assert a.seat == 3 and a.legal == ()
    played_or_known = set(parse_cards("Sc Sb Ab Co Ro Rb 3b"))
    assert set(a.cards) == set(range(20)) - played_or_known


def test_a_renuncio_in_a_known_hand_is_marked_at_once():
    entry = entry_of(FULL)
    take_down(entry, ["Re paso paso solo paso Ro"])
    marks = entry.enter_text("Sc")           # seat 3 holds Ao: asistir
    assert len(marks) == 1
    m = marks[0]
    assert (m.renuncio.trick, m.renuncio.seat, m.renuncio.obligation) == (1, 3, "asistir")
    assert m.found_at == len(entry.entries) - 1
    # narro pays the renuncio double: the injured side B scores twice the solo's 2
    assert "side B scores 4" in m.consequence and "twice" in m.consequence
    assert "against asistir" in m.describe()
    assert entry.stage == "card"             # the table plays on
    result = entry.result()
    assert result is not None and result.ended_by == "renuncio"
    assert result.game_points == 4
    entry.undo()
    assert entry.marks == [] and entry.result() is None


def test_a_renuncio_in_a_hand_not_entered_is_marked_when_a_later_card_proves_it():
    entry = entry_of(UNSEEN)
    marks = take_down(entry, ["Ab paso paso paso paso Sc Sb Rc 3c", "cante 2 oros",
                              "Ro Se So Ao Ac Rb 3e Ab Ce Ae 3b Re Co"])
    assert marks == []
    marks = entry.enter_text("3o")           # seat 3's 3o proves its Se of trick 2
    assert len(marks) == 1
    r = marks[0].renuncio
    assert (r.trick, r.seat, r.obligation, r.proved_in) == (2, 3, "asistir", 5)
    assert "side B scores 1" in marks[0].consequence
    assert entry.record().tricks[-1] == parse_cards("Co 3o")
    assert [m.renuncio for m in entry.marks] == replay(read_text(UNSEEN)).renuncios


def test_random_hands_entered_card_by_card_give_their_records():
    """Random full deals played out at random (renuncios included, when a random card
    is one) and entered with some hands unknown: the record is the hand's own."""
    rng = random.Random(41)
    for _ in range(30):
        deck = list(range(20))
        rng.shuffle(deck)
        hands = [deck[i * 5:i * 5 + 5] for i in range(4)]
        muestra = rng.choice(hands[3])
        known = [h if rng.random() < 0.5 else None for h in hands]
        entry = HandEntry("online", known)
        entry.enter(MuestraEntry(muestra))
        for _call in range(4):
            entry.enter_text(rng.choice(entry.allowed().calls))
        held = {s: set(h) for s, h in enumerate(hands, 1)}
        while entry.stage == "card":
            seat = entry.allowed().seat
            assert seat is not None
            card = rng.choice(sorted(held[seat]))
            entry.enter(CardEntry(card))
            held[seat].discard(card)
        rec = entry.record()
        checked = replay(read_text(write_text(rec)))
        assert checked.result() == entry.result()
        assert checked.renuncios == entry.hand.renuncios
        assert [format_card(c) for t in rec.tricks for c in t] == \
            [format_card(p.card) for p in checked.plays]


def test_hands_and_players_as_the_command_line_gives_them():
    assert parse_hands(["2=Co Ro Sb Rb 3b"]) == [None, parse_cards("Co Ro Sb Rb 3b"), None, None]
    with pytest.raises(CuatrolaError, match="SEAT=CARDS"):
        parse_hands(["5=Co"])
    with pytest.raises(CuatrolaError, match="twice"):
        parse_hands(["2=Co Ro Sb Rb 3b", "2=Co Ro Sb Rb 3b"])
    assert parse_players("Ana, Luis,,Marta") == ("Ana", "Luis", None, "Marta")
    with pytest.raises(CuatrolaError, match="four names"):
        parse_players("Ana,Luis")
    with pytest.raises(CuatrolaError, match="dealt twice"):
        HandEntry("online", parse_hands(["1=Co Ro Sb Rb 3b", "2=Co Ac Ab Rc 3c"]))
    assert entry_of(FULL).players == ("Ana", None, "Eva", None)
