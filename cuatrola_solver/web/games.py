"""A page's match as it is played and kept (:class:`Game`): the :class:`~.play.PlayTable`
the page draws, each change written to the games database (:mod:`.store`) before its
answer leaves, and the table rebuilt from the database exactly (:meth:`Game.restore`):
the finished hands counted from their records, the hand in progress dealt again from
the match's seed and the person's decisions replayed in order -- the bots choose from
their view and the hand's seed alone, so they play the same cards again.

A takeback (:meth:`Game.take_back`) forgets the person's last decision of the hand in
progress, counts it in the hand (its record then says ``[Takebacks "N"]``) and rebuilds
the table the same way.  Every change bumps the game's ``version``; a move sent on
another version (a second tab, a stale page) is refused with the state as it is now
(:class:`Stale`)."""

from __future__ import annotations

import dataclasses
from typing import Any, Callable

from ..errors import CuatrolaError, quote
from ..i18n import _
from ..game.rules import RuleSet, get_rules
from ..notation.record import format_rules, read_record, write_text
from .play import PlayTable
from .records import RecordsFolder
from .store import SavedGame, SavedHand, Store, StoreError

__all__ = ["Game", "GameStateError", "Stale"]

Progress = Callable[[int, int], None]


class GameStateError(CuatrolaError):
    """A move the game's state does not allow now (no decision awaited, nothing to take
    back, the match over); ``state`` is the table's state now, when there is one."""

    def __init__(self, message: str, state: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.state = state


class Stale(GameStateError):
    """A move sent on a version of the state that is no longer the game's."""


class Game:
    """The match of page ``page`` at ``table``; ``choices``: the person's decisions in the
    hand being played, in order; ``version``: bumped at every change."""

    def __init__(self, store: Store, page: str, table: PlayTable, choices: list[str],
                 version: int) -> None:
        self.store, self.page, self.table = store, page, table
        self.choices = choices
        self.version = version
        #: the game here went further than the database holds (a write failed)
        self.lost = False

    # --- made, rebuilt ---------------------------------------------------------------

    @classmethod
    def start(cls, store: Store, page: str, rules: RuleSet, seat: int, seed: int,
              records: RecordsFolder, bots: str) -> Game:
        """A new match on ``page`` (its last one forgotten), played to the person's first
        decision and kept; its version goes on from the last one's, so that a move sent on
        the last match's state is stale."""
        table = PlayTable(rules, seat, seed, records, bots)
        table.deal()
        game = cls(store, page, table, [], store.version(page) + 1)
        store.start_game(page, format_rules(rules), bots, seat, seed, game.version)
        game._keep_record()
        return game

    @classmethod
    def restore(cls, store: Store, page: str, records: RecordsFolder,
                progress: Progress | None = None) -> Game | None:
        """The page's match as kept, at the decision it was left at (None: no match)."""
        saved = store.game(page)
        return None if saved is None else cls.rebuilt(store, saved, records, progress)

    @classmethod
    def rebuilt(cls, store: Store, saved: SavedGame, records: RecordsFolder,
                progress: Progress | None = None) -> Game:
        """The match ``saved`` played again to its last decision (nothing written)."""
        table = PlayTable(get_rules(saved.rules), saved.seat, saved.seed, records,
                          saved.bots)
        *done, last = saved.hands
        for hand in done:
            if hand.record is not None and hand.name is not None:
                table.restore_hand(read_record(hand.record, f"saved hand {hand.k + 1}"),
                                   hand.name)
            else:
                _replay(table, saved, hand)
        _replay(table, saved, last, progress)
        return cls(store, saved.page, table, list(last.choices), saved.version)

    # --- what the page draws ----------------------------------------------------------

    @property
    def can_take_back(self) -> bool:
        return self.table.table.turn is not None and bool(self.choices)

    def state(self) -> dict[str, Any]:
        """The table's state (:meth:`~.play.PlayTable.state`) with the game's version, the
        hand's takebacks and whether one more may be taken."""
        return {**self.table.state(), "version": self.version,
                "takebacks": self.table.takebacks, "can_take_back": self.can_take_back}

    # --- moves -----------------------------------------------------------------------

    def _check(self, version: int | None) -> None:
        if version is not None and version != self.version:
            raise Stale(_("this move was made on an old state of the game (version {old}, "
                          "now {now}): it changed elsewhere, in another tab").format(
                              old=version, now=self.version), self.state())

    def answer(self, choice: object, version: int | None) -> dict[str, Any]:
        """The person's choice (:meth:`~.play.PlayTable.answer`): the state, with why it was
        refused (``refused``) or None."""
        self._check(version)
        if self.table.table.turn is None:
            raise GameStateError(_("no decision is awaited: the hand is over, deal the next "
                                   "one") if not self.table.table.over else
                                 _("no decision is awaited: the match is over, start a new "
                                   "game"), self.state())
        reason = self.table.answer(choice)
        if reason is None:
            assert isinstance(choice, str)      # PlayTable.answer takes text only
            self.choices.append(choice)
            self.version += 1
            record, name = self._finished()
            self._written(self.store.decide, self.page, self.table.table.k,
                          len(self.choices) - 1, choice, self.version, record, name)
        return {**self.state(), "refused": reason}

    def next_hand(self, version: int | None) -> dict[str, Any]:
        """The next hand of the match dealt and played to the person's first decision."""
        self._check(version)
        t = self.table.table
        if t.turn is not None:
            raise GameStateError(_("the hand being played is not over"), self.state())
        if t.over:
            raise GameStateError(_("the match is over: start a new game"), self.state())
        self.table.deal()
        self.choices = []
        self.version += 1
        self._written(self.store.deal, self.page, t.k, self.version)
        self._keep_record()
        return self.state()

    def take_back(self, version: int | None, records: RecordsFolder,
                  progress: Progress | None = None) -> dict[str, Any]:
        """The person's last decision of the hand in progress taken back (and counted):
        the table rebuilt at the decision before it."""
        self._check(version)
        if self.table.table.turn is None:
            raise GameStateError(_("nothing to take back: the hand is over and its record "
                                   "saved"), self.state())
        if not self.choices:
            raise GameStateError(_("nothing to take back: this is your first decision of "
                                   "the hand"), self.state())
        saved = self.store.game(self.page)
        if saved is None or len(saved.hands[-1].choices) != len(self.choices):
            raise StoreError(_("the games database does not hold the game of page {page} "
                               "as it is played").format(page=self.page))
        # rebuilt first (a cancel there changes nothing), then written
        last = saved.hands[-1]
        back = dataclasses.replace(last, choices=last.choices[:-1],
                                   takebacks=last.takebacks + 1)
        again = Game.rebuilt(self.store, dataclasses.replace(
            saved, version=self.version + 1, hands=(*saved.hands[:-1], back)), records,
            progress)
        self._written(self.store.take_back, self.page, last.k, len(last.choices) - 1,
                      again.version)
        self.table, self.choices, self.version = again.table, again.choices, again.version
        return self.state()

    # --- the finished hand's record ---------------------------------------------------

    def _finished(self) -> tuple[str | None, str | None]:
        """The record (text) and name of the hand just over, or (None, None)."""
        t = self.table.table
        if t.turn is not None or len(self.table.saved) < len(t.records):
            return None, None
        return write_text(self.table.last_record()), self.table.saved[-1]

    def _keep_record(self) -> None:
        """A hand over before the person's first decision: its record kept too."""
        record, name = self._finished()
        if record is not None:
            self._written(self.store.finish, self.page, self.table.table.k, record, str(name),
                          self.version)

    def _written(self, write: Callable[..., None], *args: Any) -> None:
        """``write(*args)`` to the database; when it fails, the game here is ahead of the
        database and is marked :attr:`lost` (the page rebuilds it from the database)."""
        try:
            write(*args)
        except BaseException:
            self.lost = True
            raise


def _replay(table: PlayTable, saved: SavedGame, hand: SavedHand,
            progress: Progress | None = None) -> None:
    """Deal ``hand`` at ``table`` again and replay the person's decisions in it."""
    table.deal()
    table.takebacks = hand.takebacks
    for i, choice in enumerate(hand.choices):
        if progress is not None:
            progress(i, len(hand.choices))
        reason = table.answer(choice)
        if reason is not None:
            raise StoreError(_("the saved decision {n} ({choice}) of hand {hand} of page "
                               "{page} does not replay: {reason}").format(
                                   n=i + 1, choice=quote(choice), hand=hand.k + 1,
                                   page=saved.page, reason=reason))
