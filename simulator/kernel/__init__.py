"""The simulation engine: one table-driven state machine that plays every game the rule keys
describe, in simulation (``simulate_chunk``: a lazy shuffle, a tally) and in stacked mode
(``play_stacked``: the given cards in order, a record per round).

Modules, each importing only those before it: ``rng`` (random numbers, the lazy shuffle),
``tally`` (settlement, the tally and the record), ``tables`` (the machine built from the rules
and strategies), ``play`` (the round loop). Public functions validate, cast and allocate.
"""

from __future__ import annotations

import sys
import threading

import numpy as np

from simulator import layout as L
from simulator.jit import njit
from simulator.kernel import count as C
from simulator.kernel import rng as R
from simulator.kernel.play import MAX_HANDS, play_rounds
from simulator.kernel.rng import (
    N_WS,
    SLACK,
    TEN_CODE,
    WS_END,
    WS_FAIL,
    WS_NEED_FULL,
    WS_SHUFFLES,
    WS_STACKED,
    draw_bounded_many,
    fresh_shoe,
    next_u64_many,
)  # fmt: skip
from simulator.kernel.tables import TERMINAL, Machine, build

__all__ = ["simulate_chunk", "count_chunk", "play_stacked", "stack_for", "deal_shoe",
           "machine_for", "next_u64_many", "draw_bounded_many"]  # fmt: skip

MAX_BOXES = 7
COMPILE_SECONDS = 30  # a cold compile on a 2-core machine (benchmarks/compile.py)
COMPILING = f"compiling the simulation kernel, first run only, about {COMPILE_SECONDS} s"
_WARM = threading.Lock()
_warmed: set = set()


def _warm(name: str, fn, *args) -> None:
    """Compile ``fn`` (or load it from numba's cache) once per process by a call that plays no
    round; when that takes over two seconds (a cold cache) stderr says so while it lasts."""
    with _WARM:
        if name in _warmed:
            return
        timer = threading.Timer(2.0, lambda: print("\n" + COMPILING, file=sys.stderr, flush=True))
        timer.daemon = True
        timer.start()
        try:
            fn(*args)
        finally:
            timer.cancel()
        _warmed.add(name)


@njit
def _simulate_chunk(p, m, cx, ins_flags, n_rounds, rng, tally, trace):
    """``n_rounds`` rounds from a fresh shuffle added into ``tally`` (a counter's, ``cx``, into
    its counting tally); 1 if the shoe ran out mid-round with no discards to reshuffle, else 0.
    ``trace``: see ``play_rounds``."""
    shoe = fresh_shoe(p[L.P_DECKS])
    ws = np.zeros(N_WS, np.int64)
    ws[WS_END] = shoe.size - SLACK
    ws[WS_NEED_FULL] = 1
    rows, wrows = m[10], m[14]
    counts = np.zeros(rows.shape[0], np.int64)
    wcounts = np.zeros(wrows.shape[0], np.int64)
    play_rounds(p, m, cx, ins_flags, shoe, ws, rng, n_rounds, p[L.P_CUT], tally, counts, wcounts,
                np.zeros((0, 0), np.int64), trace)  # fmt: skip
    for i in range(counts.size):
        if counts[i] != 0:
            for f in range(L.N_TALLY):
                tally[f] += counts[i] * rows[i, f]
    for i in range(wcounts.size):
        if wcounts[i] != 0:
            for f in range(L.N_TALLY):
                tally[f] += wcounts[i] * wrows[i, f]
    tally[L.T_SHUFFLES] += ws[WS_SHUFFLES]
    return 1 if ws[WS_FAIL] != 0 else 0


@njit
def _play_stacked(p, m, cx, ins_flags, cards, cut, out):
    """Rounds off ``cards`` in order while ``pos < cut``, records into ``out``; returns the
    number of complete rounds."""
    shoe = np.full(cards.size + SLACK, TEN_CODE, np.int8)
    shoe[: cards.size] = cards
    ws = np.zeros(N_WS, np.int64)
    ws[WS_END] = cards.size
    ws[WS_STACKED] = 1
    rng = np.arange(1, 5).astype(np.uint64)
    return play_rounds(p, m, cx, ins_flags, shoe, ws, rng, out.shape[0], cut,
                       np.zeros(L.N_TALLY, np.int64), np.zeros(0, np.int64),
                       np.zeros(0, np.int64), out, np.zeros(0, np.int8))  # fmt: skip


def _check_params(params) -> np.ndarray:
    p = np.ascontiguousarray(params, dtype=np.int64)
    if p.shape != (L.N_PARAMS,):
        raise ValueError(
            f"kernel: params has shape {p.shape}: expected ({L.N_PARAMS},) from Rules.to_params()"
        )
    limits = (("decks", L.P_DECKS, 8), ("boxes", L.P_BOXES, MAX_BOXES),
              ("max_hands", L.P_MAX_HANDS, MAX_HANDS))  # fmt: skip
    for name, key, hi in limits:
        if not 1 <= p[key] <= hi:
            lo = 1
            raise ValueError(f"kernel: params {name} = {p[key]} is out of range: allowed {lo}-{hi}")
    return p


def _check_tables(tables, boxes: int) -> tuple:
    if len(tables) != 5:
        raise ValueError(
            "kernel: tables must be (hard, soft, pairs, sevens, flags) from strategy.stack"
        )
    shapes = ((L.N_TOTALS, L.N_UP), (L.N_TOTALS, L.N_UP), (L.N_PAIRS, L.N_UP), (L.N_UP,), (2,))
    names = ("hard", "soft", "pairs", "sevens", "flags")
    out = []
    for name, shape, table in zip(names, shapes, tables, strict=True):
        t = np.ascontiguousarray(table, dtype=np.int8)
        if t.shape != (boxes,) + shape:
            raise ValueError(
                f"kernel: table '{name}' has shape {t.shape}: expected {(boxes,) + shape} "
                f"(one strategy per box, boxes = {boxes})"
            )
        out.append(t)
    for name, t in zip(names[:4], out[:4], strict=True):
        if t.min() < 0 or t.max() >= len(L.ACTION_NAMES):
            raise ValueError(
                f"kernel: table '{name}' holds a code outside 0-{len(L.ACTION_NAMES) - 1}"
            )
    return tuple(out)


_MACHINES: dict = {}


def machine_for(p, tables) -> Machine:
    """The machine of rules ``p`` and stacked strategy ``tables``, built once per process."""
    key = (p.tobytes(),) + tuple(t.tobytes() for t in tables)
    if key not in _MACHINES:
        _MACHINES[key] = build(p, tables)
    return _MACHINES[key]


def _check_state(state) -> np.ndarray:
    rng = np.array(state, dtype=np.uint64).reshape(-1).copy()
    if rng.shape != (4,) or not rng.any():
        raise ValueError("kernel: state must be four uint64 words, not all zero")
    return rng


def deal_shoe(state, decks: int) -> np.ndarray:
    """Every card of a fresh shoe of ``decks`` decks, shuffled from the xoshiro256** ``state``
    (four uint64, not all zero; not modified) as a chunk shuffles it, in dealing order (card
    codes, int64)."""
    rng = _check_state(state)
    if isinstance(decks, bool) or not 1 <= int(decks) <= 8:
        raise ValueError(f"kernel: decks = {decks!r} is out of range: allowed 1-8")
    return R.deal_shoe(rng, int(decks))


def simulate_chunk(params, tables, n_rounds: int, state, trace=None) -> np.ndarray:
    """Play ``n_rounds`` rounds from a fresh shuffle and return their tally.

    Parameters
    ----------
    params : array of int64, shape (N_PARAMS,)
        From ``Rules.to_params()``.
    tables : tuple
        ``(hard, soft, pairs, sevens, flags)`` from ``strategy.stack``, one strategy per box.
    n_rounds : int
        Rounds to play (>= 0).
    state : array of uint64, shape (4,)
        xoshiro256** state (not all zero); not modified.
    trace : array of int8, optional
        For tests: filled with the rounds' cards in dealing order (-1 past the end; a round
        dealt partly from reshuffled discards is left out).

    Returns
    -------
    np.ndarray of int64, shape (N_TALLY,)
        The tally (layout ``TALLY_NAMES``).
    """
    p = _check_params(params)
    tables = _check_tables(tables, int(p[L.P_BOXES]))
    n_rounds = int(n_rounds)
    if n_rounds < 0:
        raise ValueError(f"kernel: n_rounds = {n_rounds} is out of range: allowed >= 0")
    rng = _check_state(state)
    tally = np.zeros(L.N_TALLY, np.int64)
    m = machine_for(p, tables)
    ins_flags = tables[4][:, 0].astype(np.int64)
    trace = np.zeros(0, np.int8) if trace is None else trace
    cx = C.empty()
    _warm("simulate", _simulate_chunk, p, m.args(), cx, ins_flags, 0, rng.copy(), tally.copy(),
          trace)  # fmt: skip
    if _simulate_chunk(p, m.args(), cx, ins_flags, n_rounds, rng, tally, trace) != 0:
        _ran_out(p)
    return tally


def _ran_out(p):
    raise ValueError(
        f"kernel: the shoe ran out mid-round with no discards to reshuffle "
        f"(decks = {p[L.P_DECKS]}, boxes = {p[L.P_BOXES]}): use more decks or fewer boxes"
    )


def count_chunk(params, tables, n_rounds: int, state, counter: C.Counter,
                insurance: bool = False, trace=None) -> tuple:
    """Play ``n_rounds`` rounds from a fresh shuffle as a counter plays them.

    ``tables``: the counter's strategies stacked (``strategy.stack``), one a band of the count
    (``counter.bands``), then as many again taking insurance when ``counter.insurance`` is set;
    ``insurance``: whether the strategies without a count for it take insurance. The other
    arguments as ``simulate_chunk`` (with ``trace`` the round loop plays every round). Returns
    ``(tally, counting)``: the tally of every box dealt at one unit (as ``simulate_chunk``'s)
    and the counting tally (layout ``COUNT_NAMES``)."""
    p = _check_params(params)
    n_bands = counter.bands.size + 1
    n_tables = n_bands * (2 if counter.insurance is not None else 1)
    tables = _check_tables(tables, n_tables)
    rng = _check_state(state)
    key = ("counted", n_bands, p.tobytes()) + tuple(t.tobytes() for t in tables)
    if key not in _MACHINES:
        _MACHINES[key] = build(p, tables, n_bands)
    m = _MACHINES[key]
    cx = _count_arrays(counter, int(p[L.P_DECKS]), int(np.count_nonzero(m.wflags & TERMINAL)))
    ins_flags = np.full(int(p[L.P_BOXES]), int(insurance), np.int64)
    tally = np.zeros(L.N_TALLY, np.int64)
    trace = np.zeros(0, np.int8) if trace is None else trace
    _warm("simulate", _simulate_chunk, p, m.args(), cx, ins_flags, 0, rng.copy(), tally.copy(),
          trace)  # fmt: skip
    if _simulate_chunk(p, m.args(), cx, ins_flags, int(n_rounds), rng, tally, trace) != 0:
        _ran_out(p)
    if cx[6].size:
        C.add_walked(cx, p, m.wflags, m.wrows)
    return tally, cx[4]


_COUNTERS: dict = {}


def _count_arrays(counter: C.Counter, decks: int, terminals: int) -> tuple:
    """``counter.arrays(decks, terminals)``: its tables (the count table above all) made once
    per counter and shoe in a process, a fresh counting tally and round counts each call."""
    key = (id(counter), decks)
    hit = _COUNTERS.get(key)
    if hit is None or hit[0] is not counter:  # (an id can be a new object's)
        if len(_COUNTERS) >= 32:
            _COUNTERS.clear()
        hit = _COUNTERS[key] = (counter, counter.arrays(decks))
    ci, ctab, tg, ramp_v, ct, ev, _ = hit[1]
    walked = np.zeros(2 * L.N_TC * int(ci[C.CI_LEVELS]) * terminals, np.int64)
    return ci, ctab, tg, ramp_v, np.zeros_like(ct), ev, walked


def _as_strategy_list(strategies, boxes: int) -> list:
    if not isinstance(strategies, (list, tuple)):
        strategies = [strategies]
    strategies = list(strategies)
    if len(strategies) == 1 and boxes > 1:
        strategies = strategies * boxes
    if len(strategies) != boxes:
        raise ValueError(
            f"strategies: {len(strategies)} given for boxes = {boxes}: give one, or one per box"
        )
    return strategies


def stack_for(rules, strategies) -> tuple:
    """``strategy.stack`` of ``strategies`` (one Strategy, or one per box) for ``rules.boxes``."""
    from simulator.strategy import stack

    return stack(_as_strategy_list(strategies, rules.boxes))


def play_stacked(cards, rules, strategies, cut=None, counter=None):
    """Play rounds off ``cards`` in the given order (no shuffling), one record per complete round.

    Parameters
    ----------
    cards : sequence of int
        Card codes 0..51 (``layout``), dealt in order.
    rules : Rules
    strategies : Strategy or list of Strategy
        One strategy for every box, or one per box.
    cut : int, optional
        Rounds are started while ``pos < cut``; default ``len(cards)``. A round that runs out of
        cards part way is incomplete: not reported, and play stops.
    counter : tuple, optional
        ``(tables, Counter, insurance)`` (``counter.counter_for``): a counter plays every box
        (``strategies`` unused), from the count of a fresh shoe.

    Returns
    -------
    np.ndarray of int64, shape (rounds, R_FIXED + boxes * R_BOX); with ``counter``, also its
    counting tally.
    """
    p = _check_params(rules.to_params())
    boxes = int(p[L.P_BOXES])
    if counter is not None:
        tables, ctr, insurance = counter
        m = build(p, _check_tables(tables, len(tables[0])), ctr.bands.size + 1)
        cx = ctr.arrays(int(p[L.P_DECKS]))
        ins_flags = np.full(boxes, int(insurance), np.int64)
    else:
        tables = _check_tables(stack_for(rules, strategies), boxes)
        m = machine_for(p, tables)
        ins_flags = tables[4][:, 0].astype(np.int64)
        cx = C.empty()
    c = np.asarray(cards)
    if c.ndim != 1:
        raise ValueError(f"cards: expected a flat sequence of card codes, got shape {c.shape}")
    if c.size and (c.min() < 0 or c.max() >= L.N_CODES):
        raise ValueError(f"cards: card codes must be 0-{L.N_CODES - 1}")
    c = np.ascontiguousarray(c, dtype=np.int8)
    cut = c.size if cut is None else int(cut)
    if cut < 0:
        raise ValueError(f"cut = {cut} is out of range: allowed >= 0")
    width = L.R_FIXED + boxes * L.R_BOX
    out = np.zeros((c.size // (2 * boxes + 1) + 1, width), np.int64)
    _warm("stacked", _play_stacked, p, m.args(), cx, ins_flags, c, np.int64(0), out)
    n = _play_stacked(p, m.args(), cx, ins_flags, c, np.int64(cut), out)
    return out[:n].copy() if counter is None else (out[:n].copy(), cx[4])
