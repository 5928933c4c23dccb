"""The standard errors are honest: over many independent runs of one game, the z-scores of the
house edge against its exact value have mean 0 and variance 1, and the 95% intervals cover the
exact value about 95% of the time.

Each game shuffles every round, so the exact analyzer's figure (a full shoe every round) is the
game's expectation; seven boxes share a round's cards and its dealer, so their results are
correlated and the standard error must come from the rounds, not the box-rounds. Tolerances
are stated in standard errors of the statistic over the runs: 4 of them.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from simulator import compare, engine, kernel, tally
from simulator.exact.compare import exact_figures
from simulator.rules import Rules
from simulator.strategy import load_strategy

RUNS = 400


@pytest.mark.parametrize("boxes, strategy, rounds", [
    (1, "basic", 100_000),
    (7, "basic", 20_000),  # correlated boxes: an SE by box-rounds would run low
    (3, "insurance-taker", 40_000),  # insurance, correlated with the main wager
])
def test_house_edge_z_scores_are_standard_normal(boxes, strategy, rounds):
    rules = Rules(shuffle="every-round", boxes=boxes)
    strat = load_strategy(strategy)
    exact = exact_figures(rules, strat)[0]["house_edge"]
    tables = engine.stack_tables(rules, strat)
    z, covered = [], 0
    for i in range(RUNS):
        t = kernel.simulate_chunk(rules.to_params(), tables, rounds, engine.chunk_state(2026, i))
        he = tally.summarize(t, rules)["house_edge"]
        z.append((he["mean"] - exact) / he["se"])
        covered += he["ci95_low"] <= exact <= he["ci95_high"]
    z = np.array(z)
    # mean 0: SE 1/sqrt(RUNS); variance 1: SE sqrt(2/(RUNS-1)) for normal z
    assert abs(z.mean()) < 4 / math.sqrt(RUNS), z.mean()
    assert abs(z.var(ddof=1) - 1) < 4 * math.sqrt(2 / (RUNS - 1)), z.var(ddof=1)
    # coverage 0.95: SE sqrt(0.95 * 0.05 / RUNS)
    assert abs(covered / RUNS - 0.95) < 4 * math.sqrt(0.95 * 0.05 / RUNS), covered


@pytest.mark.parametrize("boxes, change, rounds", [
    (1, {"dealer_hits_soft_17": True}, 20_000),
    (3, {"double_on": "9-11", "max_hands": 2}, 15_000),  # three correlated boxes
])
def test_compare_paired_difference_z_scores_are_standard_normal(boxes, change, rounds):
    """compare's paired difference from the baseline, the same statistics over many runs: the
    block-level standard error is honest whatever the pairing gains (blocks of 200 rounds, the
    two games' cards drifting apart within a block)."""
    strat = load_strategy("basic")
    base = Rules(shuffle="every-round", boxes=boxes)
    games = [compare.Game(label, rules, (strat,) * boxes, (strat.name,) * boxes, ())
             for label, rules in (("base", base), ("variant", base.replace(**change)))]
    exact = compare.exact_figures(games)
    job = [[g.rules.to_params() for g in games],
           [engine.stack_tables(g.rules, list(g.strategies)) for g in games]]
    z, covered = [], 0
    for i in range(RUNS):
        play = compare.PlayVariants(*job, seed=3000 + i, rounds=rounds, chunk_rounds=rounds,
                                    pair_rounds=200, slots=compare.paired_slots(games))
        d = compare.statistics(play(0)[2], games, exact)["rows"][1]["difference"]["house_edge"]
        assert d["exact_scope"] == "full"
        z.append((d["mean"] - d["exact"]) / d["se"])
        covered += d["ci95_low"] <= d["exact"] <= d["ci95_high"]
    z = np.array(z)
    assert abs(z.mean()) < 4 / math.sqrt(RUNS), z.mean()
    assert abs(z.var(ddof=1) - 1) < 4 * math.sqrt(2 / (RUNS - 1)), z.var(ddof=1)
    assert abs(covered / RUNS - 0.95) < 4 * math.sqrt(0.95 * 0.05 / RUNS), covered
