"""The simulation engine: one table-driven state machine for every game, in simulation
(``simulate_chunk``, ``count_chunk``: a tally) and stacked mode (``play_stacked``: a record a
round). Modules, each importing only those before it: ``rng``, ``tally``, ``tables``, ``count``,
``play``. The public functions here validate, cast and allocate."""

from __future__ import annotations

import threading

import numpy as np

from simulator import layout as L
from simulator.checks import whole
from simulator.jit import njit, warm
from simulator.kernel import count as C
from simulator.kernel import rng as R
from simulator.kernel.play import MAX_HANDS, play_rounds, work_arrays
from simulator.kernel.tables import Machine, build
from simulator.rules import rule_set
from simulator.strategy import stack_for

__all__ = ["simulate_chunk", "simulate_blocks", "count_chunk", "play_stacked", "deal_shoe",
           "machine_for"]

MACHINE_BYTES = 1 << 30  # the machines a process keeps, at most (the least recently used go)
_MACHINES: dict = {}  # key -> machine, the most recently used last
_COUNTERS: dict = {}
_CACHES = threading.Lock()  # chunks run on threads: one at a time in the caches


@njit
def _moved(out, counts, at, seen, sub):
    """``out[k] += (counts[at[t]] - seen[t]) * sub[t, k]``: what the states ``at`` added since
    ``seen``, which then takes their counts."""
    for t in range(at.size):
        d = counts[at[t]] - seen[t]
        if d != 0:
            seen[t] += d
            for k in range(out.size):
                out[k] += d * sub[t, k]


@njit
def _simulate(p, m, cx, ins_flags, sizes, states, picked, tally, counts, wcounts, out, trace):
    """Block ``j``: ``sizes[j]`` rounds from a fresh shuffle, state ``states[j]``, into ``tally``,
    the visit counts of ``m``'s ``rows`` and ``wrows`` (and counter ``cx``'s tally), its fields
    ``picked`` into ``out[j]``. 1 if the shoe ran out with no discards to reshuffle, else 0."""
    fields, at, sub, wat, wsub = picked
    block = np.zeros(L.N_TALLY, np.int64)
    seen, wseen = np.zeros(at.size, np.int64), np.zeros(wat.size, np.int64)
    wk = work_arrays(p)
    for j in range(sizes.size):
        shoe = R.fresh_shoe(p[L.P_DECKS])
        ws = np.zeros(R.N_WS, np.int64)
        ws[R.WS_NEED_FULL] = 1
        block[:] = 0
        play_rounds(p, m, cx, ins_flags, shoe, ws, states[j], sizes[j], p[L.P_CUT], block, counts,
                    wcounts, None, trace, wk)  # fmt: skip
        if ws[R.WS_FAIL] != 0:
            return 1
        block[L.T_SHUFFLES] += ws[R.WS_SHUFFLES]
        block[L.T_REFILLS] += ws[R.WS_REFILLS]
        tally += block
        for k in range(fields.size):
            out[j, k] = block[fields[k]]
        _moved(out[j], counts, at, seen, sub)
        _moved(out[j], wcounts, wat, wseen, wsub)
    return 0


@njit
def _play_stacked(p, m, cx, ins_flags, cards, cut, out, each):
    """Rounds off each row of ``cards`` in order while ``pos < cut``, ``each`` a row at most,
    records into ``out``; returns the number of complete rounds."""
    shoe = np.full(cards.shape[1] + R.SLACK, R.TEN_CODE, np.int8)
    rng, wk = np.arange(1, 5).astype(np.uint64), work_arrays(p)
    tally, none, trace = np.zeros(L.N_TALLY, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int8)
    n = 0
    for i in range(cards.shape[0]):
        shoe[: cards.shape[1]] = cards[i]
        k = play_rounds(p, m, cx, ins_flags, shoe, np.zeros(R.N_WS, np.int64), rng, each, cut,
                        tally, none, none, out[n:], trace, wk)  # fmt: skip
        n += k
        if k == 0:
            break
    return n


def _check_params(params) -> np.ndarray:
    try:
        a = np.asarray(params)
    except (TypeError, ValueError):  # (ragged)
        a = np.zeros(0, object)
    if a.dtype.kind not in "iu" or a.shape != (L.N_PARAMS,):
        raise ValueError(f"kernel: params has shape {a.shape} ({a.dtype}): expected "
                         f"({L.N_PARAMS},) whole numbers from Rules.to_params()")
    p = np.ascontiguousarray(a, dtype=np.int64)
    for name, key, hi in (("decks", L.P_DECKS, 8), ("boxes", L.P_BOXES, 7),
                          ("max_hands", L.P_MAX_HANDS, MAX_HANDS)):  # fmt: skip
        whole("kernel: params " + name, p[key], 1, hi)
    return p


def _check_tables(tables, boxes: int | None) -> tuple:
    shapes = {"hard": (L.N_TOTALS, L.N_UP), "soft": (L.N_TOTALS, L.N_UP),
              "pairs": (L.N_PAIRS, L.N_UP), "sevens": (L.N_UP,), "flags": (2,)}  # fmt: skip
    if not isinstance(tables, (tuple, list)) or len(tables) != len(shapes):
        raise ValueError(f"kernel: tables must be ({', '.join(shapes)}) from strategy.stack")
    out = tuple(np.ascontiguousarray(t, dtype=np.int8) for t in tables)
    boxes = (len(out[0]) if out[0].ndim else 0) if boxes is None else boxes
    for (name, shape), t in zip(shapes.items(), out, strict=True):
        if t.shape != (boxes,) + shape:
            raise ValueError(f"kernel: table '{name}' has shape {t.shape}: expected "
                             f"{(boxes,) + shape} (one strategy per box, boxes = {boxes})")
        if name != "flags" and (t.min() < 0 or t.max() >= len(L.ACTION_NAMES)):
            raise ValueError(f"kernel: table '{name}' holds a code outside "
                             f"0-{len(L.ACTION_NAMES) - 1}")
    return out


def _check_state(state) -> np.ndarray:
    words = np.array(state, dtype=object).reshape(-1)
    rng = np.array([whole("kernel: state word", w, 0, 2**64 - 1) for w in words], np.uint64)
    if rng.shape != (4,) or not rng.any():
        raise ValueError("kernel: state must be four uint64 words, not all zero")
    return rng


def _check_blocks(sizes, states) -> tuple:
    """``(sizes, states)`` as int64 and ``(n, 4)`` uint64, checked in numpy as a whole (a block
    at a time costs more than a short block's rounds); else block by block, naming the fault."""
    try:
        n, s = np.asarray(sizes).reshape(-1), np.asarray(states)
    except (TypeError, ValueError, OverflowError):  # (ragged, too large: named below)
        n = s = np.zeros(0, bool)
    if (n.dtype.kind in "iu" and s.dtype.kind in "iu" and s.ndim == 2 and s.shape[1] == 4
            and (n.size == 0 or 0 <= n.min() <= n.max() < 2**63) and (s.size == 0 or s.min() >= 0)
            and s.any(axis=1).all()):  # fmt: skip
        return n.astype(np.int64), np.ascontiguousarray(s, np.uint64)
    return (np.int64([whole("kernel: n_rounds", x, 0, 2**63 - 1) for x in np.reshape(sizes, -1)]),
            np.array([_check_state(x) for x in states], np.uint64).reshape(-1, 4))


def machine_for(p, tables, bands: int = 0) -> Machine:
    """``tables.build(p, tables, bands)``, kept in the process while ``MACHINE_BYTES`` holds it."""
    p = _check_params(p)
    tables = _check_tables(tables, None if bands else int(p[L.P_BOXES]))  # (a counter's: any)
    key = (bands, p.tobytes()) + tuple(t.tobytes() for t in tables)
    with _CACHES:
        m = _MACHINES[key] = _MACHINES.pop(key, None) or build(p, tables, bands)
        held = [sum(a.nbytes for a in x) for x in _MACHINES.values()]
        while len(held) > 1 and sum(held) > MACHINE_BYTES:
            del _MACHINES[next(iter(_MACHINES))], held[0]
    return m


def deal_shoe(state, decks: int) -> np.ndarray:
    """The card codes (int64) of a fresh shoe of ``decks`` decks in dealing order, shuffled as a
    chunk shuffles it from the xoshiro256** ``state`` (four uint64, not all zero; not modified)."""
    return R.deal_shoe(_check_state(state), whole("kernel: decks", decks, 1, 8))


def _run(params, tables, sizes, states, fields=(), trace=None, counter=None, insurance=False,
         nets=None):
    """``(tally, per_block, counting)``: ``_simulate`` of a game (``_game``), compiled first;
    ``counting`` the ``counter``'s counting tally (or None), its rounds' nets added to ``nets``."""
    p, m, ins_flags = _game(params, tables, counter, insurance, nets)
    cx = None if counter is None else _count_arrays(counter, int(p[L.P_DECKS]), m.wclass.shape[0])
    sizes, states = _check_blocks(sizes, states)
    if states.shape[0] != sizes.size:
        raise ValueError(f"kernel: {sizes.size} blocks need a state each, got {states.shape[0]}")
    fields = np.array([whole("kernel: field", f, 0, L.N_TALLY - 1) for f in fields], np.int64)
    picked = (fields, *_picked(m.rows, fields), *_picked(m.wrows, fields))
    tally, out = np.zeros(L.N_TALLY, np.int64), np.zeros((sizes.size, fields.size), np.int64)
    trace = np.zeros(0, np.int8) if trace is None else trace  # (filled in place: no copy)
    if not isinstance(trace, np.ndarray) or trace.dtype != np.int8 or trace.ndim != 1:
        raise ValueError("kernel: trace must be a 1-D numpy int8 array (filled in place)")
    counts = np.zeros(m.rows.shape[0], np.int64), np.zeros(m.wrows.shape[0], np.int64)
    args = (p, tuple(m), cx, ins_flags)  # (a version compiled without a counter, one with)
    warm("simulate" if cx is None else "count", _simulate, *args, sizes[:0], states[:0], picked,
         tally.copy(), *counts, out[:0], trace)  # fmt: skip
    if _simulate(*args, sizes, states, picked, tally, *counts, out, trace) != 0:
        raise ValueError(
            f"kernel: the shoe ran out mid-round with no discards to reshuffle "
            f"(decks = {p[L.P_DECKS]}, boxes = {p[L.P_BOXES]}): use more decks or fewer boxes")
    for c, rows in zip(counts, (m.rows, m.wrows), strict=True):  # what the states visited add
        i = np.flatnonzero(c)
        tally += c[i] @ rows[i]
    if cx is not None and cx[6].size:
        C.add_walked(cx, p, m.wclass)
    if nets is not None and cx is not None:
        nets += cx[8]
    return tally, out, None if cx is None else cx[4]


def _picked(rows, fields) -> tuple:
    """``(at, sub)``: the states whose ``rows`` add to a tally field of ``fields``, their fields."""
    sub = rows[:, fields]
    at = np.flatnonzero(sub.any(axis=1))
    return at, np.ascontiguousarray(sub[at])


def _game(params, tables, counter=None, insurance=False, nets=None) -> tuple:
    """``(p, machine, ins_flags)``, checked: rules and one strategy a box, or a ``counter``'s
    strategies, whether those without a count insure and its ``nets`` (``count_chunk``)."""
    p = _check_params(params)
    if counter is None:
        tables = _check_tables(tables, int(p[L.P_BOXES]))
        return p, machine_for(p, tables), tables[4][:, 0].astype(np.int64)
    if insurance not in (0, 1):  # (int("no")'s message)
        raise ValueError(f"kernel: insurance = {insurance!r:.40}: allowed True or False")
    if nets is not None and (not isinstance(nets, np.ndarray) or nets.dtype != np.int64
                             or nets.shape != (L.N_NETS,)):  # (a list had not been added to)
        got = f"{nets.dtype} {nets.shape}" if isinstance(nets, np.ndarray) else type(nets).__name__
        raise ValueError(f"kernel: nets ({got}): expected an int64 numpy array of N_NETS "
                         f"({L.N_NETS}), added to in place")
    dealt = counter.ramps[C.R_BOXES][1]  # (the round loop's arrays hold P_BOXES boxes)
    if not 1 <= min(dealt) <= max(dealt) <= p[L.P_BOXES]:
        raise ValueError(f"kernel: the counter deals up to {max(dealt)} boxes (at least "
                         f"{min(dealt)}), params boxes = {p[L.P_BOXES]}: allowed 1 to boxes")
    n_bands = counter.bands.size + 1
    tables = _check_tables(tables, n_bands * (2 if counter.insurance is not None else 1))
    return p, machine_for(p, tables, n_bands), np.full(int(p[L.P_BOXES]), int(insurance), np.int64)


def simulate_chunk(params, tables, n_rounds: int, state, trace=None) -> np.ndarray:
    """The tally (int64, ``TALLY_NAMES``) of ``n_rounds`` rounds from a fresh shuffle under
    ``params`` (``Rules.to_params()``) and ``tables`` (``strategy.stack``, one strategy a box)
    from the xoshiro256** ``state`` (four uint64, not all zero). ``trace``: ``play_rounds``'."""
    return _run(params, tables, [n_rounds], [state], trace=trace)[0]


def simulate_blocks(params, tables, sizes, states, fields) -> tuple:
    """``(tally, per_block)``: blocks ``j`` of ``sizes[j]`` rounds from ``states[j]`` (each as
    ``simulate_chunk``) summed, and ``per_block[j, k]`` block ``j``'s field ``fields[k]``."""
    return _run(params, tables, sizes, states, fields)[:2]


def count_chunk(params, tables, n_rounds: int, state, counter: C.Counter,
                insurance: bool = False, trace=None, nets=None) -> tuple:
    """``(tally, counting)``: ``simulate_chunk`` as ``counter`` plays (every box at one unit),
    and the counting tally (``COUNT_NAMES``). ``tables``: its strategies, one a band of the
    count, then as many insured if ``counter.insurance`` is set (``counter.counter_for``);
    ``insurance``: whether the strategies without a count for it insure; ``nets``: an int64
    array of ``N_NETS`` the rounds played are added to by their net (``layout.net_bin``)."""
    tally, _, counting = _run(params, tables, [n_rounds], [state], (), trace, counter, insurance,
                              nets)
    return tally, counting


def _count_arrays(counter: C.Counter, decks: int, classes: int) -> tuple:
    """``counter.arrays(decks, classes)``, made once in a process; the tallies (counting, walk
    counts, nets) fresh each call."""
    key = (id(counter), decks, classes)  # (the counter kept with them: its id not reused)
    with _CACHES:
        if key not in _COUNTERS:
            if len(_COUNTERS) >= 32:
                _COUNTERS.clear()
            _COUNTERS[key] = (counter, counter.arrays(decks, classes))
        arrays = _COUNTERS[key][1]
    return tuple(np.zeros_like(a) if i in (4, 6, 8) else a for i, a in enumerate(arrays))


def play_stacked(cards, rules, strategies, cut=None, counter=None, shoes=False, nets=None):
    """A record per complete round (int64, (rounds, R_FIXED + boxes * R_BOX)) off ``cards``
    (codes 0..51) in order while ``pos < cut`` (default: every card); a round short of cards ends
    play unreported. 2-D ``cards``: a round off each row, a fresh shoe, ``cut`` in each (with
    ``shoes``: each row as 1-D ``cards``). ``strategies``: one Strategy, or one a box;
    ``counter``: ``counter.counter_for``'s, playing every box, its counting tally returned too
    (its rounds' nets added to ``nets``, as ``count_chunk``'s)."""
    rule_set(rules, "rules")  # (its values as given: the tests push the game past their ranges)
    tables, ctr, insurance = counter or (stack_for(rules, strategies), None, False)
    p, m, ins_flags = _game(rules.to_params(), tables, ctr, insurance, nets)
    cx = None if ctr is None else ctr.arrays(int(p[L.P_DECKS]))
    boxes = int(p[L.P_BOXES])
    c = np.asarray(cards)
    if c.ndim not in (1, 2):
        raise ValueError(f"cards: expected a sequence of card codes, or rows of them (one shoe "
                         f"a round), got shape {c.shape}")
    if c.size and (c.dtype.kind not in "iu" or c.min() < 0 or c.max() >= L.N_CODES):
        raise ValueError(f"cards: card codes must be whole numbers 0-{L.N_CODES - 1} "
                         "(cards.parse_cards reads tokens such as 7h)")
    fewest = 1 if counter is not None else boxes  # the boxes a round deals (a plan's: 1 up)
    each = 1 if c.ndim == 2 and not shoes else c.shape[-1] // (2 * fewest + 1) + 1  # a row's
    c = np.ascontiguousarray(np.atleast_2d(c), dtype=np.int8)
    cut = c.shape[1] if cut is None else whole("kernel: cut", cut)
    out = np.zeros((c.shape[0] * each, L.R_FIXED + boxes * L.R_BOX), np.int64)
    name = "stacked" if cx is None else "stacked count"
    warm(name, _play_stacked, p, tuple(m), cx, ins_flags, c, np.int64(0), out, np.int64(1))
    n = _play_stacked(p, tuple(m), cx, ins_flags, c, np.int64(cut), out, np.int64(each))
    if nets is not None and cx is not None:
        nets += cx[8]
    return out[:n].copy() if counter is None else (out[:n].copy(), cx[4])
