"""What a rule key needs beyond its declaration (docs/rules-format.md, "Adding a key"): each
part of bjsim that plays or values a round under the rules reads every key, or says here why
it need not, so that a key added to `rules.DECLARATIONS` and the engine alone fails a test
naming what is missing, rather than being ignored where the oracle or the exact figures should
have followed it (a developer review found a new key ignored by both, every test passing)."""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest

from simulator import derived
from simulator.rules import DECLARATIONS, KEYS, Rules, validate

ROOT = Path(__file__).resolve().parent.parent

# Keys a part does not read, and why.
REFERENCE_LEAVES = {  # simulator/reference.py: it plays the cards it is given, in order
    "penetration": "the cards are given: no shoe is cut",
    "shuffle": "the cards are given: no shoe is shuffled",
    "super_sevens_bet": "its records are in Super Sevens stakes; the stake scales them after",
}
EXACT_LEAVES = {  # simulator/exact/: every round from a full shoe
    "dealer_draws_when_no_live_box": "cards the dealer draws when no box is left to decide "
                                     "change no hand's value",
}


def _attributes(folder_or_file: Path) -> set[str]:
    """Every attribute the code reads (``rules.boxes``: ``boxes``), not one a docstring or a
    comment names."""
    files = [folder_or_file] if folder_or_file.is_file() else sorted(folder_or_file.glob("*.py"))
    return {node.attr for f in files for node in ast.walk(ast.parse(f.read_text()))
            if isinstance(node, ast.Attribute)}


@pytest.mark.parametrize("part, path, leaves", [
    ("the reference game", ROOT / "simulator" / "reference.py", REFERENCE_LEAVES),
    ("the exact analyzer", ROOT / "simulator" / "exact", EXACT_LEAVES),
])
def test_every_key_is_read_where_rounds_are_played_or_valued(part, path, leaves):
    read = set(KEYS) & _attributes(path)
    missing = [k for k in KEYS if k not in read and k not in leaves]
    assert not missing, (f"{part} ({path.relative_to(ROOT)}) reads no rules.{missing[0]}: "
                         "handle the key there, or say in tests/test_rule_keys.py why it need "
                         "not")
    stale = [k for k in leaves if k in read or k not in KEYS]
    assert not stale, f"{part} now reads {stale}: take it out of the leaves here"


def test_every_key_is_said_to_change_the_basic_strategy_or_not():
    groups = (derived.CHART_KEYS, derived.SIDE_BET_KEYS, derived.NOT_CHART_KEYS)
    named = [k for g in groups for k in g]
    assert sorted(named) == sorted(KEYS), (
        "each rule key goes in exactly one of derived.CHART_KEYS (the chart depends on it: a "
        "chart is derived for rules that differ in it), SIDE_BET_KEYS or NOT_CHART_KEYS: "
        f"{sorted(set(KEYS) ^ set(named)) or 'one named twice'}")


def test_the_random_rule_sets_of_the_agreement_tests_draw_every_key():
    """`test_kernel._random_rules` fills every key its own list does not name from the key's
    declaration, so a new key is played at its other values by the engine-against-reference
    tests at once; soak's random rules draw the pays and stakes it leaves at NZ."""
    import soak
    from test_kernel import LEFT_AT_NZ, _random_rules

    rng = np.random.default_rng(7)
    for name, draw, at_nz in (("test_kernel", _random_rules, LEFT_AT_NZ),
                              ("soak", soak.random_rules, ())):
        seen = {k: set() for k in KEYS}
        for _ in range(300):
            r = draw(rng, int(rng.integers(1, 8)), 1, (0.3, 0.95))
            for k in KEYS:
                seen[k].add(getattr(r, k))
        one = [k for k in KEYS if len(seen[k]) < 2 and k not in at_nz]
        assert not one, f"{name}'s random rules hold {one} at one value"


@pytest.mark.parametrize("key", DECLARATIONS, ids=lambda k: k.name)
def test_a_value_drawn_from_a_declaration_is_allowed(key):
    from helpers import random_value

    rng = np.random.default_rng(11)
    for _ in range(50):
        validate(Rules().replace(**{key.name: random_value(rng, key)}))


# Parameter slots the engine does not name, and why.
KERNEL_LEAVES = {f"P_SS_PAY_{x}": "read at its offset from P_SS_PAY_A" for x in "BCDE"}


def test_the_engine_reads_every_parameter_slot():
    """A contributor's review: a key declared with its slot and ignored by the engine passed
    every test but the agreement tests' random rule sets, where they happened to deal it. The
    engine (simulator/kernel/) names every ``layout.P_*`` slot, or it is said here why not."""
    from simulator import layout as L

    slots = [n for n in dir(L) if n.startswith("P_") and getattr(L, n) < L.N_PARAMS]
    read = _attributes(ROOT / "simulator" / "kernel")
    missing = [n for n in slots if n not in read and n not in KERNEL_LEAVES]
    assert not missing, (f"the engine (simulator/kernel/) reads no layout.{missing[0]}: handle "
                         "its key there, or say in tests/test_rule_keys.py why it need not")
    assert not [n for n in KERNEL_LEAVES if n in read], "take it out of KERNEL_LEAVES"


def _moved(key: str):
    """The NZ rules with ``key`` at a value of effect other than the NZ one."""
    from helpers import random_value

    from simulator.rules import DECLARED, no_effect

    rng, nz = np.random.default_rng(3), Rules()
    for _ in range(200):
        rules = nz.replace(**{key: random_value(rng, DECLARED[key])})
        if getattr(rules, key) != getattr(nz, key) and not no_effect(rules, key):
            try:
                validate(rules)
            except ValueError:
                continue
            return rules
    raise AssertionError(f"no value of {key} of effect under the NZ rules' other keys")


@pytest.mark.parametrize("key", derived.CHART_KEYS)
def test_a_derived_chart_and_an_index_file_name_every_key_they_were_made_for(key):
    """A contributor's review: a derived chart's description and an index file's (each naming
    the rules it was made for) list their keys by hand, and a new key left out gave two charts
    of different rules the same words. Each changes with every key a chart depends on."""
    from simulator.counting import load_count
    from simulator.exact.analyze import _describe
    from simulator.exact.indices import rules_words

    moved, nz, hi_lo = _moved(key), Rules(), load_count("hi-lo")
    assert _describe(moved) != _describe(nz), (
        f"simulator/exact/analyze.py _describe does not name {key}: a chart derived for "
        f"{key}={getattr(moved, key)!r} is described as the NZ one")
    assert rules_words(hi_lo, moved) != rules_words(hi_lo, nz), (
        f"simulator/exact/indices.py rules_words does not name {key}")


def test_the_readme_gives_every_chart_keys_words_in_a_derived_charts_name():
    """The README lists the words a derived chart's name gives each key (``HSA``, ``H17``): a
    new chart key's words are added there (a contributor's review found the list by hand)."""
    text = " ".join((ROOT / "README.md").read_text().split())
    words = text.split("The words: ")[1].split("(in brackets: the NZ values")[0]
    missing = [k for k in (*derived.CHART_KEYS, *derived.SIDE_BET_KEYS) if f"`{k}`" not in words]
    assert not missing, f"README's words of a derived chart's name say nothing of {missing}"
