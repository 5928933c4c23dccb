"""Speed of the simulation kernel, single core, on the default game.

Rules() defaults (the NZ game: 6 decks, 75% penetration, no hole card, 1 box, Super Sevens on)
with a 'mimic the dealer' strategy (hit below 17, stand on 17+), built here. The kernel is compiled
once before timing. Prints rounds per second, peak memory (resource.getrusage), and, when
``../shared/bench/floor.py`` exists, the floor benchmark's single-core figure measured in the same
run and the ratio ours / floor.

    python benchmarks/bench.py [rounds]
"""

from __future__ import annotations

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
from simulator.strategy import Strategy, stack  # noqa: E402

FLOOR = ROOT.parent / "shared" / "bench" / "floor.py"


def mimic_dealer() -> Strategy:
    hard = np.full((L.N_TOTALS, L.N_UP), L.H, np.int8)
    hard[17:] = L.S
    soft = np.full((L.N_TOTALS, L.N_UP), L.H, np.int8)
    soft[17:] = L.S
    pairs = np.full((L.N_PAIRS, L.N_UP), L.N, np.int8)
    sevens = np.full(L.N_UP, L.H, np.int8)
    return Strategy("mimic-dealer", hard, soft, pairs, sevens)


def time_kernel(n_rounds: int) -> float:
    rules = Rules()
    params = rules.to_params()
    tables = stack([mimic_dealer()])
    state = engine.chunk_state(1, 0)
    kernel.simulate_chunk(params, tables, 1000, state)  # compile (or load the cache)
    best = 0.0
    for _ in range(3):
        t = time.perf_counter()
        tally = kernel.simulate_chunk(params, tables, n_rounds, state)
        rate = n_rounds / (time.perf_counter() - t)
        best = max(best, rate)
    edge = -tally[L.T_TOTAL_SUM] / tally[L.T_BOX_ROUNDS] / L.UNIT
    print(f"house_edge_check={edge:.5f} cards_per_round={tally[L.T_CARDS_DEALT] / n_rounds:.3f}")
    return best


def time_floor(n_rounds: int) -> float | None:
    if not FLOOR.exists():
        return None
    sys.path.insert(0, str(FLOOR.parent))
    import floor

    # Recompiled here without the on-disk cache (floor.py's folder is not ours to write into).
    floor_rounds = numba.njit(nogil=True)(floor._floor_rounds.py_func)
    floor_rounds(1000, 1)
    t = time.perf_counter()
    floor_rounds(n_rounds, 1)
    return n_rounds / (time.perf_counter() - t)


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 5_000_000
    ours = time_kernel(n)
    print(f"bjsim_rounds_per_s_1core={ours:.0f}")
    floor = time_floor(max(n, 20_000_000))
    if floor is not None:
        print(f"floor_rounds_per_s_1core={floor:.0f} ratio={ours / floor:.3f}")
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak_rss_mb={peak_mb:.1f}")


if __name__ == "__main__":
    main()
