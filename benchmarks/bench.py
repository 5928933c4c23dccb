"""Speed of the simulation kernel on one core and on every core, against floor.py in the same run.

Cases: the NZ game (``Rules()``: 6 decks, 75% penetration, no hole card) with the shipped basic
strategy, one and seven boxes, Super Sevens on and off, each single core (one ``simulate_chunk``
call per timing) and on every core (``engine.run`` with one thread per core); and one box, single
core, of the games that once ran slower than the NZ game: the insurance-taker strategy, late
surrender, peek, H17; and a Hi-Lo counter. Compiled once before timing, best of five (the
repeats taken in turn across floor and the cases, so that a spell of interference on a shared
machine spoils one timing of each, not all of one, and floor is timed in the same spells as the
cases). ``1box_ss_on`` is the headline figure.

When ``../shared/bench/floor.py`` exists its single-core round loop is recompiled here (without its
on-disk cache) and timed in the same run; ratios are ours / floor, per round and, for seven boxes,
per box-round. Single-core timings are the CPU time of the timing thread (``time.thread_time``),
so that other work on a shared machine does not count against either; every-core timings are
wall-clock. Peak memory is the process's maximum resident set size (``resource.getrusage``).

    python benchmarks/bench.py [rounds] [--against OLD_KERNEL.py]

``--against`` loads another kernel module from one file (anything with ``simulate_chunk(params,
tables, n, state)``, saved outside the repository) and times it in the same run, alternating with
ours, so that a change is judged on this noisy machine by the ratio new / old side by side.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import platform
import resource
import sys
import time
from pathlib import Path

import numba
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from simulator import engine, kernel  # noqa: E402
from simulator import layout as L  # noqa: E402
from simulator.rules import Rules  # noqa: E402
from simulator.strategy import load_strategy, stack  # noqa: E402

FLOOR = ROOT.parent / "shared" / "bench" / "floor.py"
REPEATS = 5


def time_kernel(
    rules: Rules, n_rounds: int, kern=kernel, repeats: int = REPEATS, strategy: str = "basic"
) -> tuple[float, np.ndarray]:
    """Best of ``repeats`` single-core rounds per second of ``kern``; the tally of the last run."""
    params = rules.to_params()
    tables = stack([load_strategy(strategy)] * rules.boxes)
    state = engine.chunk_state(1, 0)
    kern.simulate_chunk(params, tables, 1000, state)  # compile (or load the cache)
    best = 0.0
    tally = None
    for _ in range(repeats):
        t = time.thread_time()
        tally = kern.simulate_chunk(params, tables, n_rounds, state)
        best = max(best, n_rounds / (time.thread_time() - t))
    return best, tally


def time_counter(rules: Rules, n_rounds: int, plan: str, repeats: int = REPEATS) -> float:
    """Best of ``repeats`` single-core rounds per second of a counter (``strategies/plans``)."""
    from simulator.counter import counter_for
    from simulator.plans import load_plan

    tables, counter, insurance = counter_for(rules, load_strategy("basic"), load_plan(plan))
    params, state = rules.to_params(), engine.chunk_state(1, 0)
    kernel.count_chunk(params, tables, 1000, state, counter, insurance)  # compile or load
    best = 0.0
    for _ in range(repeats):
        t = time.thread_time()
        kernel.count_chunk(params, tables, n_rounds, state, counter, insurance)
        best = max(best, n_rounds / (time.thread_time() - t))
    return best


def load_other_kernel(path: str):
    """Another copy of the kernel module, loaded from ``path`` under its own name."""
    spec = importlib.util.spec_from_file_location("bench_other_kernel", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # numba's on-disk cache finds the module by name
    spec.loader.exec_module(module)
    return module


def compare(path: str, n: int) -> None:
    """Ours against the kernel at ``path``, alternating, best of ``REPEATS`` rounds of each."""
    other = load_other_kernel(path)
    seven = Rules().replace(boxes=7, super_sevens=False)
    cases = (("nz-1box", Rules(), n), ("nz-7box-noss", seven, max(n // 4, 1000)))
    for name, rules, rounds in cases:
        ours = old = 0.0
        same = True
        for _ in range(REPEATS):
            a, ta = time_kernel(rules, rounds)
            b, tb = time_kernel(rules, rounds, other)
            ours, old = max(ours, a), max(old, b)
            same = same and bool((ta == tb).all())
        ratio = ours / old
        print(f"{name}: ours={ours:.0f} other={old:.0f} ours/other={ratio:.3f} same_tally={same}")


def _floor_loop():
    """floor.py's single-core round loop, recompiled here without its on-disk cache (floor.py's
    folder is not ours to write into) and compiled once; None without floor.py."""
    if not FLOOR.exists():
        return None
    sys.path.insert(0, str(FLOOR.parent))
    import floor

    loop = numba.njit(nogil=True)(floor._floor_rounds.py_func)
    loop(1000, 1)
    return loop


def time_floor(n_rounds: int, repeats: int = REPEATS) -> float | None:
    """Best of ``repeats`` single-core rounds per second of floor.py, or None without it."""
    floor_rounds = _floor_loop()
    if floor_rounds is None:
        return None
    best = 0.0
    for _ in range(repeats):
        t = time.thread_time()
        floor_rounds(n_rounds, 1)
        best = max(best, n_rounds / (time.thread_time() - t))
    return best


def time_all_cores(rules: Rules, n_rounds: int, repeats: int = REPEATS) -> float:
    """Best of ``repeats`` rounds per second of the engine on every core (threads, nogil kernel)."""
    strategies = [load_strategy("basic")] * rules.boxes
    chunk = max(n_rounds // (4 * CORES), 1000)
    engine.run(rules, strategies, 4 * chunk, 1, chunk_rounds=chunk, workers=CORES)  # warm up
    best = 0.0
    for _ in range(repeats):
        t = time.perf_counter()
        engine.run(rules, strategies, n_rounds, 1, chunk_rounds=chunk, workers=CORES)
        best = max(best, n_rounds / (time.perf_counter() - t))
    return best


def time_floor_all(n_rounds: int, repeats: int = REPEATS) -> float | None:
    """Best of ``repeats`` rounds per second of floor.py's loop on every core (threads)."""
    one = _floor_loop()
    if one is None:
        return None
    from concurrent.futures import ThreadPoolExecutor

    best = 0.0
    with ThreadPoolExecutor(CORES) as pool:
        for _ in range(REPEATS):
            t = time.perf_counter()
            list(pool.map(lambda k: one(n_rounds // CORES, k), range(CORES)))
            best = max(best, n_rounds / (time.perf_counter() - t))
    return best


CORES = os.cpu_count() or 1


def main() -> None:
    parser = argparse.ArgumentParser(
        description="Rounds per second of the kernel (1 and 7 boxes, Super Sevens on and off, one "
        "core and every core; one box: insurance-taker, late surrender, peek, H17, a Hi-Lo "
        "counter with index plays and a 1-12 ramp) against "
        "../shared/bench/floor.py, measured in the same run.")
    parser.add_argument("rounds", nargs="?", type=int, default=20_000_000,
                        help="rounds per one-box timing (seven boxes: a quarter); default 20000000")
    parser.add_argument("--against", metavar="OLD_KERNEL.py",
                        help="also time another kernel module (one file) side by side")
    args = parser.parse_args()
    if args.rounds < 1000:
        parser.error(f"rounds must be at least 1000, got {args.rounds}")
    against = args.against
    n = args.rounds
    if against is not None:
        compare(against, n)
    print(f"machine: {CORES} cores; {platform.processor() or platform.machine()}; "
          f"python {platform.python_version()}; numba {numba.__version__}")
    nz = Rules()
    cases = [
        (f"{n_boxes}box_ss_{'on' if ss else 'off'}", nz.replace(boxes=n_boxes, super_sevens=ss),
         "basic")
        for n_boxes in (1, 7)
        for ss in (True, False)
    ] + [
        ("1box_insurance_taker", nz, "insurance-taker"),
        ("1box_late_surrender", nz.replace(surrender="late"), "basic"),
        ("1box_peek", nz.replace(hole_card="peek"), "basic"),
        ("1box_h17", nz.replace(dealer_hits_soft_17=True), "basic"),
    ]
    # Repeats interleaved across floor and the cases, so that a spell of interference on this
    # shared machine costs one timing of each rather than every timing of one, and floor is
    # timed in the same spells as the cases; the runs on every core in a pass of their own, so
    # that none comes just before a timing on one core.
    best = {name: [0.0, 0.0, None] for name, _, _ in cases}
    floor = floor_all = None
    counting = 0.0
    n_floor = max(n, 20_000_000)

    def rounds_of(rules):
        return n if rules.boxes == 1 else max(n // 4, 1000)

    for _ in range(REPEATS):
        f1 = time_floor(n_floor, repeats=1)
        floor = None if f1 is None else max(floor or 0.0, f1)
        for name, rules, strategy in cases:
            r1, t = time_kernel(rules, rounds_of(rules), repeats=1, strategy=strategy)
            best[name][0], best[name][2] = max(best[name][0], r1), t
        counting = max(counting, time_counter(nz, n // 2, "hi-lo-1-12", repeats=1))
    for _ in range(REPEATS):
        f_all = time_floor_all(n_floor, repeats=1)
        floor_all = None if f_all is None else max(floor_all or 0.0, f_all)
        for name, rules, strategy in cases:
            if strategy == "basic" and name.startswith(("1box_ss", "7box")):
                r_all = time_all_cores(rules, rounds_of(rules), repeats=1)
                best[name][1] = max(best[name][1], r_all)
    if floor is not None:
        print(f"floor_rounds_per_s_1core={floor:.0f} floor_rounds_per_s_all={floor_all:.0f}")
    one = best["1box_ss_on"][0]
    for name, rules, _ in cases:
        r1, r_all, t = best[name]
        boxes = rules.boxes
        edge = -t[L.T_TOTAL_SUM] / t[L.T_BOX_ROUNDS] / L.UNIT
        line = f"{name}: rounds_per_s_1core={r1:.0f} box_rounds_per_s_1core={boxes * r1:.0f}"
        if r_all:
            line += f" rounds_per_s_all={r_all:.0f} all/1core={r_all / r1:.2f}"
        if floor is not None:
            line += f" ratio_1core={r1 / floor:.3f} ratio_per_box_round={boxes * r1 / floor:.3f}"
            if r_all:
                line += f" ratio_all={r_all / floor_all:.3f}"
        print(line + f" (house_edge_check={edge:.4f})")
        if name != "1box_ss_on":
            print(f"  {name} per box-round vs 1box_ss_on: {boxes * r1 / one:.3f}")
    line = f"1box_hi_lo_1_12 (index plays, a bet ramp): rounds_per_s_1core={counting:.0f}"
    if floor is not None:
        line += f" ratio_1core={counting / floor:.3f}"
    print(line + f"\n  1box_hi_lo_1_12 vs 1box_ss_on: {counting / one:.3f}")
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak_rss_mb={peak_mb:.1f}")


if __name__ == "__main__":
    main()
