"""The rules (cuatrola_solver.game.rules): one test (at least) per rule parameter of
docs/rules.md, on hand-made positions, and the parameters typed and range-checked in one
place.

Each test of a parameter quotes the sentence of the rule document it implements."""

from __future__ import annotations

import pytest

from cuatrola_solver.errors import (CuatrolaError, IllegalBidError, IllegalCanteError,
                                    RulesError)
from cuatrola_solver.game.cards import cards_of, format_cards, parse_card, parse_cards
from cuatrola_solver.game.match import Score, match_winner
from cuatrola_solver.game.play import cante_refusal, legal_mask, outcome, renuncio_obligation
from cuatrola_solver.game.rules import PARAMETERS, PRESETS, RuleSet, get_rules
from cuatrola_solver.game.seats import Side
from cuatrola_solver.notation.record import read_record, write_text

from helpers import make_hand, masks, position


def legal(hand: str, trick: str, trump: str, rules) -> str:
    r = get_rules(rules)
    m = legal_mask(masks(hand)[0], parse_cards(trick), "oceb".index(trump),
                   r.beat_led_after_trump, r.free_when_cannot_overtrump)
    return format_cards(cards_of(m))


# --- section 2: legal play ----------------------------------------------------

def test_asistir_and_montar():
    # online: "Asistir: si tienes cartas del palo de salida, debes jugar ese palo."
    # online: "Montar: si asistes, debes superar la mejor carta de ese palo si puedes"
    assert legal("Sc Ac Ro 3b", "Rc", "o", "online") == "Ac"
    # narro 24: "El jugador que no puede montar, tiene que asistir si puede hacerlo."
    assert legal("Sc Cc Ro 3b", "Rc", "o", "narro") == "Sc Cc"


def test_beat_led_after_trump():
    # online: "(es obligatorio, aunque ya haya triunfo en la baza)"
    assert legal("Cb Ab Ro", "Rb So", "o", "online") == "Ab"
    # app: "En caso de fallo previo, no estás obligado a montar la carta que inició el
    # truco. , pero estás obligado a tirar el mismo palo."
    for preset in ("app", "narro", "italiano"):
        assert legal("Cb Ab Ro", "Rb So", "o", preset) == "Cb Ab"


def test_arrastre_must_montar_in_trump():
    # "Se entiende por arrastre la apertura de una baza con triunfo" + montar
    for preset in PRESETS:
        assert legal("So Ao Rc", "Ro", "o", preset) == "Ao"


def test_fallar():
    # online: "Fallar: si no tienes el palo de salida, puedes jugar triunfo"; narro 25:
    # "El jugador que no tiene cartas para asistir, tiene que fallar"
    for preset in PRESETS:
        assert legal("So Ro Ae 3e", "Rc", "o", preset) == "So Ro"
    # void in led and in trump: any card (narro 25: "Si no se puede asistir ni fallar,
    # se puede echar cualquier carta.")
    assert legal("Ae 3e Sb", "Rc", "o", "online") == "3e Ae Sb"


def test_montar_el_fallo():
    # online: "Montar el fallo: si ya se ha echado triunfo y tú tampoco tienes el palo,
    # debes superar ese triunfo si puedes."
    assert legal("So Ao Ae", "Rc Co", "o", "online") == "Ao"


def test_free_when_cannot_overtrump():
    # app: "Si no tienes cartas para montar un fallo anterior, puedes tirar cualquiera"
    # narro 26: "puede ahorrarse un pinte y echar la carta que quiera cuando no tiene para
    # asistir y un contrario ha fallado con un pinte mayor que el suyo."
    for preset in PRESETS:
        assert legal("So Ae Sb", "Rc Ao", "o", preset) == "So Ae Sb"
    strict = get_rules("online,free_when_cannot_overtrump=false")
    assert legal("So Ae Sb", "Rc Ao", "o", strict) == "So"


def test_no_exemption_when_partner_wins():
    # docs/rules.md 2.7: no rule document grants one. Seat 3 must beat its partner's Ac.
    assert legal("Sc 3c", "Rc Cc", "o", "online") == "3c"


@pytest.mark.parametrize("hand,trick,card,obligation", [
    ("Sc Ro", "Rc", "Ro", "asistir"),
    ("Sc Ac", "Rc", "Sc", "montar"),
    ("Ro Ae", "Rc", "Ae", "fallar"),
    ("So Ao Ae", "Rc Co", "So", "montar_el_fallo"),
    ("So Ae", "Rc Ao", "Ae", None),  # legal: ahorrarse el fallo
])
def test_renuncio_names(hand, trick, card, obligation):
    # narro 27: "El jugador que infringe las reglas y no asiste, monta o falla cuando tenía
    # obligación de hacerlo, comete renuncio."
    m = masks(hand)[0]
    c = parse_card(card)
    is_legal = legal_mask(m, parse_cards(trick), 0, True, True) >> c & 1
    assert bool(is_legal) == (obligation is None)
    if obligation:
        assert renuncio_obligation(m, parse_cards(trick), 0, c) == obligation


def test_naming_lower_trump_only_strict():
    # docs/rules.md 8.12: only lower trumps, a non-trump played while
    # free_when_cannot_overtrump is false -> montar_el_fallo
    m = masks("So Ae")[0]
    assert renuncio_obligation(m, parse_cards("Rc Ao"), 0, parse_card("Ae")) == "montar_el_fallo"


# --- section 3: bidding -------------------------------------------------------

DEAL = "Ao 3o Ro Co So / Ac 3c Rc Cc Sc / Ae 3e Re Ce Se / Ab 3b Rb Cb Sb"


def test_bids_only_go_up():
    # online: "cada uno puede pasar o subir la apuesta"; 004: "Bids can only go up"
    with pytest.raises(IllegalBidError, match="stronger"):
        make_hand(DEAL, "Sb", "online", ["solo", "solo", "paso", "paso"])
    hand = make_hand(DEAL, "Sb", "online", ["solo", "cuatrola", "paso", "paso"])
    assert hand.contract == "cuatrola" and hand.declarer == (2,)
    assert hand.active == (True, True, True, False)


def test_partner_may_take_over():
    # narro 20: "Cuando un jugador va a algo, el compañero, siempre que no haya pasado
    # antes, puede irse, si lo desea, a una jugada de valor igual o superior."
    hand = make_hand(DEAL, "Sb", "narro", ["solo", "paso", "solo", "paso"])
    assert hand.contract == "solo" and hand.declarer == (3,)
    assert hand.active == (False, True, True, True)
    for preset in ("online", "app", "italiano"):
        with pytest.raises(IllegalBidError):
            make_hand(DEAL, "Sb", preset, ["solo", "paso", "solo", "paso"])


def test_contrasolo():
    # narro 7: "es necesario que un jugador diga que va a solo y otro de la pareja
    # contraria, que no haya pasado todavía, anuncie contrasolo."
    hand = make_hand(DEAL, "Sb", "narro", ["solo", "contrasolo", "paso", "paso"])
    assert hand.contract == "contrasolo" and hand.declarer == (1, 2)
    assert hand.active == (True, True, False, False)
    hand = make_hand(DEAL, "Sb", "narro", ["paso", "paso", "solo", "contrasolo"])
    assert hand.declarer == (3, 4)
    # take-over by the contrasolo bidder's partner (docs/rules.md 8.11)
    hand = make_hand(DEAL, "Sb", "narro", ["solo", "contrasolo", "paso", "contrasolo"])
    assert hand.declarer == (1, 4)
    with pytest.raises(IllegalBidError, match="contrasolo"):  # not against a partner
        make_hand(DEAL, "Sb", "narro", ["solo", "paso", "contrasolo", "paso"])
    with pytest.raises(IllegalBidError, match="not played"):
        make_hand(DEAL, "Sb", "online", ["solo", "contrasolo", "paso", "paso"])


def test_bid_cap_exact_target():
    # app: "si una pareja tiene por ejemplo 8 puntos, no se puede jugar un quinto o
    # cuatro, sino solo uno."
    with pytest.raises(IllegalBidError, match="target"):
        make_hand(DEAL, "Sb", "app", ["cuatrola", "paso", "paso", "paso"], Score(8, 0))
    make_hand(DEAL, "Sb", "app", ["solo", "paso", "paso", "paso"], Score(8, 0))
    make_hand(DEAL, "Sb", "app", ["paso", "quintola", "paso", "paso"], Score(8, 0))  # side B: 0
    # online has no cap (the 'cabe todo' of narro 11 as well)
    make_hand(DEAL, "Sb", "online", ["quintola", "paso", "paso", "paso"], Score(10, 0))
    make_hand(DEAL, "Sb", "narro", ["quintola", "paso", "paso", "paso"], Score(20, 0))


def test_bid_cap_near_target():
    # italiano: "on 17 points or more you cannot bid something that would take you past 21."
    with pytest.raises(IllegalBidError):
        make_hand(DEAL, "Sb", "italiano", ["quintola", "paso", "paso", "paso"], Score(17, 0))
    make_hand(DEAL, "Sb", "italiano", ["solo", "paso", "paso", "paso"], Score(17, 0))
    make_hand(DEAL, "Sb", "italiano", ["quintola", "paso", "paso", "paso"], Score(16, 0))
    later = get_rules("italiano,near_target_from=18")
    make_hand(DEAL, "Sb", later, ["quintola", "paso", "paso", "paso"], Score(17, 0))


# --- section 4: winning a hand ------------------------------------------------

def final(contract="paso", declarer=(), tricks=(3, 2), points=(70, 60), leader=1):
    return position("o", ("", "", "", ""), contract, declarer, leader=leader,
                    tricks=tricks, points=points)


def test_solo_goal():
    # online: "Solo — ... Gana si consigue más puntos que la pareja rival."
    # italiano: "It is won on tricks, not points ... solo needs 3 tricks (2 points)"
    pos = final("solo", (1,), tricks=(3, 2), points=(50, 80))
    assert outcome(pos, get_rules("online")) == (1, 2)
    assert outcome(pos, get_rules("italiano")) == (0, 2)


def test_tie_break():
    # online: "si hay empate, se la lleva quien ganó la última baza."
    # app: "En caso de empate, gana la pareja que tenga la mano"
    pos = final(points=(65, 65), leader=2)  # side B took trick 5
    assert outcome(pos, get_rules("online"))[0] == 1
    assert outcome(pos, get_rules("app"))[0] == 0
    # docs/rules.md 8.3: mano when seat 1 sits out still goes to side A
    solo3 = final("solo", (2,), points=(65, 65), leader=2)
    assert outcome(solo3, get_rules("app"))[0] == 0


def test_pass_bonus():
    # narro 32: "Se pagan dos puntos a la pareja que en una jugada normal se lleva las cinco
    # bazas, dando carbunco."
    pos = final(tricks=(0, 5), points=(0, 130), leader=2)
    assert outcome(pos, get_rules("narro")) == (1, 2)
    assert outcome(pos, get_rules("online")) == (1, 1)
    # italiano: "The pair with most points wins the hand: 1 point, or 2 above 100 points."
    pos = final(tricks=(4, 1), points=(101, 29))
    assert outcome(pos, get_rules("italiano")) == (0, 2)
    assert outcome(final(tricks=(4, 1), points=(100, 30)), get_rules("italiano")) == (0, 1)
    # docs/rules.md 8.4: carbunco applies to paso only
    assert outcome(final("solo", (1,), tricks=(5, 0), points=(130, 0)), get_rules("narro")) == (0, 2)


def test_contract_values_and_goals():
    # online: "Cuatrola — ... ganar al menos 4 de las 5 bazas. Vale 4 puntos."
    # "Quintola — la apuesta máxima: ganar las 5 bazas. Vale 5 puntos."
    rules = get_rules("online")
    assert outcome(final("cuatrola", (2,), tricks=(1, 4)), rules) == (1, 4)
    assert outcome(final("cuatrola", (2,), tricks=(2, 3)), rules) == (0, 4)
    assert outcome(final("quintola", (1,), tricks=(5, 0)), rules) == (0, 5)
    assert outcome(final("quintola", (1,), tricks=(4, 1)), rules) == (1, 5)
    # narro 7: "Hay cuatro puntos en juego, que lo gana la pareja cuyo jugador obtenga más puntos."
    assert outcome(final("contrasolo", (1, 2), points=(40, 90)), get_rules("narro")) == (1, 4)


def test_monte_and_early_end():
    # online: "La pareja que gana la última baza (la quinta) suma 10 puntos extra"
    # italiano: "The hand ends as soon as that becomes impossible, and the points go to the
    # opposing pair."
    deal = "Ao 3o Ro Co So / Ac 3c Rc Cc Sc / Ae 3e Re Ce Se / Ab 3b Rb Cb Sb"
    hand = make_hand(deal, "Sb", "italiano", ["paso", "cuatrola", "paso", "paso"])
    # seat 1 leads Ao; seat 2 (declarer, void in oros, holds no trump: bastos) plays Sc
    for card in ("Ao", "Sc", "Se"):
        hand.play(parse_card(card))
    assert not hand.is_over()
    for card in ("3o", "Cc", "Ce"):      # side A again: declarer can no longer take 4
        hand.play(parse_card(card))
    assert hand.is_over()
    res = hand.result()
    assert (str(res.winner), res.game_points, res.ended_by) == ("A", 4, "early_end")
    assert res.points == (11 + 2 + 2 + 10 + 3 + 3, 0)   # no monte
    # the same play under online goes on to trick 5
    online = make_hand(deal, "Sb", "online", ["paso", "cuatrola", "paso", "paso"])
    for card in ("Ao", "Sc", "Se", "3o", "Cc", "Ce"):
        online.play(parse_card(card))
    assert not online.is_over() and online.result() is None
    for card in ("Ro", "Rc", "Re", "Co", "3c", "3e", "So", "Ac", "Ae"):
        online.play(parse_card(card))
    res = online.result()
    assert res.ended_by == "play" and res.tricks == (5, 0)
    # seat 4 sat out: his 30 points of bastos were never played; + 10 de monte
    assert res.points == (90 + 10, 0)


# --- section 5: cantes --------------------------------------------------------

def after_trick_1(rules, contract="paso", declarer=(), leader=1, tricks=(1, 0), **kw):
    """Seat 1 holds R+C of oros (trump) and copas; seat 2 holds R+C of espadas."""
    hands = ("Ro Co Rc Cc", "Re Ce Ab 3b", "Ae 3e Sb Cb", "Ac 3c Sc Rb")
    if contract != "paso":
        hands = tuple("-" if s not in _active(declarer) else h for s, h in zip((1, 2, 3, 4), hands))
    return position("o", hands, contract, declarer, leader=leader, tricks=tricks, **kw)


def _active(declarer):
    if len(declarer) == 2:
        return set(declarer)
    partner = (declarer[0] + 1) % 4 + 1
    return {1, 2, 3, 4} - {partner}


def test_cantes_in():
    # online: "No se canta bajo cuatrola ni quintola."
    # italiano: "there are no declarations" (when someone bids)
    assert cante_refusal(after_trick_1(get_rules("online"), "solo", (1,)),
                         get_rules("online"), 1, 0) is None
    assert "cuatrola" in cante_refusal(after_trick_1(None, "cuatrola", (1,)), get_rules("online"), 1, 0)
    assert "solo" in cante_refusal(after_trick_1(None, "solo", (1,)), get_rules("italiano"), 1, 0)
    # narro: cantes count in contrasolo too
    pos = after_trick_1(None, "contrasolo", (1, 2))
    assert cante_refusal(pos, get_rules("narro"), 1, 0) is None


def test_cante_by():
    # online: "Solo puedes cantar en tu turno y después de que tu pareja haya ganado una baza."
    # narro 29: "Es necesario, además, que la baza la haya ganado el que canta o su compañero."
    # side A won trick 1 (leader 1), side B won trick 2 (leader 2): after trick 2 ...
    pos = after_trick_1(None, leader=2, tricks=(1, 1))
    assert cante_refusal(pos, get_rules("online"), 1, 0) is None        # won trick 1
    assert "won trick 2" in cante_refusal(pos, get_rules("narro"), 1, 0)
    assert cante_refusal(pos, get_rules("narro"), 2, 2) is None
    # a side that has won nothing may not sing under online
    pos = after_trick_1(None, leader=1, tricks=(1, 0))
    assert "not won" in cante_refusal(pos, get_rules("online"), 2, 2)


def test_cante_needs_both_cards_between_tricks():
    # narro 29: "Las veinte las canta aquel jugador que tenga un Rey y un Caballo del mismo
    # palo en el momento de cantar."
    pos = after_trick_1(None)
    assert "does not hold" in cante_refusal(pos, get_rules("online"), 1, 3)
    mid = pos.with_changes(trick=(parse_card("Sb"),))
    assert "between tricks" in cante_refusal(mid, get_rules("online"), 1, 0)
    sung = pos.with_changes(sung=1)
    assert "already been sung" in cante_refusal(sung, get_rules("online"), 1, 0)
    once = pos.with_changes(boundary_sung=(True, False))
    # narro 29: "Solo se puede cantar una vez por baza."
    assert "already sung after trick 1" in cante_refusal(once, get_rules("online"), 1, 1)


def test_cante_after_tricks():
    # narro 29: "Solo se puede cantar después de la primera, segunda y tercera baza"
    pos = after_trick_1(None, tricks=(4, 0))
    assert "after trick 4" in cante_refusal(pos, get_rules("narro"), 1, 0)
    early = get_rules("online,cante_after_tricks=1")
    pos2 = after_trick_1(None, tricks=(2, 0))
    assert "after trick 2" in cante_refusal(pos2, early, 1, 0)
    assert cante_refusal(pos2, get_rules("online"), 1, 0) is None


def test_max_cantes_and_forty_first():
    # italiano: "Two declarations per pair at most, and 40 before 20."
    rules = get_rules("italiano")
    pos = after_trick_1(None)
    assert "40" in cante_refusal(pos, rules, 1, 1)      # the 20 in copas must wait
    assert cante_refusal(pos, rules, 1, 0) is None
    assert cante_refusal(pos, get_rules("online"), 1, 1) is None
    two = pos.with_changes(cantes=(2, 0), sung=0b100)
    assert "2 times" in cante_refusal(two, rules, 1, 0)


def test_cante_points_in_a_hand():
    # online: "40 si es el palo de triunfo (las cuarenta) o 20 si es otro palo (las veinte)"
    deal = "Ro Co Rc Cc Ab / Ao 3o So Ac 3c / Ae 3e Re Ce Se / 3b Rb Cb Sb Sc"
    hand = make_hand(deal, "Sc", "online")            # trump copas
    for card in ("Ab", "So", "Se", "Sb"):              # seat 1 wins trick 1
        hand.play(parse_card(card))
    hand.sing(1, 1)                                    # las cuarenta (copas is trump)
    with pytest.raises(IllegalCanteError, match="already sung after trick 1"):
        hand.sing(1, 0)
    assert hand.pos.points[0] == 11 + 2 + 2 + 2 + 40


# --- section 6: renuncio --------------------------------------------------------

def test_renuncio_penalty():
    # narro 27: "“El renuncio se paga doble”: ... se termina esa jugada, concediéndose el
    # doble de los puntos en juego a la pareja perjudicada."
    # seat 2 holds copas but plays espadas against a copas lead
    deal = "Ac Ro Co So 3o / 3c Ae Rc Cc Sc / Ao 3e Re Ce Se / Ab 3b Rb Cb Sb"
    for preset, points in (("narro", 4), ("online", 2)):
        hand = make_hand(deal, "Sb", preset, ["solo", "paso", "paso", "paso"])
        hand.play(parse_card("Ac"))
        r = hand.play(parse_card("Ae"))
        assert r.obligation == "asistir" and r.legal == tuple(parse_cards("Sc Cc Rc 3c"))
        res = hand.result()
        assert (str(res.winner), res.game_points, res.ended_by) == ("A", points, "renuncio")


# --- section 7: the match -------------------------------------------------------

def test_target_and_win_by():
    # narro 10: "Las partidas se juegan a 21 puntos. Es necesario ganar con dos puntos de
    # ventaja, como en el paddel."  001: "gana la pareja que consiga primero los 11 puntos"
    assert match_winner(get_rules("app"), 11, 10) is Side.A
    assert match_winner(get_rules("narro"), 21, 20) is None
    assert match_winner(get_rules("narro"), 22, 20) is Side.A
    assert match_winner(get_rules("online,target=5"), 3, 5) is Side.B


def test_match_pairs_swap_labels_every_hand():
    # docs/rules.md 7: "the next hand's dealer is this hand's seat 1 ... the pairs swap the labels
    # A/B from one hand to the next"
    from cuatrola_solver.game.match import Match
    m = Match(get_rules("narro"))
    m.record_hand(Side.A, 2)            # hand 1: pair 0 is side A
    assert m.points == [2, 0] and m.score() == Score(0, 2)   # hand 2: pair 0 is side B
    m.record_hand(Side.A, 4)            # pair 1 wins a contrasolo as side A
    assert m.points == [2, 4] and m.winner() is None
    m.points = [21, 19]
    assert m.winner() == 0


def test_every_parameter_is_documented_and_overridable():
    from cuatrola_solver.game.rules import PARAMETERS, RuleSet
    import dataclasses
    fields = {f.name for f in dataclasses.fields(RuleSet)}
    assert fields == set(PARAMETERS)
    for p in PARAMETERS.values():
        assert p.meaning
    with pytest.raises(RulesError, match="unknown rule parameter 'tiebreak'"):
        get_rules("online,tiebreak=mano")
    with pytest.raises(RulesError, match="unknown preset 'tute'"):
        get_rules("tute")
    with pytest.raises(RulesError, match="bad value 'never'"):
        get_rules("online,tie_break=never")
    assert get_rules({"preset": "narro", "tie_break": "mano"}).tie_break == "mano"


# --- rule parameters, typed and range-checked in one place ----------

@pytest.mark.parametrize("spec, words", [
    ("online,monte=2147483648", ["'2147483648'", "monte", "0 to 1000"]),
    ("online,monte=-1", ["-1", "monte"]),
    ("online,monte=2147483647", ["monte", "0 to 1000"]),
    ("online,target=0", ["target", "1 to"]),
    ("online,win_by=-1", ["win_by", "1 to"]),
    ("italiano,near_target_from=-3", ["near_target_from"]),
    ("online,max_cantes_per_side=-1", ["max_cantes_per_side", "0 to 4"]),
    ("online,cante_after_tricks=1 9", ["9", "cante_after_tricks"]),
    ({"preset": []}, ["unknown preset []"]),
    ({"cantes_in": 5}, ["cantes_in", "list"]),
    ({"cantes_in": None}, ["cantes_in"]),
    ({"cantes_in": {"paso": 1}}, ["cantes_in"]),
    ({"cantes_in": ["paso", 3]}, ["3", "cantes_in"]),
    ({"cante_after_tricks": [1.0]}, ["1.0", "cante_after_tricks"]),
    ({"cante_after_tricks": [True]}, ["True", "cante_after_tricks"]),
    ({"monte": True}, ["monte"]),
    ({"monte": 10.0}, ["monte"]),
    ({"tie_break": 3}, ["tie_break"]),
    ({"early_end": None}, ["early_end"]),
])
def test_rule_parameters_are_checked(spec, words):
    with pytest.raises(RulesError) as e:
        get_rules(spec)
    for w in words:
        assert w in str(e.value)


def test_rule_checks_hold_for_python_callers_too():
    with pytest.raises(RulesError, match="monte"):
        RuleSet(monte=-1)
    with pytest.raises(RulesError, match="cante_after_tricks"):
        RuleSet(cante_after_tricks=(True,))
    # the edges of every range are accepted, one past them refused
    for p in PARAMETERS.values():
        if p.bounds:
            lo, hi = p.bounds
            assert getattr(get_rules({p.name: lo}), p.name) == lo
            assert getattr(get_rules({p.name: hi}), p.name) == hi
            for bad in (lo - 1, hi + 1):
                with pytest.raises(RulesError):
                    get_rules({p.name: bad})


def test_json_rule_lists_round_trip_through_the_text_form():
    rec = read_record('{"rules": {"preset": "online", "cante_after_tricks": [1, 2]}, '
                      '"muestra": "Ab", "hands": ' + _hands_json() + '}')
    assert read_record(write_text(rec)) == rec
    with pytest.raises(CuatrolaError, match="field 'rules': bad value True"):
        read_record('{"rules": {"cante_after_tricks": [true]}, "muestra": "Ab", "hands": '
                    + _hands_json() + '}')


def _hands_json() -> str:
    text = "3o 3c Re Cb 3b / Co Cc Se 3e Sb / So Ro Ce Ae Rb / Ao Sc Rc Ac Ab"
    return "[" + ", ".join(f'"{h.strip()}"' for h in text.split("/")) + "]"
