"""The Python API refuses what the command line refuses, naming the argument (docs/api.md): a
review as a programmer found rules, counts and strategies made in code played as given."""

from __future__ import annotations

import dataclasses
import re

import numpy as np
import pytest

from simulator import compare as C
from simulator import engine, reference, run
from simulator import layout as L
from simulator.rules import RuleError, Rules, apply_overrides, load_rules
from simulator.strategy import StrategyError, load_strategy, stack

BASIC = load_strategy("basic")


@pytest.mark.parametrize("rules, words", [
    # blackjack_pays=1.25 played as 1.2 (to_params keeps whole tenths), reported as 1.25
    (Rules(blackjack_pays=1.25), "key 'blackjack_pays' = 1.25 is not a whole number of tenths"),
    (Rules(penetration=1.5), "key 'penetration' = 1.5 is out of range"),
    (Rules(surrender="yes"), "key 'surrender' = \"yes\" is not a choice"),  # (tuple.index)
])
def test_rules_made_in_code_are_checked_before_a_run(rules, words):
    with pytest.raises(RuleError, match=words):
        engine.run(rules, BASIC, rounds=1000, seed=1)
    with pytest.raises(RuleError, match=words):
        run.Plan(rules, (BASIC,) * rules.boxes, ("basic",) * rules.boxes)


@pytest.mark.parametrize("call, words", [
    # a string was read item by item ("--set: 'd' is not KEY=VALUE"), None raised TypeError
    (lambda: apply_overrides(Rules(), "decks=8"), "a list of KEY=VALUE strings.*not a str"),
    (lambda: apply_overrides(Rules(), None), "a list of KEY=VALUE strings.*not a NoneType"),
    (lambda: load_rules(5), "rules: 5 is not a path or a shipped rule set's name"),
])
def test_overrides_and_rule_files_of_the_wrong_type_are_rule_errors(call, words):
    with pytest.raises(RuleError, match=words):
        call()
    assert apply_overrides(Rules(), ("decks=8",)).decks == 8


@pytest.mark.parametrize("kw, words", [
    ({"rounds": 1.5}, "rounds = 1.5: allowed a whole number >= 0"),  # (it played 1 round)
    ({"seed": 1.5}, "seed = 1.5: allowed a whole number >= 0"),  # (seed 1's result)
    ({"seed": -1}, "seed = -1: allowed a whole number >= 0"),
    ({"rounds": "abc"}, "rounds = 'abc': allowed a whole number >= 0"),
    ({"chunk_rounds": 0}, "chunk_rounds = 0: allowed a whole number >= 1"),
])
def test_run_counts_are_whole_numbers_named_when_not(kw, words):
    args = {"rounds": 1000, "seed": 1} | kw
    with pytest.raises(ValueError, match=words):
        engine.run(Rules(), BASIC, **args)
    assert engine.run(Rules(), BASIC, rounds=1000.0, seed=1)[L.T_ROUNDS] == 1000


@pytest.mark.parametrize("seed", [2**53 + 1, 2**64 - 1, np.uint64(2**64 - 1), 2**64, 10**40])
def test_a_seed_no_float_holds_is_whole_and_kept_exactly(seed):
    # whole() tested float(x) == int(x): 2**53 + 1 and 2**64 - 1 were "not a whole number >= 0"
    # (2**53 and 2**64, which a float holds, were played)
    assert engine.whole("seed", seed) == int(seed) and type(engine.whole("seed", seed)) is int
    plan = run.Plan(Rules(), (BASIC,), ("basic",), rounds=1000, seed=seed, chunk_rounds=1000,
                    workers=1)
    assert run.simulate(plan, quiet=True).meta["run"]["seed"] == int(seed)
    games = (C.Game("nz", Rules(), (BASIC,), ("basic",)),
             C.Game("h17", Rules(dealer_hits_soft_17=True), (BASIC,), ("basic",)))
    paired = C.Plan(games, rounds=1000, seed=seed, chunk_rounds=1000, pair_rounds=50, workers=1,
                    exact=False)
    assert C.compare(paired, quiet=True).meta["run"]["seed"] == int(seed)


@pytest.mark.parametrize("seed, words", [
    (1.5, "seed = 1.5: allowed a whole number >= 0"),  # (played as seed 1, reported as 1.5)
    (-1, "seed = -1: allowed a whole number >= 0"),  # (numpy's "expected non-negative integer")
    ("7", "seed = '7': allowed a whole number >= 0"),
])
def test_a_compare_plans_seed_is_checked_as_a_runs_is(seed, words):
    games = (C.Game("nz", Rules(), (BASIC,), ("basic",)),)
    with pytest.raises(ValueError, match=words):
        C.Plan(games, seed=seed)
    assert C.Plan(games, seed=7.0).seed == 7


def test_a_plan_made_in_code_is_checked_and_labelled_by_its_changes():
    with pytest.raises(ValueError, match="names: 'basic': allowed a tuple of 1 strategy names"):
        run.Plan(Rules(), (BASIC,), "basic")  # (the report named five strategies b, a, s, i, c)
    with pytest.raises(ValueError, match="strategies: .*allowed a tuple of 1 Strategy"):
        run.Plan(Rules(), ("basic",), ("basic",))
    with pytest.raises(ValueError, match="precision = -1: allowed a number above 0 up to 1"):
        run.Plan(Rules(), (BASIC,), ("basic",), precision=-1)
    # Rules(decks=8, ...) made in code was reported as configs/nz1994.toml, unchanged
    plan = run.Plan(Rules(decks=8, dealer_hits_soft_17=True), (BASIC,), ("basic",),
                    rounds=2000, chunk_rounds=1000, workers=1)
    meta = run.simulate(plan, quiet=True).meta["run"]
    # named as the command line names them (the NZ file's name, its changes), not by the path
    assert meta["rules_name"] == "nz1994 (modified: decks=8, dealer_hits_soft_17=true)"
    assert meta["rules_file"] == "configs/nz1994.toml"
    assert meta["overrides"] == ["decks=8", "dealer_hits_soft_17=true"]
    same = run.Plan(Rules(), (BASIC,), ("basic",), rounds=1000, chunk_rounds=1000, workers=1)
    shown = run.render(run.simulate(same, quiet=True), "table").splitlines()[1]
    assert shown == "Rules:     nz1994 (configs/nz1994.toml)", shown


def test_a_strategy_made_in_code_with_an_action_its_chart_does_not_allow_is_refused():
    # P across hard 16 was played by the engine and refused by the reference game
    hard = BASIC.hard.copy()
    hard[16, 5] = L.P
    bad = dataclasses.replace(BASIC, hard=hard)
    with pytest.raises(StrategyError, match="strategy 'basic': chart 'hard' holds P: allowed S, "
                       "H, D, Ds, Rh, Rs"):
        stack([bad])
    with pytest.raises(StrategyError, match="chart 'hard' holds P"):
        engine.run(Rules(), bad, rounds=1000, seed=1)
    with pytest.raises(StrategyError, match="not a Strategy"):
        engine.run(Rules(), "basic", rounds=1000, seed=1)


def test_compare_plan_exact_gives_the_exact_figures():
    # Plan.exact (True by default) was read nowhere: exact None for every game
    games = (C.Game("nz", Rules(), (BASIC,), ("basic",)),
             C.Game("h17", Rules(dealer_hits_soft_17=True), (BASIC,), ("basic",)))
    plan = C.Plan(games, rounds=1000, chunk_rounds=1000, pair_rounds=50, workers=1)
    rows = C.compare(plan, quiet=True).stats["rows"]
    assert rows[1]["difference"]["house_edge"]["exact"] == pytest.approx(
        rows[1]["exact"]["house_edge"] - rows[0]["exact"]["house_edge"])
    off = C.compare(dataclasses.replace(plan, exact=False), quiet=True).stats["rows"]
    assert "exact" not in off[0]


def test_the_reference_games_stacked_mode_refuses_what_it_cannot_play_as_the_engine_does():
    cards = np.arange(52)
    with pytest.raises(ValueError, match=r"cards: expected one shoe.*got shape \(4, 13\)"):
        reference.play_stacked(cards.reshape(4, 13), Rules(), BASIC)  # (it flattened them)
    with pytest.raises(ValueError, match="cut: -1: allowed a whole number of cards, 0 or more"):
        reference.play_stacked(cards, Rules(), BASIC, cut=-1)  # (it played no round)
    with pytest.raises(ValueError, match="strategies: a Strategy"):
        reference.play_stacked(cards, Rules(), "basic")  # (read as five strategies)
    assert reference.play_stacked(cards, Rules(), BASIC, cut=0) == []


def test_load_rules_takes_a_shipped_name_as_its_error_offers():
    assert load_rules("nz1994-8deck").decks == 8


def test_the_kernels_public_functions_name_a_wrong_argument():
    # numpy's UFuncTypeError for card tokens, a TypeError for a Strategy as tables, numba's
    # TypingError for a list as trace (after a compile line): now each names the argument.
    from simulator import kernel as K
    from simulator.chunks import chunk_state

    with pytest.raises(ValueError, match="cards: card codes must be whole numbers 0-51"):
        K.play_stacked(["7h", "Kd"], Rules(), BASIC)
    with pytest.raises(ValueError, match="cards: card codes must be whole numbers 0-51"):
        K.play_stacked([1.5, 2.5], Rules(), BASIC)  # (played as 1 and 2)
    p, state = Rules().to_params(), chunk_state(1, 0)
    with pytest.raises(ValueError, match=r"kernel: tables must be \(hard, soft, pairs"):
        K.simulate_chunk(p, BASIC, 100, state)
    with pytest.raises(ValueError, match="kernel: trace must be a 1-D numpy int8 array"):
        K.simulate_chunk(p, stack([BASIC]), 100, state, trace=[0] * 10)


def test_machine_for_takes_any_sequence_of_tables_and_names_a_wrong_one():
    # A list of lists gave "AttributeError: 'list' object has no attribute 'tobytes'", as did a
    # list for params and a list of Strategy objects; three tables "not enough values to
    # unpack" from the machine's builder.
    from simulator import kernel as K

    p, tables = Rules().to_params(), stack([BASIC])
    m = K.machine_for(p, tables)
    for same in (list(tables), [t.tolist() for t in tables]):
        assert K.machine_for(p, same) is m
    assert K.machine_for(list(p), tables) is m
    for wrong in ([BASIC], BASIC, tables[:3]):
        with pytest.raises(ValueError, match=r"kernel: tables must be \(hard, soft, pairs"):
            K.machine_for(p, wrong)
    with pytest.raises(ValueError, match="kernel: table 'hard' has shape"):
        K.machine_for(p, [t[0] for t in tables])  # (no box axis)



@pytest.mark.parametrize("call, words", [
    (lambda: engine.chunk_state(1.5, 0), "seed = 1.5: allowed a whole number >= 0"),
    (lambda: engine.chunk_state(1, -1), "chunk = -1: allowed a whole number >= 0"),
    (lambda: engine.chunk_size(2, 10, 5), "chunk = 2: allowed a whole number 0-1"),
    (lambda: engine.chunk_size(0, 0, 5), "chunk = 0: a run of 0 rounds has no chunk"),
    (lambda: engine.RunState(0, 0), "chunk_rounds = 0: allowed a whole number >= 1"),
    (lambda: engine.RunState(1.5, 1), "rounds = 1.5: allowed a whole number >= 0"),
    (lambda: stack([]), "strategies: none given"),
])
def test_the_runs_helpers_name_a_wrong_argument(call, words):
    # SeedSequence's TypeError for a fractional seed, a negative chunk_size past the last chunk,
    # a ZeroDivisionError for RunState(0, 0), RunState(1.5, ...) run as 1 round, numpy's "need
    # at least one array to stack": each now names the argument and what is allowed
    with pytest.raises(ValueError, match=re.escape(words)):
        call()
    assert engine.chunk_size(1, 10, 6) == 4 and engine.RunState(10, 6).n_chunks == 2
