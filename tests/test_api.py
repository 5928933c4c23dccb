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


# Strategies made in code that no strategy file could make: exact.analyze valued insurance "no"
# as taken (0.0079, not 0.0052), engine.run raised "invalid literal for int()", a chart of 1.5s
# or None a TypeError, a short chart an IndexError inside the analyzer.
BAD_STRATEGIES = {
    "insurance": (dataclasses.replace(BASIC, insurance="no"),
                  "strategy 'basic': field 'insurance' = 'no': allowed True or False"),
    "even_money": (dataclasses.replace(BASIC, even_money=None),
                   "strategy 'basic': field 'even_money' = None: allowed True or False"),
    "name": (dataclasses.replace(BASIC, name=5), "strategy '5': field 'name' = 5: allowed text"),
    "hard": (dataclasses.replace(BASIC, hard=BASIC.hard.astype(float) + 0.5),
             "strategy 'basic': chart 'hard' has shape (22, 10) (float64): allowed an integer "
             "numpy array of shape (22, 10) of action codes"),
    "short hard": (dataclasses.replace(BASIC, hard=BASIC.hard[:-1]),
                   "chart 'hard' has shape (21, 10) (int8): allowed an integer numpy array of "
                   "shape (22, 10)"),
    "sevens": (dataclasses.replace(BASIC, sevens=None),
               "strategy 'basic': chart 'sevens' is a NoneType: allowed an integer numpy array "
               "of shape (10,)"),
    "short sevens": (dataclasses.replace(BASIC, sevens=BASIC.sevens[:-1]),
                     "chart 'sevens' has shape (9,) (int8): allowed"),
    "pairs": (dataclasses.replace(BASIC, pairs=BASIC.pairs.tolist()),
              "chart 'pairs' is a list: allowed an integer numpy array of shape (10, 10)"),
}


def _strategy_entries():
    from simulator import counter, exact, plans
    from simulator.exact import compare as X

    plan = plans.load_plan("hi-lo-flat")
    return {
        "stack": lambda s: stack([s]),
        "engine.run": lambda s: engine.run(Rules(), s, rounds=1000, seed=1),
        "analyze": lambda s: exact.analyze(Rules(), s),
        "super_sevens": lambda s: exact.super_sevens(Rules(), s),
        "exact_figures": lambda s: X.exact_figures(Rules(), s),
        "exact_figures_all": lambda s: X.exact_figures_all([(Rules(), s)]),
        "build_games": lambda s: C.build_games(Rules(), "nz", "", ((s,), ("mine",)), []),
        "counter_for": lambda s: counter.counter_for(Rules(), s, plan),
    }


@pytest.mark.parametrize("entry", list(_strategy_entries()))
@pytest.mark.parametrize("bad", list(BAD_STRATEGIES))
def test_a_strategy_made_in_code_is_checked_field_by_field_wherever_it_enters(entry, bad,
                                                                            monkeypatch, tmp_path):
    monkeypatch.setenv("BJSIM_CACHE_DIR", str(tmp_path))  # (nothing kept of a refused one)
    strategy, words = BAD_STRATEGIES[bad]
    with pytest.raises(StrategyError, match=re.escape(words)) as error:
        _strategy_entries()[entry](strategy)
    assert "\n" not in str(error.value)


def test_a_strategy_made_in_code_of_other_integer_charts_is_taken():
    from simulator import exact

    wide = dataclasses.replace(BASIC, hard=BASIC.hard.astype(np.int64), insurance=np.bool_(True))
    assert stack([wide])[0].tolist() == stack([dataclasses.replace(BASIC, insurance=True)])[0]\
        .tolist()
    assert exact.analyze(Rules(), dataclasses.replace(BASIC, insurance=False))["house_edge"] == \
        pytest.approx(0.005191, abs=5e-7)


def _entries_of_the_wrong_type():
    from simulator import cards, counter, plans, variants
    from simulator.rules import describe

    plan, nz = plans.load_plan("hi-lo-flat"), {"decks": 6}
    dealt = "not a rule set (dict): allowed a Rules (load_rules(NAME or FILE), or Rules("
    return [
        # AttributeError, TypeError (dataclasses.asdict), AttributeError, ... each
        (lambda: variants.from_vary(nz, "decks=8"), "base: " + dealt),
        (lambda: variants.from_file(nz, "configs/variants/h17.toml"), "base: " + dealt),
        (lambda: variants.from_strategy(nz, "basic"), "base: " + dealt),
        (lambda: variants.from_files(nz, []), "base: " + dealt),
        (lambda: variants.from_files(Rules(), "configs/variants/h17.toml"),  # (read by letter)
         "files = 'configs/variants/h17.toml': allowed a list of the paths of variant or rule "
         "files"),
        (lambda: C.build_games(nz, "nz", "", None, []), "base_rules: " + dealt),
        (lambda: C.build_games(Rules(), "nz", "", None, variants.from_vary(Rules(), "decks=8")),
         "variants = Variant(label='decks=8', rules=Rules(dec: allowed a list of Variant "
         "(variants.from_vary, from_file, from_strategy), or [] for none"),
        (lambda: C.build_games(Rules(), "nz", "", None, ["decks=8"]),
         "variants = ['decks=8']: allowed a list of Variant"),
        (lambda: counter.counter_for(nz, BASIC, plan), "rules: " + dealt),
        (lambda: apply_overrides(None, ["decks=8"]), "rules: not a rule set (NoneType)"),
        (lambda: describe(nz), "rules: " + dealt),
        (lambda: describe(Rules().replace(decks=99)),  # ("99 decks (5148 cards)")
         "rules: key 'decks' = 99 is out of range: allowed 1-8"),
        (lambda: cards.parse_cards(None),
         "<cards>: None is not text: allowed a string of card tokens such as '7h Kd As'"),
        # the dataclass's "got an unexpected keyword argument 'foo'"
        (lambda: Rules(foo=1), "rules: unknown key 'foo': allowed decks, penetration, "),
        (lambda: Rules().replace(deck=8), "rules: unknown key 'deck': did you mean 'decks'?"),
        (lambda: dataclasses.replace(Rules(), dek=8), "rules: unknown key 'dek': did you mean"),
    ]


@pytest.mark.parametrize("case", range(len(_entries_of_the_wrong_type())))
def test_the_entries_name_an_argument_of_the_wrong_type_in_one_line(case):
    call, words = _entries_of_the_wrong_type()[case]
    with pytest.raises(ValueError, match=re.escape(words)) as error:
        call()
    assert "\n" not in str(error.value)


def test_rules_take_their_keys_as_ever_and_describe_a_valid_set():
    from simulator.rules import describe

    assert Rules(decks=8).replace(boxes=2) == Rules(boxes=2, decks=8)
    assert describe(Rules(decks=8))[0][1] == "decks = 8"


@pytest.mark.parametrize("kw, words", [
    # numpy's broadcast error, naming nothing
    ({"nets": np.zeros(5, np.int64)}, "kernel: nets (int64 (5,)): expected an int64 numpy array "
     f"of N_NETS ({L.N_NETS}), added to in place"),
    ({"nets": [0] * L.N_NETS}, "kernel: nets (list): expected an int64 numpy array"),  # (kept 0)
    ({"insurance": "no"}, "kernel: insurance = 'no': allowed True or False"),  # (int("no"))
])
def test_count_chunk_names_a_wrong_nets_or_insurance(kw, words):
    from simulator import kernel as K
    from simulator import plans
    from simulator.chunks import chunk_state
    from simulator.counter import counter_for

    tables, counter, insurance = counter_for(Rules(), BASIC, plans.load_plan("hi-lo-flat"))
    args = {"insurance": insurance} | kw
    with pytest.raises(ValueError, match=re.escape(words)):
        K.count_chunk(Rules().to_params(), tables, 100, chunk_state(1, 0), counter, **args)


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


# Rules made in code that a rule file could not say: the exact API valued them as another game
# ('false' as H17, "Early" as late surrender, "Peek" as no hole card, "9_11" as 10-11) or
# crashed (a KeyError for "al", zip's "argument 2 is shorter" for one pay, a TypeError for "x").
BAD_RULES = [{"dealer_hits_soft_17": "false"}, {"surrender": "Early"}, {"surrender": "yes"},
             {"hole_card": "Peek"}, {"double_on": "9_11"}, {"decks": 6.5}, {"max_hands": 7},
             {"dealer_blackjack_takes": "al"}, {"super_sevens_pays": [1]},
             {"blackjack_pays": "x"}, {"boxes": 0}]


def _exact_calls():
    from simulator import derived, exact, tally
    from simulator.exact.shoe import removed

    return {
        "analyze": lambda r: exact.analyze(r),
        "analyze optimal": lambda r: exact.analyze(r, optimal=True),
        "analyze strategy": lambda r: exact.analyze(r, BASIC),
        "basic_strategy": lambda r: exact.basic_strategy(r),
        "super_sevens": lambda r: exact.super_sevens(r, "hit"),
        "dealer_probabilities": lambda r: exact.dealer_probabilities(r, removed(6, 10), 10),
        "derived.basic_for": lambda r: derived.basic_for(r),
        "tally.summarize": lambda r: tally.summarize(np.zeros(L.N_TALLY, np.int64), r),
    }


@pytest.mark.parametrize("name", list(_exact_calls()))
@pytest.mark.parametrize("bad", BAD_RULES, ids=lambda bad: "{}={!r}".format(*next(iter(
    bad.items()))))
def test_the_exact_api_refuses_the_rules_a_run_refuses_in_the_same_words(name, bad,
                                                                          monkeypatch, tmp_path):
    rules = Rules(**bad)
    monkeypatch.setenv("BJSIM_CACHE_DIR", str(tmp_path))  # (the old code derived and kept)
    with pytest.raises(RuleError) as run_error:
        engine.run(rules, BASIC, rounds=1000, seed=1)
    with pytest.raises(RuleError) as its_error:
        _exact_calls()[name](rules)
    assert str(its_error.value) == str(run_error.value)
    assert str(its_error.value).startswith("rules: key ")


@pytest.mark.parametrize("call, words", [
    # each had raised a TypeError, AttributeError or IndexError from inside the analyzer
    (lambda X: X.analyze(None), "rules: not a rule set (NoneType): allowed a Rules"),
    (lambda X: X.analyze("nz1994"), "rules: not a rule set (str): allowed a Rules"),
    (lambda X: X.analyze(Rules(), "basic"),
     "strategy: 'basic' is not a Strategy: allowed None (the rules' basic strategy) or "
     "load_strategy(NAME or FILE)'s"),
    (lambda X: X.analyze(Rules(), [BASIC]), "strategy: [Strategy(name='basic'"),
    (lambda X: X.analyze(Rules(), BASIC, optimal="no"), "optimal = 'no': allowed True or False"),
    (lambda X: X.basic_strategy(None), "rules: not a rule set (NoneType)"),
    (lambda X: X.basic_strategy(Rules(), insurance="yes"),
     "insurance = 'yes': allowed True or False"),
    (lambda X: X.basic_strategy(Rules(), name=5), "name = 5: allowed None"),
    (lambda X: X.super_sevens(None, "hit"), "rules: not a rule set (NoneType)"),
    (lambda X: X.super_sevens(Rules(), None), "sevens_play = None: allowed a play (split, "),
    (lambda X: X.super_sevens(Rules(), 5), "sevens_play = 5: allowed a play"),
    (lambda X: X.super_sevens(Rules(), ["hit"] * 3), "sevens_play = ['hit', 'hit', 'hit']"),
    (lambda X: X.super_sevens(Rules(), [99] * 10), "sevens_play = [99, 99"),
    # a dict short of up cards was refused as if a dict were not allowed at all
    (lambda X: X.super_sevens(Rules(), {1: "hit", 2: "split"}), "sevens_play = {1: 'hit', 2: "
     "'split'}: no play for up cards 3, 4, 5, 6, 7, 8, 9, 10: allowed a dict of a play for each "
     "of the ten up card values 1-10 (1 the ace)"),
    (lambda X: X.super_sevens(Rules(), {"A": "hit"} | {up: "hit" for up in range(2, 11)}),
     "'A' is not an up card value, no play for up card 1: allowed a dict"),
    (lambda X: X.super_sevens(Rules(), "hit", guaranteed_third=None),
     "guaranteed_third = None: allowed True or False"),
    (lambda X: X.dealer_probabilities(Rules(), [24] * 9 + [96], "A"),
     "up = 'A': allowed a whole number 1-10"),
    (lambda X: X.dealer_probabilities(Rules(), [24] * 9 + [96], 11),
     "up = 11: allowed a whole number 1-10"),
    (lambda X: X.dealer_probabilities(Rules(), None, 1),
     "composition None: allowed 10 whole counts >= 0, the cards left by value A..10"),
    # 4.5 was read as 4; an empty shoe valued as all 0; a 2-D array's repr over several lines
    (lambda X: X.dealer_probabilities(Rules(), [4.5] * 10, 1),
     "composition [4.5, 4.5, 4.5, 4.5, 4.5, 4.5, 4.5, 4.5, 4.5, 4.5]: allowed 10 whole counts"),
    (lambda X: X.dealer_probabilities(Rules(), [0] * 10, 1),
     "composition [0, 0, 0, 0, 0, 0, 0, 0, 0, 0]: a dealer's hand from up card 1 can run out of "
     "its 0 cards: allowed 10 whole counts >= 0, the cards left by value A..10, enough to finish "
     "every dealer hand (12 or more always are)"),
    (lambda X: X.dealer_probabilities(Rules(), np.full((2, 10), 24), 1),
     "composition array([[24, 24, 24, 24, 24, 24, 24, 24, 24, 24], [24, 24, 24: allowed 10 "),
    (lambda X: X.dealer_probabilities(Rules(), [0] * 9 + [5], 1, no_blackjack=True),
     "no_blackjack = True: composition [0, 0, 0, 0, 0, 0, 0, 0, 0, 5] gives up card 1 a "
     "blackjack every time: allowed False"),
    (lambda X: X.dealer_probabilities(None, [24] * 9 + [96], 1), "rules: not a rule set"),
])
def test_the_exact_api_names_an_argument_of_the_wrong_type(call, words):
    from simulator import exact

    with pytest.raises(ValueError, match=re.escape(words)) as error:
        call(exact)
    assert "\n" not in str(error.value)


def test_the_exact_api_still_takes_each_form_its_arguments_have():
    from simulator import exact

    nz = Rules(dealer_hits_soft_17=np.bool_(False), blackjack_pays=1)  # (validated: 1.0)
    row = exact.super_sevens(nz, BASIC.sevens)["ev"]
    assert exact.super_sevens(nz, BASIC)["ev"] == row
    assert exact.super_sevens(nz, dict.fromkeys(range(1, 11), "stand"))["ev"] == pytest.approx(
        exact.super_sevens(nz, "stand")["ev"])
    assert exact.super_sevens(nz, "hit", guaranteed_third=1)["ev"] == pytest.approx(
        exact.super_sevens(nz, "hit", guaranteed_third=True)["ev"])
    shoe = [24] * 9 + [95]
    assert exact.dealer_probabilities(nz, shoe, np.int64(10), no_blackjack=np.bool_(True)) == \
        exact.dealer_probabilities(nz, shoe, 10.0, no_blackjack=True) == \
        exact.dealer_probabilities(nz, np.array(shoe, float), 10, no_blackjack=True)
    # a shoe too short for some hands but not for this one's: five tens under a ten
    assert exact.dealer_probabilities(nz, [0] * 9 + [5], 10)["20"] == 1.0


def test_derived_basic_for_names_a_rule_set_of_the_wrong_type():
    from simulator import derived

    with pytest.raises(RuleError, match=re.escape("rules: not a rule set (NoneType)")):
        derived.basic_for(None)  # (dataclasses' "asdict() should be called on dataclass ...")


@pytest.mark.parametrize("module", ["kernel", "reference"])
@pytest.mark.parametrize("rules, kind", [(None, "NoneType"), ("nz1994", "str")])
def test_the_stacked_functions_name_a_rule_set_of_the_wrong_type(module, rules, kind):
    import importlib

    play = importlib.import_module(f"simulator.{module}").play_stacked
    with pytest.raises(RuleError, match=re.escape(f"rules: not a rule set ({kind})")):
        play([0] * 20, rules, BASIC)  # (the engine's had raised AttributeError)


@pytest.mark.parametrize("n", [2**63, np.uint64(2**63), 2**64 + 5, 2.0**63, -2**63])
def test_the_kernel_refuses_a_round_count_int64_cannot_hold(n):
    # 2**63 (a Python int or a uint64) was cast to int64 as -2**63 and returned an all-zero
    # tally; 2**64 + 5 raised OverflowError
    from simulator import kernel as K
    from simulator.chunks import chunk_state

    p, tables, state = Rules().to_params(), stack([BASIC]), chunk_state(1, 0)
    allowed = f": allowed a whole number 0-{2**63 - 1}"
    shown = repr(n.item() if isinstance(n, np.generic) else n)
    with pytest.raises(ValueError, match=re.escape(f"kernel: n_rounds = {shown}{allowed}")):
        K.simulate_chunk(p, tables, n, state)
    with pytest.raises(ValueError, match="kernel: n_rounds = .*" + re.escape(allowed)):
        K.simulate_blocks(p, tables, [10, n], [state, state], [L.T_ROUNDS])  # (shown as numpy
        # reads the list: 2**63 beside 10 as a float)
    assert K.simulate_chunk(p, tables, np.uint64(10), state)[L.T_ROUNDS] == 10


def _games():
    return (C.Game("nz", Rules(), (BASIC,), ("basic",)),
            C.Game("h17", Rules(dealer_hits_soft_17=True), (BASIC,), ("basic",)))


@pytest.mark.parametrize("call, words", [
    # a TypeError after the rounds were played ('int' object is not callable)
    (lambda: engine.run(Rules(), BASIC, 1000, 1, progress=5),
     "progress = 5: allowed None or a function progress(n_rounds_done, tally_so_far)"),
    # TypeError: argument of type 'int' is not iterable
    (lambda: list(engine.iter_chunks(Rules(), BASIC, 1000, 1, skip=5)),
     "skip = 5: allowed None or a container of chunk indices"),
    (lambda: list(engine.iter_job_chunks(None, 3, 1, skip="02")), "skip = '02': allowed None"),
    # TypeError: expected str, bytes or os.PathLike object, not int (when simulated)
    (lambda: run.Plan(Rules(), (BASIC,), ("basic",), checkpoint=5),
     "checkpoint = 5: allowed None or a file's path"),
    (lambda: C.Plan(_games(), checkpoint=5), "checkpoint = 5: allowed None or a file's path"),
    # accepted, and played in blocks of 2.5 rounds; precision 5 as run.Plan refuses it
    (lambda: C.Plan(_games(), pair_rounds=2.5), "pair_rounds = 2.5: allowed a whole number >= 1"),
    (lambda: C.Plan(_games(), pair_rounds=0), "pair_rounds = 0: allowed a whole number >= 1"),
    (lambda: C.Plan(_games(), precision=5), "precision = 5: allowed a number above 0 up to 1"),
    # played in blocks of the chunk, the report saying blocks of 5000 (the CLI refuses it)
    (lambda: C.Plan(_games(), rounds=100_000, chunk_rounds=1000, pair_rounds=5000),
     "pair_rounds = 5000 is larger than chunk_rounds = 1000: allowed at most the chunk"),
    # played as one block of 1000, the report saying blocks of 5000 (the CLI refuses it)
    (lambda: C.Plan(_games(), rounds=1000, pair_rounds=5000),
     "pair_rounds = 5000 is larger than rounds = 1000: allowed at most the rounds"),
    (lambda: C.Plan(_games(), rounds=2000, precision=0.01, pair_rounds=5000),
     "pair_rounds = 5000 is larger than rounds = 2000"),
    # played, and reported "NOT met: stopped at --max-rounds 500" (the CLI refuses it)
    (lambda: run.Plan(Rules(), (BASIC,), ("basic",), rounds=500, precision=0.01),
     "rounds = 500: a precision target is judged from 1,000 rounds on: allowed at least 1,000 "
     "with precision = 0.01"),
    (lambda: C.Plan(_games(), rounds=500, precision=0.01), "rounds = 500: a precision target"),
    (lambda: run.Plan(Rules(), (BASIC,), ("basic",), precision=True), "precision = True"),
    # TypeError: object of type 'NoneType' has no len()
    (lambda: C.Plan(None), "games = None: allowed a tuple of Game (build_games)"),
    (lambda: C.Plan(("nz",)), "games = ('nz',): allowed a tuple of Game"),
])
def test_run_and_compare_options_of_the_wrong_type_are_refused_up_front(call, words):
    with pytest.raises(ValueError, match=re.escape(words)):
        call()


def test_a_compare_plan_keeps_its_games_and_a_whole_pair_rounds():
    plan = C.Plan(list(_games()), pair_rounds=50.0, precision=0.5)
    assert plan.games == _games() and plan.pair_rounds == 50 and type(plan.pair_rounds) is int
    assert C.Plan(_games()).pair_rounds is None  # (compare's default: one shoe)
    assert C.Plan(_games(), chunk_rounds=1000, pair_rounds=1000).pair_rounds == 1000  # (a block
    # the whole chunk)
    assert run.Plan(Rules(), (BASIC,), ("basic",), rounds=1000, precision=0.01).rounds == 1000


@pytest.mark.parametrize("rules, words", [
    (None, "rules: not a rule set (NoneType): allowed a Rules"),  # (AttributeError)
    ("nz1994", "rules: not a rule set (str): allowed a Rules"),
    (Rules(boxes=0), "rules: key 'boxes' = 0 is out of range: allowed 1-7"),  # (summarized)
])
def test_summarize_refuses_what_is_not_a_valid_rule_set(rules, words):
    from simulator import tally

    t = engine.run(Rules(), BASIC, rounds=1000, seed=1)
    with pytest.raises(RuleError, match=re.escape(words)):
        tally.summarize(t, rules)
    assert tally.summarize(t, Rules())["rounds"] == 1000


def test_the_reference_game_names_a_rule_set_or_strategies_of_the_wrong_type():
    cards = np.arange(52)
    with pytest.raises(RuleError, match=re.escape("rules: not a rule set (NoneType)")):
        reference.play_stacked(cards, None, [BASIC])  # (AttributeError: no 'boxes')
    with pytest.raises(ValueError, match="strategies: a Strategy .* not None"):
        reference.play_stacked(cards, Rules(), None)  # (TypeError: not iterable)
    # its values are taken as given (the tests play past the rules' ranges)
    assert reference.play_stacked(cards, Rules(boxes=8), BASIC, cut=0) == []


@pytest.mark.parametrize("base", [
    BASIC,  # TypeError: 'Strategy' object is not iterable
    (BASIC,),
    ((BASIC,), "basic"),
    ((BASIC,), ("basic", "again")),
    (("basic",), ("basic",)),
    ((), ()),
])
def test_build_games_takes_strategies_and_names_as_a_pair_or_names_the_argument(base):
    with pytest.raises(ValueError, match=re.escape(
            "allowed None (the rules' basic strategy) or a pair (strategies, names)")):
        C.build_games(Rules(), "nz", "", base, [])
    games = C.build_games(Rules(), "nz", "", ([BASIC], ["basic"]), [])
    assert games[0].strategies == (BASIC,) and games[0].names == ("basic",)


@pytest.mark.parametrize("field", ["resume", "exact"])
@pytest.mark.parametrize("value", ["yes", "no", 2, None])
def test_a_runs_yes_or_no_is_true_or_false(field, value):
    # run.Plan(exact="no") had been taken as true (any truthy value asked for the exact figures).
    from simulator import run
    from simulator.rules import Rules
    from simulator.strategy import load_strategy

    with pytest.raises(ValueError, match=rf"^{field} = .*: allowed True or False$"):
        run.Plan(Rules(), [load_strategy("basic")], ("basic",), rounds=1000, **{field: value})


@pytest.mark.parametrize("text", [None, 8, ["decks=8"]])
def test_a_vary_that_is_not_text_is_refused_naming_it(text):
    from simulator import variants
    from simulator.rules import Rules

    with pytest.raises(ValueError, match=r"^--vary .*: not text: give KEY=VALUE"):
        variants.from_vary(Rules(), text)


def test_count_runs_checks_its_rules_plan_and_penetrations_as_the_other_entry_points():
    # A review: check returned games with rules a run refuses (play refused them later), walked
    # a text of penetrations character by character ("key 'penetration' = 0 is out of range"),
    # and a rule set or a plan of the wrong type raised AttributeError.
    from simulator import count_runs
    from simulator.plans import PlanError, load_plan

    plan = load_plan("hi-lo-1-12")
    with pytest.raises(RuleError, match=re.escape(
            "rules: key 'hole_card' = \"Peek\" is not a choice: allowed \"none\", \"peek\"")):
        count_runs.check(Rules().replace(hole_card="Peek"), plan)
    with pytest.raises(RuleError, match=re.escape("rules: not a rule set (dict): allowed a Rules")):
        count_runs.check({"decks": 6}, plan)
    for pens in ("0.6,0.7", 0.7):
        with pytest.raises(ValueError, match=re.escape(
                f"--penetrations: {pens!r} is not a sequence of numbers: allowed a penetration "
                "a run, as (0.6, 0.7)")):
            count_runs.check(Rules(), plan, pens)
    named = ("plan: 'hi-lo-1-12' is not a counting plan: allowed plans.load_plan(NAME or "
             "FILE)'s")
    with pytest.raises(PlanError, match=re.escape(named)):
        count_runs.check(Rules(), "hi-lo-1-12")
    with pytest.raises(PlanError, match=re.escape(named)):
        count_runs.play([(None, Rules())], "hi-lo-1-12", BASIC, "basic", rounds=1000, seed=1,
                        chunk_rounds=1000)
    games = count_runs.check(Rules(), plan, [0.6, 0.7])
    assert [(p, r.penetration) for p, r in games] == [(0.6, 0.6), (0.7, 0.7)]
