"""The soak harness (``tests/soak.py``) runs: each of its checks on one random case agrees."""

from __future__ import annotations

import numpy as np
import pytest
import soak


@pytest.mark.parametrize("name", list(soak.CHECKS))
def test_each_soak_check_runs_and_agrees_on_a_random_case(name):
    what, bad = soak.CHECKS[name](np.random.default_rng([2026, 12]))
    assert bad is None, (what, bad)
    assert "Rules(" in what or what.startswith("bjsim ")


def test_the_exact_checks_rules_are_ones_a_run_takes():
    # soak.py --minutes 1 ended in a traceback on every seed tried: its random rules held
    # resplit_aces with max_hands 1, which a run now refuses as a rule file would.
    from simulator.rules import validate

    rng = np.random.default_rng(3)
    for _ in range(300):
        rules = soak.runnable(soak.random_rules(rng, 1))
        assert validate(rules) == rules
