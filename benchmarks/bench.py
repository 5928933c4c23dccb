"""Speed of the simulation kernel, single core, against the floor benchmark measured in the same run.

Cases (all single core, one ``simulate_chunk`` call per timing, compiled once before timing):

- ``nz-1box``: ``Rules()`` defaults (the NZ game: 6 decks, 75% penetration, no hole card, one box,
  Super Sevens on) with the shipped basic strategy. This is the headline figure.
- ``nz-7box-noss``: the same game with seven boxes and Super Sevens off; reported per round and per
  box-round.

When ``../shared/bench/floor.py`` exists its single-core round loop is recompiled here (without its
on-disk cache) and timed in the same run; ratios are ours / floor, per round and, for seven boxes,
per box-round. Peak memory is the process's maximum resident set size (``resource.getrusage``).

    python benchmarks/bench.py [rounds] [--against OLD_KERNEL.py]

``--against`` loads another copy of ``simulator/kernel.py`` (e.g. the previous commit's, saved
outside the repository) and times it in the same run, alternating with ours, so that a change is
judged on this noisy machine by the ratio new / old measured side by side.
"""

from __future__ import annotations

import importlib.util
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
REPEATS = 3


def time_kernel(rules: Rules, n_rounds: int, kern=kernel) -> tuple[float, np.ndarray]:
    """Best of ``REPEATS`` single-core rounds per second of ``kern``; the tally of the last run."""
    params = rules.to_params()
    tables = stack([load_strategy("basic")] * rules.boxes)
    state = engine.chunk_state(1, 0)
    kern.simulate_chunk(params, tables, 1000, state)  # compile (or load the cache)
    best = 0.0
    tally = None
    for _ in range(REPEATS):
        t = time.perf_counter()
        tally = kern.simulate_chunk(params, tables, n_rounds, state)
        best = max(best, n_rounds / (time.perf_counter() - t))
    return best, tally


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
        print(f"{name}: ours={ours:.0f} other={old:.0f} ours/other={ours / old:.3f} same_tally={same}")


def time_floor(n_rounds: int) -> float | None:
    """Best of ``REPEATS`` single-core rounds per second of floor.py, or None without it."""
    if not FLOOR.exists():
        return None
    sys.path.insert(0, str(FLOOR.parent))
    import floor

    # Recompiled here without the on-disk cache (floor.py's folder is not ours to write into).
    floor_rounds = numba.njit(nogil=True)(floor._floor_rounds.py_func)
    floor_rounds(1000, 1)
    best = 0.0
    for _ in range(REPEATS):
        t = time.perf_counter()
        floor_rounds(n_rounds, 1)
        best = max(best, n_rounds / (time.perf_counter() - t))
    return best


def main() -> None:
    args = sys.argv[1:]
    against = None
    if "--against" in args:
        i = args.index("--against")
        against = args[i + 1]
        del args[i : i + 2]
    n = int(args[0]) if args else 5_000_000
    if against is not None:
        compare(against, n)
    one, t1 = time_kernel(Rules(), n)
    edge = -t1[L.T_TOTAL_SUM] / t1[L.T_BOX_ROUNDS] / L.UNIT
    print(f"nz-1box: house_edge_check={edge:.5f} cards_per_round={t1[L.T_CARDS_DEALT] / n:.3f}")
    print(f"bjsim_rounds_per_s_1core_1box_ss={one:.0f}")

    n7 = max(n // 4, 1000)
    seven, t7 = time_kernel(Rules().replace(boxes=7, super_sevens=False), n7)
    edge7 = -t7[L.T_TOTAL_SUM] / t7[L.T_BOX_ROUNDS] / L.UNIT
    print(f"nz-7box-noss: house_edge_check={edge7:.5f} cards_per_round={t7[L.T_CARDS_DEALT] / n7:.3f}")
    print(f"bjsim_rounds_per_s_1core_7box_noss={seven:.0f} box_rounds_per_s={7 * seven:.0f}")

    floor = time_floor(max(n, 20_000_000))
    if floor is not None:
        print(f"floor_rounds_per_s_1core={floor:.0f}")
        print(f"ratio_1box={one / floor:.3f}")
        print(f"ratio_7box_per_box_round={7 * seven / floor:.3f} (per round {seven / floor:.4f})")
        print(f"7box_per_box_round_vs_1box={7 * seven / one:.3f}")
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak_rss_mb={peak_mb:.1f}")


if __name__ == "__main__":
    main()
