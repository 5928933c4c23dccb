"""The numba kernel and the engine: random numbers, the lazy shuffle, the cut card, determinism,
tally merging, and hand-built stacked shoes checked to the tenth (one test per rule).

Statistical checks use fixed seeds and a stated tolerance: chi-square below the 0.999 quantile
of its distribution.
"""

from __future__ import annotations

import sys

import numpy as np
import pytest
from helpers import basic_strategy, box_view, deal, make_strategy, round_view, shoe

from simulator import engine
from simulator import kernel as K
from simulator import layout as L
from simulator.jit import njit
from simulator.kernel import rng as R
from simulator.rules import Rules
from simulator.strategy import load_strategy, stack_for

NZ = Rules()
MIMIC = make_strategy()  # hit below 17, stand 17+
STATE = np.array([0x123456789ABCDEF, 0xFEDCBA987654321, 42, 7], dtype=np.uint64)
MASK64 = (1 << 64) - 1

# 0.999 quantiles of chi-square with df degrees of freedom.
CHI2_999 = {2: 13.816, 9: 27.877, 36: 67.985, 51: 87.968}


def _chi2(counts, expected) -> float:
    counts = np.asarray(counts, dtype=float)
    return float(((counts - expected) ** 2 / expected).sum())


def _py_xoshiro(state, n):
    """xoshiro256** written out in plain Python integers (Blackman and Vigna)."""
    s = [int(x) for x in state]
    out = []

    def rotl(x, k):
        return ((x << k) | (x >> (64 - k))) & MASK64

    for _ in range(n):
        out.append(rotl((s[1] * 5) & MASK64, 7) * 9 & MASK64)
        t = (s[1] << 17) & MASK64
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = rotl(s[3], 45)
    return out


@njit
def _next_u64_many(state, count):
    """``count`` raw xoshiro256** outputs from ``state``."""
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
    out = np.empty(count, np.uint64)
    for i in range(count):
        out[i], s0, s1, s2, s3 = R.next_u64(s0, s1, s2, s3)
    return out


@njit
def _draw_bounded_many(state, n, count):
    """``count`` bounded draws in ``0..n-1`` from ``state``."""
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
    out = np.empty(count, np.int64)
    for i in range(count):
        out[i], s0, s1, s2, s3 = R.bounded(n, s0, s1, s2, s3)
    return out


def _one(cards_, rules=NZ, strategies=MIMIC, cut=None):
    recs = K.play_stacked(cards_, rules, strategies, cut=cut)
    assert recs.shape[0] == 1, f"expected one complete round, got {recs.shape[0]}"
    return round_view(recs[0]), box_view(recs[0], 0)


# ---------------------------------------------------------------------------------------------
# Random numbers
def test_xoshiro_matches_plain_python():
    got = _next_u64_many(STATE, 50)
    assert [int(x) for x in got] == _py_xoshiro(STATE, 50)


@pytest.mark.parametrize("n", [10, 37])
def test_bounded_draws_are_uniform(n):
    draws = _draw_bounded_many(STATE, n, 200_000)
    assert draws.min() == 0 and draws.max() == n - 1
    counts = np.bincount(draws, minlength=n)
    assert _chi2(counts, draws.size / n) < CHI2_999[n - 1]


def test_bounded_draw_rejection_removes_the_bias():
    # n = 3 * 2**30: a bare multiply-shift gives residues 0 mod 3 half the time (2 of every 4
    # 32-bit inputs); the rejection step makes the three residues exactly equally likely.
    n = 3 * 2**30
    draws = _draw_bounded_many(STATE, n, 90_000)
    assert draws.min() >= 0 and draws.max() < n
    counts = np.bincount(draws % 3, minlength=3)
    assert _chi2(counts, draws.size / 3) < CHI2_999[2]


# ---------------------------------------------------------------------------------------------
# The lazy shuffle
@pytest.mark.parametrize("decks", [1, 6])
def test_lazy_deal_of_a_full_shoe_is_a_permutation(decks):
    for seed in range(5):
        dealt = K.deal_shoe(engine.chunk_state(seed, 0), decks)
        assert np.array_equal(np.sort(dealt), np.sort(np.tile(np.arange(52), decks)))


def test_lemires_draw_accepts_a_low_product_equal_to_its_threshold():
    """Lemire's draw rejects a low product below 2**32 mod n, not equal to it: a state whose
    first output's high 32 bits are 0xFFFFFFFF, drawn below n = 2**32 - 1, leaves a low product
    of 1 = 2**32 mod n and is taken, 2**32 - 2, after one step (a run-machinery audit: a
    rejection of the equal product, a bias of one in 2**32, passed every uniformity test)."""
    mask, r = (1 << 64) - 1, 0xFFFFFFFF_12345678
    x = r * pow(9, -1, 1 << 64) & mask  # the output is rotl(s1 * 5, 7) * 9: s1 from it
    s1 = ((x >> 7) | (x << 57)) & mask
    s1 = s1 * pow(5, -1, 1 << 64) & mask
    state = [np.uint64(v) for v in (0x9E3779B97F4A7C15, s1, 0xBF58476D1CE4E5B9, 7)]
    out, *stepped = R.next_u64(*state)
    assert int(out) == r
    value, *after = R.bounded(np.uint64(2**32 - 1), *state)
    assert int(value) == 2**32 - 2
    assert [int(a) for a in after] == [int(a) for a in stepped]


def test_lazy_deal_positions_are_uniform():
    # First and last card of 5,200 one-deck shoes: every code equally likely (100 expected each).
    first = np.empty(5200, np.int64)
    last = np.empty(5200, np.int64)
    for i in range(5200):
        dealt = K.deal_shoe(engine.chunk_state(99, i), 1)
        first[i], last[i] = dealt[0], dealt[-1]
    for sample in (first, last):
        assert _chi2(np.bincount(sample, minlength=52), 100.0) < CHI2_999[51]


# ---------------------------------------------------------------------------------------------
# Simulation mode: shuffles, determinism, merging, agreement with the stacked mode
def _sim(rules, strategies, n, state=STATE):
    return K.simulate_chunk(rules.to_params(), stack_for(rules, strategies), n, state)


def _sim_trace(rules, strategies, n, state=STATE):
    """The chunk's tally and the cards of its rounds in dealing order."""
    trace = np.full(n * 60, -1, np.int8)
    tally = K.simulate_chunk(rules.to_params(), stack_for(rules, strategies), n, state, trace)
    return tally, trace[trace >= 0]


@pytest.mark.parametrize(
    "rules",
    [
        NZ,
        NZ.replace(max_hands=4, resplit_aces=True, super_sevens=False),
        NZ.replace(boxes=7),
        NZ.replace(boxes=3, max_hands=4, resplit_aces=True, super_sevens=False),
    ],
)
def test_engine_plays_split_boxes_and_sevens(rules):
    """Boxes that split (to four hands with max_hands 4) and 7-7 under Super Sevens are played
    and tallied: splits, resplits, lines (b) and (c), every hand won, lost or pushed."""
    n = 20_000
    tally = _sim(rules, [basic_strategy()] * rules.boxes, n)
    assert tally[L.T_ROUNDS] == n and tally[L.T_BOX_ROUNDS] == n * rules.boxes
    assert tally[L.T_SPLITS] > n * rules.boxes / 60
    if rules.max_hands == 4:  # some split boxes split again
        assert tally[L.T_HANDS] - tally[L.T_BOX_ROUNDS] > tally[L.T_SPLITS] / 2
    if rules.super_sevens:
        assert tally[L.T_SS_B] > 0 and tally[L.T_SS_C] > 0
    assert tally[L.T_HANDS] == tally[L.T_SPLITS] + tally[L.T_BOX_ROUNDS]
    assert tally[L.T_HANDS] == tally[L.T_WINS] + tally[L.T_LOSSES] + tally[L.T_PUSHES]


# Keys `_random_rules` leaves at the NZ value (soak's random rules draw them).
LEFT_AT_NZ = ("insurance_pays", "super_sevens_pays", "super_sevens_bet")


def _random_rules(rng, boxes, min_decks, penetration):
    """A random rule set of every key (but `LEFT_AT_NZ`) for ``boxes`` boxes: a key this list
    does not name is drawn from its declaration (`helpers.random_value`)."""
    from helpers import random_value

    from simulator.rules import DECLARATIONS

    named = dict(
        boxes=boxes,
        decks=int(rng.integers(min_decks, 9)),
        max_hands=int(rng.integers(1, 5)),
        resplit_aces=bool(rng.integers(2)),
        hit_split_aces=bool(rng.integers(2)),
        double_after_split=bool(rng.integers(2)),
        double_on=str(rng.choice(["any", "hard", "9-11", "10-11"])),
        dealer_blackjack_takes=str(rng.choice(["all", "original-and-busted", "original"])),
        dealer_hits_soft_17=bool(rng.integers(2)),
        dealer_draws_when_no_live_box=bool(rng.integers(2)),
        hole_card=str(rng.choice(["none", "peek"])),
        surrender=str(rng.choice(["none", "late", "early"])),
        super_sevens=bool(rng.integers(2)),
        blackjack_pays=float(rng.choice([1.5, 1.2, 1.0])),
        penetration=float(rng.uniform(*penetration)),
        shuffle=str(rng.choice(["cut-card", "every-round"])),
    )
    return NZ.replace(**named, **{k.name: random_value(rng, k) for k in DECLARATIONS
                                  if k.name not in named and k.name not in LEFT_AT_NZ})


def test_simulation_equals_stacked_mode_random_games():
    """Random games (every rule key) and random strategies (every cell a random legal code,
    insurance and even money too; one for all boxes, or one a box): the simulated chunk's tally
    equals the sums of its rounds replayed in stacked mode, the two modes of the one engine."""
    from helpers import random_strategy

    rng = np.random.default_rng(20261201)
    for _ in range(25):
        boxes = int(rng.integers(1, 8))
        rules = _random_rules(rng, boxes, max(2, boxes), (0.5, 0.85))
        strategies = [random_strategy(rng) for _ in range(boxes if rng.integers(2) else 1)]
        _check_replay(rules, strategies, 1500)


def test_one_box_walk_equals_the_round_loop_random_games():
    """One box walks the round table (``play.walk``); with a trace the same chunk runs the round
    loop that plays every other game (and the walk's exits). Random games of every rule key and
    random strategies: the same tally, field by field, on the same seed."""
    from helpers import random_strategy

    rng = np.random.default_rng(20261202)
    for _ in range(30):
        rules = _random_rules(rng, 1, 1, (0.3, 0.95))
        strategy = random_strategy(rng) if rng.integers(3) else basic_strategy()
        walked = _sim(rules, [strategy], 3000)
        looped, trace = _sim_trace(rules, [strategy], 3000)
        assert trace.size > 0
        assert (walked == looped).all(), (rules, [
            (L.TALLY_NAMES[i], walked[i], looped[i]) for i in np.nonzero(walked != looped)[0]
        ])  # fmt: skip


@pytest.mark.parametrize("decks", [1, 6])
@pytest.mark.parametrize("strategy", ["basic", "basic-super-sevens"])
def test_a_walked_7_7_moves_its_line_as_the_round_loop_does(decks, strategy):
    """Under Super Sevens a 7-7 not split is walked on, its line moved by the suits (b, c) and a
    third seven (d, e) in the walk (``tables.MOVES``); the round loop (a trace) finds the line
    from the cards. Enough rounds for lines (d) and, with 6 decks, (e): the same tally."""
    rules = NZ.replace(decks=decks)
    strat = load_strategy(strategy)
    walked = _sim(rules, [strat], 1_500_000)
    looped = K.simulate_chunk(rules.to_params(), stack_for(rules, [strat]), 1_500_000, STATE,
                              np.zeros(1, np.int8))  # (a trace: the round loop plays every round)
    assert walked[L.T_SS_D] > 0 and (decks == 1 or walked[L.T_SS_E] > 0)
    assert (walked == looped).all(), [
        (L.TALLY_NAMES[i], walked[i], looped[i]) for i in np.nonzero(walked != looped)[0]]


@pytest.mark.parametrize("surrender", ["none", "late", "early"])
def test_a_walked_surrendered_7_7_takes_no_third_card(surrender):
    """A 7-7 whose sevens row says Rh surrenders where the rules allow it: walked on (one box)
    as in the round loop, the side bet stays on (b) or (c), no third card, so no (d) or (e);
    without surrender Rh hits, and the third card makes (d). The same tally either way."""
    rules = NZ.replace(decks=1, surrender=surrender)
    strat = make_strategy(sevens={"*": "Rh"})
    walked = _sim(rules, [strat], 400_000)
    looped = K.simulate_chunk(rules.to_params(), stack_for(rules, [strat]), 400_000, STATE,
                              np.zeros(1, np.int8))  # (a trace: the round loop plays every round)
    assert (walked == looped).all(), [
        (L.TALLY_NAMES[i], walked[i], looped[i]) for i in np.nonzero(walked != looped)[0]]
    assert walked[L.T_SS_B] > 0
    if surrender == "none":
        assert walked[L.T_SS_D] > 0 and walked[L.T_SURRENDERS] == 0
    else:
        assert walked[L.T_SS_D] == walked[L.T_SS_E] == 0
        assert walked[L.T_SURRENDERS] == walked[L.T_SS_B] + walked[L.T_SS_C]


def test_boxes_with_the_same_strategy_share_its_states():
    p = NZ.replace(boxes=3).to_params()
    t = stack_for(NZ.replace(boxes=3), [basic_strategy(), MIMIC, basic_strategy()])
    m = K.machine_for(p, t)
    assert m.start[0] == m.start[2] != m.start[1]


@pytest.mark.parametrize("rules", [NZ.replace(boxes=3), NZ.replace(boxes=3, hole_card="peek",
                                                                 max_hands=4)])
def test_figures_by_strategy_are_the_sums_of_their_boxes_rounds(rules):
    """Each strategy's box-round figures (``layout.T_BY``, at its first box) are the sums over
    the records of its boxes when the chunk's cards are played again in stacked mode."""
    strategies = [basic_strategy(), MIMIC, basic_strategy()]
    tally, trace = _sim_trace(rules, strategies, 3000)
    recs = K.play_stacked(trace, rules, strategies)
    assert recs.shape[0] == 3000  # every round (none dealt partly from reshuffled discards)
    box = recs[:, L.R_FIXED:].reshape(3000, 3, L.R_BOX)
    main, ss = box[:, :, L.B_MAIN], box[:, :, L.B_SS]
    total = main + box[:, :, L.B_INS]
    by = tally[L.T_BY:].reshape(7, L.N_BY)
    for slot, boxes in ((0, [0, 2]), (1, [1])):
        want = [3000 * len(boxes)] + [(x[:, boxes] ** k).sum() for x in (main, total, ss)
                                      for k in (1, 2)]  # fmt: skip
        want += [(x[:, boxes].sum(axis=1) ** 2).sum() for x in (total, ss)]  # by round
        assert by[slot].tolist() == want, slot
    assert not by[2:].any()
    assert by[0, L.BY_MAIN_SUM] / 6000 > by[1, L.BY_MAIN_SUM] / 3000  # basic over mimic


def test_every_round_shuffle_shuffles_every_round():
    t = _sim(NZ.replace(shuffle="every-round"), MIMIC, 2000)
    assert t[L.T_SHUFFLES] == t[L.T_ROUNDS] == 2000


@pytest.mark.parametrize("penetration", [0.25, 0.5, 0.75, 0.9])
def test_cut_card_rule_7_1_rounds_per_shoe(penetration):
    # Replay the simulated rounds in stacked mode to learn each round's card count, then apply
    # 7.1 in plain Python: a new shoe starts before a round when pos >= cut.
    rules = NZ.replace(penetration=penetration, boxes=2)
    tally, trace = _sim_trace(rules, MIMIC, 3000)
    recs = K.play_stacked(trace, rules, MIMIC)
    assert recs.shape[0] == 3000
    shuffles, pos, rounds_per_shoe = 0, None, []
    for n_cards in recs[:, L.R_CARDS]:
        if pos is None or pos >= rules.cut:
            shuffles += 1
            pos = 0
            rounds_per_shoe.append(0)
        pos += n_cards
        rounds_per_shoe[-1] += 1
    assert tally[L.T_SHUFFLES] == shuffles
    assert tally[L.T_CARDS_DEALT] == recs[:, L.R_CARDS].sum()
    # Rounds per shoe grow with the cut: about cut / (cards per round).
    per_round = recs[:, L.R_CARDS].mean()
    assert abs(np.mean(rounds_per_shoe[:-1]) - rules.cut / per_round) < 1.5


def test_cut_card_at_one_card_shuffles_every_round():
    t = _sim(NZ.replace(penetration=1 / 312), MIMIC, 500)
    assert t[L.T_SHUFFLES] == 500


@pytest.mark.parametrize(
    "rules, kinds",
    [
        (NZ.replace(boxes=3, surrender="late"), ("basic", "insure", "mimic")),
        (NZ, ("insure",)),
        (NZ, ("basic",)),
        # deep penetration: rounds near the end of the shoe
        (NZ.replace(decks=2, penetration=0.9), ("basic",)),
        (NZ.replace(surrender="late", dealer_blackjack_takes="original"), ("insure",)),
    ],
)
def test_simulation_tally_equals_its_rounds_replayed_in_stacked_mode(rules, kinds):
    makers = {
        "basic": basic_strategy,
        "insure": lambda: basic_strategy(insurance=True, even_money=True),
        "mimic": lambda: MIMIC,
    }
    strategies = [makers[k]() for k in kinds]
    _check_replay(rules, strategies, 4000)


def _check_replay(rules, strategies, n):
    nb = rules.boxes
    tally, trace = _sim_trace(rules, strategies, n)
    recs = K.play_stacked(trace, rules, strategies)
    assert recs.shape[0] == n
    box = recs[:, L.R_FIXED :].reshape(n, nb, L.R_BOX)
    main, ins = box[:, :, L.B_MAIN], box[:, :, L.B_INS]
    assert tally[L.T_MAIN_SUM] == main.sum()
    assert tally[L.T_MAIN_SQ] == (main**2).sum()
    assert tally[L.T_CARDS_DEALT] == recs[:, L.R_CARDS].sum() == trace.size
    assert tally[L.T_TOTAL_SUM] == (main + ins).sum()
    assert tally[L.T_RTOTAL_SQ] == ((main + ins).sum(axis=1) ** 2).sum()
    assert tally[L.T_INS_SUM] == ins.sum()
    assert tally[L.T_RMAIN_SUM] == main.sum()
    assert tally[L.T_RMAIN_SQ] == (main.sum(axis=1) ** 2).sum()
    assert tally[L.T_RINS_SUM] == ins.sum()
    assert tally[L.T_RINS_SQ] == (ins.sum(axis=1) ** 2).sum()
    for t_idx, b_idx in [
        (L.T_HANDS, L.B_HANDS),
        (L.T_WINS, L.B_WINS),
        (L.T_LOSSES, L.B_LOSSES),
        (L.T_PUSHES, L.B_PUSHES),
        (L.T_DOUBLES, L.B_DOUBLES),
        (L.T_BUSTS, L.B_BUSTS),
        (L.T_SURRENDERS, L.B_SURRENDERS),
        (L.T_PLAYER_BJ, L.B_BJ),
        (L.T_INS_TAKEN, L.B_INS_TAKEN),
        (L.T_EM_TAKEN, L.B_EVEN_MONEY),
        (L.T_SS_SUM, L.B_SS),
    ]:
        assert tally[t_idx] == box[:, :, b_idx].sum(), L.TALLY_NAMES[t_idx]
    for line in range(6):
        assert tally[L.T_SS_A + line] == (box[:, :, L.B_SS_LINE] == line).sum()
    assert tally[L.T_DEALER_BJ] == recs[:, L.R_DEALER_BJ].sum()
    assert tally[L.T_CARDS_DEALT] == recs[:, L.R_CARDS].sum()
    assert tally[L.T_HANDS] == tally[L.T_WINS] + tally[L.T_LOSSES] + tally[L.T_PUSHES]
    assert tally[L.T_SPLITS] == tally[L.T_HANDS] - tally[L.T_BOX_ROUNDS]


def test_mid_round_exhaustion_deals_from_reshuffled_discards():
    # One deck, seven boxes, cut card at the very end: rounds regularly run out of cards.
    rules = NZ.replace(decks=1, penetration=1.0, boxes=7)
    t = _sim(rules, MIMIC, 3000)
    assert t[L.T_ROUNDS] == 3000
    assert t[L.T_SHUFFLES] > t[L.T_CARDS_DEALT] // 52  # fallbacks add shuffles
    assert t[L.T_HANDS] == t[L.T_WINS] + t[L.T_LOSSES] + t[L.T_PUSHES]


def test_same_seed_same_tally_and_different_seed_differs():
    a = _sim(NZ, MIMIC, 5000, engine.chunk_state(5, 0))
    b = _sim(NZ, MIMIC, 5000, engine.chunk_state(5, 0))
    c = _sim(NZ, MIMIC, 5000, engine.chunk_state(6, 0))
    assert np.array_equal(a, b)
    assert not np.array_equal(a, c)


def test_engine_result_does_not_depend_on_workers_and_chunks_merge_exactly():
    rules = NZ.replace(boxes=2)
    one = engine.run(rules, MIMIC, 25_000, seed=3, chunk_rounds=10_000, workers=1)
    two = engine.run(rules, MIMIC, 25_000, seed=3, chunk_rounds=10_000, workers=2)
    assert np.array_equal(one, two)
    parts = [
        _sim(rules, MIMIC, n, engine.chunk_state(3, i))
        for i, n in enumerate((10_000, 10_000, 5_000))
    ]
    assert np.array_equal(one, sum(parts))
    assert one[L.T_ROUNDS] == 25_000 and one[L.T_BOX_ROUNDS] == 50_000


def test_engine_progress_and_early_close():
    seen = []
    engine.run(
        NZ,
        MIMIC,
        3_000,
        seed=1,
        chunk_rounds=1_000,
        workers=2,
        progress=lambda n, t: seen.append((n, int(t[L.T_ROUNDS]))),
    )
    assert seen == [(1000, 1000), (2000, 2000), (3000, 3000)]
    chunks = engine.iter_chunks(NZ, MIMIC, 10**10, seed=1, chunk_rounds=100, workers=2)
    i, n, tally = next(chunks)
    assert n == 100 and tally[L.T_ROUNDS] == 100
    chunks.close()  # must return promptly: 10**8 chunks are never created


def test_bad_input_raises_value_error():
    with pytest.raises(ValueError):
        K.simulate_chunk(NZ.to_params()[:5], stack_for(NZ, MIMIC), 10, STATE)
    with pytest.raises(ValueError):
        K.simulate_chunk(NZ.to_params(), stack_for(NZ, MIMIC), 10, np.zeros(4, np.uint64))
    with pytest.raises(ValueError):
        K.play_stacked([0, 52], NZ, MIMIC)
    with pytest.raises(ValueError):
        K.play_stacked([0, 1, 2], NZ.replace(boxes=2), [MIMIC, MIMIC, MIMIC])


def test_house_edge_of_mimic_the_dealer_is_plausible():
    # Mimicking the dealer gives up about 5.5%; with integer money the edge is exact per round.
    t = engine.run(NZ, MIMIC, 200_000, seed=11, chunk_rounds=100_000, workers=2)
    edge = -t[L.T_TOTAL_SUM] / t[L.T_BOX_ROUNDS] / L.UNIT
    assert 0.035 < edge < 0.075


# ---------------------------------------------------------------------------------------------
# Stacked mode: hand-built shoes, one rule each
def test_deal_order_and_equal_totals_stand_off_4_1():
    r, b = _one(deal(["Tc 7d"], up="9h", then="8s"))
    assert (r.cards, r.dealer_cards, r.dealer_total, r.dealer_bj) == (4, 2, 17, 0)
    assert (b.main, b.hands, b.pushes, b.ss_line, b.ss) == (0, 1, 1, 5, -1)


def test_blackjack_against_small_card_paid_at_once_dealer_draws_nothing_8_2():
    r, b = _one(deal(["As Kd"], up="5h"))
    assert (r.cards, r.dealer_cards, b.main, b.bj, b.wins) == (3, 1, 15, 1, 1)


def test_blackjack_against_ten_waits_for_the_second_card_8_2():
    r, b = _one(deal(["As Kd"], up="Th", then="Ac"))
    assert (r.dealer_bj, r.dealer_cards, b.main, b.pushes) == (1, 2, 0, 1)
    r, b = _one(deal(["As Kd"], up="Th", then="5c 3c"))  # the dealer completes the hand
    assert (r.dealer_bj, r.dealer_cards, r.dealer_total, b.main) == (0, 3, 18, 15)


def test_blackjack_pays_six_to_five():
    _, b = _one(deal(["As Kd"], up="5h"), NZ.replace(blackjack_pays=1.2))
    assert b.main == 12


def test_forced_draw_on_eleven_or_less_12_1_d():
    stand_all = make_strategy(hard={t: "S" for t in range(4, 22)})
    r, b = _one(deal(["2c 3d"], up="Th", then="4h 9s 8c"), strategies=stand_all)
    assert (r.cards, r.dealer_total, b.main, b.pushes) == (6, 18, 0, 1)


def test_split_current_hand_gets_its_card_at_once_11():
    strat = make_strategy(pairs={"8": "P"}, hard={t: "S" for t in range(12, 17)})
    r, b = _one(deal(["8c 8d"], up="6h", then="3s Tc 5d Th 9c"), strategies=strat)
    # hand 1: 8 3 T = 21; hand 2: 8 5 = 13; dealer 6 T 9 busts.
    assert (r.cards, r.dealer_cards, r.dealer_total) == (8, 3, 25)
    assert (b.hands, b.main, b.wins, b.doubles) == (2, 20, 2, 0)


@pytest.mark.parametrize(
    "cell, rules",
    [
        ("N", NZ),  # declined (11.5)
        ("Pd", NZ.replace(double_after_split=False)),  # Pd without double after split: N
        ("P", NZ.replace(max_hands=1)),  # no split possible
        ("N", NZ.replace(super_sevens=False, hit_split_aces=True)),
    ],
)
def test_pair_not_split_is_played_from_the_hard_table_11_5(cell, rules):
    # A pair that is not split is played from the hard table: 5-5 v 6 doubles as hard 10.
    strat = make_strategy(pairs={"5": cell}, hard={10: "D"})
    r, b = _one(deal(["5c 5d"], up="6h", then="9s Tc 8d"), rules, strat)
    assert (r.cards, r.dealer_cards, r.dealer_total) == (6, 3, 24)
    assert (b.hands, b.doubles, b.main, b.wins, b.busts) == (1, 1, 20, 1, 0)
    # Ten-ten is never split by this strategy: it stands on 20 and beats the dealer's 19.
    r, b = _one(deal(["Kc Qd"], up="9h", then="Ts"), rules, strat)
    assert (r.cards, r.dealer_total, b.hands, b.main, b.wins) == (4, 19, 1, 10, 1)
    # A-A not split is soft 12: hit (mimic the dealer), then 9 makes 21.
    r, b = _one(deal(["Ac Ad"], up="Th", then="9s 7c"), rules, strat)
    assert (r.cards, r.dealer_total, b.hands, b.main, b.wins) == (5, 17, 1, 10, 1)


def test_double_after_split_10():
    strat = make_strategy(pairs={"8": "P"}, hard={11: "D", **{t: "S" for t in range(12, 17)}})
    r, b = _one(deal(["8c 8d"], up="6h", then="3s Tc 5d Th 9c"), strategies=strat)
    assert (b.hands, b.doubles, b.main) == (2, 1, 30)
    r, b = _one(
        deal(["8c 8d"], up="6h", then="3s Tc 5d Th 9c"), NZ.replace(double_after_split=False), strat
    )
    assert (b.doubles, b.main) == (0, 20)  # the 11 hits instead: 8 3 T = 21 either way


def test_double_on_hard_excludes_soft_hands_10():
    strat = make_strategy(soft={17: "D"})
    cards_ = deal(["Ac 6d"], up="6h", then="4s Th 8c")
    # hard-only doubling: soft 17 may not double, D means hit: A 6 4 = 21; dealer 6 T 8 busts.
    r, b = _one(cards_, strategies=strat)
    assert (b.doubles, b.main, r.cards) == (0, 10, 6)
    r, b = _one(cards_, NZ.replace(double_on="any"), strat)
    assert (b.doubles, b.main, r.cards) == (1, 20, 6)


@pytest.mark.parametrize(
    "rule, main", [("all", -30), ("original-and-busted", -20), ("original", -10)]
)
def test_dealer_blackjack_against_split_and_doubled_hands(rule, main):
    strat = make_strategy(pairs={"8": ("P")}, hard={11: "D"})
    cards_ = deal(["8c 8d"], up="Th", then="3s Tc 6h Kc As")
    # hand 1: 8 3 doubled, T = 21; hand 2: 8 6 hits K, busts; dealer T A = blackjack.
    r, b = _one(cards_, NZ.replace(dealer_blackjack_takes=rule), strat)
    assert (r.dealer_bj, b.hands, b.doubles, b.busts, b.main) == (1, 2, 1, 1, main)


def test_dealer_does_not_draw_when_every_box_busted_12_4():
    r, b = _one(deal(["Tc 6d"], up="7h", then="9s"))
    assert (r.cards, r.dealer_cards, r.dealer_total, b.main, b.busts) == (4, 1, 7, -10, 1)
    r, b = _one(
        deal(["Tc 6d"], up="7h", then="9s Tc"), NZ.replace(dealer_draws_when_no_live_box=True)
    )
    assert (r.cards, r.dealer_cards, r.dealer_total) == (5, 2, 17)


def test_insurance_wins_on_a_ten_9():
    insure = make_strategy(insurance=True)
    r, b = _one(deal(["Tc 9d"], up="Ah", then="Kc"), strategies=insure)
    assert (r.dealer_bj, b.ins_taken, b.ins, b.main) == (1, 1, 10, -10)
    r, b = _one(deal(["Tc 9d"], up="Ah", then="7c"), strategies=insure)
    assert (r.dealer_total, b.ins, b.main) == (18, -5, 10)


def test_even_money_settles_at_once_8_3():
    em = make_strategy(even_money=True)
    r, b = _one(deal(["As Kd"], up="Ah"), strategies=em)
    assert (r.cards, r.dealer_cards, b.main, b.even_money, b.wins) == (3, 1, 10, 1, 1)


def test_super_sevens_lines_14():
    hit = make_strategy(sevens={"*": "H"})
    r, b = _one(deal(["7h 7h"], up="9c", then="7h Tc"), strategies=hit)
    assert (b.ss_line, b.ss, b.main) == (4, 5000, 10)  # (e): 21 beats 19
    r, b = _one(deal(["7h 7d"], up="9c", then="7s Tc"), strategies=hit)
    assert (b.ss_line, b.ss) == (3, 500)  # (d)
    r, b = _one(deal(["7h 7d"], up="9c", then="5s Tc"), strategies=hit)
    assert (b.ss_line, b.ss) == (1, 50)  # (b): third card not a seven
    split = make_strategy(sevens={"*": "P"})
    r, b = _one(deal(["7h 7h"], up="9c", then="Tc Td 9s"), strategies=split)
    assert (b.ss_line, b.ss, b.hands, b.main) == (2, 100, 2, -20)  # (c) at once (14.4)
    r, b = _one(deal(["7h 3h"], up="9c", then="8c 9s"))
    assert (b.ss_line, b.ss) == (0, 3)  # (a)
    r, b = _one(deal(["Th 7h"], up="9c", then="9s"), NZ.replace(super_sevens=False))
    assert (b.ss_line, b.ss) == (-1, 0)


def test_peek_game_dealer_blackjack_ends_the_round():
    rules = NZ.replace(hole_card="peek")
    cards_ = shoe(
        deal(["Tc 9d"], up="Ah", hole="Kc"), deal(["Tc 9d"], up="5h", hole="Kc", then="Kd")
    )
    recs = K.play_stacked(cards_, rules, MIMIC)
    assert recs.shape[0] == 2
    r, b = round_view(recs[0]), box_view(recs[0], 0)
    assert (r.cards, r.dealer_cards, r.dealer_bj, b.main) == (4, 2, 1, -10)
    r, b = round_view(recs[1]), box_view(recs[1], 0)
    assert (r.cards, r.dealer_cards, r.dealer_total, b.main) == (5, 3, 25, 10)


def test_late_surrender_no_hole_loses_all_to_a_dealer_blackjack():
    rules = NZ.replace(surrender="late")
    strat = make_strategy(hard={16: "Rh"})
    r, b = _one(deal(["Tc 6d"], up="Th", then="5c"), rules, strat)
    assert (r.dealer_cards, b.main, b.surrenders, b.losses) == (2, -5, 1, 1)
    r, b = _one(deal(["Tc 6d"], up="Th", then="Ac"), rules, strat)
    assert (r.dealer_bj, b.main) == (1, -10)
    r, b = _one(deal(["Tc 6d"], up="7h", then="5c"), rules, strat)
    assert (r.dealer_cards, b.main) == (1, -5)  # nothing depends on the dealer's card


def test_early_surrender_is_settled_whatever_the_dealer_has():
    rules = NZ.replace(surrender="early")
    strat = make_strategy(hard={16: "Rh"})
    r, b = _one(deal(["Tc 6d"], up="Th", then="Ac"), rules, strat)
    assert (r.cards, r.dealer_cards, b.main, b.surrenders) == (3, 1, -5, 1)


def test_split_aces_get_one_card_each_and_21_is_not_blackjack_11():
    strat = make_strategy(pairs={"A": "P"})
    r, b = _one(deal(["Ac Ad"], up="6h", then="Kc 5d Th Ts"), strategies=strat)
    assert (r.cards, b.hands, b.bj, b.main, b.wins) == (7, 2, 0, 20, 2)
    # Resplit aces when allowed.
    rules = NZ.replace(resplit_aces=True)
    r, b = _one(deal(["Ac Ad"], up="6h", then="As Kc 5d 9h Th Ts"), rules, strat)
    assert (b.hands, r.cards) == (3, 9)


def test_boxes_play_in_order_each_with_its_own_strategy_13():
    stand = make_strategy(hard={t: "S" for t in range(12, 22)})
    cards_ = deal(["Tc 6d", "Tc 6h"], up="7h", then="5s Th")
    recs = K.play_stacked(cards_, NZ.replace(boxes=2), [MIMIC, stand])
    r, b1, b2 = round_view(recs[0]), box_view(recs[0], 0), box_view(recs[0], 1)
    # box 1 hits 16 -> 21; box 2 stands 16; dealer 7 T = 17.
    assert (r.cards, r.dealer_total, b1.main, b2.main) == (7, 17, 10, -10)


def test_dealer_hits_soft_17_12_3():
    cards_ = deal(["Tc 8d"], up="6h", then="Ac 3s")
    r, b = _one(cards_)
    assert (r.cards, r.dealer_total, b.main) == (4, 17, 10)
    r, b = _one(cards_, NZ.replace(dealer_hits_soft_17=True))
    assert (r.cards, r.dealer_total, b.main) == (5, 20, -10)


def test_incomplete_round_and_cut_in_stacked_mode():
    round1 = deal(["Tc 7d"], up="9h", then="8s")
    assert K.play_stacked(shoe(round1, "Tc 9h"), NZ, MIMIC).shape[0] == 1  # round 2 incomplete
    two = shoe(round1, round1)
    assert K.play_stacked(two, NZ, MIMIC).shape[0] == 2
    assert K.play_stacked(two, NZ, MIMIC, cut=4).shape[0] == 1  # pos 4 >= cut: stop
    assert K.play_stacked(two, NZ, MIMIC, cut=3).shape[0] == 1


@pytest.mark.parametrize("boxes, counted", [(1, False), (3, False), (1, True)])
def test_rows_of_cards_are_a_fresh_shoe_a_round(boxes, counted):
    """``cards`` 2-D (a shuffle every round): one round off each row, as a row alone dealt to a
    cut card at 1 plays it, a counter's count fresh from each."""
    from simulator.counter import counter_for
    from simulator.plans import load_plan

    rules = Rules(boxes=boxes, shuffle="every-round")
    basic = basic_strategy()
    counter = counter_for(rules, basic, load_plan("hi-lo-1-12")) if counted else None
    rng = np.random.default_rng(boxes)
    rows = np.array([rng.permutation(312) % 52 for _ in range(40)])
    got = K.play_stacked(rows, rules, [basic] * boxes, counter=counter)
    alone = [K.play_stacked(r, rules, [basic] * boxes, cut=1, counter=counter) for r in rows]
    if counted:
        got, tally = got
        assert tally.any() and (tally == sum(a[1] for a in alone)).all()
        alone = [a[0] for a in alone]
    assert all(len(a) == 1 for a in alone)
    assert (got == np.concatenate(alone)).all()
    one = K.play_stacked(rows[:1], rules, [basic] * boxes, counter=counter)  # a row is a round
    assert ((one[0] if counted else one) == alone[0]).all()


@pytest.mark.parametrize("boxes", [1, 3])
def test_rows_of_shoes_are_each_dealt_to_the_cut_card(boxes):
    """``shoes=True``: each row a shoe dealt to the cut card, the records those of the rows
    played one at a time (the report's distribution sample, 256 shoes a call)."""
    rules = Rules(boxes=boxes)
    basic = [basic_strategy()] * boxes
    rng = np.random.default_rng(boxes)
    rows = np.array([rng.permutation(312) % 52 for _ in range(30)])
    got = K.play_stacked(rows, rules, basic, cut=rules.cut, shoes=True)
    alone = [K.play_stacked(r, rules, basic, cut=rules.cut) for r in rows]
    assert all(len(a) > 10 for a in alone)
    assert (got == np.concatenate(alone)).all()


def test_a_row_of_cards_that_runs_out_mid_round_ends_play():
    full = shoe(deal(["Tc 7d"], up="9h", then="8s"))  # a round of five cards
    aces = [0] * len(full)  # aces only: the hand draws past the row's five cards
    assert K.play_stacked(np.array([full, full]), NZ, MIMIC).shape[0] == 2
    assert K.play_stacked(np.array([full, aces, full]), NZ, MIMIC).shape[0] == 1


def test_the_machines_a_process_keeps_are_bounded_the_least_recently_used_going(monkeypatch):
    """A long-lived process (a Dask worker, a library caller) playing many games keeps at most
    ``MACHINE_BYTES`` of machines; the one used again since is kept, the oldest rebuilt."""
    from helpers import random_strategy

    rng = np.random.default_rng(7)
    games = [(NZ.to_params(), stack_for(NZ, [random_strategy(rng)])) for _ in range(6)]
    monkeypatch.setattr(K, "_MACHINES", {})
    built = [K.machine_for(*g) for g in games[:2]]
    monkeypatch.setattr(K, "MACHINE_BYTES", 3 * max(sum(a.nbytes for a in m) for m in built))
    for g in games[2:]:
        K.machine_for(*g)
        assert K.machine_for(*games[0]) is built[0]  # used again each time: never the oldest
        assert sum(a.nbytes for m in K._MACHINES.values() for a in m) <= K.MACHINE_BYTES
    assert len(K._MACHINES) < len(games)
    assert K.machine_for(*games[1]) is not built[1]  # the least recently used went: built again
    assert (K.machine_for(*games[1]).trans == built[1].trans).all()


def test_the_machine_cache_holds_under_threads(monkeypatch):
    """Chunks run on threads, each asking for its machine while others move theirs to the most
    recently used place: CI saw 'dictionary keys changed during iteration' from an unguarded
    cache (``bjsim compare``, two games a chunk on two threads)."""
    import sys
    import threading

    from helpers import random_strategy

    rng = np.random.default_rng(11)
    games = [(NZ.to_params(), stack_for(NZ, [random_strategy(rng)])) for _ in range(3)]
    monkeypatch.setattr(K, "_MACHINES", {})
    built = [K.machine_for(*g) for g in games]
    errors = []

    def ask(k):
        try:
            for i in range(3000):
                assert K.machine_for(*games[(k + i) % len(games)]) is built[(k + i) % len(games)]
        except Exception as e:  # noqa: BLE001 (any error is the failure)
            errors.append(e)

    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as the interpreter can
    try:
        threads = [threading.Thread(target=ask, args=(k,)) for k in range(4)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
    finally:
        sys.setswitchinterval(old)
    assert errors == []


def test_each_compiled_version_of_the_engine_says_what_it_compiles(monkeypatch):
    # warm() names the version it compiles; stderr's notice (after 2 s) gives its words and time.
    import simulator.jit as J
    from simulator.counter import counter_for
    from simulator.plans import load_plan

    names = []
    monkeypatch.setattr(K, "warm", lambda name, fn, *args: names.append(name))
    rules = Rules()
    p, basic = rules.to_params(), basic_strategy()
    counter = counter_for(rules, basic, load_plan("hi-lo-1-12"))
    K.simulate_chunk(p, stack_for(rules, [basic]), 10, engine.chunk_state(1, 0))
    K.count_chunk(p, counter[0], 10, engine.chunk_state(1, 0), counter[1], counter[2])
    K.play_stacked(np.arange(52) % 52, rules, [basic])
    K.play_stacked(np.arange(52) % 52, rules, [basic], counter=counter)
    K.simulate_blocks(p, stack_for(rules, [basic]), [10], [engine.chunk_state(1, 0)], [0])
    assert names == ["simulate", "count", "stacked", "stacked count", "simulate"]
    assert set(names) == set(J.VERSIONS) - {"exact"}  # compare's blocks: simulate's version
    monkeypatch.setattr(J, "warm", lambda name, fn, *args: names.append(name))
    from simulator.exact.player import UpCard

    UpCard(rules, 10, None)
    assert names[-1] == "exact"
    for name in names:
        said = J.compiling(name)
        assert said.startswith("bjsim: compiling ")
        assert said.endswith(f"about {J.VERSIONS[name][1]} s")


@pytest.mark.parametrize("boxes, peek", [(1, False), (1, True), (3, False)])
def test_blocks_are_chunks_one_after_another(boxes, peek):
    """``simulate_blocks`` (compare's pairing): each block's fields and the summed tally are
    exactly what ``simulate_chunk`` gives block by block, the walk's rounds (one box) and the
    round loop's (peek, several boxes) alike; the short last block included."""
    from simulator.strategy import load_strategy

    rules = NZ.replace(boxes=boxes, hole_card="peek" if peek else "none")
    names = ("basic", "mimic-dealer", "basic")[:boxes]
    tables = stack_for(rules, [load_strategy(n) for n in names])
    p = rules.to_params()
    sizes = [40] * 30 + [7]
    states = [engine.chunk_state(9, j) for j in range(len(sizes))]
    fields = [L.T_RTOTAL_SUM, L.T_SS_RSUM, L.T_BY + L.BY_TOTAL_SUM, L.T_BY + L.BY_SS_SUM,
              L.T_ROUNDS, L.T_CARDS_DEALT]
    tally, per_block = K.simulate_blocks(p, tables, sizes, states, fields)
    one_by_one = [K.simulate_chunk(p, tables, n, s) for n, s in zip(sizes, states, strict=True)]
    assert np.array_equal(tally, np.sum(one_by_one, axis=0))
    assert np.array_equal(per_block, np.array(one_by_one)[:, fields])
    assert per_block[:, 0].any() and per_block[:, 1].any()  # (the fields did move)


@pytest.mark.parametrize("sizes, states, fields, words", [
    ([-1], [[1, 2, 3, 4]], [0], "n_rounds = -1"),
    ([5], [[0, 0, 0, 0]], [0], "not all zero"),
    ([5, 5], [[1, 2, 3, 4]], [0], "a state"),
    ([5], [[1, 2, 3, 4]], [L.N_TALLY], "field"),
])
def test_blocks_refuse_bad_input_naming_it(sizes, states, fields, words):
    tables = stack_for(NZ, [basic_strategy()])
    with pytest.raises(ValueError, match=words):
        K.simulate_blocks(NZ.to_params(), tables, sizes, states, fields)


WORDS = [1, 2, 3, 4]


@pytest.mark.parametrize("call, words", [
    (lambda p, t: K.simulate_chunk(p, t, 1.5, WORDS), "n_rounds = 1.5: allowed a whole number"),
    (lambda p, t: K.simulate_chunk(p, t, "5", WORDS), "n_rounds = '5'"),
    (lambda p, t: K.simulate_chunk(p, t, True, WORDS), "n_rounds = True"),
    (lambda p, t: K.simulate_chunk(p, t, None, WORDS), "n_rounds = None"),
    (lambda p, t: K.simulate_chunk(p, t, 5, [1.7, 2, 3, 4]), "state word = 1.7"),
    (lambda p, t: K.simulate_chunk(p, t, 5, [-1, 2, 3, 4]), "state word = -1"),
    (lambda p, t: K.simulate_chunk(p, t, 5, [2**64, 2, 3, 4]), f"state word = {2**64}"),
    (lambda p, t: K.simulate_chunk(p, t, 5, "abcd"), "state word = 'abcd'"),
    (lambda p, t: K.simulate_chunk(p.astype(float), t, 5, WORDS), r"params .*\(float64\)"),
    (lambda p, t: K.simulate_chunk(["a"] * len(p), t, 5, WORDS), "params .*whole numbers"),
    (lambda p, t: K.simulate_chunk(None, t, 5, WORDS), "params .*whole numbers"),
    (lambda p, t: K.simulate_chunk([[1], [1, 2]], t, 5, WORDS), "params .*whole numbers"),
    (lambda p, t: K.simulate_blocks(p, t, [5.5], [WORDS], [0]), "n_rounds = 5.5"),
    (lambda p, t: K.simulate_blocks(p, t, [5], [WORDS], ["rounds"]), "field = 'rounds'"),
    (lambda p, t: K.deal_shoe(WORDS, 6.5), "decks = 6.5: allowed a whole number 1-8"),
    (lambda p, t: K.play_stacked(list(range(20)), NZ, basic_strategy(), cut=2.5), "cut = 2.5"),
])
def test_the_kernel_refuses_a_fraction_or_a_non_number_naming_it(call, words):
    """A fraction was cut to its whole part (1.5 rounds played 1, a state word 1.7 taken as 1,
    6.5 decks dealt 6), and a negative, too large or non-numeric value raised numpy's or
    Python's own error: each is a ValueError naming the argument and what is allowed."""
    with pytest.raises(ValueError, match=words):
        call(NZ.to_params(), stack_for(NZ, [basic_strategy()]))


def test_the_kernel_takes_whole_numbers_of_any_type():
    p, t = NZ.to_params(), stack_for(NZ, [basic_strategy()])
    one = K.simulate_chunk(p, t, 50, WORDS)
    assert np.array_equal(K.simulate_chunk(p, t, 50.0, np.array(WORDS, np.uint64)), one)
    assert np.array_equal(K.simulate_chunk(p, t, np.int32(50), [float(w) for w in WORDS]), one)
    assert K.simulate_chunk(p, t, 1, [2**64 - 1, 0, 0, 0])[L.T_ROUNDS] == 1
    assert np.array_equal(K.deal_shoe(WORDS, 6.0), K.deal_shoe(WORDS, 6))


def test_the_compiling_line_stands_on_its_own_line_without_a_blank_one(capsys):
    # a first run's stderr began with a blank line, then the compiling line
    from tqdm import tqdm

    from simulator import jit as J

    J._say_compiling("simulate")
    assert capsys.readouterr().err == J.compiling("simulate") + "\n"
    with tqdm(total=10, file=sys.stderr, desc="bjsim", mininterval=0) as bar:
        bar.update(3)
        J._say_compiling("count")
    lines = capsys.readouterr().err.replace("\r", "\n").splitlines()
    assert J.compiling("count") in lines  # (not after the bar's text on its line)
