"""A hand-built shoe for every rule of ../shared/RULES.md (Gazette 1994 No. 112 and its variants).

Each test is named after its rule, builds the cards by token in dealing order (``helpers.deal``:
first cards of every box, the dealer's up card, second cards, the hole card in the peek game, then
every later card in the order it is drawn), and asserts exact money (tenths of the initial wager;
Super Sevens in stakes) and counts in the per-round record. Every test runs on both
implementations: the reference game and the kernel's stacked mode (which must exist: a missing
kernel fails, it does not skip).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from helpers import (
    IMPLEMENTATIONS,
    box_view,
    cards,
    deal,
    make_strategy,
    play_records,
    round_view,
    shoe,
)
from hypothesis import given
from hypothesis import strategies as st

from simulator import reference
from simulator.kernel.tally import blackjack, dealer_stands, total
from simulator.rules import Rules

# The engine's own rules, as Python (as the tables use them) and compiled (as the round loop does)
engine_stands = getattr(dealer_stands, "py_func", dealer_stands)
engine_total = getattr(total, "py_func", total)

NZ = Rules()  # the NZ 1994 game: no hole card, Super Sevens on, 6 decks, 3 hands, DAS, double hard
MIMIC = make_strategy(name="mimic")  # hit below 17, stand on 17+, never split, no insurance


@pytest.fixture(params=IMPLEMENTATIONS)
def play(request):
    """play(cards, rules=NZ, strategies=MIMIC, cut=None) -> records, on one implementation."""
    impl = request.param

    def _play(cards_, rules=NZ, strategies=MIMIC, cut=None):
        return play_records(impl, cards_, rules, strategies, cut)

    return _play


def one_round(records, boxes=1):
    """The single round of ``records``: (round view, [box views])."""
    assert len(records) == 1, f"expected one complete round, got {len(records)}"
    rec = records[0]
    return round_view(rec), [box_view(rec, i) for i in range(boxes)]


# =============================================================================================
# Dealing, 3.1, 3.2, 4.1
# =============================================================================================
def test_dealing_first_card_to_each_box_then_up_card_then_second_cards(play):
    # order: box 1, box 2, dealer up, box 1, box 2, (no hole card), dealer's second card
    rules = NZ.replace(boxes=2)
    r, (b1, b2) = one_round(play(cards("Tc Th 7c 9d 8s Ac"), rules), 2)
    assert (r.cards, r.dealer_cards, r.dealer_total) == (6, 2, 18)  # 7c Ac: soft 18
    assert (b1.main, b1.wins) == (10, 1)  # Tc 9d = 19
    assert (b2.main, b2.pushes) == (0, 1)  # Th 8s = 18


def test_rule_3_1_decks_do_not_change_stacked_play(play):
    # stacked mode deals the given cards; the number of decks plays no part
    c = deal(["Tc 9d"], "8h", then="Ks")
    recs = [play(c, NZ.replace(decks=d)) for d in (1, 6, 8)]
    assert all(np.array_equal(recs[0], x) for x in recs)
    assert box_view(recs[0][0], 0).main == 10


def test_rule_3_2_ace_counts_eleven_unless_that_busts(play):
    # As 5c = soft 16, hits Kh: the ace becomes 1 (hard 16), hits 4s: 20; dealer 9d 8c = 17
    r, (b,) = one_round(play(deal(["As 5c"], "9d", then="Kh 4s 8c")))
    assert (b.main, b.wins, b.busts) == (10, 1, 0)
    assert (r.cards, r.dealer_total) == (6, 17)


def test_rule_3_2_dealer_soft_total_counts_ace_high(play):
    # dealer As 6c is a soft 17 and stands (12.3); player 18 wins
    r, (b,) = one_round(play(deal(["Tc 8d"], "As", then="6c Kd")))
    assert (r.dealer_cards, r.dealer_total, r.cards) == (2, 17, 4)
    assert b.main == 10


def test_rule_4_1_higher_total_wins(play):
    r, (b,) = one_round(play(deal(["Tc 9d"], "8h", then="Ks")))
    assert (b.main, b.wins, b.losses, b.pushes) == (10, 1, 0, 0)
    assert r.dealer_total == 18


def test_rule_4_1_lower_total_loses(play):
    _, (b,) = one_round(play(deal(["Tc 7d"], "Th", then="9s")))
    assert (b.main, b.wins, b.losses, b.pushes) == (-10, 0, 1, 0)


def test_rule_4_1_equal_totals_stand_off(play):
    _, (b,) = one_round(play(deal(["Tc 8d"], "9h", then="9s")))
    assert (b.main, b.wins, b.losses, b.pushes) == (0, 0, 0, 1)


def test_rule_4_1_player_blackjack_beats_dealer_three_card_21(play):
    # box 2 keeps the dealer drawing: Th 5c 6d = 21 of three cards
    rules = NZ.replace(boxes=2)
    r, (b1, b2) = one_round(play(deal(["As Kd", "Tc 8d"], "Th", then="5c 6d"), rules), 2)
    assert (r.dealer_cards, r.dealer_total, r.dealer_bj) == (3, 21, 0)
    assert (b1.main, b1.bj, b1.wins) == (15, 1, 1)
    assert (b2.main, b2.losses) == (-10, 1)


def test_rule_4_1_dealer_blackjack_beats_player_three_card_21(play):
    # 5c 6d hits Tc = 21 (three cards); dealer As Kh is a blackjack
    r, (b,) = one_round(play(deal(["5c 6d"], "As", then="Tc Kh")))
    assert (r.dealer_bj, r.dealer_total) == (1, 21)
    assert (b.main, b.losses, b.bj) == (-10, 1, 0)


def test_rule_4_1_two_blackjacks_stand_off(play):
    r, (b,) = one_round(play(deal(["As Kd"], "Ah", then="Qc")))
    assert r.dealer_bj == 1
    assert (b.main, b.pushes, b.bj, b.even_money) == (0, 1, 1, 0)


def test_rule_4_1_a_bust_loses_even_when_the_dealer_busts(play):
    rules = NZ.replace(boxes=2)
    # box 1 Tc 6d hits 9s (bust); box 2 Tc 8d stands; dealer 6h Ts 8c = 24
    r, (b1, b2) = one_round(play(deal(["Tc 6d", "Tc 8d"], "6h", then="9s Ts 8c"), rules), 2)
    assert (r.dealer_total, r.dealer_cards) == (24, 3)
    assert (b1.main, b1.busts, b1.losses) == (-10, 1, 1)
    assert (b2.main, b2.wins) == (10, 1)


# =============================================================================================
# 7.1 stacked mode: cut card, every-round, incomplete rounds
# =============================================================================================
ROUND_A = deal(["Tc 9d"], "8h", then="Ks")  # 4 cards, box wins +1
ROUND_B = deal(["Tc 8d"], "9h", then="9s")  # 4 cards, stand-off


@pytest.mark.parametrize("cut, rounds", [(None, 2), (1, 1), (3, 1), (4, 1), (5, 2), (8, 2)])
def test_rule_7_1_round_in_which_cut_card_comes_out_is_finished_then_no_more(play, cut, rounds):
    recs = play(shoe(ROUND_A, ROUND_B), cut=cut)
    assert len(recs) == rounds
    assert [box_view(x, 0).main for x in recs] == [10, 0][:rounds]
    assert all(round_view(x).cards == 4 for x in recs)


def test_rule_7_1_cut_zero_plays_no_round(play):
    assert len(play(shoe(ROUND_A, ROUND_B), cut=0)) == 0


def test_rule_7_1_incomplete_round_is_dropped_and_play_stops(play):
    # round B is cut off after 3 cards (the dealer's second card is missing)
    recs = play(shoe(ROUND_A, ROUND_B[:3]))
    assert len(recs) == 1
    assert box_view(recs[0], 0).main == 10


@pytest.mark.parametrize("shuffle", ["cut-card", "every-round"])
def test_rule_7_1_stacked_mode_deals_in_order_whatever_the_shuffle(play, shuffle):
    # in stacked mode there is no shuffling: every-round and cut-card play the same cards in order,
    # and the rule set's penetration does not matter either
    rules = NZ.replace(shuffle=shuffle, penetration=0.01)
    recs = play(shoe(ROUND_A, ROUND_B), rules)
    assert [box_view(x, 0).main for x in recs] == [10, 0]


# =============================================================================================
# 8.2 blackjack, 8.3 even money, 9 insurance
# =============================================================================================
def test_rule_8_2_blackjack_waits_for_dealer_second_card_stand_off_on_dealer_blackjack(play):
    r, (b,) = one_round(play(deal(["As Kd"], "Th", then="Ac")))
    assert (r.dealer_bj, r.dealer_cards) == (1, 2)
    assert (b.main, b.pushes, b.bj) == (0, 1, 1)


def test_rule_8_2_blackjack_waits_then_paid_3_to_2(play):
    # Th 6c: no blackjack; "the dealer shall complete his/her hand" (8.2), though nothing else
    # is on the table: 5d makes 21 of three cards, which the blackjack beats (4.1)
    r, (b,) = one_round(play(deal(["As Kd"], "Th", then="6c 5d 2c")))
    assert (r.cards, r.dealer_cards, r.dealer_total) == (5, 3, 21)
    assert (b.main, b.wins, b.bj) == (15, 1, 1)


def test_rule_8_2_dealer_completes_hand_then_blackjack_paid(play):
    rules = NZ.replace(boxes=2)
    r, (b1, b2) = one_round(play(deal(["As Kd", "Tc 8d"], "Th", then="6c Kc"), rules), 2)
    assert (r.dealer_cards, r.dealer_total) == (3, 26)
    assert (b1.main, b2.main) == (15, 10)


def test_rule_8_2_blackjack_against_small_up_card_paid_at_once(play):
    # up card 9: paid at once; nothing depends on the dealer's second card (12.4)
    r, (b,) = one_round(play(deal(["As Kd"], "9h", then="Tc")))
    assert (r.cards, r.dealer_cards, r.dealer_total) == (3, 1, 9)
    assert (b.main, b.wins, b.bj) == (15, 1, 1)


@pytest.mark.parametrize("pays, win", [(1.5, 15), (1.2, 12), (1.0, 10), (2.0, 20)])
def test_rule_8_2_blackjack_pays_key(play, pays, win):
    _, (b,) = one_round(play(deal(["Kd As"], "9h"), NZ.replace(blackjack_pays=pays)))
    assert b.main == win


def test_rule_8_3_even_money_paid_at_once(play):
    strat = make_strategy(even_money=True)
    r, (b,) = one_round(play(deal(["As Kd"], "Ah", then="Kc"), strategies=strat))
    # settled at once; nothing depends on the dealer's second card
    assert (r.cards, r.dealer_cards) == (3, 1)
    assert (b.main, b.wins, b.bj, b.even_money, b.ins_taken) == (10, 1, 1, 1, 0)


def test_rule_8_3_even_money_stands_when_dealer_then_has_blackjack(play):
    rules = NZ.replace(boxes=2)
    strats = [make_strategy(even_money=True), MIMIC]
    r, (b1, b2) = one_round(play(deal(["As Kd", "Tc 9d"], "Ah", then="Kc"), rules, strats), 2)
    assert r.dealer_bj == 1
    assert (b1.main, b1.even_money) == (10, 1)
    assert (b2.main, b2.losses) == (-10, 1)


def test_rule_8_3_even_money_declined_blackjack_waits(play):
    _, (b,) = one_round(play(deal(["As Kd"], "Ah", then="7c")))
    assert (b.main, b.even_money) == (15, 0)


def test_rule_9_insurance_wins_2_to_1_on_dealer_ten(play):
    strat = make_strategy(insurance=True)
    r, (b,) = one_round(play(deal(["Tc 9d"], "Ah", then="Kc"), strategies=strat))
    assert r.dealer_bj == 1
    assert (b.ins, b.ins_taken, b.main) == (10, 1, -10)


def test_rule_9_insurance_lost_when_dealer_second_card_not_ten(play):
    strat = make_strategy(insurance=True)
    r, (b,) = one_round(play(deal(["Tc 9d"], "Ah", then="7c"), strategies=strat))
    assert (r.dealer_total, r.dealer_bj) == (18, 0)
    assert (b.ins, b.ins_taken, b.main) == (-5, 1, 10)


def test_rule_9_insurance_not_offered_to_a_blackjack(play):
    strat = make_strategy(insurance=True, even_money=False)
    _, (b,) = one_round(play(deal(["As Kd"], "Ah", then="Kc"), strategies=strat))
    assert (b.ins, b.ins_taken, b.main, b.pushes) == (0, 0, 0, 1)


def test_rule_9_1_insurance_only_against_dealer_ace(play):
    strat = make_strategy(insurance=True)
    _, (b,) = one_round(play(deal(["Tc 9d"], "Kh", then="Ac"), strategies=strat))
    assert (b.ins, b.ins_taken) == (0, 0)


@pytest.mark.parametrize("pays, win", [(2.0, 10), (1.0, 5), (3.0, 15)])
def test_rule_9_5_insurance_pays_key(play, pays, win):
    strat = make_strategy(insurance=True)
    _, (b,) = one_round(
        play(deal(["Tc 9d"], "Ah", then="Kc"), NZ.replace(insurance_pays=pays), strat)
    )
    assert b.ins == win


def test_rule_9_6_insurance_settled_on_second_card_even_after_box_busts(play):
    # the box busts; its insurance still needs the dealer's second card, but nothing more
    strat = make_strategy(insurance=True)
    r, (b,) = one_round(play(deal(["Tc 6d"], "Ah", then="9s 5c Tc"), strategies=strat))
    assert (r.cards, r.dealer_cards, r.dealer_total) == (5, 2, 16)
    assert (b.main, b.busts, b.ins) == (-10, 1, -5)


# =============================================================================================
# 10 doubling down
# =============================================================================================
def test_rule_10_double_doubles_the_wager_for_one_card(play):
    strat = make_strategy(hard={9: "D"})
    # 5c 4d doubles, draws Tc = 19; dealer 6h Ts 8c busts
    r, (b,) = one_round(play(deal(["5c 4d"], "6h", then="Tc Ts 8c"), strategies=strat))
    assert (b.main, b.doubles, b.wins) == (20, 1, 1)
    assert r.cards == 6


@pytest.mark.parametrize(
    "double_on, doubled", [("hard", False), ("any", True), ("9-11", False), ("10-11", False)]
)
def test_rule_10_double_on_soft_two_card_total(play, double_on, doubled):
    # As 7d soft 18 says D: doubles only with double_on = any; else hits (A 7 2 = soft 20, stands)
    strat = make_strategy(soft={18: "D"})
    r, (b,) = one_round(
        play(deal(["As 7d"], "6h", then="2c Ts Kc"), NZ.replace(double_on=double_on), strat)
    )
    assert (b.doubles, b.main) == ((1, 20) if doubled else (0, 10))
    assert (r.dealer_total, r.cards) == (26, 6)


@pytest.mark.parametrize(
    "double_on, hard_total, box, doubled",
    [
        ("hard", 16, "Tc 6d", True),
        ("any", 16, "Tc 6d", True),
        ("9-11", 16, "Tc 6d", False),
        ("9-11", 9, "5c 4d", True),
        ("9-11", 11, "5c 6d", True),
        ("9-11", 8, "5c 3d", False),
        ("10-11", 9, "5c 4d", False),
        ("10-11", 10, "5c 5d", True),
        ("10-11", 11, "5c 6d", True),
    ],
)
def test_rule_10_double_on_key_for_hard_totals(play, double_on, hard_total, box, doubled):
    strat = make_strategy(hard={hard_total: "D"}, pairs={"5": "N"})
    # the first card drawn is 2s (the double, or a hit); later cards as needed
    _, (b,) = one_round(
        play(deal([box], "9h", then="2s Kh 9c 9d 8d"), NZ.replace(double_on=double_on), strat)
    )
    assert b.doubles == int(doubled)


@pytest.mark.parametrize("das, doubles, main", [(True, 1, 20 + 10), (False, 0, 10 + 10)])
def test_rule_10_double_after_split_key(play, das, doubles, main):
    # 8c 8d split; hand 1 gets 3c = 11, strategy D: doubles with DAS (draws 9d = 20),
    # else hits 9d = 20;
    # hand 2 gets Kh = 18 and stands; dealer Th 7c = 17
    strat = make_strategy(pairs={"8": "P"}, hard={11: "D"})
    rules = NZ.replace(double_after_split=das)
    r, (b,) = one_round(play(deal(["8c 8d"], "Th", then="3c 9d Kh 7c"), rules, strat))
    assert (b.hands, b.doubles, b.main, b.wins) == (2, doubles, main, 2)
    assert r.cards == 7


# =============================================================================================
# 11 splitting
# =============================================================================================
def test_rule_11_split_pair_makes_two_hands_each_with_the_wager(play):
    strat = make_strategy(pairs={"8": "P"})
    # hand 1: 8c 3c hits 9d = 20; hand 2: 8d 5h hits Qs = 23 bust; dealer Th 7c = 17
    r, (b,) = one_round(play(deal(["8c 8d"], "Th", then="3c 9d 5h Qs 7c"), strategies=strat))
    assert (b.hands, b.main, b.wins, b.losses, b.busts) == (2, 0, 1, 1, 1)
    assert r.cards == 8


def test_rule_11_two_ten_valued_cards_are_a_pair(play):
    strat = make_strategy(pairs={"10": "P"})
    # Kc Qd split: hand 1 Kc 9h = 19, hand 2 Qd 8s = 18; dealer 9c 9d = 18
    _, (b,) = one_round(play(deal(["Kc Qd"], "9c", then="9h 8s 9d"), strategies=strat))
    assert (b.hands, b.main, b.wins, b.pushes) == (2, 10, 1, 1)


@pytest.mark.parametrize(
    "max_hands, hands, main, used",
    [
        # 8c 8d; the next cards 8h 8s Tc Td Ts 9c; dealer 9h then its second card
        (1, 1, -10, 4),  # no split: 8c 8d = 16 stands (hard 16 S), dealer 9h 8h = 17
        (2, 2, -20, 6),  # hand 1 8c 8h = 16 may not split again (2 hands) and stands
        (3, 3, -30, 8),  # hands 8c 8s (16, cannot split), 8h Tc, 8d Td
        (4, 4, -40, 10),  # hands 8c Tc, 8s Td, 8h Ts, 8d 9c
    ],
)
def test_rule_11_max_hands_per_box(play, max_hands, hands, main, used):
    strat = make_strategy(pairs={"8": "P"}, hard={16: "S"})
    rules = NZ.replace(max_hands=max_hands)
    tail = {1: "8h", 2: "8h Tc Ts", 3: "8h 8s Tc Td Ts", 4: "8h 8s Tc Td Ts 9c Kc"}[max_hands]
    r, (b,) = one_round(play(deal(["8c 8d"], "9h", then=tail + " 5c 5c 5c"), rules, strat))
    assert (b.hands, b.main, b.losses) == (hands, main, hands)
    assert r.cards == used
    assert r.dealer_total in (17, 18, 19)


def test_rule_11_b_aces_split_once_one_card_each(play):
    # As Ad split: hand 1 gets Ac (A A may not be split again) and stands on soft 12 though the
    # strategy hits; hand 2 gets 5d: soft 16, stands; dealer 9h Th = 19
    strat = make_strategy(pairs={"A": "P"}, soft={12: "H", 16: "H"})
    r, (b,) = one_round(play(deal(["As Ad"], "9h", then="Ac 5d Th 2c 2d"), strategies=strat))
    assert (b.hands, b.main, b.losses) == (2, -20, 2)
    assert (r.cards, r.dealer_total) == (6, 19)


@pytest.mark.parametrize("hsa", [False, True])
def test_rule_11_b_resplit_aces_key(play, hsa):
    # resplit: hands As 5d (soft 16), Ac Th (21), Ad 9c (soft 20); dealer 9h Tc = 19. With
    # hit_split_aces too (a test audit: an engine and reference that both ignored resplit_aces
    # there passed), the same: soft 16 stands by the chart
    strat = make_strategy(pairs={"A": "P"}, soft={16: "S"})
    rules = NZ.replace(resplit_aces=True, hit_split_aces=hsa)
    r, (b,) = one_round(play(deal(["As Ad"], "9h", then="Ac 5d Th 9c Tc"), rules, strat))
    assert (b.hands, b.main, b.wins, b.losses, b.bj) == (3, 10, 2, 1, 0)
    assert r.cards == 8


@pytest.mark.parametrize("hsa, main, used", [(False, -20, 6), (True, 20, 7)])
def test_rule_11_b_hit_split_aces_key(play, hsa, main, used):
    # As Ad split. Without hit_split_aces: As 5d (16) and Ad 4c (15) stand; dealer 9h 9c = 18.
    # With it: As 5d hits 4c = soft 20, Ad 9c = soft 20; dealer 9h Tc = 19.
    strat = make_strategy(pairs={"A": "P"})
    rules = NZ.replace(hit_split_aces=hsa)
    r, (b,) = one_round(play(deal(["As Ad"], "9h", then="5d 4c 9c Tc"), rules, strat))
    assert (b.hands, b.main) == (2, main)
    assert r.cards == used


@pytest.mark.parametrize("hsa, doubles, main, used", [(True, 1, 30, 8), (False, 0, 20, 7)])
def test_rule_10_a_split_ace_hit_on_may_double_where_soft_doubles_are_allowed(play, hsa, doubles,
                                                                            main, used):
    # double_on = "any", DAS, hit_split_aces: As 5d (soft 16, D) doubles, draws 3c (soft 19, 2
    # units); Ad 9c soft 20; dealer 6h Tc 8c busts. Without hit_split_aces a split ace takes one
    # card: As 5d and Ad 3c stand, dealer 6h 9c Tc busts (a test audit: an engine and reference
    # that both refused the double passed)
    strat = make_strategy(pairs={"A": "P"}, soft={16: "D"})
    rules = NZ.replace(hit_split_aces=hsa, double_on="any")
    r, (b,) = one_round(play(deal(["As Ad"], "6h", then="5d 3c 9c Tc 8c 8c"), rules, strat))
    assert (b.hands, b.doubles, b.main, b.wins) == (2, doubles, main, 2)
    assert r.cards == used


def test_rule_11_b_hit_split_aces_without_resplit_plays_aces_as_soft_12(play):
    # hit_split_aces, no resplit: As Ac is soft 12, played from the soft table (H):
    # draws 7c = soft 19;
    # hand 2 Ad 9c = soft 20; dealer 9h Tc = 19
    strat = make_strategy(pairs={"A": "P"})
    rules = NZ.replace(hit_split_aces=True)
    r, (b,) = one_round(play(deal(["As Ad"], "9h", then="Ac 7c 9c Tc"), rules, strat))
    assert (b.hands, b.main, b.wins, b.pushes) == (2, 10, 1, 1)
    assert (r.cards, r.dealer_total) == (7, 19)


def test_rule_11_c_two_card_21_after_splitting_aces_is_not_blackjack(play):
    # hands As Kc and Ad Kd are 21s (not blackjacks): the dealer keeps drawing, 9h 5c 7s = 21
    strat = make_strategy(pairs={"A": "P"})
    r, (b,) = one_round(play(deal(["As Ad"], "9h", then="Kc Kd 5c 7s"), strategies=strat))
    assert (r.dealer_cards, r.dealer_total) == (3, 21)
    assert (b.hands, b.main, b.pushes, b.bj) == (2, 0, 2, 0)


def test_rule_11_c_two_card_21_after_splitting_tens_wins_even_money_only(play):
    strat = make_strategy(pairs={"10": "P"})
    _, (b,) = one_round(play(deal(["Kc Qd"], "9h", then="As Ad Th"), strategies=strat))
    assert (b.hands, b.main, b.wins, b.bj) == (2, 20, 2, 0)


def test_rule_11_5_declined_pair_is_played_from_hard_table(play):
    # 8c 8d, pair table N: the box declines (11.5) and plays hard 16 (S)
    strat = make_strategy(pairs={"8": "N"}, hard={16: "S"})
    r, (b,) = one_round(play(deal(["8c 8d"], "9h", then="9c"), strategies=strat))
    assert (b.hands, b.main) == (1, -10)
    assert r.cards == 4


def test_rule_11_5_no_split_after_a_declined_split(play):
    # Super Sevens 7c 7d split by the sevens row (P); hand 1 7c 7h: pair table N, declined (11.5),
    # hits 5s = 19; hand 2 7d 7s: a pair again, may not be split: hits 4c = 18; dealer Th 8c = 18
    strat = make_strategy(sevens={"*": "P"}, pairs={"7": "N"}, hard={14: "H"})
    r, (b,) = one_round(play(deal(["7c 7d"], "Th", then="7h 5s 7s 4c 8c"), strategies=strat))
    assert (b.hands, b.main, b.wins, b.pushes) == (2, 10, 1, 1)
    assert (b.ss_line, b.ss) == (1, 50)
    assert r.cards == 8


# =============================================================================================
# 12 drawing
# =============================================================================================
@pytest.mark.parametrize("box, then", [("5c 6d", "Tc 9c"), ("As 5d", "5c 9c")])
def test_rule_12_1_a_no_card_on_21_whatever_the_strategy(play, box, then):
    # hard 11 hits Tc = 21 / soft 16 hits 5c = soft 21;
    # the strategy says H on 21 but the hand stands
    strat = make_strategy(hard={21: "H"}, soft={21: "H"})
    r, (b,) = one_round(play(deal([box], "9h", then=then + " 2c"), strategies=strat))
    assert (b.main, b.wins) == (10, 1)
    assert (r.cards, r.dealer_total) == (5, 18)


def test_rule_12_1_a_blackjack_draws_no_card(play):
    strat = make_strategy(soft={21: "H"})
    r, (b,) = one_round(play(deal(["As Kd"], "9h", then="2c"), strategies=strat))
    assert (b.main, r.cards) == (15, 3)


def test_rule_12_1_b_doubled_hand_gets_exactly_one_card_even_if_11_or_less(play):
    # 5c 4d doubles and draws 2c = 11: one card only (12.1 (d) does not apply); dealer Th 7d = 17
    strat = make_strategy(hard={9: "D"})
    r, (b,) = one_round(play(deal(["5c 4d"], "Th", then="2c 7d 9c"), strategies=strat))
    assert (b.main, b.doubles, b.losses) == (-20, 1, 1)
    assert (r.cards, r.dealer_total) == (5, 17)


def test_rule_12_1_c_split_aces_get_one_card_each(play):
    # soft table says H everywhere but each split ace gets one card only
    strat = make_strategy(pairs={"A": "P"}, soft={t: "H" for t in range(12, 22)})
    r, (b,) = one_round(play(deal(["As Ad"], "7h", then="2c 3d Th 9c"), strategies=strat))
    assert (b.hands, r.cards, r.dealer_total) == (2, 6, 17)
    assert (b.main, b.losses) == (-20, 2)  # soft 13 and soft 14 lose to 17


def test_rule_12_1_d_11_or_less_must_draw_whatever_the_strategy(play):
    # a strategy that always stands: 5c 4d (9) draws 2c (11) draws 5h = 16, stands; dealer Th 7d
    stand = make_strategy(hard={t: "S" for t in range(4, 22)}, soft={t: "S" for t in range(12, 22)})
    r, (b,) = one_round(play(deal(["5c 4d"], "Th", then="2c 5h 7d"), strategies=stand))
    assert (r.cards, b.main, b.losses) == (6, -10, 1)


def test_rule_12_1_d_a_split_hand_of_11_or_less_must_draw_too(play):
    # 2c 2d split against 7h by a strategy that stands on every hard total: 2c 3d (5) draws Tc
    # (15), 2d 3h (5) draws Th (15); dealer 7h Ts = 17 (a test audit: split hands left out of
    # 12.1 (d) in engine and reference alike passed every hand-built test)
    stand = make_strategy(hard={t: "S" for t in range(4, 22)}, pairs={"2": "P"})
    r, (b,) = one_round(play(deal(["2c 2d"], "7h", then="3d Tc 3h Th Ts"), strategies=stand))
    assert (b.hands, b.main, b.losses) == (2, -20, 2)
    assert (r.cards, r.dealer_total) == (8, 17)


def test_rule_12_1_d_ds_that_cannot_double_draws_on_11_or_less(play):
    # double_on 10-11: hard 9 Ds may not double, would stand, so must draw: 5c 4d 9h = 18
    strat = make_strategy(hard={9: "Ds"})
    rules = NZ.replace(double_on="10-11")
    r, (b,) = one_round(play(deal(["5c 4d"], "Th", then="9h 7d"), rules, strat))
    assert (b.doubles, b.main, r.cards) == (0, 10, 5)


def test_rule_12_1_d_doubling_still_allowed_on_11_or_less(play):
    strat = make_strategy(hard={10: "Ds"})
    r, (b,) = one_round(play(deal(["6c 4d"], "Th", then="Kc 7d"), strategies=strat))
    assert (b.doubles, b.main, r.cards) == (1, 20, 5)


def test_rule_12_2_bust_loses_at_once_and_dealer_draws_nothing(play):
    r, (b,) = one_round(play(deal(["Tc 6d"], "7h", then="9s 5c Kd")))
    assert (b.main, b.busts, b.losses) == (-10, 1, 1)
    assert (r.cards, r.dealer_cards, r.dealer_total) == (4, 1, 7)


def test_rule_12_2_doubled_bust_loses_both_wagers(play):
    strat = make_strategy(hard={16: "D"})
    r, (b,) = one_round(play(deal(["Tc 6d"], "7h", then="9s 5c Kd"), strategies=strat))
    assert (b.main, b.busts, b.doubles, b.losses) == (-20, 1, 1, 1)
    assert r.dealer_cards == 1


def test_rule_12_3_dealer_draws_to_17_and_stands_on_soft_17(play):
    # dealer 6h Ac is a soft 17: stands
    r, (b,) = one_round(play(deal(["Tc 8d"], "6h", then="Ac Th")))
    assert (r.dealer_cards, r.dealer_total) == (2, 17)
    assert b.main == 10


def test_rule_12_3_dealer_draws_below_17(play):
    r, (b,) = one_round(play(deal(["Tc 8d"], "5h", then="2c 4d 3s 9c")))
    # 5 2 4 3 = 14, draws 9c = 23
    assert (r.dealer_cards, r.dealer_total) == (5, 23)
    assert b.main == 10


def test_rule_12_3_dealer_hits_soft_17_key(play):
    rules = NZ.replace(dealer_hits_soft_17=True)
    # 6h Ac soft 17 draws Th: hard 17, stands
    r, (b,) = one_round(play(deal(["Tc 8d"], "6h", then="Ac Th 5c"), rules))
    assert (r.dealer_cards, r.dealer_total) == (3, 17)
    assert b.main == 10


def test_rule_12_3_dealer_hits_soft_17_stands_on_hard_17(play):
    rules = NZ.replace(dealer_hits_soft_17=True)
    r, _ = one_round(play(deal(["Tc 8d"], "Th", then="7c 5c"), rules))
    assert (r.dealer_cards, r.dealer_total) == (2, 17)


@pytest.mark.parametrize(
    "draws, dealer_cards, dealer_total, used", [(False, 1, 7, 4), (True, 3, 22, 6)]
)
def test_rule_12_4_dealer_draws_when_no_live_box_key(play, draws, dealer_cards, dealer_total, used):
    rules = NZ.replace(dealer_draws_when_no_live_box=draws)
    # box busts (Tc 6d 9s); dealer 7h 5c Kd = 22 only if it completes its hand anyway
    r, (b,) = one_round(play(deal(["Tc 6d"], "7h", then="9s 5c Kd"), rules))
    assert (r.dealer_cards, r.dealer_total, r.cards) == (dealer_cards, dealer_total, used)
    assert b.main == -10


@pytest.mark.parametrize("up, then, dealer_cards, dealer_total", [
    ("Th", "5c 6d 9h", 3, 21), ("Ah", "5c 2d 9h", 3, 18), ("9h", "5c", 1, 9)])
def test_rule_12_4_a_waiting_blackjack_keeps_the_dealer_drawing(play, up, then, dealer_cards,
                                                                dealer_total):
    # 12.4's exception (nothing left to decide) is not for a blackjack that waits: 8.2, "the
    # dealer shall complete his/her hand" (Th 5c 6d = 21; Ah 5c 2d = soft 18, even money
    # declined); against a 9 the blackjack is paid at once and the dealer draws nothing
    r, (b,) = one_round(play(deal(["As Kd"], up, then=then)))
    assert (r.dealer_cards, r.dealer_total) == (dealer_cards, dealer_total)
    assert b.main == 15


# =============================================================================================
# Dealer blackjack against doubled and split hands (no hole card)
# =============================================================================================
@pytest.mark.parametrize(
    "takes, main, losses, pushes",
    [("all", -30, 2, 0), ("original-and-busted", -20, 2, 0), ("original", -10, 1, 1)],
)
def test_dealer_blackjack_takes_key_with_double_split_and_bust(play, takes, main, losses, pushes):
    # 8c 8d split; hand 1 8c 3c doubles (DAS) to 8c 3c 9d = 20, wager 2; hand 2 8d 5h Qs busts
    # (lost at 12.2); dealer Th Ac blackjack
    strat = make_strategy(pairs={"8": "P"}, hard={11: "D"})
    rules = NZ.replace(dealer_blackjack_takes=takes)
    r, (b,) = one_round(play(deal(["8c 8d"], "Th", then="3c 9d 5h Qs Ac"), rules, strat))
    assert r.dealer_bj == 1
    assert (b.main, b.losses, b.pushes) == (main, losses, pushes)
    assert (b.hands, b.doubles, b.busts) == (2, 1, 1)


@pytest.mark.parametrize("takes, main, losses, pushes",
                         [("all", -20, 2, 0), ("original-and-busted", -20, 2, 0),
                          ("original", -10, 1, 1)])
def test_dealer_blackjack_takes_key_when_the_first_split_hand_busted(play, takes, main, losses,
                                                                     pushes):
    # 8c 8d split; hand 1 8c 5h hits Qs, busts; hand 2 8d Tc = 18 stands; dealer Th Ac. The
    # standing hand is the first unbusted one: original-and-busted takes its 10 too ("busted
    # bets plus one"; a test audit: a busted first hand taken for the original wager passed
    # every hand-built test)
    strat = make_strategy(pairs={"8": "P"})
    rules = NZ.replace(dealer_blackjack_takes=takes)
    r, (b,) = one_round(play(deal(["8c 8d"], "Th", then="5h Qs Tc Ac"), rules, strat))
    assert r.dealer_bj == 1
    assert (b.main, b.losses, b.pushes, b.hands, b.busts) == (main, losses, pushes, 2, 1)


@pytest.mark.parametrize(
    "takes, main, losses, pushes",
    [("all", -20, 2, 0), ("original-and-busted", -10, 1, 1), ("original", -10, 1, 1)],
)
def test_dealer_blackjack_takes_key_with_two_standing_split_hands(
    play, takes, main, losses, pushes
):
    strat = make_strategy(pairs={"8": "P"})
    rules = NZ.replace(dealer_blackjack_takes=takes)
    _, (b,) = one_round(play(deal(["8c 8d"], "Th", then="Tc Td Ac"), rules, strat))
    assert (b.main, b.losses, b.pushes, b.hands) == (main, losses, pushes, 2)


@pytest.mark.parametrize(
    "takes, dealer_cards, main",
    [("original-and-busted", 1, -20), ("all", 1, -20), ("original", 2, -10)],
)
def test_dealer_blackjack_takes_original_returns_busted_wagers(play, takes, dealer_cards, main):
    # a doubled hand busts against a ten; only under "original" does the dealer's blackjack matter,
    # so only then is the second card (Ac) drawn
    strat = make_strategy(hard={16: "D"})
    rules = NZ.replace(dealer_blackjack_takes=takes)
    r, (b,) = one_round(play(deal(["Tc 6d"], "Th", then="9s Ac"), rules, strat))
    assert (r.dealer_cards, b.main, b.busts) == (dealer_cards, main, 1)


# =============================================================================================
# Peek (US hole card) variant
# =============================================================================================
PEEK = NZ.replace(hole_card="peek")


def test_peek_dealer_blackjack_ends_round_before_any_double(play):
    strat = make_strategy(hard={11: "D"})
    r, (b,) = one_round(play(deal(["5c 6d"], "Th", hole="Ac", then="9c"), PEEK, strat))
    assert (r.dealer_bj, r.dealer_cards, r.cards) == (1, 2, 4)
    assert (b.main, b.doubles, b.losses) == (-10, 0, 1)


def test_peek_dealer_blackjack_blackjack_stands_off_insurance_wins(play):
    rules = PEEK.replace(boxes=2)
    strats = [MIMIC, make_strategy(insurance=True)]
    r, (b1, b2) = one_round(play(deal(["As Kd", "Tc 9d"], "Ah", hole="Kc"), rules, strats), 2)
    assert (r.dealer_bj, r.cards) == (1, 6)
    assert (b1.main, b1.pushes, b1.bj) == (0, 1, 1)
    assert (b2.main, b2.ins, b2.ins_taken) == (-10, 10, 1)


def test_peek_no_blackjack_insurance_lost_blackjack_paid_play_goes_on(play):
    rules = PEEK.replace(boxes=2)
    strats = [MIMIC, make_strategy(insurance=True)]
    r, (b1, b2) = one_round(play(deal(["As Kd", "Tc 9d"], "Ah", hole="7c"), rules, strats), 2)
    assert (r.dealer_bj, r.dealer_cards, r.dealer_total) == (0, 2, 18)
    assert (b1.main, b1.bj) == (15, 1)
    assert (b2.main, b2.ins) == (10, -5)


def test_peek_hole_card_dealt_before_the_boxes_draw(play):
    # Tc 6d hits: it gets 3s, not the hole card 8c
    r, (b,) = one_round(play(deal(["Tc 6d"], "9h", hole="8c", then="3s"), PEEK))
    assert (b.main, r.dealer_total, r.cards) == (10, 17, 5)


def test_peek_blackjack_against_ten_paid_at_once(play):
    # peek game: after the peek (no blackjack) the blackjack is paid; dealer takes no more cards
    r, (b,) = one_round(play(deal(["As Kd"], "Th", hole="5c", then="6d"), PEEK))
    assert (b.main, r.dealer_cards, r.cards) == (15, 2, 4)


# =============================================================================================
# Surrender variants
# =============================================================================================
LATE = NZ.replace(surrender="late")
EARLY = NZ.replace(surrender="early")
SURR16 = make_strategy(hard={16: "Rh"})


def test_surrender_late_loses_half_against_small_card(play):
    r, (b,) = one_round(play(deal(["Tc 6d"], "9h", then="Kc"), LATE, SURR16))
    assert (b.main, b.surrenders, b.losses) == (-5, 1, 1)
    assert (r.dealer_cards, r.cards) == (1, 3)


def test_surrender_late_no_hole_loses_whole_wager_if_dealer_makes_blackjack(play):
    r, (b,) = one_round(play(deal(["Tc 6d"], "Th", then="Ac"), LATE, SURR16))
    assert (r.dealer_bj, r.dealer_cards) == (1, 2)
    assert (b.main, b.surrenders, b.losses) == (-10, 1, 1)


def test_surrender_late_no_hole_half_when_dealer_has_no_blackjack(play):
    r, (b,) = one_round(play(deal(["Tc 6d"], "Th", then="5c Kc"), LATE, SURR16))
    assert (r.dealer_cards, r.dealer_total) == (2, 15)
    assert (b.main, b.surrenders) == (-5, 1)


@pytest.mark.parametrize("then, dealer_bj, ins", [("Kc", 1, 10), ("9c", 0, -5)])
def test_rule_9_an_early_surrender_s_insurance_is_settled_by_the_dealer_s_second_card(
        play, then, dealer_bj, ins):
    # Tc 6d against Ah: insured (5), then surrendered early (-5 whatever the dealer has); the
    # insurance is the dealer's second card's: Kc pays 2 to 1, 9c loses it (a test audit: a
    # voided insurance passed every hand-built test)
    strat = make_strategy(hard={16: "Rh"}, insurance=True)
    r, (b,) = one_round(play(deal(["Tc 6d"], "Ah", then=then), EARLY, strat))
    assert (r.dealer_bj, r.dealer_cards) == (dealer_bj, 2)
    assert (b.main, b.surrenders, b.ins_taken, b.ins) == (-5, 1, 1, ins)


def test_surrender_late_peek(play):
    r, (b,) = one_round(
        play(deal(["Tc 6d"], "Th", hole="7c"), LATE.replace(hole_card="peek"), SURR16)
    )
    assert (b.main, b.surrenders, r.cards) == (-5, 1, 4)


def test_surrender_late_peek_dealer_blackjack_takes_the_whole_wager(play):
    # peek: the dealer's Th As is seen before any play, so late surrender comes too late: the
    # whole wager lost (a mutation audit: an engine letting it stand passed every hand-built
    # test, the agreement and recorded tallies alone failing)
    r, (b,) = one_round(
        play(deal(["Tc 6d"], "Th", hole="As"), LATE.replace(hole_card="peek"), SURR16))
    assert (r.dealer_bj, r.cards) == (1, 4)
    assert (b.main, b.surrenders, b.losses) == (-10, 0, 1)


def test_surrender_rh_hits_when_surrender_not_offered(play):
    # no surrender: Tc 5d (Rh) hits 3s = 18, stands; dealer 9h 9c = 18
    r, (b,) = one_round(
        play(deal(["Tc 5d"], "9h", then="3s 9c"), NZ, make_strategy(hard={15: "Rh"}))
    )
    assert (b.surrenders, b.main, b.pushes, r.cards) == (0, 0, 1, 5)


def test_surrender_late_only_on_the_first_two_cards(play):
    # Tc 2d hits 4s = 16 (Rh): three cards, may not surrender: hits 2c = 18; dealer 9h 9c = 18
    strat = make_strategy(hard={16: "Rh"})
    r, (b,) = one_round(play(deal(["Tc 2d"], "9h", then="4s 2c 9c"), LATE, strat))
    assert (b.surrenders, b.main, b.pushes, r.cards) == (0, 0, 1, 6)


def test_surrender_late_not_after_a_split(play):
    # 9c 9d split; hand 1 9c 7h = 16 says Rh but may not surrender after a split: hits 2c = 18;
    # hand 2 9d Kh = 19; dealer Th 8s = 18
    strat = make_strategy(pairs={"9": "P"}, hard={16: "Rh"})
    _, (b,) = one_round(play(deal(["9c 9d"], "Th", then="7h 2c Kh 8s"), LATE, strat))
    assert (b.surrenders, b.hands, b.main, b.wins, b.pushes) == (0, 2, 10, 1, 1)


@pytest.mark.parametrize(
    "surrender, main, hands, surrenders", [("late", -5, 1, 1), ("none", -20, 2, 0)]
)
def test_surrender_rp_pair_surrenders_else_splits(play, surrender, main, hands, surrenders):
    # 8c 8d says Rp: surrender with late surrender; otherwise split: 8c Tc, 8d Td (18 each) v 9h Kh
    strat = make_strategy(pairs={"8": "Rp"})
    _, (b,) = one_round(
        play(deal(["8c 8d"], "9h", then="Tc Td Kh"), NZ.replace(surrender=surrender), strat)
    )
    assert (b.main, b.hands, b.surrenders) == (main, hands, surrenders)


def test_surrender_rs_stands_when_not_allowed(play):
    strat = make_strategy(hard={16: "Rs"})
    r, (b,) = one_round(play(deal(["Tc 6d"], "9h", then="Kc 5s"), NZ, strat))
    assert (b.surrenders, r.cards, b.main) == (0, 4, -10)


def test_surrender_early_loses_half_even_against_dealer_blackjack(play):
    rules = EARLY.replace(boxes=2)
    # box 1 surrenders early; box 2 stands on 19 and loses to the dealer's Th Ac
    r, (b1, b2) = one_round(
        play(deal(["Tc 6d", "Tc 9d"], "Th", then="Ac"), rules, [SURR16, MIMIC]), 2
    )
    assert r.dealer_bj == 1
    assert (b1.main, b1.surrenders, b1.losses) == (-5, 1, 1)
    assert b2.main == -10


def test_surrender_early_dealer_draws_nothing_for_it(play):
    r, (b,) = one_round(play(deal(["Tc 6d"], "Th", then="Ac"), EARLY, SURR16))
    assert (r.dealer_cards, r.cards, b.main) == (1, 3, -5)


def test_surrender_early_before_the_peek(play):
    rules = EARLY.replace(hole_card="peek")
    r, (b,) = one_round(play(deal(["Tc 6d"], "Th", hole="Ac"), rules, SURR16))
    assert (r.dealer_bj, b.main, b.surrenders) == (1, -5, 1)


def test_surrender_early_never_on_a_blackjack(play):
    strat = make_strategy(soft={21: "Rs"})
    _, (b,) = one_round(play(deal(["As Kd"], "Th", then="5c 2c"), EARLY, strat))
    assert (b.main, b.surrenders) == (15, 0)


# =============================================================================================
# 13 several boxes
# =============================================================================================
def test_rule_13_boxes_play_in_order_each_with_its_own_strategy(play):
    rules = NZ.replace(boxes=3)
    strats = [make_strategy(hard={12: "S"}), MIMIC, make_strategy(hard={11: "D"})]
    # box 1 Tc 2d stands on 12; box 2 Th 2s hits 9c = 21; box 3 6c 5d doubles Kc = 21;
    # dealer 6h Ts 8d = 24
    c = cards("Tc Th 6c 6h 2d 2s 5d 9c Kc Ts 8d")
    r, (b1, b2, b3) = one_round(play(c, rules, strats), 3)
    assert (b1.main, b2.main, b3.main, b3.doubles) == (10, 10, 20, 1)
    assert (r.cards, r.dealer_total) == (11, 24)


def test_rule_13_a_busted_box_does_not_stop_the_dealer_for_the_others(play):
    rules = NZ.replace(boxes=2)
    r, (b1, b2) = one_round(play(deal(["Tc 6d", "Tc 8d"], "9h", then="Kc 9c"), rules), 2)
    assert (b1.main, b1.busts, b2.main, r.dealer_total) == (-10, 1, 0, 18)


# =============================================================================================
# 14 Super Sevens
# =============================================================================================
def test_rule_14_3_a_first_card_seven_second_not(play):
    _, (b,) = one_round(play(deal(["7c Kd"], "Th", then="8c")))
    assert (b.ss_line, b.ss, b.main) == (0, 3, -10)


def test_rule_14_3_b_two_sevens_different_suits_third_not_seven(play):
    strat = make_strategy(sevens={"*": "H"})
    _, (b,) = one_round(play(deal(["7c 7d"], "Th", then="5h 8c"), strategies=strat))
    assert (b.ss_line, b.ss, b.main) == (1, 50, 10)  # 7 7 5 = 19 beats 18


def test_rule_14_3_b_two_sevens_standing_no_third_card(play):
    strat = make_strategy(sevens={"*": "S"})
    _, (b,) = one_round(play(deal(["7c 7d"], "Th", then="8c"), strategies=strat))
    assert (b.ss_line, b.ss, b.main) == (1, 50, -10)


def test_rule_14_3_c_two_sevens_same_suit(play):
    strat = make_strategy(sevens={"*": "S"})
    _, (b,) = one_round(play(deal(["7c 7c"], "Th", then="8c"), strategies=strat))
    assert (b.ss_line, b.ss) == (2, 100)


def test_rule_14_3_d_three_sevens_not_one_suit_by_hit(play):
    strat = make_strategy(sevens={"*": "H"})
    r, (b,) = one_round(play(deal(["7c 7c"], "Th", then="7h 8c"), strategies=strat))
    assert (b.ss_line, b.ss, b.main) == (3, 500, 10)
    assert r.cards == 5


@pytest.mark.parametrize("third", ["7c", "7d"])
def test_rule_14_3_d_a_third_seven_of_one_of_the_first_two_suits_after_unsuited_sevens(play,
                                                                                     third):
    # 7c 7d (two suits) hits a seven of the first card's suit or the second's: the three are not
    # one suit, so (d) (a mutation audit: engine and reference both taking the first for (e)
    # failed only the recorded tallies)
    strat = make_strategy(sevens={"*": "H"})
    r, (b,) = one_round(play(deal(["7c 7d"], "Th", then=f"{third} 8c"), strategies=strat))
    assert (b.ss_line, b.ss, b.main) == (3, 500, 10)
    assert r.cards == 5


def test_rule_14_3_d_three_sevens_by_double(play):
    strat = make_strategy(sevens={"*": "D"})
    _, (b,) = one_round(play(deal(["7c 7d"], "Th", then="7h 8c"), strategies=strat))
    assert (b.ss_line, b.ss, b.main, b.doubles) == (3, 500, 20, 1)


def test_rule_14_3_e_three_sevens_one_suit(play):
    strat = make_strategy(sevens={"*": "H"})
    _, (b,) = one_round(play(deal(["7s 7s"], "Th", then="7s 8c"), strategies=strat))
    assert (b.ss_line, b.ss) == (4, 5000)


@pytest.mark.parametrize("box", ["Kd 7c", "2c 7d", "As Kd"])
def test_rule_14_3_f_first_card_not_a_seven_loses(play, box):
    _, (b,) = one_round(play(deal([box], "9h", then="Th Th Th")))
    assert (b.ss_line, b.ss) == (5, -1)


def test_rule_14_4_split_sevens_paid_at_once_whatever_comes_next(play):
    # sevens row P: 7c 7d split, paid (b) at once though hand 1 then gets 7h
    strat = make_strategy(sevens={"*": "P"}, pairs={"7": "N"})
    r, (b,) = one_round(play(deal(["7c 7d"], "Th", then="7h 4c Ks 9d"), strategies=strat))
    assert (b.ss_line, b.ss, b.hands) == (1, 50, 2)
    assert (b.main, r.cards) == (-20, 7)


def test_rule_14_4_split_sevens_same_suit_paid_100(play):
    strat = make_strategy(sevens={"*": "P"})
    _, (b,) = one_round(play(deal(["7h 7h"], "Th", then="Kc Ks 7d"), strategies=strat))
    assert (b.ss_line, b.ss, b.hands, b.main) == (2, 100, 2, 0)


def test_rule_14_4_sevens_row_decides_not_the_pair_table(play):
    # pair table says P but the sevens row says S: the box stands on 14
    strat = make_strategy(sevens={"*": "S"}, pairs={"7": "P"})
    _, (b,) = one_round(play(deal(["7c 7d"], "Th", then="8c"), strategies=strat))
    assert (b.hands, b.main, b.ss_line) == (1, -10, 1)


def test_rule_14_4_sevens_row_p_without_a_split_plays_the_hard_table(play):
    # max_hands 1: P is impossible; hard 14 (H) decides: hits 7h, (d)
    strat = make_strategy(sevens={"*": "P"}, hard={14: "H"})
    _, (b,) = one_round(play(deal(["7c 7d"], "Th", then="7h 8c"), NZ.replace(max_hands=1), strat))
    assert (b.hands, b.ss_line, b.ss, b.main) == (1, 3, 500, 10)


def test_rule_14_4_sevens_row_decides_without_a_split_too(play):
    # max_hands 1: the sevens row still decides where it is not P (H here; hard 14 says S):
    # the box hits 7h, (d); the exact analyzer had read the hard 14 cell here
    strat = make_strategy(sevens={"*": "H"}, hard={14: "S"})
    _, (b,) = one_round(play(deal(["7c 7d"], "Th", then="7h 8c"), NZ.replace(max_hands=1), strat))
    assert (b.hands, b.ss_line, b.ss, b.main) == (1, 3, 500, 10)


@pytest.mark.parametrize("code", ["Rh", "Rs"])
def test_rule_14_4_sevens_row_surrenders_early_no_third_card(play, code):
    # early surrender: 7c 7d v Th (Rh/Rs) surrenders before the dealer's card, -5 even against
    # the blackjack; the side bet stays on (b) with no third card (the 7h left in the shoe is
    # not dealt to the box); the dealer draws nothing for it
    strat = make_strategy(sevens={"*": code}, hard={14: "H"})
    r, (b,) = one_round(play(deal(["7c 7d"], "Th", then="Ac 7h"), EARLY, strat))
    assert (b.main, b.surrenders, b.losses, b.hands) == (-5, 1, 1, 1)
    assert (b.ss_line, b.ss) == (1, 50)
    assert (r.cards, r.dealer_cards) == (3, 1)


def test_rule_14_4_sevens_row_surrenders_early_suited_sevens_line_c(play):
    strat = make_strategy(sevens={"A": "Rh"})
    r, (b,) = one_round(play(deal(["7h 7h"], "Ac", then="Kd 7h"), EARLY, strat))
    assert (b.main, b.surrenders, b.ss_line, b.ss, r.cards) == (-5, 1, 2, 100, 3)


def test_rule_14_4_sevens_row_surrenders_late_no_third_card(play):
    # late surrender, no hole card: against a 9 nothing depends on the dealer's card: -5, (b)
    strat = make_strategy(sevens={"9": "Rs"})
    r, (b,) = one_round(play(deal(["7c 7d"], "9h", then="7h Kc"), LATE, strat))
    assert (b.main, b.surrenders, b.ss_line, b.ss) == (-5, 1, 1, 50)
    assert (r.cards, r.dealer_cards) == (3, 1)


def test_rule_14_4_sevens_row_surrenders_late_dealer_blackjack_takes_the_wager(play):
    # late surrender against a ten, no hole card: the dealer's Ac makes blackjack and takes the
    # whole wager (as for any late surrender); the side bet is (b), no third card
    strat = make_strategy(sevens={"10": "Rh"})
    r, (b,) = one_round(play(deal(["7c 7d"], "Th", then="Ac"), LATE, strat))
    assert (r.dealer_bj, b.main, b.surrenders, b.ss_line, b.ss) == (1, -10, 1, 1, 50)


def test_rule_14_4_sevens_row_surrenders_late_peek(play):
    strat = make_strategy(sevens={"10": "Rh"})
    rules = LATE.replace(hole_card="peek")
    r, (b,) = one_round(play(deal(["7c 7d"], "Th", hole="9c", then="7h"), rules, strat))
    assert (b.main, b.surrenders, b.ss_line, b.ss, r.cards) == (-5, 1, 1, 50, 4)


@pytest.mark.parametrize(
    "surrender, main, hands, line, ss",
    [("late", -5, 1, 1, 50), ("early", -5, 1, 1, 50), ("none", 10, 1, 3, 500)],
)
def test_rule_14_4_sevens_row_rh_surrenders_else_hits(play, surrender, main, hands, line, ss):
    # Rh: surrender where the rules allow it (no third card: (b)); else hit: 7h makes 21 and (d)
    strat = make_strategy(sevens={"*": "Rh"})
    rules = NZ.replace(surrender=surrender)
    _, (b,) = one_round(play(deal(["7c 7d"], "9h", then="7h 9c"), rules, strat))
    assert (b.main, b.hands, b.ss_line, b.ss) == (main, hands, line, ss)


@pytest.mark.parametrize(
    "surrender, max_hands, main, hands, line, ss",
    [("late", 3, -5, 1, 1, 50), ("none", 3, 0, 2, 1, 50), ("none", 1, 10, 1, 3, 500)],
)
def test_rule_14_4_sevens_row_rp_surrenders_else_splits(play, surrender, max_hands, main, hands,
                                                        line, ss):
    # Rp: surrender where allowed; else split (paid (b) at once: 7c Kc 17, 7d Kd 17 v 9h 8c 17);
    # else (max_hands 1) the hard 14 row: hits 7h, 21, (d)
    strat = make_strategy(sevens={"*": "Rp"}, hard={14: "H"})
    rules = NZ.replace(surrender=surrender, max_hands=max_hands)
    then = "7h 8c" if max_hands == 1 else "Kc Kd 8c"
    _, (b,) = one_round(play(deal(["7c 7d"], "9h", then=then), rules, strat))
    assert (b.main, b.hands, b.ss_line, b.ss) == (main, hands, line, ss)


def test_rule_14_super_sevens_no_third_card_when_peek_ends_round(play):
    r, (b,) = one_round(play(deal(["7c 7d"], "Th", hole="As"), PEEK))
    assert (r.dealer_bj, b.ss_line, b.ss, b.main) == (1, 1, 50, -10)


def test_rule_14_super_sevens_off(play):
    # no bet: line -1, net 0; 7-7 is played from the pair table (N) and hard 14 (S)
    strat = make_strategy(sevens={"*": "P"}, hard={14: "S"})
    _, (b,) = one_round(
        play(deal(["7c 7d"], "Th", then="8c"), NZ.replace(super_sevens=False), strat)
    )
    assert (b.ss_line, b.ss, b.hands, b.main) == (-1, 0, 1, -10)


def test_rule_14_super_sevens_pays_key(play):
    rules = NZ.replace(super_sevens_pays=(5, 60, 120, 600, 6000))
    strat = make_strategy(sevens={"*": "H"})
    _, (b1, b2) = one_round(
        play(deal(["7c Kd", "7s 7s"], "Th", then="7s 8c"), rules.replace(boxes=2), strat), 2
    )
    assert (b1.ss_line, b1.ss) == (0, 5)
    assert (b2.ss_line, b2.ss) == (4, 6000)


# =============================================================================================
# Reference game only: the trace (events), text and JSON
# =============================================================================================
def _events(c, rules=NZ, strategies=MIMIC):
    (result,) = reference.play_stacked(c, rules, strategies)
    return result


def test_reference_events_cite_rules():
    res = _events(deal(["As Kd"], "Th", then="6c 2c"))
    assert [e.what for e in res.events if e.rule == "8.2"][-2:] == ["completes the hand",
                                                                   "wins +1.5"]
    settle = [e for e in res.events if e.what.startswith("wins")]
    assert (
        settle
        and settle[0].rule == "8.2"
        and "3 to 2" in settle[0].why
        and "+1.5" in settle[0].what
    )
    stand = make_strategy(hard={t: "S" for t in range(4, 22)})
    res = _events(deal(["5c 4d"], "Th", then="2c 5h 7d"), strategies=stand)
    forced = [e for e in res.events if e.rule == "12.1 (d)"]
    assert len(forced) == 2 and all("hard" in e.why and "= S" in e.why for e in forced)
    res = _events(deal(["8c 8d"], "9h", then="9c"), strategies=make_strategy(pairs={"8": "N"}))
    assert any(e.rule == "11.5" for e in res.events)
    res = _events(deal(["5c 6d"], "9h", then="Tc 9c"), strategies=make_strategy(hard={21: "H"}))
    assert any(e.rule == "12.1 (a)" for e in res.events)


def test_reference_events_say_why_a_pair_may_not_be_split():
    # max_hands 2: 8c 8d split, hand 1 8c 8h may not split again (11)
    strat = make_strategy(pairs={"8": "P"}, hard={16: "S"})
    res = _events(deal(["8c 8d"], "9h", then="8h Tc Ts"), NZ.replace(max_hands=2), strat)
    assert [(e.what, e.rule) for e in res.events if e.what == "may not split"] == [
        ("may not split", "11")
    ]
    # 7-7 split by the sevens row; hand 1 declines; hand 2's pair may not be split (11.5)
    strat = make_strategy(sevens={"*": "P"}, pairs={"7": "N"}, hard={14: "H"})
    res = _events(deal(["7c 7d"], "Th", then="7h 5s 7s 4c 8c"), strategies=strat)
    rules = [e.rule for e in res.events if e.who == "box 1 hand 2" and e.what == "may not split"]
    assert rules == ["11.5"]
    # split aces get an ace: may not split again (11 (b)), one card only (12.1 (c))
    res = _events(
        deal(["As Ad"], "9h", then="Ac 5d Th"), strategies=make_strategy(pairs={"A": "P"})
    )
    hand1 = [e.rule for e in res.events if e.who == "box 1 hand 1"]
    assert hand1[hand1.index("11 (b)") + 1] == "12.1 (c)"


def test_reference_format_round_and_to_dict():
    strat = make_strategy(pairs={"8": "P"}, insurance=True)
    res = _events(deal(["8c 8d"], "Ah", then="3c 9d 5h Qs 7c"), strategies=strat)
    text = reference.format_round(res, 0)
    assert text.startswith("Round 1")
    for needle in ("splits", "insures", "dealer", "8c 8d"[:2], "[12.2]", "-1.0"):
        assert needle in text
    d = res.to_dict()
    json.dumps(d)
    assert d["record"] == [int(x) for x in res.record]
    assert d["boxes"][0]["hands"][0]["cards"][:2] == ["8c", "3c"]


# =============================================================================================
# A card file (tests/cards/), as `bjsim replay --cards` reads it
# =============================================================================================
CARD_DIR = Path(__file__).parent / "cards"


def test_card_file_gazette_tour(play):
    from simulator.cards import read_cards

    stacked = read_cards(CARD_DIR / "gazette_tour.cards")
    recs = play(stacked)
    assert [box_view(x, 0).main for x in recs] == [15, -10, -10, 10, -10]
    assert [box_view(x, 0).ss for x in recs] == [-1, -1, -1, -1, 3]
    assert sum(round_view(x).cards for x in recs) == len(stacked)


# =============================================================================================
# 3.2 totals, as a property (reference game's pure functions)
# =============================================================================================
@given(st.lists(st.integers(0, 51), min_size=1, max_size=12))
def test_rule_3_2_total_is_best_count_of_aces_as_one_or_eleven(codes):
    values = [min(c // 4 + 1, 10) for c in codes]
    aces = values.count(1)
    candidates = [sum(values) + 10 * k for k in range(aces + 1)]
    under = [t for t in candidates if t <= 21]
    expected = max(under) if under else min(candidates)
    assert reference.hand_total(codes) == expected
    # only one ace can ever count 11 (two would be 22)
    assert reference.is_soft(codes) == (aces > 0 and sum(values) + 10 <= 21)
    # the engine's own (`kernel.tally.total`: its hard total and whether it holds an ace)
    assert engine_total(sum(values), int(aces > 0)) == expected
    assert total(sum(values), int(aces > 0)) == expected


@given(st.integers(0, 51), st.integers(0, 51))
def test_the_engines_two_card_blackjack_is_the_references(a, b):
    """The engine's blackjack test (`kernel.tally.blackjack`), Python and compiled, on two cards."""
    values = [min(c // 4 + 1, 10) for c in (a, b)]
    expected = reference.is_blackjack([a, b])
    assert getattr(blackjack, "py_func", blackjack)(sum(values), int(1 in values)) == expected
    assert blackjack(sum(values), int(1 in values)) == expected


@given(st.lists(st.integers(0, 51), min_size=2, max_size=8), st.booleans())
def test_rule_12_3_the_engines_dealer_stands_as_the_reference_draws(codes, h17):
    """A code review: the property tests ran the reference game's functions alone; the
    engine's standing rule (`kernel.tally.dealer_stands`) is held to the same."""
    values = [min(c // 4 + 1, 10) for c in codes]
    best = engine_total(sum(values), int(1 in values))
    stands = engine_stands(best, best != sum(values), h17)
    assert stands == (not reference.dealer_should_draw(codes, h17))


@given(st.lists(st.integers(0, 51), min_size=2, max_size=8), st.booleans())
def test_rule_12_3_dealer_draws_below_17_only(codes, h17):
    total = reference.hand_total(codes)
    draws = reference.dealer_should_draw(codes, h17)
    if total < 17:
        assert draws
    elif total == 17 and reference.is_soft(codes):
        assert draws == h17
    else:
        assert not draws
