"""The Python API takes what its neighbours take and refuses the rest in one line naming the
argument (docs/api.md): a review found one Strategy a TypeError where `engine.run` takes it,
numpy numbers refused as their repr, and rules made in code valued past their ranges."""

from __future__ import annotations

import re

import numpy as np
import pytest

from simulator import count_runs, counter, derived, engine, tally, variants
from simulator.exact import compare as X
from simulator.plans import PlanError, load_plan
from simulator.rules import RuleError, Rules
from simulator.strategy import (
    StrategyError,
    charts_sha256,
    dumps_strategy,
    list_strategies,
    load_strategy,
    loads_strategy,
    stack,
    strategies_equal,
)

BASIC = load_strategy("basic")
MIMIC = load_strategy("mimic-dealer")
PLAN = load_plan("hi-lo-flat")


@pytest.fixture(scope="module")
def one_box():
    return Rules(), engine.run(Rules(), BASIC, rounds=2000, seed=1, workers=1)


@pytest.fixture(scope="module")
def three_boxes():
    rules = Rules(boxes=3)
    return rules, engine.run(rules, BASIC, rounds=2000, seed=1, workers=1)


def test_summarize_takes_one_strategy_as_engine_run_does(one_box, three_boxes):
    # one Strategy raised "'Strategy' object is not iterable"
    for rules, t in (one_box, three_boxes):
        each = tally.summarize(t, rules, strategies=[BASIC] * rules.boxes)
        assert tally.summarize(t, rules, strategies=BASIC) == each
        assert tally.summarize(t, rules, strategies=[BASIC]) == each
    # ... and ss_lines_possible, which summarize's callers pass beside it, did too
    assert tally.ss_lines_possible(BASIC, Rules()) == tally.ss_lines_possible([BASIC], Rules())


@pytest.mark.parametrize("kw, words", [
    # 'basic' was read letter by letter: "sevens_play = 'b': allowed a play ..."
    ({"strategies": "basic"}, "strategies: 'basic' is not a Strategy: allowed"),
    ({"strategies": [BASIC, "basic", BASIC]}, "strategies: 'basic' is not a Strategy"),
    # a text, and one name for three boxes, were taken; docs/api.md: one a box
    ({"names": "abc"}, "names: 'abc': allowed None, or a tuple of 3 strategy names, one a box"),
    ({"names": ["x"]}, "names: ['x']: allowed None, or a tuple of 3 strategy names"),
    ({"names": [1, 2, 3]}, "names: [1, 2, 3]: allowed None, or a tuple of 3"),
    # None raised TypeError ("argument of type 'NoneType' is not iterable"); a line no rule has
    # was taken
    ({"ss_lines_possible": None}, "ss_lines_possible = None: allowed a tuple of Super Sevens "
                                  "lines among a, b, c, d, e, f"),
    ({"ss_lines_possible": ("a", "g")}, "ss_lines_possible = ('a', 'g'): allowed"),
])
def test_summarize_refuses_what_it_cannot_use_naming_the_argument(three_boxes, kw, words):
    rules, t = three_boxes
    with pytest.raises(ValueError, match=re.escape(words)) as error:
        tally.summarize(t, rules, **kw)
    assert "\n" not in str(error.value)
    with pytest.raises(ValueError, match="strategies: 2 given for boxes = 3: give one, or one"):
        tally.summarize(t, rules, strategies=[BASIC, MIMIC])  # (as before)


def test_exact_for_takes_one_strategy_as_engine_run_does(monkeypatch, tmp_path):
    monkeypatch.setenv("BJSIM_CACHE_DIR", str(tmp_path))
    # one Strategy raised "'Strategy' object is not iterable"
    one = derived.exact_for(Rules(), BASIC)
    assert one == derived.exact_for(Rules(), [BASIC])
    assert derived.exact_for(Rules(boxes=3), BASIC) == one
    # three strategies for two boxes had been valued as the mean of three boxes
    with pytest.raises(ValueError, match="strategies: 3 given for boxes = 2: give one, or one"):
        derived.exact_for(Rules(boxes=2), [BASIC, MIMIC, BASIC])
    with pytest.raises(StrategyError, match="strategies: 'basic' is not a Strategy"):
        derived.exact_for(Rules(), "basic")


def test_penetrations_are_numbers_numpy_ones_too():
    # np.float64(0.8) was refused as '"np.float64(0.8)" is not a number' (its repr parsed)
    (pen, rules), = count_runs.check(Rules(), PLAN, penetrations=[np.float64(0.8)])
    assert (pen, type(pen), rules.penetration) == (0.8, float, 0.8)
    assert count_runs.check(Rules(), PLAN, penetrations=np.array([0.6, 0.7]))[1][1] \
        .penetration == 0.7
    with pytest.raises(RuleError, match="key 'penetration' = 0.99 is out of range"):
        count_runs.check(Rules(), PLAN, penetrations=[np.float64(0.99)])


@pytest.mark.parametrize("item", ["0.8", True, None])
def test_a_penetration_that_is_not_a_number_is_refused(item):
    # '0.8' was parsed as a rule file's value, and played (docs: a text is refused)
    with pytest.raises(ValueError, match=re.escape(f"--penetrations: {item!r} is not a number: "
                                                   "allowed a penetration a run")):
        count_runs.check(Rules(), PLAN, penetrations=[0.7, item])


def test_counter_for_refuses_a_plans_name_as_count_runs_check_does():
    # AttributeError: 'str' object has no attribute 'plays'
    words = "plan: 'hi-lo-flat' is not a counting plan: allowed plans.load_plan(NAME or FILE)'s"
    with pytest.raises(PlanError, match=re.escape(words)):
        counter.counter_for(Rules(), BASIC, "hi-lo-flat")
    with pytest.raises(PlanError, match=re.escape(words)):
        count_runs.check(Rules(), "hi-lo-flat")
    assert counter.counter_for(Rules(), BASIC, PLAN)[2] is False


@pytest.mark.parametrize("call, words", [
    # valued as one box at the default cut, no error
    (lambda: X.exact_figures(Rules(penetration=5.0), None),
     "rules: key 'penetration' = 5.0 is out of range: allowed a number 0.1-0.95"),
    (lambda: X.exact_figures(Rules(boxes=9), BASIC), "rules: key 'boxes' = 9 is out of range"),
    (lambda: X.exact_figures_all([(Rules(boxes=9), BASIC)]), "rules: key 'boxes' = 9 is out"),
    # refused in the shoe's words, "decks = 99 is out of range: allowed 1-8"
    (lambda: X.exact_figures(Rules(decks=99), BASIC), "rules: key 'decks' = 99 is out of range"),
    # "no" taken as true: optimal play valued
    (lambda: X.exact_figures(Rules(), BASIC, optimal="no"),
     "optimal = 'no': allowed True or False"),
    # AttributeError, and 6.5 decks or "Peek" valued
    (lambda: X.insurance_per_unit_staked(None),
     "rules: not a rule set (NoneType): allowed a Rules"),
    (lambda: X.insurance_per_unit_staked(Rules(decks=6.5)),
     "rules: key 'decks' = 6.5 is not an integer: allowed an integer 1-8"),
    (lambda: X.insurance_per_unit_staked(Rules(hole_card="Peek")),
     "rules: key 'hole_card' = \"Peek\" is not a choice"),
])
def test_the_exact_figures_check_rules_made_in_code_as_analyze_does(call, words, monkeypatch,
                                                                    tmp_path):
    monkeypatch.setenv("BJSIM_CACHE_DIR", str(tmp_path))  # (nothing kept of a refused one)
    with pytest.raises(ValueError, match=re.escape(words)) as error:
        call()
    assert "\n" not in str(error.value)


@pytest.mark.parametrize("call, words", [
    # pathlib's "expected str, bytes or os.PathLike object, not Strategy"
    (lambda: variants.from_strategy(Rules(), BASIC),
     "name: not a strategy's name or path (Strategy): allowed a shipped strategy (basic, "),
    # "object of type 'Strategy' has no len()"; a text was read letter by letter ('b')
    (lambda: stack(BASIC), "strategies: not a list (Strategy): allowed a list of Strategy, one "
                           "a box ([s]; one for every box: stack_for(rules, s))"),
    (lambda: stack("basic"), "strategies: not a list (str): allowed a list of Strategy"),
    # AttributeError: 'str' object has no attribute 'hard'
    (lambda: dumps_strategy("basic"), "strategy: 'basic' is not a Strategy: allowed "
                                      "load_strategy(NAME or FILE)'s"),
])
def test_a_strategy_where_a_name_is_asked_and_the_reverse_is_one_line(call, words):
    with pytest.raises(StrategyError, match=re.escape(words)) as error:
        call()
    assert "\n" not in str(error.value)
    assert variants.from_strategy(Rules(), "mimic-dealer").strategy == "mimic-dealer"


@pytest.mark.parametrize("name", list_strategies())
def test_a_dumped_strategy_loads_back_as_the_docs_say(name):
    # docs/api.md had said "loads back equal": == is identity (eq=False), what holds is this
    s = load_strategy(name)
    back = loads_strategy(dumps_strategy(s))
    assert strategies_equal(s, back) and charts_sha256(s) == charts_sha256(back)
    assert (back.name, back.description) == (s.name, s.description) and back != s


@pytest.mark.parametrize("precision", [-1, 0, 1.5, float("nan"), "x", True])
def test_a_run_states_precision_is_refused_as_run_plans_is(precision):
    # -1 and NaN were taken (every chunk played, target_met False); "x" was float()'s words
    shown = re.escape(repr(precision))
    with pytest.raises(ValueError, match=f"precision = {shown}: allowed a number above 0 up to 1 "
                                         r"\(a fraction: 0.0005 is ±0.05%\)"):
        engine.RunState(1000, 100, precision=precision)
    assert engine.RunState(1000, 100, precision=np.float64(0.5)).precision == 0.5
    assert engine.RunState(1000, 100, precision=1).precision == 1.0
    assert engine.RunState(1000, 100).target_met is None
