"""The standard errors are honest: over many independent runs of one game, the z-scores of the
house edge against its exact value have mean 0 and variance 1, and the 95% intervals cover the
exact value about 95% of the time; so too compare's paired differences. A counter has no exact
figure: its SE is checked against the spread of independent runs.

Each game shuffles every round, so the exact analyzer's figure (a full shoe every round) is the
game's expectation; seven boxes share a round's cards and its dealer, so their results are
correlated and the standard error must come from the rounds, not the box-rounds. Tolerances
are stated in standard errors of the statistic over the runs: 4 of them.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from simulator import compare, counting_report, engine, kernel, tally
from simulator.counter import counter_for
from simulator.exact.compare import exact_figures
from simulator.plans import load_plan
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


BOX_PLAN = """name = "wong-and-boxes"
count = "hi-lo"
deck_estimation = "half"
indices = "hi-lo-nz"
table_min = 1
table_max = 12
[bet]
base = 1
steps = [[2, 2], [3, 4], [4, 8], [5, 12]]
[wong]
enter = 1
leave = -1
[boxes]
base = 1
steps = [[2, 3], [4, 7]]
"""


@pytest.mark.parametrize("plan_name, boxes", [("hi-lo-1-12", 1), (None, 7)])
def test_a_counters_advantage_se_is_the_spread_of_independent_runs(plan_name, boxes, tmp_path):
    """The counter's advantage (per initial and per total bet) over many independent runs of a
    cut-card shoe: the standard deviation of the runs' figures agrees with the SE each run
    states, within 4 SEs of the ratio (about 1/sqrt(2 (runs - 1))). The second plan wongs and
    plays up to seven correlated boxes at high counts, its bets spread 1 to 84 units a round."""
    if plan_name is None:
        (tmp_path / "plan.toml").write_text(BOX_PLAN)
        plan_name = str(tmp_path / "plan.toml")
    plan, strat, rules = load_plan(plan_name), load_strategy("basic"), Rules(boxes=boxes)
    tables, counter, insurance = counter_for(rules, strat, plan)
    runs = 300
    means, ses = np.zeros((2, runs)), np.zeros((2, runs))
    for i in range(runs):
        _, counting = kernel.count_chunk(rules.to_params(), tables, 30_000,
                                         engine.chunk_state(4000 + i, 0), counter, insurance)
        adv = counting_report.figures(counting, plan, rules, strategy=strat)["advantage"]
        for k, kind in enumerate(("initial_bet", "total_bet")):
            means[k, i], ses[k, i] = adv[kind]["mean"], adv[kind]["se"]
    ratio = means.std(axis=1, ddof=1) / ses.mean(axis=1)
    assert np.all(abs(ratio - 1) < 4 / math.sqrt(2 * (runs - 1))), ratio
