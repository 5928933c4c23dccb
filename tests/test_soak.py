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
