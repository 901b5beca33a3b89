"""Puzzles from your own hands: the positions where the card played lost, and one was best.

As lichess's "learn from your mistakes", :func:`find_puzzles` goes through played hands
(records from ``cuatrola play --save``, your own, self-play's) and keeps the positions
where the card a seat played lost a clear share of its side's chance of winning **and**
one card was clearly the best.  Both are judged **exactly**: :func:`~cuatrola_solver.advice.cardplay.hint`
with ``Budget(exact=True)`` over every layout of the hidden cards the seat could not
tell apart, double dummy by default (each layout solved with every card seen; the
played-odds model's P(win) as an option, when the preset's model has card cells).  The
thresholds: the card played gives away at least ``min_loss`` of the win chance against
the best card (:data:`MIN_LOSS`, lichess's "mistake"), and the best card beats the
second best by at least ``margin`` (:data:`MARGIN`).

An exact hint at the first tricks values a quarter of a million layouts, so the
positions are first screened by a sampled hint (exact itself when the layouts are few:
:func:`~cuatrola_solver.advice.cardplay.exact_when_few`), and only those that come
within :data:`SLACK` of both thresholds are judged exactly; positions with more than
``max_layouts`` layouts are skipped (counted in :class:`Search`).  A puzzle shown has
always been judged exactly.

A :class:`Puzzle` keeps the seat's view only -- its own cards, the muestra, the calls,
the cards played so far, the cantes -- never the hidden hands; its JSON form
(:meth:`Puzzle.to_dict`) holds a record of the position with the other hands unknown,
which ``cuatrola hint`` reads, the seat, the answer, the card played and the numbers
of every card.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Iterator

from ..advice.bidding import valued
from ..advice.budget import Budget, Progress
from ..advice.cardplay import CardHint, Hint, hint
from ..errors import CuatrolaError, RecordError
from ..game.cards import cards_of, format_card, mask_of, parse_card
from ..game.hand import Cante
from ..game.jsonvalue import JSONObject, ParsedJSON
from ..game.match import Score
from ..game.play import SUIT_NAMES, side_of
from ..game.rules import RuleSet, rules_spec
from ..game.view import View
from ..hidden.deals import count_deals
from ..hidden.inference import knowledge_of
from ..i18n import N_, _, later
from ..models.preset import Models
from ..notation.record import HandRecord, record_from_obj
from ..notation.replay import record_of, replay, view_of

__all__ = ["Puzzle", "Shown", "ShownTrick", "Search", "PuzzleReport", "positions", "judge",
           "find_puzzles", "puzzles_of_file", "MIN_LOSS", "MARGIN", "SLACK", "SCREEN_SAMPLES",
           "MAX_LAYOUTS"]

#: the least win chance the card played gives away (lichess's "mistake")
MIN_LOSS = 0.20
#: the least lead of the best card over the second best
MARGIN = 0.10
#: how far below the thresholds a sampled screen may come and still be judged exactly
SLACK = 0.10
#: deals of the screening hint
SCREEN_SAMPLES = 300
#: positions with more layouts than this are not judged (an exact hint's cost grows with them)
MAX_LAYOUTS = 100_000


@dataclass(frozen=True)
class ShownTrick:
    """A trick played, as the seat saw it: ``(seat, card)`` in the order played, and the
    seat that took it."""

    cards: tuple[tuple[int, int], ...]
    winner: int

    def to_dict(self) -> JSONObject:
        return {"cards": [[s, format_card(c)] for s, c in self.cards], "winner": self.winner}


@dataclass(frozen=True)
class Shown:
    """What the seat of a puzzle sees, to draw it: the rules, the muestra and its suit
    (``trump``), the contract and its ``declarer`` seats (none: paso), the seat and its
    side, the match score, the tricks played, the trick so far (``current``, ``(seat,
    card)``), the cantes, the cards it holds (``held``: trumps first, the strongest
    first)."""

    rules: RuleSet
    muestra: int
    trump: int
    contract: str
    declarer: tuple[int, ...]
    seat: int
    score: Score | None
    tricks: tuple[ShownTrick, ...]
    current: tuple[tuple[int, int], ...]
    cantes: tuple[Cante, ...]
    held: tuple[int, ...]

    @property
    def side(self) -> str:
        return str(side_of(self.seat))

    @property
    def trump_name(self) -> str:
        return SUIT_NAMES[self.trump]

    def to_dict(self) -> JSONObject:
        return {"rules": rules_spec(self.rules), "muestra": format_card(self.muestra),
                "trump": self.trump_name, "contract": self.contract,
                "declarer": None if not self.declarer else list(self.declarer),
                "seat": self.seat, "side": self.side,
                "score": None if self.score is None else self.score.to_dict(),
                "tricks": [t.to_dict() for t in self.tricks],
                "current": [[s, format_card(c)] for s, c in self.current],
                "cantes": [k.to_dict() for k in self.cantes],
                "held": [format_card(c) for c in self.held]}


@dataclass(frozen=True)
class Puzzle:
    """A position of a played hand, from the seat on turn's view, with the exact values
    of its cards (``cards``, best first, from the exact hint) and the card it played."""

    source: str
    view: View
    played: int
    cards: tuple[CardHint, ...]
    layouts: int
    model: str = "dd"
    #: what the layouts were weighted by: "" (nothing), "the calls", "the play", or "the
    #: calls and the play"
    weighted_by: str = ""
    #: the hint's note: a cante the values assume the seat sings before leading
    note: str | None = None

    @property
    def answer(self) -> int:
        return self.cards[0].card

    def p(self, card: int) -> float:
        """The rated P(win) of ``card``: as played with the played-odds model, else double
        dummy."""
        for c in self.cards:
            if c.card == card:
                return valued(c.p_played) if self.model == "played" else c.p_win
        raise KeyError(card)

    @property
    def loss(self) -> float:
        return self.p(self.answer) - self.p(self.played)

    @property
    def margin(self) -> float:
        return self.p(self.answer) - self.p(self.cards[1].card)

    @property
    def seat(self) -> int:
        return self.view.seat

    @property
    def trick(self) -> int:
        return self.view.trick_number

    @property
    def position(self) -> int:
        """The card's place in its trick (1: the lead)."""
        t = self.view.tricks
        return 1 if not t or len(t) < self.trick else len(t[-1]) + 1

    def question(self) -> str:
        v = self.view
        if self.position == 1:
            return later("Seat {seat}, trick {trick}, you lead: what do you play?",
                         seat=v.seat, trick=self.trick)
        return later("Seat {seat}, trick {trick}, you play card {position} of the trick: what "
                     "do you play?", seat=v.seat, trick=self.trick, position=self.position)

    def why(self) -> str:
        """The answer and why: the best card's win chance against the played one's and
        the next best's."""
        second = self.cards[1]
        how = (later("as the hand will be played") if self.model == "played"
               else later("double dummy"))
        n = f"{self.layouts:,}"
        of = (later("of the {n} layouts you could not tell apart", n=n) if not self.weighted_by
              else later("of the {n} layouts you could not tell apart, weighted by how likely "
                         "the play was with each", n=n) if self.weighted_by == "the play"
              else later("of the {n} layouts you could not tell apart, weighted by how likely "
                         "{what} were with each", n=n, what=later(self.weighted_by)))
        values = dict(answer=format_card(self.answer), p=_pct(self.p(self.answer)), of=of,
                      how=how, played=format_card(self.played),
                      p_played=_pct(self.p(self.played)))
        if second.card == self.played:
            return later("{answer} wins {p} {of} ({how}); {played}, the card played, "
                         "{p_played}", **values)
        return later("{answer} wins {p} {of} ({how}); {played}, the card played, {p_played}; "
                     "the next best, {second}, {p_second}", second=format_card(second.card),
                     p_second=_pct(self.p(second.card)), **values)

    def shown(self) -> Shown:
        """What the seat sees, to draw the puzzle (:class:`Shown`)."""
        v = self.view
        seen = v.seen
        winners = seen.points_breakdown().trick_winners
        trump = v.trump
        held = sorted(cards_of(v.held), key=lambda c: (c // 5 != trump, c // 5, -c))
        return Shown(v.rules, v.muestra, trump, v.contract, tuple(v.declarer), v.seat,
                     v.score, tuple(ShownTrick(tuple((s, c) for s, c in t), w)
                                    for t, w in zip(seen.tricks, winners)),
                     tuple((s, c) for s, c in seen.current), tuple(v.cantes), tuple(held))

    def to_dict(self) -> JSONObject:
        return {"source": self.source, "seat": self.seat, "trick": self.trick,
                "position": self.position, "shown": self.shown().to_dict(),
                "record": record_of(self.view).to_json_obj(),
                "question": self.question(), "answer": format_card(self.answer),
                "played": format_card(self.played), "why": self.why(),
                "p_answer": round(self.p(self.answer), 6),
                "p_played": round(self.p(self.played), 6),
                "loss": round(self.loss, 6), "margin": round(self.margin, 6),
                "layouts": self.layouts, "exact": True, "model": self.model,
                "weighted": bool(self.weighted_by), "weighted_by": self.weighted_by,
                "note": self.note,
                "cards": [c.to_dict() for c in self.cards]}

    @classmethod
    def from_dict(cls, d: ParsedJSON, where: str = "puzzle") -> "Puzzle":
        """A puzzle read back (``--out`` files): its record is replayed and checked, so a
        puzzle that cannot have happened is refused."""
        try:
            rec = record_from_obj(d["record"], f"{where}, record")
            seat = int(d["seat"])
            view = view_of(rec, seat)
            cards = tuple(CardHint(parse_card(c["card"]), float(c["tricks"]),
                                   None if c.get("margin") is None else float(c["margin"]),
                                   float(c["p_win"]),
                                   None if c.get("p_played") is None else float(c["p_played"]))
                          for c in d["cards"])
            played = parse_card(d["played"])
            p = cls(str(d.get("source", where)), view, played, cards, int(d["layouts"]),
                    str(d.get("model", "dd")), _weighted_by_of(d),
                    d.get("note") if isinstance(d.get("note"), str) else None)
        except CuatrolaError as e:
            raise RecordError(f"{where}: {e}") from None
        except (KeyError, TypeError, ValueError, IndexError) as e:
            raise RecordError(_("{where}: not a puzzle ({name}: {e})")
                               .format(where=where, name=type(e).__name__, e=e)) from None
        legal = set(view.legal_cards())
        if view.to_play != seat or {c.card for c in cards} != legal or played not in legal \
                or len(cards) < 2:
            raise RecordError(_("{where}: the puzzle's cards are not the legal cards of seat "
                                "{seat} in its position")
                               .format(where=where, seat=seat))
        return p


def _pct(p: float) -> str:
    return f"{100 * p:.0f}%"


@dataclass
class Search:
    """What a search went through: ``positions`` with a choice, ``screened`` by the
    sampled hint, ``judged`` exactly, ``skipped`` for having more than ``max_layouts``
    layouts, ``records`` read."""

    records: int = 0
    positions: int = 0
    screened: int = 0
    judged: int = 0
    skipped: int = 0
    puzzles: list[Puzzle] = field(default_factory=list)

    def to_dict(self) -> JSONObject:
        return {"records": self.records, "positions": self.positions,
                "screened": self.screened, "judged": self.judged, "skipped": self.skipped,
                "puzzles": len(self.puzzles)}


@dataclass(frozen=True)
class PuzzleReport:
    """The puzzles shown (read back or found), what the ``search`` went through (None:
    none, every puzzle read back) and the thresholds: what ``cuatrola puzzles --json``
    writes, and its pages show."""

    puzzles: tuple[Puzzle, ...]
    search: Search | None
    min_loss: float
    margin: float

    def to_dict(self) -> JSONObject:
        return {"puzzles": [p.to_dict() for p in self.puzzles],
                **({} if self.search is None else {"search": self.search.to_dict()}),
                "min_loss": self.min_loss, "margin": self.margin}


def puzzles_of_file(obj: object, where: str) -> list[Puzzle] | None:
    """The puzzles of a puzzles file (the JSON ``cuatrola puzzles --out`` writes), read
    as ``obj`` from ``where``; None when ``obj`` is not one (a record, say); RecordError
    when a puzzle is not one."""
    if not isinstance(obj, dict) or "puzzles" not in obj:
        return None
    items = obj["puzzles"]
    if not isinstance(items, list):
        raise RecordError(_("{where}: 'puzzles' is not a list of puzzles").format(where=where))
    puzzles = []
    for i, d in enumerate(items, 1):
        if not isinstance(d, dict):
            raise RecordError(_("{where}, puzzle {i}: not a puzzle").format(where=where, i=i))
        puzzles.append(Puzzle.from_dict(d, f"{where}, puzzle {i}"))
    return puzzles


def positions(rec: HandRecord) -> Iterator[tuple[View, int]]:
    """``(view, card)`` before every card of the record that a seat whose hand the
    record gives chose among several legal cards, up to the first renuncio (a renuncio
    itself is no puzzle: it breaks a rule, it is no choice of strategy)."""
    hand = replay(rec)
    first = hand.renuncios[0] if hand.renuncios else None
    calls = tuple(rec.auction) if rec.auction is not None else ("paso",) * 4
    for p in hand.plays:
        if first is not None and (p.trick, p.seat, p.card) == (first.trick, first.seat,
                                                                first.card):
            break
        held = rec.hands[p.seat - 1]
        if held is None:
            continue
        tricks = [tuple(t) for t in rec.tricks[:p.trick - 1]]
        if p.before:
            tricks.append(tuple(p.before))
        cantes = tuple(k for k in rec.cantes if k.after_trick < p.trick)
        view = View(rec.rules, p.seat, mask_of(held), rec.muestra, calls,
                    tuple(tricks), cantes, rec.score)
        legal = view.legal_cards()
        if len(legal) > 1 and p.card in legal:
            yield view, p.card


def _rated(h: Hint, model: str) -> dict[int, float]:
    return {c.card: (c.p_played if model == "played" and c.p_played is not None else c.p_win)
            for c in h.cards}


def _meets(values: dict[int, float], played: int, min_loss: float, margin: float,
           slack: float = 0.0) -> bool:
    ranked = sorted(values.values(), reverse=True)
    return (ranked[0] - values[played] >= min_loss - slack - 1e-9
            and ranked[0] - ranked[1] >= margin - slack - 1e-9)


def judge(view: View, played: int, models: Models, *, min_loss: float = MIN_LOSS,
          margin: float = MARGIN, source: str = "", workers: int | None = None) -> Puzzle | None:
    """The exact judgment of one position: a :class:`Puzzle` when the card played loses
    at least ``min_loss`` and the best card leads the second by ``margin``, else None."""
    h = hint(view, Budget(exact=True, workers=workers), models)
    model = h.model
    values = _rated(h, model)
    if not h.cards or len(h.cards) < 2 or not _meets(values, played, min_loss, margin):
        return None
    cards = tuple(sorted(h.cards, key=lambda c: -values[c.card]))
    return Puzzle(source, view, played, cards, h.deals, model, _weighted_by(h, view, models),
                  h.note)


def find_puzzles(records: Iterable[tuple[HandRecord, str]], models: Models | None = None, *,
                 inference: bool = True, played: bool = False, min_loss: float = MIN_LOSS, margin: float = MARGIN,
                 screen_samples: int = SCREEN_SAMPLES, max_layouts: int = MAX_LAYOUTS,
                 seed: int = 0, workers: int | None = None,
                 progress: Progress | None = None) -> Search:
    """The puzzles of ``records`` (``(record, where)`` pairs), in their order, with what
    the search went through.  ``models`` (default: each record's preset's, as
    ``Models.of(rules, inference=inference, played=played)``: by default the bid model
    and double dummy; with a played-odds model that has card cells the puzzles are judged
    on the played P(win)).  The screening hints are seeded from
    ``seed`` and the view, so a search is the same every time."""
    search = Search()
    records = list(records)
    done = 0
    for rec, where in records:
        search.records += 1
        ms = Models.of(rec.rules, inference=inference, played=played) if models is None \
            else models
        for view, card in positions(rec):
            search.positions += 1
            n = count_deals(knowledge_of(view))
            if n > max_layouts:
                search.skipped += 1
                continue
            h = hint(view, Budget(samples=screen_samples, seed=view.seed(seed), workers=1), ms)
            search.screened += 1
            values = _rated(h, h.model)
            if not _meets(values, card, min_loss, margin, 0.0 if h.exact else SLACK):
                continue
            search.judged += 1
            at = later("{where}, trick {trick}, seat {seat}", where=where,
                       trick=view.trick_number, seat=view.seat)
            puzzle = (judge(view, card, ms, min_loss=min_loss, margin=margin, source=at,
                            workers=workers) if not h.exact
                      else _from_exact(h, view, card, at, ms))
            if puzzle is not None:
                search.puzzles.append(puzzle)
        done += 1
        if progress:
            progress(done, len(records))
    return search


def _from_exact(h: Hint, view: View, played: int, source: str, models: Models) -> Puzzle:
    values = _rated(h, h.model)
    cards = tuple(sorted(h.cards, key=lambda c: -values[c.card]))
    return Puzzle(source, view, played, cards, h.deals, h.model, _weighted_by(h, view, models),
                  h.note)


def _weighted_by(h: Hint, view: View, models: Models) -> str:
    """What the hint's layouts were weighted by, as the puzzle says it."""
    if h.effective_deals is None:
        return ""
    return " and ".join(what for what, on in (
        ("the calls", models.bids is not None),
        ("the play", models.cards is not None and bool(view.plays))) if on)


#: what a puzzle's layouts are weighted by, translated where said (:meth:`Puzzle.why`)
WEIGHTED_BY = (N_("the calls"), N_("the play"), N_("the calls and the play"))


def _weighted_by_of(d: ParsedJSON) -> str:
    """``weighted_by`` of a puzzle read back (files written before it say ``weighted``)."""
    w = d.get("weighted_by")
    if isinstance(w, str) and w in ("", "the calls", "the play", "the calls and the play"):
        return w
    return "the calls" if d.get("weighted") else ""

