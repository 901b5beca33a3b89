"""The rules of one way of playing cuatrola, as data.

:class:`RuleSet` has one field per rule parameter of docs/rules.md; :data:`PRESETS`
holds the four presets, one per rule document (docs/rules.md names them), as values.  Nothing else in the project tests a
preset's name: algorithms read the parameters.  ``PARAMETERS`` documents every
parameter with the sentence of the rule document it comes from (shown by ``cuatrola
rules``).
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from typing import Any, Mapping

from ..errors import RulesError, quote

#: contracts in order of strength (docs/rules.md section 3)
CONTRACTS = ("paso", "solo", "contrasolo", "cuatrola", "quintola")
CONTRACT_VALUE = {"paso": 1, "solo": 2, "contrasolo": 4, "cuatrola": 4, "quintola": 5}
#: tricks a lone declarer needs, for contracts decided on tricks
TRICKS_GOAL = {"cuatrola": 4, "quintola": 5}
SOLO_TRICKS_GOAL = 3
#: the largest whole-number rule parameter (monte, target, ...): points and margins stay
#: far inside the 16-bit bounds of the compiled solver's transposition table
MAX_RULE_NUMBER = 1000


@dataclass(frozen=True)
class RuleSet:
    """Every rule that differs between the ways cuatrola is played.

    The docstring of each field is in :data:`PARAMETERS`.
    """

    name: str = "online"
    # section 2: legal play
    beat_led_after_trump: bool = True
    free_when_cannot_overtrump: bool = True
    # section 3: bidding
    partner_may_take_over: bool = False
    contrasolo: bool = False
    bid_cap: str = "none"               # none | exact_target | near_target
    near_target_from: int = 17
    # section 4: winning a hand
    solo_goal: str = "points"           # points | tricks
    tie_break: str = "last_trick"       # last_trick | mano
    pass_bonus: str = "none"            # none | over_100 | carbunco
    early_end: bool = False
    monte: int = 10
    # section 5: cantes
    cantes_in: tuple[str, ...] = ("paso", "solo")
    cante_by: str = "any_trick_won"     # any_trick_won | last_trick_winner
    cante_after_tricks: tuple[int, ...] = (1, 2, 3, 4)
    max_cantes_per_side: int = 0        # 0: no limit
    forty_first: bool = False
    # section 6: renuncio
    renuncio_penalty: str = "lose"      # lose | double
    # section 7: the match
    target: int = 11
    win_by: int = 1

    def __post_init__(self) -> None:
        for p in PARAMETERS.values():
            p.check(getattr(self, p.name))

    # --- derived questions, so that callers never need a preset name -------
    def cantes_count(self, contract: str) -> bool:
        return contract in self.cantes_in

    def value(self, contract: str) -> int:
        return CONTRACT_VALUE[contract]

    def renuncio_value(self, contract: str) -> int:
        """The match points the injured side scores when a renuncio decides a hand of
        ``contract`` (docs/rules.md 6): its value, doubled under ``renuncio_penalty``
        = ``double``."""
        return CONTRACT_VALUE[contract] * (2 if self.renuncio_penalty == "double" else 1)

    def allowed_contracts(self) -> tuple[str, ...]:
        return tuple(c for c in CONTRACTS if c != "contrasolo" or self.contrasolo)

    def override(self, **changes: Any) -> "RuleSet":
        """A copy with some parameters changed; unknown names raise RulesError."""
        for key in changes:
            if key not in PARAMETERS:
                raise RulesError(f"unknown rule parameter {quote(key)}: expected one of "
                                 + ", ".join(PARAMETERS))
        fixed = {k: PARAMETERS[k].coerce(v) for k, v in changes.items()}
        return dataclasses.replace(self, **fixed)

    def to_dict(self) -> dict[str, Any]:
        d = dataclasses.asdict(self)
        d["cantes_in"] = list(self.cantes_in)
        d["cante_after_tricks"] = list(self.cante_after_tricks)
        return d

    def differences(self) -> dict[str, Any]:
        """The parameters that differ from the preset this rule set is named after."""
        base = PRESETS.get(self.name)
        if base is None:
            return {}
        mine, theirs = self.to_dict(), base.to_dict()
        return {k: v for k, v in mine.items() if k != "name" and theirs[k] != v}


#: every parameter's default value, whose type is the parameter's type
_DEFAULTS: dict[str, Any] = {f.name: f.default for f in dataclasses.fields(RuleSet)}


@dataclass(frozen=True)
class Parameter:
    """One documented rule parameter: its meaning and the rule documents' sentences
    behind it."""

    name: str
    section: str
    meaning: str
    choices: tuple[Any, ...] | None = None
    sources: Mapping[str, str] = field(default_factory=dict)

    bounds: tuple[int, int] | None = None

    def check(self, value: Any) -> None:
        """Refuse a value of the wrong type or out of range: the one place where rule
        parameters are checked, whether they come from text, JSON or Python."""
        kind = type(_DEFAULTS[self.name])
        if kind is tuple:
            element, allowed, what = ((str, CONTRACTS, "contracts among " + ", ".join(CONTRACTS))
                                      if self.name == "cantes_in" else
                                      (int, (1, 2, 3, 4), "trick numbers 1 to 4"))
            if not isinstance(value, tuple):
                raise RulesError(f"bad value {quote(value)} for {self.name}: expected a list "
                                 f"of {what}")
            for item in value:
                if type(item) is not element or item not in allowed:
                    raise RulesError(f"bad value {quote(item)} for {self.name}: expected "
                                     f"{what}")
        elif kind is bool:
            if not isinstance(value, bool):
                raise RulesError(f"bad value {quote(value)} for {self.name}: expected true "
                                 f"or false")
        elif kind is int:
            lo, hi = self.range()
            if not (isinstance(value, int) and not isinstance(value, bool)
                    and lo <= value <= hi):
                raise RulesError(f"bad value {quote(value)} for {self.name}: expected a "
                                 f"whole number from {lo} to {hi}")
        elif not isinstance(value, str):
            raise RulesError(f"bad value {quote(value)} for {self.name}: expected a word"
                             + (", one of " + ", ".join(map(repr, self.choices))
                                if self.choices else ""))
        elif self.choices is not None and value not in self.choices:
            raise RulesError(f"bad value {quote(value)} for {self.name}: expected one of "
                             + ", ".join(map(repr, self.choices)))

    def range(self) -> tuple[int, int]:
        """The lowest and highest value of a whole-number parameter."""
        return self.bounds or (0, MAX_RULE_NUMBER)

    def coerce(self, value: Any) -> Any:
        """Turn a value given as text (command line, record) into the field's type, and
        a JSON list into a tuple; :meth:`check` then says whether it is allowed."""
        default = _DEFAULTS[self.name]
        if isinstance(value, str):
            text = value.strip()
            if isinstance(default, bool):
                low = text.lower()
                if low in ("true", "yes", "1", "on"):
                    return True
                if low in ("false", "no", "0", "off"):
                    return False
                raise RulesError(f"bad value {quote(value)} for {self.name}: expected true "
                                 f"or false")
            if isinstance(default, int):
                if not re.fullmatch(r"[+-]?[0-9]{1,9}", text):
                    lo, hi = self.range()
                    raise RulesError(f"bad value {quote(value)} for {self.name}: expected a "
                                     f"whole number from {lo} to {hi}")
                return int(text)
            if isinstance(default, tuple):
                items = [t for t in text.replace(",", " ").split() if t]
                if isinstance(default[0], int):
                    if not all(re.fullmatch("[0-9]{1,9}", t) for t in items):
                        raise RulesError(f"bad value {quote(value)} for {self.name}: expected "
                                         f"trick numbers such as '1,2,3'")
                    return tuple(int(t) for t in items)
                return tuple(items)
            return text
        if isinstance(default, tuple) and isinstance(value, list):
            return tuple(value)
        return value


def _p(name: str, section: str, meaning: str, choices: tuple[Any, ...] | None = None,
       bounds: tuple[int, int] | None = None, **sources: str) -> Parameter:
    return Parameter(name, section, meaning, choices, sources, bounds)


PARAMETERS: dict[str, Parameter] = {p.name: p for p in (
    _p("name", "", "the preset this rule set starts from"),
    _p("beat_led_after_trump", "2.3",
       "when a trump is already in a trick led in another suit, a follower must still beat "
       "the highest card of the led suit (montar)", (True, False),
       online="Montar: si asistes, debes superar la mejor carta de ese palo si puedes "
              "(es obligatorio, aunque ya haya triunfo en la baza).",
       app="En caso de fallo previo, no estás obligado a montar la carta que inició el truco.",
       narro="interp.: rule 24 is silent; tute tradition",
       italiano="interp.: 'beat the current best'"),
    _p("free_when_cannot_overtrump", "2.6",
       "void in the led suit, a trump already in the trick and no higher trump: any card "
       "may be played (ahorrarse el fallo); if false a lower trump must still be played",
       (True, False),
       online="interp.",
       app="Si no tienes cartas para montar un fallo anterior, puedes tirar cualquiera de "
           "las que tenga el jugador.",
       narro="El jugador también puede ahorrarse un pinte y echar la carta que quiera cuando "
             "no tiene para asistir y un contrario ha fallado con un pinte mayor que el suyo.",
       italiano="interp."),
    _p("partner_may_take_over", "3",
       "the partner of the highest bidder, if he has not passed, may bid the same contract "
       "and take it over", (True, False),
       online="cada uno puede pasar o subir la apuesta",
       app="interp.: bids only go up",
       narro="Cuando un jugador va a algo, el compañero, siempre que no haya pasado antes, "
             "puede irse, si lo desea, a una jugada de valor igual o superior.",
       italiano="Bids can only go up"),
    _p("contrasolo", "3",
       "after a solo, an opponent of the solo bidder who has not spoken may answer "
       "contrasolo (4 points): one against one, both partners sit out", (True, False),
       narro="es necesario que un jugador diga que va a solo y otro de la pareja contraria, "
             "que no haya pasado todavía, anuncie contrasolo."),
    _p("bid_cap", "3",
       "match caps on bids: none; exact_target (a bid is illegal if the bidding pair's "
       "score plus its value passes the target); near_target (the same, only from "
       "near_target_from points on)", ("none", "exact_target", "near_target"),
       online="(no cap stated)",
       app="Se debe ganar exactamente con 11 puntos, por lo tanto, si una pareja tiene por "
           "ejemplo 8 puntos, no se puede jugar un quinto o cuatro, sino solo uno.",
       narro="En la Cuatrola de El Narro “cabe todo”",
       italiano="on 17 points or more you cannot bid something that would take you past 21."),
    _p("near_target_from", "3",
       "with bid_cap = near_target, the match score from which the cap applies", None,
       (0, MAX_RULE_NUMBER),
       italiano="on 17 points or more"),
    _p("solo_goal", "4",
       "how a solo is won: points (more points than the two opponents together) or "
       "tricks (at least 3 tricks)", ("points", "tricks"),
       online="Gana si consigue más puntos que la pareja rival.",
       app="En Solos y Hands sin jugar nada, la mano la gana la pareja con más puntos.",
       narro="Gana quien haya obtenido más puntos.",
       italiano="It is won on tricks, not points, ... solo needs 3 tricks"),
    _p("tie_break", "4",
       "who wins a tie on points: last_trick (the side that took trick 5) or mano (side A, "
       "the side of seat 1)", ("last_trick", "mano"),
       online="si hay empate, se la lleva quien ganó la última baza.",
       app="En caso de empate, gana la pareja que tenga la mano",
       narro="interp.",
       italiano="Ties are broken by the last trick."),
    _p("pass_bonus", "4",
       "extra for a normal hand (paso): none; over_100 (2 points for the winning pair with "
       "more than 100 points); carbunco (2 points for a pair that takes all 5 tricks)",
       ("none", "over_100", "carbunco"),
       italiano="The pair with most points wins the hand: 1 point, or 2 above 100 points.",
       narro="Se pagan dos puntos a la pareja que en una jugada normal se lleva las cinco "
             "bazas, dando carbunco."),
    _p("early_end", "4",
       "a bid contract stops as soon as its outcome is decided by the tricks", (True, False),
       italiano="The hand ends as soon as that becomes impossible, and the points go to the "
                "opposing pair."),
    _p("monte", "4", "points for the side that takes the last trick (10 de monte)", None,
       (0, MAX_RULE_NUMBER),
       online="La pareja que gana la última baza (la quinta) suma 10 puntos extra",
       app="El jugador que haga el último truco obtiene 10 puntos extra.",
       narro="El jugador que se lleva la última baza obtiene 10 puntos adicionales",
       italiano="The pair taking the last trick scores 10 extra points."),
    _p("cantes_in", "5", "the contracts in which cantes are sung and count",
       online="No se canta bajo cuatrola ni quintola.",
       app="En Cuatrolas y Quintolas la puntuación y los cantes no tienen valor",
       narro="(cantes in the normal hand, solo and contrasolo: all decided on points)",
       italiano="It is won on tricks, not points, and there are no declarations"),
    _p("cante_by", "5",
       "who may sing after trick t: any_trick_won (a side that has won any trick so far) or "
       "last_trick_winner (the side that won trick t)",
       ("any_trick_won", "last_trick_winner"),
       online="Solo puedes cantar en tu turno y después de que tu pareja haya ganado una baza.",
       app="Tener el caballo y el rey del mismo palo en el momento en que o tu compañero "
           "gana la baza.",
       narro="Es necesario, además, que la baza la haya ganado el que canta o su compañero.",
       italiano="After winning the first trick you may declare"),
    _p("cante_after_tricks", "5", "after which tricks a cante may be declared",
       narro="Solo se puede cantar después de la primera, segunda y tercera baza"),
    _p("max_cantes_per_side", "5", "most cantes one side may sing in a hand (0: no limit)",
       None, (0, 4),
       italiano="Two declarations per pair at most"),
    _p("forty_first", "5", "a side that can sing the 40 sings it before any 20",
       (True, False), italiano="Two declarations per pair at most, and 40 before 20."),
    _p("renuncio_penalty", "6",
       "a renuncio ends the hand: lose (the injured side scores the value at stake) or "
       "double (twice the value)", ("lose", "double"),
       narro="“El renuncio se paga doble”: descubierto el mismo por uno de los jugadores de "
             "la pareja contraria, se termina esa jugada, concediéndose el doble de los "
             "puntos en juego a la pareja perjudicada.",
       online="interp."),
    _p("target", "7", "match points that win the match", None, (1, MAX_RULE_NUMBER),
       online="En Cuatrola Online puedes jugar A 11 (estándar) o A 5 (exprés)",
       app="El juego lo gana la pareja que consiga primero los 11 puntos de partida.",
       narro="Las partidas se juegan a 21 puntos.",
       italiano="past 21"),
    _p("win_by", "7", "the lead needed to win the match", None, (1, MAX_RULE_NUMBER),
       narro="Es necesario ganar con dos puntos de ventaja, como en el paddel."),
)}


PRESETS: dict[str, RuleSet] = {
    "online": RuleSet(name="online"),
    "app": RuleSet(name="app", beat_led_after_trump=False, bid_cap="exact_target",
                   tie_break="mano", cante_by="last_trick_winner"),
    "narro": RuleSet(name="narro", beat_led_after_trump=False, partner_may_take_over=True,
                     contrasolo=True, pass_bonus="carbunco",
                     cantes_in=("paso", "solo", "contrasolo"), cante_by="last_trick_winner",
                     cante_after_tricks=(1, 2, 3), renuncio_penalty="double", target=21,
                     win_by=2),
    "italiano": RuleSet(name="italiano", beat_led_after_trump=False, bid_cap="near_target",
                        solo_goal="tricks", pass_bonus="over_100", early_end=True,
                        cantes_in=("paso",), cante_by="last_trick_winner",
                        max_cantes_per_side=2, forty_first=True, target=21),
}
DEFAULT_PRESET = "online"


def get_rules(spec: str | Mapping[str, Any] | RuleSet | None = None) -> RuleSet:
    """A rule set from a preset name, a mapping ``{"preset": ..., param: value}``,
    or a text ``"narro,tie_break=mano"``.  Errors name the bad preset or parameter.

    The text form is case-insensitive (``Online``, ``tie_break=Mano``) and takes lists
    as ``cuatrola rules`` shows them: ``"online,cantes_in=paso,solo"`` (a part without
    ``=`` after a list parameter adds to that list)."""
    if spec is None:
        return PRESETS[DEFAULT_PRESET]
    if isinstance(spec, RuleSet):
        return spec
    if isinstance(spec, str):
        parts = [p.strip() for p in spec.lower().split(",") if p.strip()]
        if not parts:
            raise RulesError(f"bad rules {quote(spec)}: expected a preset name "
                             f"({', '.join(PRESETS)})")
        name, overrides = parts[0], {}
        last = None
        for part in parts[1:]:
            key, eq, value = part.partition("=")
            if not eq:
                if last is not None and last in PARAMETERS and isinstance(
                        getattr(RuleSet(), last), tuple):
                    overrides[last] += "," + part
                    continue
                raise RulesError(f"bad rule override {quote(part)} in {quote(spec)}: expected "
                                 f"NAME=VALUE")
            last = key.strip()
            overrides[last] = value.strip()
        spec = {"preset": name, **overrides}
    if not isinstance(spec, Mapping):
        raise RulesError(f"bad rules {quote(spec)}: expected a preset name or an object")
    spec = dict(spec)
    name = spec.pop("preset", DEFAULT_PRESET)
    if isinstance(name, str):
        name = name.strip().lower()
    if not isinstance(name, str) or name not in PRESETS:
        raise RulesError(f"unknown preset {quote(name)}: expected one of {', '.join(PRESETS)}")
    if "name" in spec:
        raise RulesError("bad rule parameter 'name': use 'preset' to choose the preset")
    return PRESETS[name].override(**spec) if spec else PRESETS[name]


def rules_spec(rules: RuleSet) -> str | dict[str, Any]:
    """The record form of a rule set: its preset name, or an object with the overrides."""
    diff = rules.differences()
    if not diff:
        return rules.name
    return {"preset": rules.name, **diff}
