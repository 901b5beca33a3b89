"""The one drawing of the cards: an SVG sheet of 21 symbols, ``card-Ac`` ... ``card-Sb``
(the 20 Spanish-suited cards) and ``card-back``, each in a 60 x 90 box.

Every page draws its cards from it: the analysis report and the puzzles inline the
sheet (:func:`card_sheet`) and place a card with :func:`card_svg`; the page of
``cuatrola serve`` gets the same sheet from its ``/cards.svg`` route and places a card
with ``<use href="/cards.svg#card-Ac">`` (``static/cards.js``).  Oros a coin, copas a
cup, espadas a sword, bastos a club; the inner frame is broken once for copas, twice
for espadas, three times for bastos (the *pintas* of the Spanish deck), so a card
reads without its colour."""

from __future__ import annotations

import html

from ..game.play import SUIT_NAMES

__all__ = ["card_sheet", "card_svg", "card_name", "SUIT_INK", "RANK_NAMES"]

#: the ink of each suit's rank letters: dark enough to read on the card (contrast >= 4.5)
SUIT_INK = {"o": "#7a5200", "c": "#a8261a", "e": "#1f4e9c", "b": "#2a6a2e"}
#: the ranks' Spanish names, as the cards are called at the table
RANK_NAMES = {"A": "as", "3": "tres", "R": "rey", "C": "caballo", "S": "sota"}
RANKS = "A3RCS"
SUITS = "oceb"

#: each suit's drawing, centred on 0,0 and about 34 units high
_PIPS = {
    "o": '<circle r="13" fill="#e9b824" stroke="#8a6100" stroke-width="2"/>'
         '<circle r="7" fill="none" stroke="#8a6100" stroke-width="1.5"/>'
         '<circle r="2.5" fill="#8a6100"/>',
    "c": '<path d="M-12,-13 H12 C12,-1 6,3 2,4 V9 H7 V13 H-7 V9 H-2 V4 C-6,3 -12,-1 -12,-13 Z"'
         ' fill="#d64535" stroke="#7d1c12" stroke-width="1.5"/>'
         '<path d="M-9,-9 H9" stroke="#f6c1b8" stroke-width="2"/>',
    "e": '<path d="M0,-17 L3,-12 V6 H-3 V-12 Z" fill="#c9d6ea" stroke="#1f4e9c"'
         ' stroke-width="1.3"/><rect x="-8" y="6" width="16" height="3" rx="1" fill="#1f4e9c"/>'
         '<rect x="-1.8" y="9" width="3.6" height="6" fill="#6b4a2b"/>'
         '<circle cy="16.5" r="2.2" fill="#1f4e9c"/>',
    "b": '<path d="M-3,15 C-5,5 -7,-6 -6,-14 C-4,-18 4,-18 6,-14 C7,-6 4,5 3,15 Z"'
         ' fill="#8d5a2b" stroke="#4e2f12" stroke-width="1.3"/>'
         '<circle cx="-5" cy="-6" r="2" fill="#2e7d32"/><circle cx="5" cy="-1" r="2"'
         ' fill="#2e7d32"/><circle cx="-4" cy="5" r="2" fill="#2e7d32"/>',
}
#: the breaks of the inner frame (the pintas)
_FRAME = {"o": "none", "c": "14 3", "e": "6 2 6 3", "b": "4 2"}


def card_name(code: str) -> str:
    """``Ac`` -> ``as de copas``: a card's name as read aloud (and by a screen reader)."""
    return f"{RANK_NAMES[code[0]]} de {SUIT_NAMES[SUITS.index(code[1])]}"


def _face(rank: str, suit: str) -> str:
    ink = SUIT_INK[suit]
    corner = (f'<text x="13" y="22" font-size="17" font-weight="bold" font-family="Georgia,serif"'
              f' fill="{ink}" text-anchor="middle">{rank}</text>'
              f'<g transform="translate(13 31) scale(.32)">{_PIPS[suit]}</g>')
    return (f'<symbol id="card-{rank}{suit}" viewBox="0 0 60 90">'
            '<rect x="1" y="1" width="58" height="88" rx="6" fill="#fffdf7" stroke="#555"'
            ' stroke-width="1.5"/>'
            f'<rect x="5" y="5" width="50" height="80" rx="3" fill="none" stroke="{ink}"'
            f' stroke-width="1.2" stroke-dasharray="{_FRAME[suit]}"/>'
            f'{corner}<g transform="rotate(180 30 45)">{corner}</g>'
            f'<g transform="translate(31 46) scale(1.05)">{_PIPS[suit]}</g></symbol>')


_BACK = ('<symbol id="card-back" viewBox="0 0 60 90">'
         '<rect x="1" y="1" width="58" height="88" rx="6" fill="#8c1d24" stroke="#3a0a0e"'
         ' stroke-width="1.5"/><rect x="6" y="6" width="48" height="78" rx="3" fill="none"'
         ' stroke="#f0c869" stroke-width="1.5"/>'
         '<path d="M12,12 L48,78 M48,12 L12,78 M30,10 V80 M10,45 H50" stroke="#b94a52"'
         ' stroke-width="1.2"/><circle cx="30" cy="45" r="9" fill="#8c1d24" stroke="#f0c869"'
         ' stroke-width="1.5"/></symbol>')


def card_sheet(standalone: bool = False) -> str:
    """The sheet of the 21 card symbols: hidden, to inline at the top of a page, or
    (``standalone``) as an SVG file of its own for ``<use href="/cards.svg#card-Ac">``."""
    faces = "".join(_face(r, s) for s in SUITS for r in RANKS) + _BACK
    if standalone:
        return f'<svg xmlns="http://www.w3.org/2000/svg">{faces}</svg>'
    return ('<svg width="0" height="0" style="position:absolute" aria-hidden="true"'
            f' focusable="false">{faces}</svg>')


def card_svg(code: str | None, cls: str = "face") -> str:
    """One card (``None``: its back) placed from the inlined sheet, named for a screen
    reader: ``<svg class="face" viewBox="0 0 60 90" role="img" aria-label="as de copas">``."""
    if code is None:
        name, label = "card-back", ' aria-hidden="true"'
    else:
        name, label = f"card-{code}", f' role="img" aria-label="{html.escape(card_name(code))}"'
    return f'<svg class="{cls}" viewBox="0 0 60 90"{label}><use href="#{name}"/></svg>'
