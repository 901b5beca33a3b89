"""The players' choices pinned on small positions where a club player knows the answer.

Each position is a seat's view written as the ``hint`` command takes it (the seat's
five cards, the muestra, the calls, the play so far): the other hands stay hidden, as
they are to the player.  Oros are trumps unless a test says otherwise.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from cuatrola_solver.advice.cardplay import best_cante, cante_values, hint
from cuatrola_solver.game.cards import format_card, mask_of, parse_card, parse_cards
from cuatrola_solver.game.rules import get_rules
from cuatrola_solver.errors import CuatrolaError
from cuatrola_solver.bots import players
from cuatrola_solver.game.match import Score
from cuatrola_solver.bots.players import (PLAYERS, Bidder, HeuristicPlayer, PimcPlayer, RandomPlayer, bid_advice, make_player, parse_player)
from cuatrola_solver.game.view import View
from cuatrola_solver.advice.budget import Budget
from cuatrola_solver.models.preset import Models
from helpers import as_view
from cuatrola_solver.notation.replay import read_view

H = HeuristicPlayer()
ALL_PASS = "paso paso paso paso"


def view(hand: str, muestra: str, seat: int, played: str = "", auction: str | None = ALL_PASS,
         rules: str = "online") -> View:
    """The seat's view; ``auction`` None: no call yet (the auction about to begin)."""
    if auction is None and not played:
        return View(get_rules(rules), seat, mask_of(parse_cards(hand)), parse_card(muestra))
    return read_view(hand, muestra, seat, auction, played or None, rules)


def plays(player, v: View, seed: int = 0) -> str:
    c = player.card(v, seed)
    assert c in v.legal_cards()
    return format_card(c)


# --- the heuristic player's calls ---------------------------------------------------------

CALLS = [
    # (hand, muestra, seat, calls before, expected): rule 1 quintola
    ("Ao 3o Ro Co So", "So", 4, "paso paso paso", "quintola"),   # five trumps (the dealer)
    ("Ao 3o Ro Co Sc", "So", 1, "", "quintola"),                 # four with the as and tres
    # rule 2 cuatrola: four trumps with the as but not the tres, an as outside; not quintola
    ("Ao Ro Co So Ac", "3o", 1, "", "cuatrola"),
    ("3o Ro Co So Ab", "Ao", 1, "", "cuatrola"),                 # the tres will do
    # rule 3 solo
    ("Ao Ro Co So Rc", "3o", 1, "", "solo"),                     # four trumps, no as outside
    ("Ao Ro Co Ac Sb", "So", 1, "", "solo"),                     # three with the as + an as
    ("3o Ro Co Ae Sb", "Ao", 1, "", "solo"),                     # three with the tres + an as
    ("Ao 3o Ac Sc Sb", "So", 1, "", "solo"),                     # as and tres + another as
    # rule 4 paso: just short of each of those
    ("Ao Ro Co Sc Sb", "So", 1, "", "paso"),                     # three with the as, no as
    ("Ro Co So Ac Sb", "Ao", 1, "", "paso"),                     # three without as or tres
    ("Ao 3o Rc Sc Sb", "So", 1, "", "paso"),                     # as and tres, no other as
    ("Ao Ac Ab Ae Sb", "So", 1, "", "paso"),                     # one trump and three aces
    ("Ao Ro Ac Ab Ae", "So", 1, "", "paso"),                     # two trumps, no tres
]


@pytest.mark.parametrize("hand, muestra, seat, before, want", CALLS)
def test_heuristic_calls_by_its_rules(hand, muestra, seat, before, want):
    v = view(hand, muestra, seat, auction=before or None)
    assert want in v.legal_calls()
    assert H.call(v, 0) == want


def test_a_seat_not_on_turn_to_speak_passes():
    v = view("Ao 3o Ro Co Sc", "So", 3, auction="paso")
    assert v.legal_calls() == [] and H.call(v, 0) == "paso"


def test_heuristic_calls_only_among_the_legal_calls():
    """After a cuatrola, a cuatrola hand may not call it again: it passes (solo is not
    legal either); a quintola hand still calls quintola."""
    v = view("Ao Ro Co So Ac", "3o", 2, auction="cuatrola")
    assert v.legal_calls() == ["paso", "quintola"]
    assert H.call(v, 0) == "paso"
    v = view("Ao 3o Ro Co Sc", "So", 2, auction="cuatrola")
    assert H.call(v, 0) == "quintola"
    # a solo hand after a solo
    v = view("Ao Ro Co Ac Sb", "So", 2, auction="solo")
    assert "solo" not in v.legal_calls() and H.call(v, 0) == "paso"


# --- cantes -------------------------------------------------------------------------------

def test_heuristic_sings_the_40_before_a_20_and_the_lower_suit_first():
    # bastos are trumps: the 40 (bastos) before the 20 in oros, although oros come first
    v = view("Rb Cb Ro Co Ac", "Sb", 1, "1. Ac Sc Cc Rc")
    assert v.cante_options() == [3, 0]
    assert H.sing(v, 0) == 3
    # two 20s: oros before copas
    v = view("Ro Co Rc Cc Ae", "Sb", 1, "1. Ae Se Ce Re")
    assert v.cante_options() == [0, 1]
    assert H.sing(v, 0) == 0
    # nothing to sing: keep quiet
    v = view("Ro Sc Rc So Ae", "Sb", 1, "1. Ae Se Ce Re")
    assert v.cante_options() == [] and H.sing(v, 0) is None


# --- cards 1: leading ---------------------------------------------------------------------

def test_the_tres_is_not_the_master_trump_while_the_dealer_shows_the_as():
    """The muestra (the as of oros) is face up in the dealer's hand: the tres is not the
    best trump out, so seat 1 cashes its as of copas instead of leading into the as."""
    assert plays(H, view("3o Ac Rc Sb Se", "Ao", 1)) == "Ac"


def test_the_tres_is_the_master_trump_once_the_dealer_has_played_the_as():
    # trick 1: the dealer trumps with the as; trick 2: seat 1 wins with the as of espadas
    v = view("3o Ac Rc Sb Ae", "Ao", 1, "1. Sb Cb Rb Ao 2. Ce Ae Se Re")
    assert plays(H, v) == "3o"


def test_the_muestra_of_a_dealer_who_sits_out_never_comes_into_play():
    """A solo by seat 2: its partner, the dealer, sits out with the as of oros (the
    muestra), so seat 2's tres is the master trump; a solo by seat 1 faces the dealer
    and its as."""
    v = view("3o Ac Rc Ab Se", "Ao", 2, "1. Sb Ab Cb", auction="paso solo paso paso")
    assert plays(H, v) == "3o"
    assert plays(H, view("3o Ac Rc Sb Se", "Ao", 1, auction="solo paso paso paso")) == "Ac"


def test_the_dealers_muestra_is_a_trump_the_other_side_holds():
    """Only the muestra (sota of oros) is left of the trumps, with the dealer, an
    opponent: seat 1 draws it with its as (arrastre) rather than cash the rey of copas."""
    v = view("Ao Ac Rc Sb Se", "So", 1, "1. Sb 3o Ro Co 2. Sc Cc 3c Ac")
    assert plays(H, v) == "Ao"


def test_the_partners_muestra_is_no_reason_to_lead_trumps():
    """Seat 2 holds the as and the rey of trumps; the only other trump left is the
    muestra in its partner's (the dealer's) hand: no arrastre, it cashes its master rey
    of copas."""
    v = view("Ao 3o Ro Ac Rc", "So", 2, "1. Sc Ac Cc 3c 2. 3o Sb Co Se")
    assert plays(H, v) == "Rc"


def test_the_trumps_the_partner_sang_are_not_the_other_sides():
    """Seat 3 sang the 40 (it holds the rey and caballo of oros), the other trumps are
    played: the opponents hold none, so seat 1 keeps its as of oros and leads its
    bastos."""
    v = view("Sb Rc Ae Ao Cb", "So", 1,
             "1. Sb 3o Rb So 2. Sc Ac Cc Rc cante 3 oros 3. Se Ce Ae Re")
    assert plays(H, v) == "Cb"


@pytest.mark.parametrize("singer", [1, 3])
def test_the_trumps_an_opponent_sang_are_drawn(singer):
    """The dealer holds the as and the tres (the muestra) of oros; seat 1 or seat 3 sang
    the 40, so the rey and caballo are with the other side: the dealer leads its as."""
    v = view("Ao 3o Ac Re Sb", "3o", 4, f"1. Ae Se So Re cante {singer} oros 2. Sc Ac Cc Rc")
    assert plays(H, v) == "Ao"


def test_seat_2s_sung_trumps_are_drawn_by_seat_1():
    v = view("Sc Ae Ab Ao 3e", "3o", 1,
             "1. Sc Ac Cc 3o cante 2 oros 2. Re Ae Se So 3. Cb Sb Ab Rb")
    assert plays(H, v) == "Ao"


def test_the_dealer_does_not_lead_trumps_when_nobody_else_has_any():
    v = view("Ao So Ac Rc Sb", "So", 4, "1. 3o Ro Co Ao")
    assert plays(H, v) == "Ac"


def test_the_master_trump_is_led_while_trumps_are_out():
    assert plays(H, view("Ao Rc Sc Sb Se", "So", 1)) == "Ao"


def test_lead_the_master_plain_card_worth_most():
    # as of bastos played in trick 1: the tres of bastos is master too, the as of copas
    # is worth more
    assert plays(H, view("3b Ac Sc Se Ab", "Ao", 1, "1. Ab Sb Cb Rb")) == "Ac"
    # two aces: worth the same, the later suit (bastos)
    assert plays(H, view("Ac Ab Sc Se So", "Ao", 1)) == "Ab"


def test_lead_the_lowest_card_of_the_longest_plain_suit():
    # no master: espadas (two cards) is longer than copas and bastos
    assert plays(H, view("Ro Rc Ce Se Cb", "Ao", 1)) == "Se"
    # copas and espadas as long: copas, the first suit
    assert plays(H, view("Ro Rc Sc Ce Se", "Ao", 1)) == "Sc"
    # the lowest of the longest suit, not the lowest card
    assert plays(H, view("Ro Sc Re Ce Cb", "Ao", 1)) == "Ce"


def test_only_trumps_and_no_master_lead_the_lowest():
    assert plays(H, view("3o Ro Co So Ac", "Ao", 1, "1. Ac Sc Cc Rc")) == "So"


# --- cards 2: the partner wins the trick --------------------------------------------------

def test_last_to_play_gives_the_winning_partner_the_most_points():
    # seat 2 (the partner) wins with the as of copas: the dealer gives the tres
    assert plays(H, view("3c Cc Ab Sb So", "So", 4, "1. Sc Ac Rc")) == "3c"


def test_giving_to_the_partner_with_only_trumps_legal_gives_the_lowest():
    # void in copas: the dealer must trump, and gives the lowest trump
    assert plays(H, view("Ro 3o Ab Sb So", "So", 4, "1. Sc Ac Rc")) == "So"


def test_partners_master_trump_is_safe_once_the_dealer_has_played():
    """Seat 3 led the tres of oros, the dealer followed with a lower trump: the as of
    oros (the muestra) is still in the dealer's hand, not seat 2's, the last to play."""
    v = view("Ac Sc Sb Se Ce", "Ao", 1, "1. Sb Cb Ab Rb 2. 3o Co")
    assert plays(H, v) == "Ac"


def test_partners_tres_of_trumps_is_not_safe_before_the_dealers_as():
    """Seat 1 led the tres of oros; the dealer, still to play, shows the as: seat 3
    (void in oros) throws its sota, not its as."""
    assert plays(H, view("Ac Sc Sb Se Ce", "Ao", 3, "1. 3o Co")) == "Sc"


def test_partners_plain_as_is_safe_only_when_no_trump_can_be_left_behind():
    # seat 2 still to play may hold trumps: the as of copas is not safe, throw the rey
    assert plays(H, view("3c Rc Ae Sb Se", "So", 1, "1. Sb Cb Ab Rb 2. Ac Sc")) == "Rc"
    # every trump played but the muestra, and the dealer has played: give the tres
    v = view("Ao 3c Rc Sb Se", "So", 1, "1. Ao 3o Ro Co 2. Sb Cb Ab Rb 3. Ac Sc")
    assert plays(H, v) == "3c"


def test_partner_winning_with_a_card_that_can_be_beaten_is_overtaken():
    # seat 1 leads the rey of copas; the dealer (to play) may trump or hold the tres:
    # seat 3 wins with the lowest card that wins, its tres
    assert plays(H, view("Ac 3c Sb Se Ab", "So", 3, "1. Rc Sc")) == "3c"
    # last to play (the dealer led): the partner's rey is safe, give the as (more points)
    assert plays(H, view("Ac 3c Ce Ab Sb", "So", 3, "1. Re Se Ce Ae 2. Sc Rc Cc")) == "Ac"


# --- cards 3: an opponent wins the trick --------------------------------------------------

def test_win_with_the_lowest_card_that_wins():
    assert plays(H, view("Rc 3c Ac Sb Se", "So", 2, "1. Cc")) == "Rc"
    # last to play
    assert plays(H, view("Ac 3c Sb So Ab", "So", 4, "1. Rc Sc Cc")) == "3c"


def test_win_by_trumping_with_the_lowest_trump():
    # void in copas: the rey and the as of oros both win, the rey is played
    assert plays(H, view("Ao Ro Sb Se Ab", "So", 2, "1. Ac")) == "Ro"


def test_nothing_wins_throw_the_card_worth_least():
    assert plays(H, view("3c Sc Sb Se Ab", "So", 2, "1. Ac")) == "Sc"


def test_nothing_wins_throw_a_plain_card_before_a_trump():
    # seat 2 trumped seat 1's sota with the rey of oros; seat 3 cannot over-trump and is
    # free (online): the caballo of bastos (3 points) before the sota of oros (2)
    assert plays(H, view("So Cb Ab Ae 3e", "Co", 3, "1. Sc Ro")) == "Cb"


def test_the_trick_winner_skips_the_seat_that_sits_out():
    """Solo by seat 1 (seat 3 sits out): seat 2 leads the sota of copas, the dealer
    takes it with the as; seat 1 cannot win and throws the rey, not the tres."""
    v = view("3c Rc Sb Se Ae", "So", 1, "1. Sb Ab Cb 2. Sc Ac", auction="solo paso paso paso")
    assert plays(H, v) == "Rc"


def test_a_single_legal_card_is_played():
    v = view("Ac Sb Se Ab So", "So", 4, "1. Rc Sc Cc")
    assert v.legal_cards() == [parse_card("Ac")] and plays(H, v) == "Ac"


# --- the random player ----------------------------------------------------------------------

def test_random_player_is_the_seeded_uniform_choice_of_the_legal_ones():
    r = RandomPlayer()
    v = view("Rc 3c Ac Sb Se", "So", 2, "1. Cc")
    legal = v.legal_cards()
    assert len(legal) == 3
    counts = Counter(r.card(v, seed) for seed in range(600))
    assert set(counts) == set(legal) and min(counts.values()) > 150
    for seed in range(20):
        assert r.card(v, seed) == random.Random(v.seed(seed)).choice(legal)
    # calls: uniform over the legal calls, keeping quiet included for cantes
    v = view("Ao 3o Ro Co Sc", "So", 1, auction=None)
    counts = Counter(r.call(v, seed) for seed in range(400))
    assert set(counts) == set(v.legal_calls()) and min(counts.values()) > 50
    assert r.call(v, 3) == random.Random(v.seed(3)).choice(v.legal_calls())
    v = view("Ro Co Rc Cc Ae", "Sb", 1, "1. Ae Se Ce Re")
    counts = Counter(r.sing(v, seed) for seed in range(300))
    assert set(counts) == {None, 0, 1} and min(counts.values()) > 60
    assert r.sing(v, 4) == random.Random(v.seed(4)).choice([None, 0, 1])
    assert repr(r) == "random" and parse_player("random").name == "random"


# --- the pimc player: where logic forces the answer ---------------------------------------

QUINTOLA_AT_TRICK_4 = dict(hand="Ab Ac 3c Ao Ae", muestra="Sb", seat=1,
                           played="1. Ac Sc Cc 2. Ao So Co 3. Ae Se Ce",
                           auction="quintola paso paso paso")


def test_pimc_draws_the_trump_before_cashing_its_tres_in_a_quintola():
    """Three tricks in, the quintola declarer holds the as of trumps (bastos) and the
    master tres of copas: the tres first loses to the dealer's muestra whenever the
    dealer is void in copas; the as first never does worse."""
    v = view(**QUINTOLA_AT_TRICK_4)
    assert v.legal_cards() == parse_cards("3c Ab")
    p = PimcPlayer(samples=20)
    assert {plays(p, v, seed) for seed in range(3)} == {"Ab"}


def test_pimc_sings_the_40_at_the_last_boundary_it_can():
    """After trick 3 seat 1 holds only the rey and caballo of trumps (bastos): after
    trick 4 it will not, so keeping quiet only throws the 40 away."""
    v = view("Rb Cb Ac Ae Ao", "Sb", 1, "1. Ac Sc Cc Rc 2. Ae Se Ce Re 3. Ao So Co Ro")
    assert v.cante_options() == [3]
    assert PimcPlayer(samples=10).sing(v, 1) == 3
    assert PimcPlayer(samples=10).sing(view("Ro Sc Rc So Ae", "Sb", 1, "1. Ae Se Ce Re"),
                                       1) is None


def test_pimc_plays_the_hint_and_sings_the_best_cante_on_its_samples_and_seed():
    """Where the answer is close, it is the hint's (and cante_values') on ``samples``
    deals drawn with the seed from the view: another budget or seed answers otherwise."""
    v = view("3o Ac Rc Sb Se", "Ao", 1)
    p = PimcPlayer(samples=2)
    got = [plays(p, v, s) for s in range(8)]
    assert got == [format_card(hint(as_view(v), Budget(samples=2, seed=v.seed(s)), Models.NONE).best) for s in range(8)]
    assert len(set(got)) > 1
    assert got != [format_card(hint(as_view(v), Budget(samples=40, seed=v.seed(s)), Models.NONE).best) for s in range(8)]
    v = view("Rc Cc Rb Cb Ae", "So", 1, "1. Ae Se Ce Re")
    p = PimcPlayer(samples=5)
    sung = [p.sing(v, s) for s in range(12)]
    assert sung == [best_cante(cante_values(v, [None, 1, 3], samples=5, seed=v.seed(s)))
                    for s in range(12)]
    assert set(sung) == {1, 3}
    assert sung != [PimcPlayer().sing(v, s) for s in range(12)]


def test_pimc_bids_the_advisors_call_on_its_odds_and_its_budget():
    """A close hand (seat 2 after a paso): the call is the advisor's on ``bid_samples``
    deals with the seed, on double-dummy or played odds, with or without the bid model;
    each option changes some answers."""
    v = view("Ac 3c Ro Co Ab", "So", 2, auction="paso")
    answers = {}
    for odds, inference in [("dd", 0), ("dd", 1), ("played", 0)]:
        p = PimcPlayer(bidder=Bidder(bid_samples=60, odds=odds, inference=inference))
        got = [p.call(v, s) for s in range(8)]
        assert got == [bid_advice(v, s, 60, odds, bool(inference)).advice for s in range(8)]
        answers[odds, inference] = got
    assert len({tuple(a) for a in answers.values()}) == 3
    assert answers["dd", 0] != [PimcPlayer(bidder=Bidder(bid_samples=300)).call(v, s)
                                for s in range(8)]
    # with the match score: for the match (cuatrola) or for the hand (narro at 19-18)
    v = view("Ac 3c Ro Co Ab", "So", 2, auction="paso", rules="narro")
    v = View(v.rules, v.seat, v.hand, v.muestra, v.calls, score=Score(19, 18))
    assert [PimcPlayer(bidder=Bidder(bid_samples=60)).call(v, s)
            for s in (0, 1)] == ["cuatrola"] * 2
    assert [PimcPlayer(bidder=Bidder(bid_samples=60, match=0)).call(v, s) for s in (0, 1)] == [
        "cuatrola", "paso"]
    assert bid_advice(v, 1, 60).advice_per_hand == "paso"
    # the calls before the seat are the advisor's to weigh: after a solo
    v = view("Ao 3o Ro Co Sc", "So", 2, auction="solo")
    assert bid_advice(v, 1, 30).auction == ("solo",)
    assert PimcPlayer(bidder=Bidder(bid_samples=30)).call(v, 1) in v.legal_calls()


def test_the_advisors_odds_are_kept_for_the_last_few_views(monkeypatch):
    """bid_advice is a memo: the same view, seed and budget give the same object back
    (the lab and the player share one search) until eight newer questions came after."""
    monkeypatch.setattr(players, "_BID_ADVICE", {})      # what earlier tests asked, gone
    v = view("Ao 3o Ac Sc Sb", "So", 1, auction=None)
    first = bid_advice(v, 0, 10)
    assert bid_advice(v, 0, 10) is first
    for s in range(1, 8):
        bid_advice(v, s, 10)
    assert bid_advice(v, 0, 10) is first
    bid_advice(v, 8, 10)                 # the ninth: the oldest, seed 0, makes room
    again = bid_advice(v, 0, 10)
    assert again is not first and again.advice == first.advice
    assert bid_advice(v, 0, 10, "dd", False) is again


def test_pimc_plays_a_single_legal_card_and_bids_as_asked():
    v = view("Ac Sb Se Ab So", "So", 4, "1. Rc Sc Cc")
    assert plays(PimcPlayer(samples=1), v) == "Ac"
    five = view("Ao 3o Ro Co So", "So", 4, auction="paso paso paso")
    assert PimcPlayer(bidder=Bidder(bid_samples=10)).call(five, 1) == "quintola"
    assert PimcPlayer(bidder=Bidder(bid_samples=10, match=0)).call(five, 1) == "quintola"
    for hand, muestra, seat, before, want in CALLS:
        v = view(hand, muestra, seat, auction=before or None)
        assert PimcPlayer(bidder=Bidder(bid="heuristic")).call(v, 2) == want
        assert PimcPlayer(bidder=Bidder(bid="random")).call(v, 2) == RandomPlayer().call(v, 2)


# --- names and options ----------------------------------------------------------------------

@pytest.mark.parametrize("spec", ["random", "heuristic", "pimc", "pimc:samples=80",
                                  "pimc:samples=1,bid=heuristic,bid_samples=100000",
                                  "pimc:bid=random", "pimc:odds=played,inference=1,match=0"])
def test_a_player_round_trips_through_its_repr(spec):
    p = parse_player(spec)
    assert repr(p) == spec
    again = parse_player(repr(p))
    assert type(again) is type(p) and repr(again) == spec
    if isinstance(p, PimcPlayer):
        assert again == p


def test_player_options_are_read_with_their_types():
    p = parse_player(" PIMC : samples = 7 , bid_samples=9, odds=played ,inference=1,match=0 ")
    assert p == PimcPlayer(samples=7, bidder=Bidder(bid_samples=9, odds="played", inference=1,
                                                    match=0))
    assert (p.bidder.bid, p.name) == ("advisor", "pimc")
    assert PimcPlayer() == PimcPlayer(40, Bidder("advisor", 300, "dd", 0, 1))
    assert make_player("pimc", samples=3) == PimcPlayer(samples=3)
    assert isinstance(make_player("heuristic"), HeuristicPlayer)
    assert parse_player("pimc:").samples == 40
    # the values at the edges of their ranges are accepted
    assert parse_player("pimc:inference=0,match=1,odds=dd") == PimcPlayer()
    assert parse_player("pimc:samples=1,bid_samples=100000") == PimcPlayer(
        1, bidder=Bidder(bid_samples=100000))
    assert parse_player("pimc:bid=advisor").bidder.bid == "advisor"
    assert set(PLAYERS["pimc"][1]) == {"samples", "bid", "bid_samples", "odds", "inference",
                                       "match", "read_calls", "read_play"}


BAD_SPECS = [
    ("nobody", "unknown player 'nobody': expected one of random, heuristic, pimc"),
    ("pimc:depth=3", "bad option 'depth=3' of player 'pimc:depth=3': expected samples=..., "
                     "bid=..., bid_samples=..., odds=..., inference=..., match=..."),
    ("pimc:samples", "bad option 'samples' of player 'pimc:samples'"),
    ("heuristic:samples=3", "bad option 'samples=3' of player 'heuristic:samples=3': "
                            "expected no options"),
    ("pimc:samples=x", "bad value 'x' for samples of player 'pimc:samples=x'"),
    ("pimc:samples=1=2", "bad value '1=2' for samples of player 'pimc:samples=1=2'"),
    ("pimc:samples=0", "bad value '0' for samples of player 'pimc:samples=0': expected 1 to "
                       "100000"),
    ("pimc:bid_samples=100001", "bad value '100001' for bid_samples of player "
                                "'pimc:bid_samples=100001': expected 1 to 100000"),
    ("pimc:odds=exact", "bad value 'exact' for odds of player 'pimc:odds=exact': expected dd "
                        "or played"),
    ("pimc:inference=2", "bad value '2' for inference of player 'pimc:inference=2': expected "
                         "0 or 1"),
    ("pimc:match=-1", "bad value '-1' for match of player 'pimc:match=-1': expected 0 or 1"),
    ("pimc:bid=oracle", "bad value 'oracle' for bid of player 'pimc:bid=oracle': expected one "
                        "of advisor, heuristic, random"),
]


@pytest.mark.parametrize("spec, message", BAD_SPECS)
def test_bad_player_specs_say_what_is_expected(spec, message):
    with pytest.raises(CuatrolaError) as e:
        parse_player(spec)
    assert message in str(e.value)


def test_make_player_refuses_unknown_names_and_options():
    with pytest.raises(CuatrolaError, match="unknown player 'bot': expected one of random, "
                                            "heuristic, pimc"):
        make_player("bot")
    with pytest.raises(CuatrolaError) as e:
        make_player("pimc", depth=3)
    assert str(e.value) == ("player 'pimc' takes no option 'depth' (options: samples, bid, "
                            "bid_samples, odds, inference, match, read_calls, read_play)")
    with pytest.raises(CuatrolaError) as e:
        make_player("random", samples=3)
    assert str(e.value) == "player 'random' takes no option 'samples'"


def test_best_names_the_strongest_player_measured_and_takes_options():
    from cuatrola_solver.bots.players import BEST, parse_player
    assert repr(parse_player("best")) == repr(parse_player(BEST))
    assert repr(parse_player("best:bid=heuristic")) == repr(parse_player(BEST + ",bid=heuristic"))
    assert "worlds=50" in repr(parse_player("best:worlds=50"))        # later options win
    with pytest.raises(CuatrolaError, match="'best:nope=1'"):
        parse_player("best:nope=1")


def test_play_sits_the_best_player_by_default():
    from typer.testing import CliRunner
    from cuatrola_cli.main import app
    out = CliRunner().invoke(app, ["play", "--help"], env={"COLUMNS": "200"}).stdout
    assert "[default: best]" in out
