"""The engine's count mode: the count, index plays, insurance by count, bets, wonging and boxes by
count, on hand-built cards (stacked mode) and in simulation, against the game without a count
and the exact Super Sevens return by the sevens left."""

from __future__ import annotations

import dataclasses
import math
from types import SimpleNamespace

import numpy as np
import pytest

from simulator import kernel as K
from simulator import layout as L
from simulator.chunks import chunk_state
from simulator.counter import counter_for
from simulator.counting import load_count
from simulator.index_plays import load_indices
from simulator.kernel import count as C
from simulator.rules import Rules
from simulator.strategy import load_strategy, stack

BASIC = load_strategy("basic")


def ramp(base, *steps):
    return SimpleNamespace(base=base, steps=tuple(steps))


def plan(count="hi-lo", resolution="exact", indices=None, bet=None, ss=None, boxes=None,
         enter=None, leave=None):  # fmt: skip
    """A counting plan with the fields ``counter_for`` reads (``plans.CountingPlan``'s)."""
    return SimpleNamespace(count=load_count(count), resolution=resolution, indices=indices,
                           plays=load_indices(indices) if indices else None,
                           bet=bet or ramp(1), super_sevens=ss or ramp(0), boxes=boxes or ramp(1),
                           wong_enter=enter, wong_leave=leave)  # fmt: skip


def codes(text: str) -> list[int]:
    """Card codes of ``"6c 5d 4h"`` (rank, suit)."""
    return [L.RANKS.index(c[0]) * 4 + L.SUITS.index(c[1]) for c in text.split()]


def stacked(rules, cards, pl):
    """Play ``cards`` and no further, from a shoe of ``rules.decks`` decks: the rest of it 8s
    and 9s (zero in every count used here), so that the count's decks left are the shoe's."""
    c = codes(cards)
    shoe = c + codes("8c 9d") * ((52 * rules.decks - len(c)) // 2 + 1)
    return K.play_stacked(shoe[: 52 * rules.decks], rules, BASIC, cut=len(c),
                          counter=counter_for(rules, BASIC, pl))  # fmt: skip


def box(rec, field, b=0):
    return int(rec[L.R_FIXED + b * L.R_BOX + field])


# Round 1 leaves a Hi-Lo running count of +8 after 8 low cards: the box 6 5 (11 v 4) doubles on a
# 2; the dealer 4 3 2 6 2 stands on 17.
LOW_ROUND = "6c 4d 5h 2s 3c 2d 6h 2h"
ONE_DECK = Rules(decks=1, penetration=0.9)


def test_an_index_play_changes_the_decision_at_its_count():
    # Round 2: 16 v 10 (count after the deal +7, 41 cards left: true count 8.9); 16 v 10 stands
    # at +1 (hi-lo-nz), and the 7 then gives the dealer 17. Without the index the box hits it
    # and busts (the dealer then draws no card: nothing depends on it).
    cards = LOW_ROUND + " Tc Td 6d 7c"
    rec, ct = stacked(ONE_DECK, cards, plan(indices="hi-lo-nz"))
    assert box(rec[1], L.B_BUSTS) == 0 and rec[1][L.R_DEALER_TOTAL] == 17
    rec, ct = stacked(ONE_DECK, cards, plan())
    assert box(rec[1], L.B_BUSTS) == 1


def test_the_index_uses_the_count_as_the_decision_is_taken():
    # The same 16 v 10 after a round of high cards (20 v A, the dealer's blackjack: count -4):
    # at -5 after the deal the box hits.
    cards = "Tc Ad Th Ks" + " Tc Td 6d 7c"
    rec, _ = stacked(ONE_DECK, cards, plan(indices="hi-lo-nz"))
    assert box(rec[1], L.B_BUSTS) == 1


def test_insurance_is_taken_at_its_count_after_the_deal():
    # Round 2: the box 9 8 v an ace at true count +3 or more: insured (hi-lo-nz: insurance at 3).
    cards = LOW_ROUND + " 9c Ad 8d Tc"
    rec, _ = stacked(ONE_DECK, cards, plan(indices="hi-lo-nz"))
    assert box(rec[1], L.B_INS_TAKEN) == 1
    assert box(rec[1], L.B_INS) == 2 * L.INSURANCE_STAKE  # the dealer's ace then a ten
    rec, _ = stacked(ONE_DECK, cards, plan())
    assert box(rec[1], L.B_INS_TAKEN) == 0
    # The first round's own ace at a count of 0: not insured.
    rec, _ = stacked(ONE_DECK, "9c Ad 8d Tc", plan(indices="hi-lo-nz"))
    assert box(rec[0], L.B_INS_TAKEN) == 0


def test_no_pair_is_split_after_the_count_declined_one(tmp_path):
    # 11.5 under an index play 2,2 v 10: split below a true count of +2, not at or above it.
    # 2c 2d v Tc at +1.06 (exact estimate) splits; hand 1 is dealt 2h: +2.17, declined; hand 1
    # hits Ks Kh and busts, so hand 2's 2s comes at +1.1, where the count would split: the box
    # declined, so hand 2 (2d 2s) plays on and hits 9c 9h, bust. Two hands, both lost.
    path = tmp_path / "idx.toml"
    path.write_text('count = "hi-lo"\n[[play]]\nchart = "pairs"\nrow = "2,2"\nup = "10"\n'
                    'below = "P"\nat_or_above = "N"\nindex = 2\n')
    rec, _ = stacked(ONE_DECK, "2c Tc 2d 2h Ks Kh 2s 9c 9h 8c 8d", plan(indices=str(path)))
    assert (box(rec[0], L.B_HANDS), box(rec[0], L.B_BUSTS)) == (2, 2)
    assert box(rec[0], L.B_MAIN) == -2 * L.UNIT and rec[0][L.R_CARDS] == 9
    # Hand 1 dealt a K, not a pair (no decline), hits Qs and busts: hand 2's pair at 0 splits.
    rec, _ = stacked(ONE_DECK, "2c Tc 2d Kh Qs 2s 9c 9d 9s 8d 8h", plan(indices=str(path)))
    assert box(rec[0], L.B_HANDS) == 3


def test_even_money_is_taken_where_the_count_takes_insurance():
    # A blackjack v an ace after the low round (true count +6.3): insured by the count, so even
    # money (8.3: the same bet on a blackjack); from a fresh shoe (-3 after the deal) declined.
    for before, taken in ((LOW_ROUND + " ", 1), ("", 0)):
        rec, _ = stacked(ONE_DECK, before + "Ac Ad Th 9c", plan(indices="hi-lo-nz"))
        r = rec[taken]  # (the low round is the first)
        assert box(r, L.B_EVEN_MONEY) == taken and r[L.R_CARDS] == 4 - taken
        assert box(r, L.B_MAIN) == (L.UNIT if taken else 3 * L.UNIT // 2)


def test_under_6_to_5_even_money_is_taken_at_every_count():
    # At 6 to 5 even money (+1) beats a blackjack not insured (1.2 x P(no dealer blackjack)) at
    # any count, so the rules' basic strategy takes it (exact.analyze.worth_taking); a counter
    # whose index plays insure by count still takes it below the insurance index, as insured
    # it is no longer the same bet (it would pay 1.2 - 0.5 against +1).
    from dataclasses import replace

    from simulator.exact.analyze import worth_taking

    rules = ONE_DECK.replace(blackjack_pays=1.2)
    assert worth_taking(rules) == (False, True)
    base = replace(BASIC, even_money=True)
    c = codes("Ac Ad Th 9c")  # a fresh shoe: a true count of -3 after the deal, not insured
    shoe = c + codes("8c 9d") * ((52 - len(c)) // 2 + 1)
    rec, _ = K.play_stacked(shoe[:52], rules, base, cut=len(c),
                            counter=counter_for(rules, base, plan(indices="hi-lo-nz")))
    assert box(rec[0], L.B_EVEN_MONEY) == 1 and box(rec[0], L.B_MAIN) == L.UNIT


def test_bets_follow_the_ramp_at_the_count_before_the_deal():
    cards = LOW_ROUND + " Tc Td 6d 7c"
    pl = plan(bet=ramp(1, (2, 4), (5, 12)))
    rec, ct = stacked(ONE_DECK, cards, pl)
    # Round 1 at count 0 (row 0) bets 1; round 2 at +8 x 52 / 44 = 9.45 (row 9) bets 12 and
    # loses 16 against 17 (no index: it hits and busts).
    r0, r9 = 0 - L.TC_MIN, 9 - L.TC_MIN
    assert ct[r0, L.C_BET] == 1 and ct[r0, L.C_ROUNDS] == 1
    assert ct[r9, L.C_BET] == 12 and ct[r9, L.C_ROUNDS] == 1
    assert ct[r9, L.C_NET] == -12 * L.UNIT and ct[r9, L.C_FLAT_NET] == -L.UNIT
    assert ct[r0, L.C_NET] == box(rec[0], L.B_MAIN) and ct[r0, L.C_WAGERED] == 2 * L.UNIT
    assert ct[r9, L.C_ROUND_SQ] == ct[r9, L.C_MAIN_SQ] == (12 * L.UNIT) ** 2
    assert ct[r9, L.C_FLAT_RSQ] == L.UNIT**2 and ct[r9, L.C_CROSS] == 12 * L.UNIT**2
    assert ct.sum(axis=0)[L.C_ROUNDS] == len(rec) == 2


def test_deck_estimation_rounds_the_decks_left():
    # +8 with 44 cards left: exact 9.45; to the half deck 44/52 -> 1.0 deck: 8; whole deck: 8.
    cards = LOW_ROUND + " Tc Td 6d 7c"
    for res, row in (("exact", 9), ("half", 8), ("whole", 8)):
        _, ct = stacked(ONE_DECK, cards, plan(resolution=res))
        assert ct[row - L.TC_MIN, L.C_ROUNDS] == 1, res


def test_an_unbalanced_count_keys_on_the_running_count():
    # KO: 2-7 +1, so the 8 low cards leave the running count at IRC (4 - 4 x 1 deck = 0) + 8.
    cards = LOW_ROUND + " Tc Td 6d 7c"
    _, ct = stacked(ONE_DECK, cards, plan(count="ko"))
    assert ct[0 - L.TC_MIN, L.C_ROUNDS] == 1 and ct[8 - L.TC_MIN, L.C_ROUNDS] == 1


def test_wonging_sits_out_and_comes_back():
    # Enter at +2, leave below 0: round 1 (count 0) is watched, round 2 (+9.45) is played.
    cards = LOW_ROUND + " Tc Td 6d 7c"
    rec, ct = stacked(ONE_DECK, cards, plan(enter=2, leave=0))
    assert ct[0 - L.TC_MIN, L.C_PLAYED] == 0 and ct[0 - L.TC_MIN, L.C_ROUNDS] == 1
    assert ct[0 - L.TC_MIN, L.C_FLAT_BOXES] == 1  # still dealt
    assert ct[9 - L.TC_MIN, L.C_PLAYED] == 1
    assert ct.sum(axis=0)[L.C_BET] == 1


def test_more_boxes_at_a_high_count():
    # Two boxes at +3 or more: round 2 deals two boxes (T 6 and 9 9 against the 7).
    rules = Rules(decks=1, penetration=0.9, boxes=2)
    cards = LOW_ROUND + " Tc 9d 7s 6d 9h Tc 9s 9c"
    rec, ct = stacked(rules, cards, plan(boxes=ramp(1, (3, 2))))
    assert ct[0 - L.TC_MIN, L.C_BOXES] == 1 and ct[9 - L.TC_MIN, L.C_BOXES] == 2
    assert box(rec[0], L.B_HANDS, 1) == 0 and box(rec[1], L.B_HANDS, 1) == 1


@pytest.mark.parametrize("cards, used", [("Tc Td 6d 2h 5c 9s", 6), ("9c Td 6d 2h As 5c 9s", 7)],
                         ids=["first decision", "after a hit"])
def test_the_peek_games_hole_card_is_not_counted_until_turned(tmp_path, cards, used):
    # Peek game, an index play 16 v 10 standing at 0 or more, the hole card a 2. First: the box
    # T 6 v T, the count seen -1 (hits); counting the unseen 2 would make it 0 (stands). After a
    # hit: 9 6 v T hits the As to hard 16, decided after the hole card is dealt in the round loop
    # (a mutation audit: counting it at once passed the first case, decided before): seen
    # 9 T 6 A = -1. Either box hits the 5 to 21, the dealer's 12 draws a 9: a push. Round 2
    # starts at +1 (the 2 turned): 1 x 52 / 46 (45) cards left, row 1.
    path = tmp_path / "idx.toml"
    path.write_text('count = "hi-lo"\n'
                    '[[play]]\nchart = "hard"\nrow = "16"\nup = "10"\nbelow = "H"\n'
                    'at_or_above = "S"\nindex = 0\n')
    rules = Rules(decks=1, penetration=0.9, hole_card="peek")
    rec, ct = stacked(rules, cards + " Th 9c 8c 7d Ts", plan(indices=str(path)))
    assert box(rec[0], L.B_PUSHES) == 1 and rec[0][L.R_DEALER_TOTAL] == 21
    assert rec[0][L.R_CARDS] == used
    assert ct[1 - L.TC_MIN, L.C_ROUNDS] == 1 and len(rec) == 2


@pytest.mark.parametrize("boxes", [1, 3])
def test_a_flat_count_without_indices_plays_exactly_the_basic_game(boxes):
    rules = Rules(boxes=boxes, super_sevens=True)
    p = rules.to_params()
    tables, counter, ins = counter_for(rules, BASIC, plan(count="hi-lo", resolution="half",
                                                          boxes=ramp(boxes)))
    for chunk in range(3):
        state = chunk_state(20261201, chunk)
        flat = K.simulate_chunk(p, stack([BASIC] * boxes), 30_000, state)
        tally, ct = K.count_chunk(p, tables, 30_000, state, counter, ins)
        assert np.array_equal(tally, flat)
        c = ct.sum(axis=0)
        assert c[L.C_ROUNDS] == c[L.C_PLAYED] == flat[L.T_ROUNDS]
        assert c[L.C_BOXES] == c[L.C_BET] == c[L.C_FLAT_BOXES] == flat[L.T_BOX_ROUNDS]
        assert c[L.C_NET] == c[L.C_FLAT_NET] == flat[L.T_RTOTAL_SUM]
        assert c[L.C_ROUND_SQ] == flat[L.T_RTOTAL_SQ]
        assert c[L.C_WAGERED] == flat[L.T_MAIN_WAGERED]
        assert c[L.C_SS_FLAT_NET] == flat[L.T_SS_SUM] and c[L.C_SS_NET] == 0


def test_index_plays_and_a_spread_gain_over_flat_basic():
    """Hi-Lo with the NZ index plays and a 1-12 spread against the same shoes flat and without
    indices: the flat game is the same whatever the count does (the tally of every box at one
    unit is the basic game's only when no index is played, so here it differs), and the counter
    wins more per unit bet."""
    rules = Rules()
    p = rules.to_params()
    spread = plan(indices="hi-lo-nz", resolution="half",
                  bet=ramp(1, (2, 2), (3, 4), (4, 8), (5, 12)))
    tables, counter, ins = counter_for(rules, BASIC, spread)
    net = bet = 0
    flat = 0
    for chunk in range(4):
        _, ct = K.count_chunk(p, tables, 250_000, chunk_state(7, chunk), counter, ins)
        net += int(ct[:, L.C_NET].sum())
        bet += int(ct[:, L.C_BET].sum())
        flat += int(ct[:, L.C_FLAT_NET].sum())
    # 1M rounds: the counter's edge per unit bet is about +0.5% (SE about 0.3%), flat basic
    # -0.46%; the difference between the two on the same shoes has an SE near 0.25%.
    assert net / bet / L.UNIT - flat / 1_000_000 / L.UNIT > 0.005


def _super_sevens_by_count(rules, chunks: int, rounds: int):
    # The published convention (the box's first three cards settle the bet) is the engine's when
    # the box hits every 7-7 (14.4: standing or splitting leaves (b) or (c)).
    hits = dataclasses.replace(BASIC, sevens=np.full(L.N_UP, L.H, np.int8))
    tables, counter, ins = counter_for(rules, hits, plan(count="sevens", ss=ramp(1)))
    ct = np.zeros((L.N_TC, L.N_COUNT), np.int64)
    for chunk in range(chunks):
        ct += K.count_chunk(rules.to_params(), tables, rounds, chunk_state(1994, chunk), counter,
                            ins)[1]  # fmt: skip
    return ct


def _z(row) -> float:
    n = int(row[L.C_SS_FLAT_BETS])
    mean = row[L.C_SS_FLAT_NET] / n
    sd = math.sqrt(row[L.C_SS_FLAT_SQ] / n - mean * mean)
    return (mean - row[L.C_SS_EXACT] / L.SS_EXACT_SCALE / n) / (sd / math.sqrt(n))


def test_super_sevens_by_the_sevens_count_agrees_with_its_exact_value():
    """The sevens count (exact) with the side bet on every box: in each count bucket the
    simulated return against the exact return of each round's starting shoe
    (``exact.sevens.value_by_sevens_left``), summed, within 4 standard errors. The pay table is
    a mild one (1, 2, 3, 4, 5) here: with the Gazette's 5000 to 1 the sample SD of a bucket
    misses the rare big pays and its z-scores are not normal; the Gazette's table is held to
    the exact value over all counts below."""
    ct = _super_sevens_by_count(Rules(super_sevens=True, super_sevens_pays=(1, 2, 3, 4, 5)), 4,
                                250_000)  # fmt: skip
    zs = [_z(row) for row in ct if row[L.C_SS_FLAT_BETS] >= 5_000]
    assert len(zs) >= 20
    assert max(abs(z) for z in zs) < 4, zs
    assert ct[:, L.C_SS_PLUS].sum() == 0  # (1, 2, 3, 4, 5) never favours the player


def _exact_z(row) -> float:
    """z against the SE from the exact variance of the bets' starting shoes (``ss_exact_sq``)."""
    n = int(row[L.C_SS_FLAT_BETS])
    exact = row[L.C_SS_EXACT] / L.SS_EXACT_SCALE / n
    var = row[L.C_SS_EXACT_SQ] / L.SS_EXACT_SQ_SCALE / n - exact * exact
    return (row[L.C_SS_FLAT_NET] / n - exact) / math.sqrt(var / n)


def test_super_sevens_with_the_gazette_pays_agrees_over_all_counts():
    """With the Gazette's pays, against the SE from the exact variance of each bet's starting
    shoe: at every count with 100,000 bets or more (where one 5000 to 1 pay more or less moves
    the mean by well under one SE) and over all counts, within 4 SE."""
    ct = _super_sevens_by_count(Rules(super_sevens=True), 6, 500_000)
    assert abs(_z(ct.sum(axis=0))) < 4 and abs(_exact_z(ct.sum(axis=0))) < 4
    zs = [_exact_z(row) for row in ct if row[L.C_SS_FLAT_BETS] >= 100_000]
    assert len(zs) >= 6 and max(abs(z) for z in zs) < 4, zs
    # The shoe favours the bet at the round's start in some rounds, at high sevens counts only.
    plus = ct[:, L.C_SS_PLUS]
    assert 0 < plus.sum() < ct[:, L.C_ROUNDS].sum() / 2
    assert plus[: 0 - L.TC_MIN].sum() == 0


@pytest.mark.slow
def test_hi_lo_1_8_agrees_with_a_published_figure():
    """Snyder (Blackbelt in Blackjack, "Hi-Lo Lite"; 200 million hands of a 6-deck Atlantic City
    game, Wong's Professional Blackjack indices, a 1-8 spread, every round played): +0.50% of the
    initial bet. Hi-Lo with the shipped index plays and a 1-8 ramp on the US 6-deck S17 DAS peek
    rules (configs/us-6deck-s17-das-peek.toml, no surrender, its own basic strategy), 20 million
    rounds at 75% penetration: within 3 standard errors of it (docs/counting.md has the NZ figure
    and why it is lower). The article gives neither its penetration nor its ramp's counts, which
    were chosen here, and the figure moves with them (+0.20% at 60%, +1.05% at 90%): agreement in
    size, which a counter's fault of that size would break, not a check to the SE."""
    from simulator.derived import basic_for
    from simulator.rules import load_rules

    rules = load_rules("configs/us-6deck-s17-das-peek.toml")
    base, _ = basic_for(rules)
    pl = plan(indices="hi-lo-nz", resolution="half", bet=ramp(1, (2, 2), (3, 4), (4, 6), (5, 8)))
    tables, counter, ins = counter_for(rules, base, pl)
    ct = np.zeros((L.N_TC, L.N_COUNT), object)
    for chunk in range(20):
        ct += K.count_chunk(rules.to_params(), tables, 1_000_000, chunk_state(2026, chunk),
                            counter, ins)[1]  # fmt: skip
    c = ct.sum(axis=0)
    n, bet = int(c[L.C_PLAYED]), int(c[L.C_BET])
    mean = c[L.C_NET] / L.UNIT / n
    sd = math.sqrt(c[L.C_ROUND_SQ] / L.UNIT**2 / n - mean * mean)
    adv, se = mean * n / bet, sd / math.sqrt(n) * n / bet
    assert abs(adv - 0.0050) < 3 * se, (adv, se)


def test_surrender_by_count(tmp_path):
    # Late surrender, an index play 15 v 10: surrender (Rh) at +5 or more, hit below. After the
    # low round (+8), T 5 v T at +8.9 surrenders half the bet; from a fresh shoe it hits a 7.
    path = tmp_path / "idx.toml"
    path.write_text('count = "hi-lo"\n'
                    '[[play]]\nchart = "hard"\nrow = "15"\nup = "10"\nbelow = "H"\n'
                    'at_or_above = "Rh"\nindex = 5\n')
    rules = Rules(decks=1, penetration=0.9, surrender="late")
    rec, _ = stacked(rules, LOW_ROUND + " Tc Td 5d 7c", plan(indices=str(path)))
    assert box(rec[1], L.B_SURRENDERS) == 1 and box(rec[1], L.B_MAIN) == -L.UNIT // 2
    rec, _ = stacked(rules, "Tc Td 5d 7c", plan(indices=str(path)))
    assert box(rec[0], L.B_SURRENDERS) == 0 and box(rec[0], L.B_BUSTS) == 1


def test_an_index_play_of_hit_or_stand_keeps_the_charts_surrender():
    # A chart surrendering 16 v 10 (Rh) under late surrender, with hi-lo-nz (16 v 10: hit below
    # +1, stand from it): the index decides what is played where surrender is not, so the box
    # surrenders at any count; without surrender it stands at +8.9 (after the low round).
    hard = BASIC.hard.copy()
    hard[16, 8] = L.RH
    chart = dataclasses.replace(BASIC, hard=hard)
    cards = LOW_ROUND + " Tc Td 6d 7c"
    for rules, surrenders, busts in ((Rules(decks=1, penetration=0.9, surrender="late"), 1, 0),
                                     (ONE_DECK, 0, 0)):  # fmt: skip
        c = codes(cards)
        shoe = c + codes("8c 9d") * ((52 - len(c)) // 2 + 1)
        rec, _ = K.play_stacked(shoe[:52], rules, chart, cut=len(c),
                                counter=counter_for(rules, chart, plan(indices="hi-lo-nz")))
        assert (box(rec[1], L.B_SURRENDERS), box(rec[1], L.B_BUSTS)) == (surrenders, busts)


def test_ramps_too_fine_for_the_walks_bet_table_are_bet_by_the_round_loop():
    # 60 bet steps and 40 Super Sevens steps (plans allow 255 each): 2,501 levels of bets, more
    # than the one-box walk's table of rounds can place, so the round loop plays every round.
    rules = Rules(super_sevens=True)
    bet = ramp(1, *((-5 + i / 5, i + 2) for i in range(60)))
    ss = ramp(0, *((-5 + i * 0.3, i + 1) for i in range(40)))
    tables, counter, ins = counter_for(rules, BASIC, plan(bet=bet, ss=ss))
    p, state = rules.to_params(), chunk_state(3, 1)
    tally, ct = K.count_chunk(p, tables, 5000, state, counter, ins)
    assert np.array_equal(tally, K.simulate_chunk(p, stack([BASIC]), 5000, state))
    c = ct.sum(axis=0)
    assert c[L.C_ROUNDS] == 5000 and c[L.C_BET] > c[L.C_BOXES] and c[L.C_SS_BET] > 0


def test_the_super_sevens_bet_follows_its_own_ramp():
    # No side bet below +2, 3 units from it: round 1 (count 0) bets none, round 2 (+9.45) bets
    # 3 and loses them on (f), with the main bet's 1 unit lost too.
    rules = Rules(decks=1, penetration=0.9, super_sevens=True)
    _, ct = stacked(rules, LOW_ROUND + " Tc Td 6d 7c", plan(ss=ramp(0, (2, 3))))
    r0, r9 = 0 - L.TC_MIN, 9 - L.TC_MIN
    assert ct[r0, L.C_SS_BET] == 0 and ct[r0, L.C_SS_FLAT_BETS] == 1
    assert ct[r9, L.C_SS_BET] == 3 and ct[r9, L.C_SS_NET] == -3
    assert ct[r9, L.C_ROUND_SQ] == (L.UNIT * (1 + 3)) ** 2
    # the per-round moments of the main game alone (the side bet's 3 stakes left out): the
    # counter's -1 unit, the flat -1 unit, and their product
    assert ct[r9, L.C_MAIN_SQ] == ct[r9, L.C_FLAT_RSQ] == ct[r9, L.C_CROSS] == L.UNIT**2


@pytest.mark.parametrize(
    "rules, counter",
    [
        (Rules(), plan(indices="hi-lo-nz", resolution="half",
                       bet=ramp(1, (2, 2), (3, 4), (5, 12)))),
        (Rules(), plan(indices="hi-lo-nz", bet=ramp(1, (1.5, 3)), ss=ramp(0, (2, 1)), enter=-1,
                       leave=-2)),
        (Rules(decks=1, penetration=0.85, surrender="late", dealer_hits_soft_17=True),
         plan(indices="hi-lo-nz", resolution="whole", bet=ramp(2, (1, 4)), enter=0, leave=-1)),
        (Rules(shuffle="every-round"), plan(indices="hi-lo-nz", bet=ramp(1, (0, 2)))),
        (Rules(decks=2), plan(count="ko", bet=ramp(1, (2, 3), (4, 8)))),
        (Rules(), plan(count="sevens", bet=ramp(1), ss=ramp(0, (1, 1), (4, 5)))),
    ],
)
def test_the_counted_walk_equals_the_round_loop(rules, counter):
    """One box without peek: a counter walks the round table (``play.walk``: each round
    recorded and bet a shoe at a time, counted by terminal); with a trace the round loop plays
    every round. The same seed gives the same tally and counting tally, field by field."""
    tables, ctr, ins = counter_for(rules, BASIC, counter)
    p = rules.to_params()
    nets_walked, nets_looped = np.zeros((2, L.N_NETS), np.int64)
    walked, ct_walked = K.count_chunk(p, tables, 6000, chunk_state(11, 2), ctr, ins,
                                      nets=nets_walked)
    trace = np.full(6000 * 60, -1, np.int8)
    looped, ct_looped = K.count_chunk(p, tables, 6000, chunk_state(11, 2), ctr, ins, trace,
                                      nets_looped)
    assert (trace >= 0).sum() > 6000 * 3
    # the rounds played by their net: the walk's by terminal (``add_walked``), the loop's each
    assert nets_walked.sum() == ct_walked[:, L.C_PLAYED].sum() > 0
    assert (nets_walked == nets_looped).all() and np.count_nonzero(nets_walked) >= 5
    assert ct_walked[:, L.C_ROUNDS].sum() == 6000
    assert (walked == looped).all()
    differ = np.argwhere(ct_walked != ct_looped)
    assert differ.size == 0, [(L.COUNT_NAMES[c], r + L.TC_MIN) for r, c in differ[:5]]
    # the index plays insure at +3 (not reached from a fresh shoe each round): the walk counts
    # those insurance bets, won and lost, by the terminal's insurance result (``add_walked``),
    # as the round loop by the box's
    ins = ct_walked[:, [L.C_INS_WON, L.C_INS_LOST]].sum(axis=0)
    insures = counter.indices is not None and rules.shuffle != "every-round"
    assert ins.min() > 0 if insures else ins.max() == 0, ins
    # the exact return of the counter's Super Sevens stakes: in both, where it stakes any
    assert (ct_walked[:, L.C_SS_EXACT_BET] != 0).any() == bool(counter.super_sevens.steps)


@pytest.mark.parametrize("boxes", [1, 3])
def test_the_exact_return_of_the_counters_stakes_is_its_bet_times_the_shoes(boxes):
    """``ss_exact_bet``: each Super Sevens stake times the exact return of its round's starting
    shoe (x 1e6). With the ramp's steps at whole true counts, every round of a count row is
    staked alike, so the row's sum is that stake times the row's exact return of one unit a box
    (``ss_exact``, x 1e9), to the rounding of each bet's figure (half a millionth at most)."""
    rules = dataclasses.replace(Rules(), boxes=boxes)  # (1 box: the walk; 3: the round loop)
    pl = plan(count="sevens", ss=ramp(0, (1, 1), (4, 5)), boxes=ramp(boxes))
    tables, ctr, ins = counter_for(rules, BASIC, pl)
    _, ct = K.count_chunk(rules.to_params(), tables, 40_000, chunk_state(3, 0), ctr, ins)
    staked = 0
    for row in range(L.N_TC):
        tc = row + L.TC_MIN
        stake = 0 if tc < 1 else 1 if tc < 4 else 5
        bets = int(ct[row, L.C_SS_FLAT_BETS])
        assert int(ct[row, L.C_SS_BET]) == stake * bets, tc
        got = int(ct[row, L.C_SS_EXACT_BET])
        want = stake * int(ct[row, L.C_SS_EXACT]) / 1000
        assert abs(got - want) <= stake * bets * 0.501, (tc, got, want)
        staked += stake * bets
    assert staked > 1000 and (ct[:, L.C_SS_EXACT_BET] > 0).sum() > 5


def test_index_plays_add_states_only_where_the_strategies_differ():
    """A hand is one state under every band's strategy; a card leads to a state that waits for
    the count (``INDEX``) only where the strategies' decisions differ."""
    from simulator.kernel.tables import INDEX, build

    rules = Rules()
    p = rules.to_params()
    tables, ctr, _ = counter_for(rules, BASIC, plan(indices="hi-lo-nz"))
    n = len(tables[0])
    m = build(p, tuple(np.ascontiguousarray(t, np.int8) for t in tables), ctr.bands.size + 1)
    plain = K.machine_for(p, stack([BASIC]))
    index = np.flatnonzero(m.flags & INDEX)
    assert n == 2 * (ctr.bands.size + 1) > 2  # bands, with and without insurance
    assert 0 < index.size and m.flags.size < 2 * plain.flags.size
    alt = m.alt.reshape(-1, n)
    assert all(len(set(alt[s])) > 1 for s in index)
    assert not alt[np.flatnonzero((m.flags & INDEX) == 0)].any()


def test_the_plain_game_and_a_counter_compile_one_engine_each():
    # The plain game's engine leaves the counter's code out (``cx`` None, pruned when compiled),
    # so that a first bjsim simulate compiles about half as much; a counter's is a second
    # version, compiled once whatever the counter (every array it passes has one type); compare's
    # blocks are the plain game's version.
    rules = Rules(super_sevens=True)
    p = rules.to_params()
    for indices, ss in (("hi-lo-nz", ramp(0, (8, 1))), (None, ramp(1))):
        tables, counter, ins = counter_for(rules, BASIC, plan(indices=indices, ss=ss))
        K.count_chunk(p, tables, 100, chunk_state(1, 0), counter, ins)
        K.simulate_chunk(p, stack([BASIC]), 100, chunk_state(1, 0))
        K.simulate_blocks(p, stack([BASIC]), [50, 50], [chunk_state(1, 0)] * 2, [L.T_RTOTAL_SUM])
    kinds = sorted(type(sig[2]).__name__ for sig in K._simulate.overloads)
    assert kinds == ["NoneType", "Tuple"]


def test_a_counter_past_the_walks_bound_bets_in_the_round_loop(monkeypatch):
    # The walk's round counts grow with the ramps' steps; past WALKED_MAX the counter plays the
    # round loop, which bets each round as it goes: the same tallies, no large array.
    rules = Rules()
    p = rules.to_params()
    pl = plan(indices="hi-lo-nz", bet=ramp(1, (1, 2), (2, 4), (3, 8)), ss=ramp(0, (2, 1)))
    tables, counter, ins = counter_for(rules, BASIC, pl)
    walked = K.count_chunk(p, tables, 30_000, chunk_state(5, 0), counter, ins)
    assert 0 < counter.arrays(6, 14)[6].size <= C.WALKED_MAX
    monkeypatch.setattr(C, "WALKED_MAX", 2 * L.N_TC * 2 * 14 - 1)
    monkeypatch.setattr(K, "_COUNTERS", {})
    assert counter.arrays(6, 14)[6].size == 0
    looped = K.count_chunk(p, tables, 30_000, chunk_state(5, 0), counter, ins)
    assert all(np.array_equal(a, b) for a, b in zip(walked, looped, strict=True))


def test_a_whole_true_count_is_exact_in_the_engine_and_the_reference():
    # rc * (52 / left) gave 12.999999999999998 for +23 at 92 cards left: floored into the +12
    # row, and a step at +13 missed; rc * 52 / left rounds once, and a whole count is exact.
    from simulator.counter import counter_for
    from simulator.reference import Counting

    pl = plan(resolution="exact", bet=ramp(1, (13, 2)))
    _, counter, _ = counter_for(Rules(), load_strategy("basic"), pl)
    lo = counter.running_counts(6)[0]
    e = counter.count_table(6)[92, 23 - lo]
    assert (e >> C.E_ROW) & 0xFF == 13 - L.TC_MIN  # the +13 row
    assert (e >> C.E_RAMP) & 0xFF == 1  # the step at +13
    ref = Counting(tags=tuple(counter.tags), irc=0, step=0, true=True, plays=())
    assert ref.true_count(23, 92) == 13.0


def test_after_a_mid_round_refill_the_count_goes_on_from_the_rounds_cards_on_the_table():
    """The shoe ran out in a round (`rng.refill`): the discards, positions 0..end-1, are the new
    shoe, and the round's cards dealt before it (end..end+before-1) are on the table, not in it.
    The count starts over from the initial running count and those cards, then counts the new
    shoe's as dealt, with the new shoe's cards left."""
    from simulator.kernel import rng as R

    for count in ("hi-lo", "ko", "sevens"):
        _, counter, _ = counter_for(Rules(), BASIC, plan(count))
        ci, ctab, tg, _, _ = counter.arrays(6)[:5]
        shoe = R.fresh_shoe(6)
        shoe[:312] = np.random.default_rng(5).permutation(shoe[:312])
        shoe[[1, 283]] = 24, 25  # (two sevens among the cards counted: the sevens marks too)
        end, before, pos = 280, 9, 4  # (the round began at 280; 9 of its cards, then 4 new)
        ws = np.zeros(R.N_WS, np.int64)
        ws[R.WS_SHUFFLES], ws[R.WS_BEFORE], ws[R.WS_REFILLS] = 3, before, 1
        cs = np.zeros(C.N_CS, np.int64)
        cs[C.CS_SHUFFLES], cs[C.CS_RC], cs[C.CS_SEEN] = 2, 12345, 285  # (before the refill)

        def tag(code, tg=tg):
            return int(tg[min(code // 4 + 1, 10) - 1])

        said = C.count_now(ci, ctab, tg, cs, shoe, ws, pos, end)
        want = counter.irc + sum(tag(c) for c in shoe[end:end + before]) + sum(
            tag(c) for c in shoe[:pos])
        assert cs[C.CS_RC] == want and cs[C.CS_SEEN] == pos and cs[C.CS_SHUFFLES] == 3, count
        rc, sevens = C.running.py_func(want)
        assert sevens == sum(min(c // 4 + 1, 10) == 7 for c in [*shoe[end:end + before],
                                                              *shoe[:pos]]) > 0, count
        assert said == ctab[end - pos, rc - ci[C.CI_RC_LO]], count  # (left: the new shoe's)


def test_the_counters_super_sevens_by_its_shoes_exact_return_agrees_with_its_results():
    """The counter's Super Sevens result by the exact return of each stake's starting shoe has
    the simulated result's expectation (a stake is set before its round's cards), and a far
    smaller spread. Small pays (3/10/20/40/80) make the simulated result precise enough to
    test against: 40 chunks of 100,000 rounds, stakes 1 from +2 and 3 from +5 on a sevens
    count, the NZ chart's own 7-7 play valued; the difference held to 3 SEs by batch means of
    the chunks' own differences (this seed: well inside), the exact-based SE under a third of
    the simulated's."""
    rules = Rules().replace(super_sevens_pays=(3, 10, 20, 40, 80))
    pl = plan(count="sevens", ss=ramp(0, (2, 1), (5, 3)))
    tables, ctr, ins = counter_for(rules, BASIC, pl)
    chunks = [K.count_chunk(rules.to_params(), tables, 100_000, chunk_state(21, i), ctr, ins)[1]
              for i in range(40)]
    staked = np.array([c[:, L.C_SS_BET].sum() for c in chunks], float)
    sim = np.array([c[:, L.C_SS_NET].sum() for c in chunks], float)
    by_exact = np.array([c[:, L.C_SS_EXACT_BET].sum() for c in chunks], float) / 1e6

    def se(ys, xs):  # the ratio's SE by batch means (batches' delta method)
        r = ys.sum() / xs.sum()
        return math.sqrt(((ys - r * xs) ** 2).sum() * len(xs) / (len(xs) - 1)) / xs.sum()

    diff = (sim.sum() - by_exact.sum()) / staked.sum()
    assert staked.sum() > 300_000
    assert abs(diff) < 3 * se(sim - by_exact, staked), (diff, se(sim - by_exact, staked))
    assert se(by_exact, staked) < se(sim, staked) / 3


def test_a_counter_dealing_more_boxes_than_the_rules_hold_is_refused():
    """A code review: a counter made for 7 boxes played under rules of 1 overran the round
    loop's arrays (a segfault in play_stacked; count_chunk returned a tally). The engine
    refuses it, naming the two."""
    counter = counter_for(Rules(decks=1, boxes=7), BASIC, plan(boxes=ramp(1, (3, 7))))
    one = Rules(decks=1, boxes=1)
    shoe = list(range(52))
    with pytest.raises(ValueError, match=r"up to 7 boxes.*boxes = 1"):
        K.play_stacked(shoe, one, BASIC, counter=counter)
    with pytest.raises(ValueError, match=r"up to 7 boxes.*boxes = 1"):
        K.count_chunk(one.to_params(), counter[0], 1000, chunk_state(1, 0), counter[1])
    rec, _ = K.play_stacked(shoe, Rules(decks=1, boxes=7), BASIC, counter=counter)
    assert len(rec) > 0
