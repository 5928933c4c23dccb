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
    n = tally.size  # recorded before the figures by strategy (``layout.T_BY``) were added
    diff = {L.TALLY_NAMES[i]: (int(got[i]), int(tally[i]))
            for i in np.flatnonzero(got[:n] != tally)}  # fmt: skip
    assert not diff, f"{name}: (got, recorded) {diff}"
    # The figures by strategy: each at its first box, a share of every round, adding up to the
    # whole game's.
    by = got[L.T_BY:].reshape(7, L.N_BY)
    boxes = [b"".join(t[b].tobytes() for t in tables) for b in range(len(tables[0]))]
    shares = np.zeros(7, np.int64)
    for key in boxes:
        shares[boxes.index(key)] += 1
    assert (by[:, L.BY_BOX_ROUNDS] == shares * got[L.T_ROUNDS]).all(), name
    for f, whole in ((L.BY_BOX_ROUNDS, L.T_BOX_ROUNDS), (L.BY_MAIN_SUM, L.T_MAIN_SUM),
                     (L.BY_MAIN_SQ, L.T_MAIN_SQ), (L.BY_TOTAL_SUM, L.T_TOTAL_SUM),
                     (L.BY_TOTAL_SQ, L.T_TOTAL_SQ), (L.BY_SS_SUM, L.T_SS_SUM),
                     (L.BY_SS_SQ, L.T_SS_SQ)):  # fmt: skip
        assert by[:, f].sum() == got[whole], (name, L.BY_STRATEGY[f])
        assert (by[shares == 0, f] == 0).all(), (name, L.BY_STRATEGY[f])
    # the per-round squares with boxes of several strategies (at one box, its box-rounds' own)
    for f, box_sq in ((L.BY_RTOTAL_SQ, L.BY_TOTAL_SQ), (L.BY_SS_RSQ, L.BY_SS_SQ)):
        if (shares > 0).sum() < 2:
            assert not by[:, f].any(), name
        else:
            assert (by[shares == 1, f] == by[shares == 1, box_sq]).all(), name
            assert (by[shares == 0, f] == 0).all(), name


def test_recorded_parameters_are_read_by_slot_name():
    """A slot added after the recording (a new rule key) takes the NZ rules' value, so the
    recorded tallies still hold the engine to account; a slot the engine lost is an error."""
    from golden import _params, param_names

    from simulator.rules import Rules

    nz = Rules().to_params()
    names = param_names()
    old = [n for n in names if n != "P_H17"]  # as if P_H17 had come after the recording
    recorded = np.array([CASES[0][1][names.index(n)] for n in old])
    got = _params(recorded, old)
    assert got[L.P_H17] == nz[L.P_H17] and (np.delete(got, L.P_H17) == recorded).all()
    assert (_params(CASES[0][1], names) == CASES[0][1]).all()
    with pytest.raises(ValueError, match="P_GONE"):
        _params(np.append(recorded, 1), [*old, "P_GONE"])
