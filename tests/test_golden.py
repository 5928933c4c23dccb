"""The kernel reproduces the recorded tallies of ``tests/golden.py`` bit for bit: a matrix of
games (every rule key at a non-default value, 1, 3 and 7 boxes, every shipped strategy, mixed
strategies per box, cut card and every-round shuffle, a 1-deck shoe dealt deep) and seeds."""

from __future__ import annotations

import numpy as np
import pytest
from golden import load

from simulator import layout as L
from simulator.kernel import simulate_chunk

CASES = load()


def test_the_matrix_covers_every_game():
    params = np.array([c[1] for c in CASES])
    for k in (L.P_DECKS, L.P_SHUFFLE, L.P_HOLE, L.P_BJ_WIN, L.P_INS_WIN, L.P_DOUBLE_ON, L.P_DAS,
              L.P_MAX_HANDS, L.P_RSA, L.P_HSA, L.P_H17, L.P_DRAW_NO_LIVE, L.P_DBJ, L.P_SURRENDER,
              L.P_BOXES, L.P_SS, L.P_SS_PAY_A):  # fmt: skip
        assert len(set(params[:, k])) >= 2, f"parameter {k} takes one value only"
    assert {1, 3, 7} <= set(params[:, L.P_BOXES])
    flags = np.concatenate([c[2][4] for c in CASES])
    assert flags[:, 0].any() and flags[:, 1].any()  # insurance and even money taken somewhere


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_golden_tally(case):
    name, params, tables, state, rounds, tally = case
    got = simulate_chunk(params, tables, rounds, state)
    diff = {L.TALLY_NAMES[i]: (int(got[i]), int(tally[i])) for i in np.flatnonzero(got != tally)}
    assert not diff, f"{name}: (got, recorded) {diff}"
