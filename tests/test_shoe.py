"""The shoe, by statistical tests at stated significance with fixed seeds (rule 3.1, 7.1).

Through the kernel's public functions only: `kernel.deal_shoe` (a whole shoe shuffled from a
chunk's xoshiro256** state, as a chunk shuffles it), `kernel.simulate_chunk` and
`engine.chunk_state`. Each test rejects at the significance level it states (Bonferroni-split over
the cells it tests); with fixed seeds each is deterministic, and a shuffle that is biased by a
fraction of a percent in a cell fails it.

Chi-square p-values come from the Wilson-Hilferty cube-root approximation
(``chi2_sf``): ``(X/k)^(1/3)`` is close to normal with mean ``1 - 2/(9k)`` and variance ``2/(9k)``;
for k >= 30 its tail probabilities are within 5% (relative) of the exact ones down to 1e-7,
checked below against tabulated critical values and the exact tail for even k.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

from simulator import engine, kernel, reference
from simulator import layout as L
from simulator.rules import Rules
from simulator.strategy import load_strategy

ALPHA = 0.001  # every test's significance level


def chi2_sf(x: float, k: int) -> float:
    """P(chi-square with k degrees of freedom > x), Wilson-Hilferty."""
    if x <= 0:
        return 1.0
    mu, var = 1 - 2 / (9 * k), 2 / (9 * k)
    z = ((x / k) ** (1 / 3) - mu) / math.sqrt(var)
    return 0.5 * math.erfc(z / math.sqrt(2))


def _chi2_sf_even(x: float, k: int) -> float:
    """The exact tail for even k: exp(-x/2) * sum_{j < k/2} (x/2)^j / j!."""
    term = total = 1.0
    for j in range(1, k // 2):
        term *= (x / 2) / j
        total += term
    return math.exp(-x / 2) * total


def test_chi2_sf_matches_tabulated_critical_values_and_the_exact_tail():
    # upper 0.001 and 0.05 points of chi-square (Abramowitz and Stegun, table 26.8)
    for k, x, p in ((30, 59.703, 0.001), (50, 86.661, 0.001), (100, 149.449, 0.001),
                    (50, 67.505, 0.05), (100, 124.342, 0.05)):
        assert chi2_sf(x, k) == pytest.approx(p, rel=0.05)
    for k in (52, 168, 312):  # the degrees of freedom used below (51 and 311 are odd: nearby)
        for x in (k, 1.3 * k, 1.5 * k):
            assert chi2_sf(x, k) == pytest.approx(_chi2_sf_even(x, k), rel=0.05)


def shoes(n: int, decks: int, seed: int) -> np.ndarray:
    """``n`` shoes dealt from the states of chunks 0..n-1 of ``seed``: (n, 52 * decks) codes."""
    return np.stack([kernel.deal_shoe(engine.chunk_state(seed, i), decks) for i in range(n)])


# ---------------------------------------------------------------------------------------------
# Every rank over every position


def test_every_rank_is_uniform_over_the_positions_of_a_six_deck_shoe():
    # 2,000 six-deck shoes; for each rank, its count at each of the 312 positions. In one shoe a
    # rank fills K = 24 of N = 312 positions (a random subset), so with p = K/N the Pearson
    # statistic over positions is (1 - p) N / (N - 1) times a chi-square with N - 1 degrees of
    # freedom; divided by that factor it is tested at ALPHA / 13 per rank.
    n_shoes, decks = 2000, 6
    dealt = shoes(n_shoes, decks, seed=31)
    n = 52 * decks
    p = 1 / 13
    ranks = dealt // 4
    for rank in range(13):
        counts = (ranks == rank).sum(axis=0)
        expected = n_shoes * p
        x2 = ((counts - expected) ** 2).sum() / expected / ((1 - p) * n / (n - 1))
        assert chi2_sf(x2, n - 1) > ALPHA / 13, (L.RANKS[rank], x2)


def test_suits_are_uniform_over_positions_too():
    # Suits matter to Super Sevens (rule 14): each suit fills 78 of 312 positions.
    n_shoes, decks = 1000, 6
    dealt = shoes(n_shoes, decks, seed=32)
    n, p = 52 * decks, 1 / 4
    for suit in range(4):
        counts = (dealt % 4 == suit).sum(axis=0)
        expected = n_shoes * p
        x2 = ((counts - expected) ** 2).sum() / expected / ((1 - p) * n / (n - 1))
        assert chi2_sf(x2, n - 1) > ALPHA / 4, (L.SUITS[suit], x2)


def test_a_biased_shoe_fails_the_position_test():
    # The test has power: a shuffle that puts a ten first one time in ten more than it should
    # (the last ten of every tenth shoe moved to the front) fails it.
    n_shoes, decks = 2000, 6
    dealt = shoes(n_shoes, decks, seed=31).copy()
    for row in dealt[::10]:
        k = int(np.flatnonzero(row // 4 == 9)[-1])
        row[1 : k + 1], row[0] = row[0:k].copy(), row[k]
    n, p = 52 * decks, 1 / 13
    counts = (dealt // 4 == 9).sum(axis=0)
    x2 = ((counts - n_shoes * p) ** 2).sum() / (n_shoes * p) / ((1 - p) * n / (n - 1))
    assert chi2_sf(x2, n - 1) < ALPHA / 13


# ---------------------------------------------------------------------------------------------
# Adjacent cards


def test_adjacent_ranks_are_independent_as_sampling_without_replacement():
    # Ranks of cards 2i and 2i+1 (disjoint pairs) of 1,000 six-deck shoes, 13 x 13 cells:
    # P(a then b) = 24/312 * 24/311, or 24/312 * 23/311 for a == b. 168 degrees of freedom.
    n_shoes, decks = 1000, 6
    dealt = shoes(n_shoes, decks, seed=33) // 4
    first, second = dealt[:, 0::2].ravel(), dealt[:, 1::2].ravel()
    table = np.zeros((13, 13))
    np.add.at(table, (first, second), 1)
    n = 52 * decks
    k = 4 * decks
    prob = np.full((13, 13), k / n * k / (n - 1))
    np.fill_diagonal(prob, k / n * (k - 1) / (n - 1))
    expected = prob * first.size
    x2 = ((table - expected) ** 2 / expected).sum()
    assert chi2_sf(x2, 168) > ALPHA, x2
    # and the sevens: two sevens in a row exactly as often as the exact chance says (Super
    # Sevens' lines (b)-(e) rest on it), within 4 standard errors
    sevens = table[L.SEVEN_RANK, L.SEVEN_RANK]
    p77 = prob[L.SEVEN_RANK, L.SEVEN_RANK]
    assert abs(sevens - p77 * first.size) < 4 * math.sqrt(first.size * p77)


# ---------------------------------------------------------------------------------------------
# The first card of each shoe


def test_first_and_last_card_of_each_shoe_are_uniform_over_the_52_codes():
    # 10,400 six-deck shoes, one per chunk: each code is 6 of 312 cards, 200 expected per code.
    decks, n_shoes = 6, 10_400
    first = np.empty(n_shoes, np.int64)
    last = np.empty(n_shoes, np.int64)
    for i in range(n_shoes):
        dealt = kernel.deal_shoe(engine.chunk_state(34, i), decks)
        first[i], last[i] = dealt[0], dealt[-1]
    for sample in (first, last):
        counts = np.bincount(sample, minlength=52)
        x2 = ((counts - n_shoes / 52) ** 2 / (n_shoes / 52)).sum()
        assert chi2_sf(x2, 51) > ALPHA / 2, x2


# ---------------------------------------------------------------------------------------------
# Rounds per shoe at the given penetration


def _kernel_rounds_per_shoe(rules, strategy, chunks: int, chunk_rounds: int, seed: int):
    """Rounds per shuffle of each of ``chunks`` chunks (each ends part way through a shoe, which
    biases the ratio by about half a shoe in ``chunk_rounds / rounds per shoe`` shoes)."""
    params, tables = rules.to_params(), engine.stack_tables(rules, strategy)
    out = []
    for i in range(chunks):
        t = kernel.simulate_chunk(params, tables, chunk_rounds, engine.chunk_state(seed, i))
        out.append(t[L.T_ROUNDS] / t[L.T_SHUFFLES])
    return np.array(out)


def _reference_rounds_per_shoe(rules, strategy, n_shoes: int, seed: int, cuts) -> list:
    """Rounds the reference game plays in each of ``n_shoes`` shoes dealt to each cut card of
    ``cuts`` (rule 7.1: no round starts at or past it; the round it comes out in is finished):
    one play a shoe to the last cut, its rounds counted by where each starts."""
    out = [np.empty(n_shoes) for _ in cuts]
    for i in range(n_shoes):
        dealt = kernel.deal_shoe(engine.chunk_state(seed, i), rules.decks)
        starts = np.array([r.start for r in reference.play_stacked(dealt, rules, [strategy],
                                                                    cut=max(cuts))])
        for k, cut in enumerate(cuts):
            out[k][i] = int((starts < cut).sum())
    return out


@pytest.mark.parametrize("penetration, n_shoes", [(0.75, 600), (0.5, 600)])
def test_rounds_per_shoe_match_the_reference_games_at_the_penetration(penetration, n_shoes):
    # Expectation: the reference game (an independent implementation of rule 7.1) played on
    # n_shoes shuffled shoes to the cut card. The kernel's figure, from 10 chunks of 100,000
    # rounds, must agree within 4 standard errors of the difference (each from its own spread).
    rules = dataclasses.replace(Rules(), penetration=penetration)
    strategy = load_strategy("basic")
    kern = _kernel_rounds_per_shoe(rules, strategy, 10, 100_000, seed=35)
    # (and the cut card 3 cards later, about 0.6 of a round: the test has the power to tell)
    ref, later = _reference_rounds_per_shoe(rules, strategy, n_shoes, 36, (rules.cut,
                                                                           rules.cut + 3))
    se = math.sqrt(kern.var(ddof=1) / kern.size + ref.var(ddof=1) / ref.size)
    diff = kern.mean() - ref.mean()
    assert abs(diff) < 4 * se, (kern.mean(), ref.mean(), se)
    se = math.sqrt(kern.var(ddof=1) / kern.size + later.var(ddof=1) / later.size)
    assert abs(kern.mean() - later.mean()) > 4 * se


def test_rounds_the_shoe_runs_out_in_are_counted_as_the_reference_game_finds_them():
    # A review: at penetration 0.95 with 7 boxes a quarter of 6-deck shoes ran out mid-round,
    # their discards shuffled and dealt on, counted among the shuffles and said nowhere. The
    # kernel's share of shoes that do, refills / (shuffles - refills) (a refill's shoe is
    # shuffled twice: mid-round and before the next round), against the reference game's share
    # of shoes whose last round, begun before the cut card, is incomplete: within 4 SEs.
    rules = dataclasses.replace(Rules(), boxes=7, penetration=0.95)
    strategy = load_strategy("basic")
    params, tables = rules.to_params(), engine.stack_tables(rules, strategy)
    t = sum(kernel.simulate_chunk(params, tables, 50_000, engine.chunk_state(41, i))
            for i in range(4))
    share = t[L.T_REFILLS] / (t[L.T_SHUFFLES] - t[L.T_REFILLS])
    ran_out = []
    for i in range(600):
        dealt = kernel.deal_shoe(engine.chunk_state(42, i), rules.decks)
        last = reference.play_stacked(dealt, rules, [strategy] * 7, cut=rules.cut)[-1]
        ran_out.append(last.start + len(last.cards) < rules.cut)
    ref = np.mean(ran_out)
    se = math.sqrt(ref * (1 - ref) / len(ran_out) + share * (1 - share) / (
        t[L.T_SHUFFLES] - t[L.T_REFILLS]))
    assert 0.1 < ref < 0.5 and abs(share - ref) < 4 * se, (share, ref, se)
    one = kernel.simulate_chunk(Rules().to_params(), engine.stack_tables(Rules(), strategy),
                                100_000, engine.chunk_state(41, 0))
    assert one[L.T_REFILLS] == 0 and one[L.T_SHUFFLES] > 0  # (one box, 78 cards behind the cut)

# ---------------------------------------------------------------------------------------------
# The random streams of different chunks


MASK = (1 << 64) - 1


def _rotl(x: int, k: int) -> int:
    return ((x << k) | (x >> (64 - k))) & MASK


def xoshiro256ss(state, n: int) -> list[int]:
    """The first ``n`` outputs of xoshiro256** from ``state`` (Blackman and Vigna, 2018)."""
    s0, s1, s2, s3 = (int(x) for x in state)
    out = []
    for _ in range(n):
        out.append((_rotl((s1 * 5) & MASK, 7) * 9) & MASK)
        t = (s1 << 17) & MASK
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = _rotl(s3, 45)
    return out


def test_chunk_streams_do_not_overlap():
    # Chunk i's stream starts from SeedSequence(seed, spawn_key=(i,)): 256 independent-looking
    # bits. Two of n streams of length m overlap with chance at most n^2 m / 2^256 (nil). Checked:
    # the states of 20,000 chunks (and of three seeds) are distinct, none is all zero, and the
    # first 500 outputs of 400 chunks' streams share no 64-bit value (an overlap within 500 steps
    # would share all of them; chance collisions: 2e5^2 / 2^65 = 1e-9).
    states = [tuple(int(x) for x in engine.chunk_state(seed, i))
              for seed in (0, 1, 1994) for i in range(20_000)]
    assert len(set(states)) == len(states)
    assert all(any(s) for s in states)
    seen: dict[int, int] = {}
    for i in range(400):
        for v in xoshiro256ss(engine.chunk_state(1994, i), 500):
            assert seen.setdefault(v, i) == i, (v, seen[v], i)


def test_different_chunks_deal_different_shoes_and_the_same_chunk_the_same():
    dealt = shoes(2000, 6, seed=37)
    assert len({row.tobytes() for row in dealt}) == len(dealt)
    again = kernel.deal_shoe(engine.chunk_state(37, 5), 6)
    assert np.array_equal(again, dealt[5])
