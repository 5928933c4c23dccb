"""Hand-built shoes for rule cases at the edges of ../shared/RULES.md that test_gazette_rules.py
leaves out: the peek game with several boxes, dealer blackjacks against split-ace 21s and insured
doubles, `dealer_blackjack_takes` when the first split hand busts, the dealer completing its hand
with no live box, soft 17s of three cards, resplits, surrender beside insurance and even money,
the pay keys on waiting blackjacks, and Super Sevens across boxes and resplits.

As there, cards are built by token in dealing order (``helpers.deal``), money is in tenths of the
initial wager (Super Sevens in stakes), and every test runs on the reference game and the
kernel's stacked mode.
"""

from __future__ import annotations

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

from simulator import reference
from simulator.rules import Rules

NZ = Rules()  # the NZ 1994 game: no hole card, Super Sevens on, original-and-busted, 3 hands
PEEK = NZ.replace(hole_card="peek")
MIMIC = make_strategy(name="mimic")  # hit below 17, stand on 17+, never split, no insurance
SURR16 = make_strategy(hard={16: "Rh"})  # surrender hard 16 where allowed, else hit


@pytest.fixture(params=IMPLEMENTATIONS)
def play(request):
    """play(cards, rules=NZ, strategies=MIMIC) -> records, on one implementation."""
    impl = request.param

    def _play(cards_, rules=NZ, strategies=MIMIC):
        return play_records(impl, cards_, rules, strategies)

    return _play


def one_round(records, boxes=1):
    """The single round of ``records``: (round view, [box views])."""
    assert len(records) == 1, f"expected one complete round, got {len(records)}"
    rec = records[0]
    return round_view(rec), [box_view(rec, i) for i in range(boxes)]


def reference_round(cards_, rules, strategies):
    """The reference game's account of one round, after checking the kernel writes its record."""
    results = reference.play_stacked(cards_, rules, strategies)
    assert len(results) == 1
    kernel = play_records("kernel", cards_, rules, strategies)
    assert np.array_equal(kernel, reference.records(results, rules.boxes))
    return results[0]


# =============================================================================================
# Peek game (hole_card = peek) with several boxes: the hole card follows every second card
# =============================================================================================
def test_peek_hole_card_after_every_box_second_card_before_any_draw(play):
    # order: 3 first cards, up 9h, 3 second cards, then the hole card 8c, then the boxes draw.
    # box 1 Tc 6d hits 3s = 19; box 2 9c 7d hits 2c = 18; box 3 Ac 5h (soft 16) hits Kd = 16,
    # hits 4c = 20; dealer 9h 8c = 17 stands: each box +1 (4.1). Had the hole card come after the
    # draws (or after box 1's second card) the dealer would not hold 9h 8c.
    rules = PEEK.replace(boxes=3)
    c = cards("Tc 9c Ac 9h 6d 7d 5h 8c 3s 2c Kd 4c")
    r, (b1, b2, b3) = one_round(play(c, rules), 3)
    assert (r.cards, r.dealer_cards, r.dealer_total, r.dealer_bj) == (12, 2, 17, 0)
    assert (b1.main, b2.main, b3.main) == (10, 10, 10)


def test_peek_two_boxes_double_and_hits_after_the_hole_card(play):
    # 5c 6d doubles (11 D) on 9s = 20, wager 2; Tc 2d hits 4h 3c = 19; hole 7c: Th 7c = 17
    rules = PEEK.replace(boxes=2)
    strat = make_strategy(hard={11: "D"})
    r, (b1, b2) = one_round(
        play(deal(["5c 6d", "Tc 2d"], "Th", hole="7c", then="9s 4h 3c"), rules, strat), 2
    )
    assert (r.cards, r.dealer_cards, r.dealer_total) == (9, 2, 17)
    assert (b1.main, b1.doubles, b2.main) == (20, 1, 10)


def test_peek_dealer_blackjack_with_three_boxes_no_box_draws(play):
    # round 1 (8 cards): As Kd blackjack, Tc 9d insured, 7c 7d (sevens row H) v Ah, hole Kc: the
    # round ends at the peek. Blackjack stands off; insurance 2 to 1 on 0.5 = +1 (9.5), main -1;
    # 7c 7d has no third card: Super Sevens (b) 50, main -1. Round 2 starts with the next card:
    # Tc 9d, Tc 8d, Tc 7d v 9h hole 8c (17): +1, +1, 0.
    rules = PEEK.replace(boxes=3)
    strats = [MIMIC, make_strategy(insurance=True), make_strategy(sevens={"*": "H"})]
    round1 = deal(["As Kd", "Tc 9d", "7c 7d"], "Ah", hole="Kc")
    round2 = deal(["Tc 9d", "Tc 8d", "Tc 7d"], "9h", hole="8c")
    recs = play(shoe(round1, round2), rules, strats)
    assert len(recs) == 2
    r = round_view(recs[0])
    b1, b2, b3 = (box_view(recs[0], i) for i in range(3))
    assert (r.cards, r.dealer_cards, r.dealer_bj) == (8, 2, 1)
    assert (b1.main, b1.pushes, b1.bj) == (0, 1, 1)
    assert (b2.main, b2.ins, b2.ins_taken) == (-10, 10, 1)
    assert (b3.main, b3.ss_line, b3.ss) == (-10, 1, 50)
    assert [box_view(recs[1], i).main for i in range(3)] == [10, 10, 0]
    assert round_view(recs[1]).cards == 8


# =============================================================================================
# 11 (c): a split ace and ten is 21, not blackjack, so a dealer blackjack beats it (no hole card)
# =============================================================================================
@pytest.mark.parametrize(
    "takes, main, losses, pushes",
    [("all", -20, 2, 0), ("original-and-busted", -10, 1, 1), ("original", -10, 1, 1)],
)
def test_rule_11_c_split_ace_21s_lose_to_dealer_blackjack(play, takes, main, losses, pushes):
    # box 1 As Kd is a blackjack: stands off (8.2). Box 2 As Ad split: As Kc and Ad Qd are 21s,
    # not blackjacks (11 (c)); dealer Th Ac blackjack beats them (4.1): all -1 -1 = -2; the other
    # two rules take the initial wager once, -1, and return the second hand's wager.
    rules = NZ.replace(boxes=2, dealer_blackjack_takes=takes)
    strat = make_strategy(pairs={"A": "P"})
    r, (b1, b2) = one_round(play(deal(["As Kd", "As Ad"], "Th", then="Kc Qd Ac"), rules, strat), 2)
    assert (r.dealer_bj, r.dealer_cards, r.cards) == (1, 2, 8)
    assert (b1.main, b1.bj, b1.pushes) == (0, 1, 1)
    assert (b2.main, b2.bj, b2.hands, b2.losses, b2.pushes) == (main, 0, 2, losses, pushes)


def test_rule_11_c_insured_split_ace_21s_against_ace_and_ten(play):
    # As Ad v Ah, insured (0.5), split: As Kc, Ad Qd (21s, not blackjacks); dealer Ah Kh:
    # insurance +1 (9.5); original-and-busted: the box loses its initial wager once, -1
    strat = make_strategy(pairs={"A": "P"}, insurance=True)
    r, (b,) = one_round(play(deal(["As Ad"], "Ah", then="Kc Qd Kh"), strategies=strat))
    assert (r.dealer_bj, r.cards) == (1, 6)
    assert (b.main, b.ins, b.ins_taken, b.hands, b.bj) == (-10, 10, 1, 2, 0)


# =============================================================================================
# Dealer blackjack against an insured, doubled hand (no hole card)
# =============================================================================================
@pytest.mark.parametrize(
    "takes, box, hard, then, main, busts",
    [
        # 5c 6d doubles on 9c = 20 (wager 2): all takes both wagers; the others the initial one
        ("all", "5c 6d", 11, "9c", -20, 0),
        ("original-and-busted", "5c 6d", 11, "9c", -10, 0),
        ("original", "5c 6d", 11, "9c", -10, 0),
        # Tc 6d doubles on 9s = 25, bust (12.2): lost at once, except that "original" gives back
        # all but the initial wager when the dealer then makes blackjack
        ("all", "Tc 6d", 16, "9s", -20, 1),
        ("original-and-busted", "Tc 6d", 16, "9s", -20, 1),
        ("original", "Tc 6d", 16, "9s", -10, 1),
    ],
)
def test_dealer_blackjack_against_insured_doubled_hand(play, takes, box, hard, then, main, busts):
    # v Ah, insured 0.5; dealer's second card Kh is a blackjack: insurance 2 to 1 = +1 (9.5)
    strat = make_strategy(insurance=True, hard={hard: "D"})
    rules = NZ.replace(dealer_blackjack_takes=takes)
    r, (b,) = one_round(play(deal([box], "Ah", then=then + " Kh"), rules, strat))
    assert (r.dealer_bj, r.dealer_cards, r.cards) == (1, 2, 5)
    assert (b.ins, b.ins_taken, b.doubles) == (10, 1, 1)
    assert (b.main, b.busts, b.losses) == (main, busts, 1)


def test_insured_doubled_hand_when_dealer_has_no_blackjack(play):
    # 5c 6d v Ah, insured, doubles on 9c = 20; dealer Ah 7c soft 18: insurance -0.5, main +2
    strat = make_strategy(insurance=True, hard={11: "D"})
    r, (b,) = one_round(play(deal(["5c 6d"], "Ah", then="9c 7c"), strategies=strat))
    assert (r.dealer_bj, r.dealer_total, r.cards) == (0, 18, 5)
    assert (b.ins, b.main, b.doubles) == (-5, 20, 1)


# =============================================================================================
# dealer_blackjack_takes when the FIRST split hand busts and a later one stands or doubles
# =============================================================================================
SPLIT8 = make_strategy(pairs={"8": "P"}, hard={11: "D"})


@pytest.mark.parametrize(
    "takes, main, losses, pushes",
    [("all", -30, 2, 0), ("original-and-busted", -20, 2, 0), ("original", -10, 1, 1)],
)
def test_dealer_blackjack_first_split_hand_busts_second_doubles(play, takes, main, losses, pushes):
    # 8c 8d split v Th; hand 1 8c 5h hits Qs = 23, bust (-1, 12.2); hand 2 8d 3c doubles on 9d =
    # 20 (wager 2); dealer Th Ac blackjack.
    # all: -1 - 2 = -3. original-and-busted: the bust -1, then the first unbusted hand (hand 2)
    # loses the initial wager -1 and gets the double back: -2. original: exactly -1 in all (the
    # busted wager of hand 1 stands as the initial wager, hand 2 is returned).
    rules = NZ.replace(dealer_blackjack_takes=takes)
    r, (b,) = one_round(play(deal(["8c 8d"], "Th", then="5h Qs 3c 9d Ac"), rules, SPLIT8))
    assert (r.dealer_bj, r.cards) == (1, 8)
    assert (b.hands, b.busts, b.doubles) == (2, 1, 1)
    assert (b.main, b.losses, b.pushes) == (main, losses, pushes)


@pytest.mark.parametrize(
    "takes, main, losses, pushes",
    [("all", -20, 2, 0), ("original-and-busted", -20, 2, 0), ("original", -10, 1, 1)],
)
def test_dealer_blackjack_first_split_hand_busts_second_stands(play, takes, main, losses, pushes):
    # hand 1 8c 5h Qs busts (-1); hand 2 8d Tc = 18 stands; dealer Th Ac blackjack.
    # all and original-and-busted: -1 (bust) -1 (hand 2) = -2; original: -1 in all
    rules = NZ.replace(dealer_blackjack_takes=takes)
    r, (b,) = one_round(play(deal(["8c 8d"], "Th", then="5h Qs Tc Ac"), rules, SPLIT8))
    assert (r.dealer_bj, r.cards) == (1, 7)
    assert (b.hands, b.busts, b.doubles) == (2, 1, 0)
    assert (b.main, b.losses, b.pushes) == (main, losses, pushes)


@pytest.mark.parametrize(
    "takes, main, losses, pushes",
    [("all", -40, 3, 0), ("original-and-busted", -20, 2, 1), ("original", -10, 1, 2)],
)
def test_dealer_blackjack_three_split_hands_bust_stand_double(play, takes, main, losses, pushes):
    # 8c 8d split; hand 1 8c gets 8h: resplit (3 hands: 8c, 8h, 8d); 8c 5h Qs busts (-1);
    # 8h Tc = 18 stands; 8d 3c doubles on 9d = 20 (wager 2); dealer Th Ac blackjack.
    # all: -1 -1 -2 = -4; original-and-busted: -1 (bust), -1 (hand 2, first unbusted), hand 3
    # returned = -2; original: -1 in all
    rules = NZ.replace(dealer_blackjack_takes=takes)
    r, (b,) = one_round(play(deal(["8c 8d"], "Th", then="8h 5h Qs Tc 3c 9d Ac"), rules, SPLIT8))
    assert (r.dealer_bj, r.cards) == (1, 10)
    assert (b.hands, b.busts, b.doubles) == (3, 1, 1)
    assert (b.main, b.losses, b.pushes) == (main, losses, pushes)


# =============================================================================================
# 12.4 dealer_draws_when_no_live_box = true: no live hand, but something needs the second card
# =============================================================================================
@pytest.mark.parametrize("draws", [False, True])
@pytest.mark.parametrize(
    "box, up, then, rules, strat, main, ins, second_only, completed",
    [
        # a blackjack waiting on Th: completed either way (8.2), Th 5c 6d = 21 of three cards,
        # which the blackjack beats (4.1): +1.5
        ("As Kd", "Th", "5c 6d", NZ, MIMIC, 15, 0, None, 21),
        # Tc 6d insured v Ah hits 9s, bust; insurance needs Ah 5c (soft 16, -0.5);
        # completed: Ah 5c 2d = soft 18
        ("Tc 6d", "Ah", "9s 5c 2d", NZ, make_strategy(insurance=True), -10, -5, 16, 18),
        # late surrender (hard 16 Rh) v Th needs Th 5c (no blackjack: -0.5);
        # completed: Th 5c Kd = 25
        ("Tc 6d", "Th", "5c Kd", NZ.replace(surrender="late"), SURR16, -5, 0, 15, 25),
    ],
    ids=["waiting-blackjack", "insured-bust", "late-surrender"],
)
def test_rule_12_4_dealer_completes_hand_with_no_live_box(
    play, draws, box, up, then, rules, strat, main, ins, second_only, completed
):
    # false: the dealer takes only the second card the wager needs; true: it draws on to 17 (12.3)
    rules = rules.replace(dealer_draws_when_no_live_box=draws)
    r, (b,) = one_round(play(deal([box], up, then=then + " 9c"), rules, strat))
    assert (r.dealer_cards, r.dealer_total) == ((3, completed) if draws or second_only is None
                                                else (2, second_only))
    assert (b.main, b.ins) == (main, ins)


@pytest.mark.parametrize(
    "draws, dealer_cards, dealer_total, used", [(False, 3, 18, 10), (True, 3, 18, 10)]
)
def test_rule_12_4_waiting_blackjack_insured_bust_and_late_surrender_together(
    play, draws, dealer_cards, dealer_total, used
):
    # v Ah: box 1 As Kd declines even money and waits; box 2 Tc 6d insured hits 9s, bust;
    # box 3 Tc 5d late-surrenders (15 Rh). Dealer Ah 5c = soft 16 (no blackjack), then 2d: the
    # waiting blackjack has the dealer complete the hand either way (8.2). Box 1 +1.5; box 2 -1
    # and insurance -0.5; box 3 -0.5.
    rules = NZ.replace(boxes=3, surrender="late", dealer_draws_when_no_live_box=draws)
    strats = [MIMIC, make_strategy(insurance=True), make_strategy(hard={15: "Rh"})]
    c = deal(["As Kd", "Tc 6d", "Tc 5d"], "Ah", then="9s 5c 2d 9c")
    r, (b1, b2, b3) = one_round(play(c, rules, strats), 3)
    assert (r.dealer_cards, r.dealer_total, r.cards) == (dealer_cards, dealer_total, used)
    assert (b1.main, b1.bj) == (15, 1)
    assert (b2.main, b2.busts, b2.ins) == (-10, 1, -5)
    assert (b3.main, b3.surrenders) == (-5, 1)


def test_rule_12_4_dealer_completes_hand_after_early_surrender(play):
    # early surrender needs no dealer card; with the key the dealer still plays Th 5c Kd = 25
    rules = NZ.replace(surrender="early", dealer_draws_when_no_live_box=True)
    r, (b,) = one_round(play(deal(["Tc 6d"], "Th", then="5c Kd 9c"), rules, SURR16))
    assert (r.dealer_cards, r.dealer_total, r.cards) == (3, 25, 5)
    assert (b.main, b.surrenders) == (-5, 1)


# =============================================================================================
# 12.3 soft 17 of three or more cards
# =============================================================================================
@pytest.mark.parametrize("h17", [False, True])
@pytest.mark.parametrize(
    "up, then, stands, hits",
    [
        # Ah Ac 5c = soft 17: S17 stands (17, +1); H17 draws Th = hard 17, stands (+1)
        ("Ah", "Ac 5c Th", (3, 17, 10), (4, 17, 10)),
        # 2h 4c Ac = soft 17: S17 stands (+1); H17 draws 3s = soft 20 (-1)
        ("2h", "4c Ac 3s", (3, 17, 10), (4, 20, -10)),
        # Ah 6c = soft 17: S17 stands (+1); H17 draws Ad = soft 18 of three cards and stands (0)
        ("Ah", "6c Ad", (2, 17, 10), (3, 18, 0)),
    ],
    ids=["A-A-5", "2-4-A", "A-6-A"],
)
def test_rule_12_3_soft_17_of_three_cards(play, h17, up, then, stands, hits):
    # player Tc 8d = 18 stands
    rules = NZ.replace(dealer_hits_soft_17=h17)
    r, (b,) = one_round(play(deal(["Tc 8d"], up, then=then + " 9c"), rules))
    dealer_cards, dealer_total, main = hits if h17 else stands
    assert (r.dealer_cards, r.dealer_total, b.main) == (dealer_cards, dealer_total, main)
    assert r.cards == 3 + dealer_cards - 1


# =============================================================================================
# 11 resplits: a new hand goes immediately after the hand that split (docs/design.md step 6)
# =============================================================================================
def test_rule_11_resplit_on_second_split_hand_new_hand_played_next():
    # max_hands 4. 8c 8d split v 9h: hand 1 8c Tc = 18. Hand 2 8d gets 8h: resplit, 8h is a new
    # hand after hand 2; 8d gets 8s: resplit again, 8s is inserted after hand 2, before 8h;
    # 8d gets 2c = 10, hits Kd = 20. Then 8s gets 3d 9c = 20, then 8h gets Ts = 18.
    # Dealer 9h 9d = 18: 0 + 1 + 1 + 0 = +2. The waiting hands 8s and 8h are alike, so the order
    # is not in the record: the reference's hands show it, and the kernel's record must match.
    rules = NZ.replace(max_hands=4)
    strat = make_strategy(pairs={"8": "P"})
    c = deal(["8c 8d"], "9h", then="Tc 8h 8s 2c Kd 3d 9c Ts 9d")
    res = reference_round(c, rules, [strat])
    hands = [reference.cards_text(h.cards) for h in res.boxes[0].hands]
    assert hands == ["8c Tc", "8d 2c Kd", "8s 3d 9c", "8h Ts"]
    b = box_view(res.record, 0)
    assert (b.hands, b.main, b.wins, b.pushes) == (4, 20, 2, 2)


@pytest.mark.parametrize("max_hands, hands, main", [(3, 3, 0), (2, 2, -20)])
def test_rule_11_resplit_on_second_split_hand_max_hands(play, max_hands, hands, main):
    # 8c 8d split v 9h; hand 1 8c Tc = 18; hand 2 8d gets 8h.
    # max_hands 3: resplit; 8d gets 2c = 10, hits Kd = 20; 8h gets 9c = 17.
    # Dealer 9h 9d = 18: 0 + 1 - 1 = 0.
    # max_hands 2: 8d 8h = 16 may not split; hits 2c = 18, stands. Dealer 9h Kd = 19: -1 -1.
    rules = NZ.replace(max_hands=max_hands)
    strat = make_strategy(pairs={"8": "P"})
    r, (b,) = one_round(play(deal(["8c 8d"], "9h", then="Tc 8h 2c Kd 9c 9d"), rules, strat))
    assert (b.hands, b.main) == (hands, main)
    assert r.dealer_total == (18 if max_hands == 3 else 19)


# =============================================================================================
# Surrender: early on an Rp pair, beside insurance, and even money in the peek game
# =============================================================================================
RP8 = make_strategy(pairs={"8": "Rp"})


@pytest.mark.parametrize("surrender, main", [("early", -5), ("late", -10)])
def test_surrender_rp_pair_against_dealer_blackjack_no_hole(play, surrender, main):
    # box 1 8c 8d v Th, pair cell Rp: surrenders, no split. Box 2 Tc 9d keeps the dealer's
    # second card coming: Th Ac blackjack. Early surrender lost half before the dealer looked
    # (-0.5); late surrender in the no-hole game loses the whole wager to a blackjack (-1).
    rules = NZ.replace(boxes=2, surrender=surrender)
    r, (b1, b2) = one_round(play(deal(["8c 8d", "Tc 9d"], "Th", then="Ac"), rules, [RP8, MIMIC]), 2)
    assert (r.dealer_bj, r.cards) == (1, 6)
    assert (b1.main, b1.surrenders, b1.hands, b1.losses) == (main, 1, 1, 1)
    assert b2.main == -10


def test_surrender_early_rp_pair_alone_dealer_draws_nothing(play):
    # 8c 8d Rp v Th surrenders early (-0.5): no wager depends on the dealer, no second card
    r, (b,) = one_round(
        play(deal(["8c 8d"], "Th", then="Ac Tc Td"), NZ.replace(surrender="early"), RP8)
    )
    assert (r.cards, r.dealer_cards) == (3, 1)
    assert (b.main, b.surrenders, b.hands) == (-5, 1, 1)


@pytest.mark.parametrize("hole, dealer_bj", [("Ac", 1), ("7c", 0)])
def test_surrender_early_rp_pair_before_the_peek(play, hole, dealer_bj):
    rules = NZ.replace(surrender="early", hole_card="peek")
    r, (b,) = one_round(play(deal(["8c 8d"], "Th", hole=hole), rules, RP8))
    assert (r.dealer_bj, r.cards) == (dealer_bj, 4)
    assert (b.main, b.surrenders, b.hands) == (-5, 1, 1)


def test_surrender_early_rp_only_in_its_own_cell(play):
    # Rp against a ten only; against 9h the pair cell is P: split, 8c Tc and 8d Td (18 each)
    # against 9h 9c = 18: two stand-offs
    strat = make_strategy(pairs={"8": "P", ("8", "10"): "Rp"})
    r, (b,) = one_round(
        play(deal(["8c 8d"], "9h", then="Tc Td 9c"), NZ.replace(surrender="early"), strat)
    )
    assert (b.main, b.hands, b.surrenders, b.pushes) == (0, 2, 0, 2)


# Rp where no split is possible (max_hands = 1): it surrenders wherever surrender is allowed (the
# pair chart is read for it though the pair may not be split), else the hard or soft chart plays
@pytest.mark.parametrize(
    "surrender, hole_card, c, n_cards",
    [
        # no-hole late surrender against a ten waits for the dealer's second card (7c: 17)
        ("late", "none", deal(["8c 8d"], "Th", then="7c 5c"), 4),
        ("early", "none", deal(["8c 8d"], "Th", then="7c 5c"), 3),  # no second card needed
        ("late", "peek", deal(["8c 8d"], "Th", hole="7c", then="5c"), 4),
        ("early", "peek", deal(["8c 8d"], "Th", hole="7c", then="5c"), 4),
    ],
)
def test_surrender_rp_pair_where_no_split_is_possible(play, surrender, hole_card, c, n_cards):
    # the old engines read no pair cell under max_hands = 1: hard 16 hit 5c (no-hole: 7c, bust)
    rules = NZ.replace(max_hands=1, surrender=surrender, hole_card=hole_card)
    r, (b,) = one_round(play(c, rules, RP8))
    assert (r.cards, r.dealer_bj) == (n_cards, 0)
    assert (b.main, b.surrenders, b.hands) == (-5, 1, 1)


@pytest.mark.parametrize("pair, code", [("Ac Ad", "A"), ("Kc Qd", "10"), ("Tc Jd", "T")])
@pytest.mark.parametrize("surrender", ["late", "early"])
def test_surrender_rp_aces_and_tens_where_no_split_is_possible(play, pair, code, surrender):
    # a pair of aces (soft 12: hit) and of tens (20: stand) under Rp v 9h, max_hands = 1:
    # surrendered (-0.5) before any card; the dealer's second card is not needed (9 up)
    rules = NZ.replace(max_hands=1, surrender=surrender)
    r, (b,) = one_round(play(deal([pair], "9h", then="9c 8c 9d"), rules,
                             make_strategy(pairs={code: "Rp"})))
    assert (r.cards, b.main, b.surrenders, b.hands) == (3, -5, 1, 1)


@pytest.mark.parametrize("code", ["Rp", "P", "Pd", "N"])
def test_pair_cell_where_no_split_is_possible_without_surrender(play, code):
    # max_hands = 1 and no surrender (or surrender, for P, Pd, N): 8c 8d is hard 16 from the hard
    # chart (hit 5c: 21); dealer Th 7c = 17
    for surrender in ("none", "late") if code != "Rp" else ("none",):
        rules = NZ.replace(max_hands=1, surrender=surrender, double_after_split=False)
        r, (b,) = one_round(play(deal(["8c 8d"], "Th", then="5c 7c"), rules,
                                 make_strategy(pairs={"8": code})))
        assert (r.cards, b.main, b.surrenders, b.hands, b.wins) == (5, 10, 0, 1, 1)


@pytest.mark.parametrize("surrender", ["late", "early"])
def test_reference_says_why_an_unsplittable_rp_pair_surrenders(surrender):
    rules = NZ.replace(max_hands=1, surrender=surrender)
    res = reference_round(deal(["8c 8d"], "Th", then="7c 5c"), rules, [RP8])
    said = [e for e in res.events if e.rule == f"surrender = {surrender}"][0]
    assert said.what.startswith("surrenders")
    assert said.why.startswith("strategy: pair of 8s v 10 = Rp, no split possible (max_hands = 1);")
    assert not any(e.what == "may not split" for e in res.events)


@pytest.mark.parametrize(
    "surrender, hole_card, second, main, ins, surrenders",
    [
        # insured 0.5 first (9), then Tc 6d surrenders (16 Rh v A)
        ("early", "none", "Kh", -5, 10, 1),  # half lost whatever the dealer has; ins 2 to 1
        ("early", "none", "7c", -5, -5, 1),
        ("late", "none", "Kh", -10, 10, 1),  # no-hole late surrender: whole wager to a blackjack
        ("late", "none", "7c", -5, -5, 1),
        ("early", "peek", "Kh", -5, 10, 1),
        ("early", "peek", "7c", -5, -5, 1),
        ("late", "peek", "Kh", -10, 10, 0),  # the peek ends the round before late surrender
        ("late", "peek", "7c", -5, -5, 1),
    ],
)
def test_surrender_with_insurance_taken(play, surrender, hole_card, second, main, ins, surrenders):
    strat = make_strategy(hard={16: "Rh"}, insurance=True)
    rules = NZ.replace(surrender=surrender, hole_card=hole_card)
    if hole_card == "peek":
        c = deal(["Tc 6d"], "Ah", hole=second, then="9c")
    else:
        c = deal(["Tc 6d"], "Ah", then=second + " 9c")
    r, (b,) = one_round(play(c, rules, strat))
    assert (r.cards, r.dealer_cards, r.dealer_bj) == (4, 2, int(second == "Kh"))
    assert (b.main, b.ins, b.ins_taken, b.surrenders) == (main, ins, 1, surrenders)


@pytest.mark.parametrize("hole, dealer_bj, main2", [("Kh", 1, -10), ("7c", 0, 0)])
def test_rule_8_3_even_money_in_peek_game(play, hole, dealer_bj, main2):
    # box 1 As Kd v Ah takes even money (+1) before the peek, whatever the hole card; box 2
    # Tc 8d loses to the blackjack, or stands off against Ah 7c (soft 18)
    rules = PEEK.replace(boxes=2)
    strats = [make_strategy(even_money=True), MIMIC]
    r, (b1, b2) = one_round(
        play(deal(["As Kd", "Tc 8d"], "Ah", hole=hole, then="9c"), rules, strats), 2
    )
    assert (r.dealer_bj, r.dealer_cards, r.cards) == (dealer_bj, 2, 6)
    assert (b1.main, b1.even_money, b1.bj, b1.wins) == (10, 1, 1, 1)
    assert b2.main == main2


# =============================================================================================
# 8.2 blackjack_pays on a blackjack that waits; 9 insurance_pays in the peek game
# =============================================================================================
@pytest.mark.parametrize("pays, win", [(1.2, 12), (2.0, 20)])
@pytest.mark.parametrize(
    "up, then, dealer_cards",
    [("Th", "6c", 3), ("Ah", "7c", 2)],
    ids=["ten-up", "ace-up"],
)
def test_rule_8_2_blackjack_pays_key_on_a_waiting_blackjack(
    play, pays, win, up, then, dealer_cards
):
    # As Kd waits for the dealer's second card (no even money taken): no blackjack, the dealer
    # completes the hand (Th 6c 5d = 21; Ah 7c = soft 18), paid 6 to 5 (+1.2) or 2 to 1 (+2)
    r, (b,) = one_round(
        play(deal(["As Kd"], up, then=then + " 5d"), NZ.replace(blackjack_pays=pays))
    )
    assert (r.dealer_cards, r.dealer_bj, r.cards) == (dealer_cards, 0, 2 + dealer_cards)
    assert (b.main, b.bj, b.wins) == (win, 1, 1)


@pytest.mark.parametrize("pays, win", [(1.2, 12), (2.0, 20)])
def test_rule_8_2_blackjack_pays_key_against_dealer_three_card_21(play, pays, win):
    # box 1 As Kd waits; box 2 Tc 8d keeps the dealer drawing: Th 5c 6d = 21 of three cards.
    # The blackjack beats it (4.1) at blackjack_pays; box 2 loses
    rules = NZ.replace(boxes=2, blackjack_pays=pays)
    r, (b1, b2) = one_round(play(deal(["As Kd", "Tc 8d"], "Th", then="5c 6d"), rules), 2)
    assert (r.dealer_cards, r.dealer_total, r.dealer_bj) == (3, 21, 0)
    assert (b1.main, b2.main) == (win, -10)


@pytest.mark.parametrize("pays", [1.2, 2.0])
def test_rule_8_2_blackjack_pays_key_waiting_blackjack_stands_off_and_even_money(play, pays):
    # round 1: As Kd v Ah Kc: stand-off whatever blackjack_pays. Round 2: even money is 1 to 1
    # (+1), not blackjack_pays; the dealer takes no second card
    rules = NZ.replace(blackjack_pays=pays)
    r, (b,) = one_round(play(deal(["As Kd"], "Ah", then="Kc"), rules))
    assert (r.dealer_bj, b.main, b.pushes) == (1, 0, 1)
    r, (b,) = one_round(
        play(deal(["As Kd"], "Ah", then="7c"), rules, make_strategy(even_money=True))
    )
    assert (b.main, b.even_money, r.dealer_cards) == (10, 1, 1)


@pytest.mark.parametrize("hole, ins, mains", [("Kc", 15, (-10, -10)), ("7c", -5, (10, 20))])
def test_rule_9_insurance_pays_key_in_peek_game(play, hole, ins, mains):
    # insurance_pays 3: two boxes insure 0.5 v Ah. Hole Kc: each insurance +1.5 (3 x 0.5), each
    # box loses its wager at the peek. Hole 7c: each insurance -0.5; Tc 9d = 19 wins +1,
    # 5c 6d doubles on 9c = 20, +2 against Ah 7c (soft 18)
    rules = PEEK.replace(boxes=2, insurance_pays=3.0)
    strat = make_strategy(insurance=True, hard={11: "D"})
    r, (b1, b2) = one_round(
        play(deal(["Tc 9d", "5c 6d"], "Ah", hole=hole, then="9c"), rules, strat), 2
    )
    assert (b1.ins, b2.ins) == (ins, ins)
    assert (b1.main, b2.main) == mains
    assert r.dealer_bj == int(hole == "Kc")


# =============================================================================================
# 14 Super Sevens: several boxes and lines in one round; 7-7 split and resplit
# =============================================================================================
def test_rule_14_three_boxes_lines_a_c_e_in_one_round(play):
    # box 1 7c Kd: (a) 3 to 1; box 2 7h 7h stands (sevens row S), no third card: (c) 100;
    # box 3 7s 7s hits 7s: three sevens of one suit, (e) 5000. Dealer Th 8c = 18.
    rules = NZ.replace(boxes=3)
    strats = [MIMIC, make_strategy(sevens={"*": "S"}), make_strategy(sevens={"*": "H"})]
    c = deal(["7c Kd", "7h 7h", "7s 7s"], "Th", then="7s 8c")
    r, (b1, b2, b3) = one_round(play(c, rules, strats), 3)
    assert [(b.ss_line, b.ss) for b in (b1, b2, b3)] == [(0, 3), (2, 100), (4, 5000)]
    assert (b1.main, b2.main, b3.main) == (-10, -10, 10)  # 17, 14 lose to 18; 21 wins
    assert r.cards == 9


def test_rule_14_three_boxes_lines_f_b_d_in_one_round(play):
    # box 1 Kd 7c: (f) -1; box 2 7h 7d hits 4c: third card not a seven, (b) 50, 18 stands off;
    # box 3 7s 7c doubles on 7h: three sevens not one suit, (d) 500, 21 wins +2 (wager 2)
    rules = NZ.replace(boxes=3)
    strats = [MIMIC, make_strategy(sevens={"*": "H"}), make_strategy(sevens={"*": "D"})]
    c = deal(["Kd 7c", "7h 7d", "7s 7c"], "Th", then="4c 7h 8c")
    r, (b1, b2, b3) = one_round(play(c, rules, strats), 3)
    assert [(b.ss_line, b.ss) for b in (b1, b2, b3)] == [(5, -1), (1, 50), (3, 500)]
    assert (b1.main, b2.main, b3.main, b3.doubles) == (-10, 0, 20, 1)
    assert r.cards == 10


SPLIT7 = make_strategy(sevens={"*": "P"}, pairs={"7": "P"})


def test_rule_14_4_split_sevens_then_resplit_paid_b_at_once(play):
    # 7c 7d split (sevens row P): (b) 50 at once (14.4). Hand 1 7c gets 7h: resplit (pair P);
    # the box's third card was a seven but the line stays (b). 7c Kc = 17; 7h 7s = 14 may not
    # split (3 hands), hits Ks = 24 bust; 7d 4d hits 9d = 20. Dealer Th 8c = 18: -1 -1 +1.
    r, (b,) = one_round(play(deal(["7c 7d"], "Th", then="7h Kc 7s Ks 4d 9d 8c"), strategies=SPLIT7))
    assert (b.ss_line, b.ss) == (1, 50)
    assert (b.hands, b.busts, b.main, b.wins, b.losses) == (3, 1, -10, 1, 2)
    assert r.cards == 10


def test_rule_14_4_split_same_suit_sevens_resplit_on_a_third_same_suit_seven(play):
    # 7s 7s split: (c) 100 at once, though hand 1 then gets 7s (unsplit and hit, that would be
    # (e) 5000). Resplit: 7s Kc, 7s Qc, 7s Tc = 17 each; dealer Th 8c = 18: -3
    r, (b,) = one_round(play(deal(["7s 7s"], "Th", then="7s Kc Qc Tc 8c"), strategies=SPLIT7))
    assert (b.ss_line, b.ss) == (2, 100)
    assert (b.hands, b.main) == (3, -30)


def test_rule_14_three_boxes_split_resplit_and_hit(play):
    # v 9h. Box 1 7c 7d split: (b) 50; 7c gets 7c: resplit; 7c Tc, 7c Td = 17; 7d 7s (3 hands,
    # no split) hits Kh = 24. Box 2 7s 7s split: (c) 100; 7s Qh, 7s Jh = 17.
    # Box 3 7h 7h hits 7h: (e) 5000, 21. Dealer 9h 9c = 18.
    rules = NZ.replace(boxes=3)
    strats = [SPLIT7, SPLIT7, make_strategy(sevens={"*": "H"})]
    c = deal(["7c 7d", "7s 7s", "7h 7h"], "9h", then="7c Tc Td 7s Kh Qh Jh 7h 9c")
    r, (b1, b2, b3) = one_round(play(c, rules, strats), 3)
    assert [(b.ss_line, b.ss) for b in (b1, b2, b3)] == [(1, 50), (2, 100), (4, 5000)]
    assert [(b.hands, b.main) for b in (b1, b2, b3)] == [(3, -30), (2, -20), (1, 10)]
    assert (r.cards, r.dealer_total) == (16, 18)
