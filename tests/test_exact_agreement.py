"""Every rule key at a value other than the NZ rules': the engine's house edge, a shuffle every
round (the exact analyzer's full shoe), within 4 standard errors of the exact analyzer's, each
game played by the basic strategy derived for its rules (both kept on disk, as compare and the
report keep them: the same games' derivations serve them all)."""

import dataclasses

import pytest

from simulator import engine, tally
from simulator.derived import basic_for
from simulator.exact.compare import exact_figures
from simulator.rules import Rules
from simulator.strategy import load_strategy

ROUNDS = 20_000_000
VARIANTS = [
    {"decks": 1}, {"decks": 2}, {"decks": 8},
    {"dealer_hits_soft_17": True}, {"hole_card": "peek"},
    {"dealer_blackjack_takes": "all"}, {"dealer_blackjack_takes": "original"},
    {"double_on": "any"}, {"double_on": "9-11"}, {"double_on": "10-11"},
    {"double_after_split": False}, {"max_hands": 2}, {"max_hands": 4},
    {"resplit_aces": True, "max_hands": 4}, {"hit_split_aces": True},
    {"surrender": "late"}, {"surrender": "early"},
    {"blackjack_pays": 1.2}, {"super_sevens": False},
]  # fmt: skip


@pytest.mark.parametrize("changes", VARIANTS, ids=lambda c: ",".join(f"{k}={v}" for k, v in
                                                                      c.items()))
def test_the_simulated_house_edge_agrees_with_the_exact_one(changes):
    rules = dataclasses.replace(Rules(), shuffle="every-round", **changes)
    basic = basic_for(rules)[0]
    exact = exact_figures(rules, basic)[0]["house_edge"]
    seed = 30 + VARIANTS.index(changes)
    he = tally.summarize(engine.run(rules, basic, ROUNDS, seed), rules)["house_edge"]
    assert abs(he["mean"] - exact) < 4 * he["se"], (he, exact)


def test_an_insurance_taker_agrees_with_the_exact_house_edge():
    rules = dataclasses.replace(Rules(), shuffle="every-round")
    taker = load_strategy("insurance-taker")
    exact = exact_figures(rules, taker)[0]
    he = tally.summarize(engine.run(rules, taker, ROUNDS, 29), rules)["house_edge"]
    assert exact["insurance"]["per_initial_wager"] < 0
    assert abs(he["mean"] - exact["house_edge"]) < 4 * he["se"], (he, exact["house_edge"])
