"""What pairing buys and costs in ``bjsim compare``: H17 against S17 (NZ rules, each with the basic
strategy derived for its rules) at several ``--pair-rounds``, under the cut card and with a
reshuffle every round: the se ratio against two independent runs of the same length, the
correlation left, and game-rounds per second; plus the kernel's cost per call and per round.
The table in docs/compare.md ("Pairing") comes from this script.

    python benchmarks/compare_pairing.py                 # 2M rounds a game, seed 11
    python benchmarks/compare_pairing.py --rounds 500k --blocks 32,64
"""

from __future__ import annotations

import argparse
import time

from simulator import compare as C
from simulator import engine
from simulator.chunks import chunk_state
from simulator.kernel import simulate_chunk
from simulator.rules import Rules
from simulator.variants import from_vary


def kernel_costs(rules, strategy) -> tuple[float, float]:
    """Seconds per ``simulate_chunk`` call (0 rounds) and per round (65,536-round calls)."""
    params, tables = rules.to_params(), engine.stack_tables(rules, [strategy])
    state = chunk_state(1, 0)
    simulate_chunk(params, tables, 10, state)  # compiled / loaded before timing

    def timed(n, repeats):
        start = time.perf_counter()
        for _ in range(repeats):
            simulate_chunk(params, tables, n, state)
        return (time.perf_counter() - start) / repeats

    return timed(0, 2000), timed(65_536, 30) / 65_536


def main() -> None:
    from simulator.cli import COUNT

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", default="2M")
    ap.add_argument("--blocks", default="8,16,32,64,128,256,1024")
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--workers", type=int, default=None)
    args = ap.parse_args()
    rounds = COUNT.convert(args.rounds, None, None)
    blocks = [int(b) for b in args.blocks.split(",")]
    nz = Rules()
    for shuffle in ("cut-card", "every-round"):
        base = nz.replace(shuffle=shuffle)
        games = C.build_games(base, "s17", "", None, [from_vary(base, "dealer_hits_soft_17=true")])
        if shuffle == "cut-card":
            per_call, per_round = kernel_costs(base, games[0].strategies[0])
            print(f"simulate_chunk: {1e6 * per_call:.1f} us a call, {1e9 * per_round:.1f} ns a "
                  "round")
        for b in blocks:
            plan = C.Plan(games, rounds=rounds, seed=args.seed, chunk_rounds=max(b, 100_000),
                          pair_rounds=b, workers=args.workers, exact=False)
            start = time.perf_counter()
            d = C.compare(plan, quiet=True).stats["rows"][1]["difference"]["house_edge"]
            seconds = time.perf_counter() - start
            print(f"{shuffle:<12} pair-rounds {b:>5}: se ratio {d['se_ratio']:.2f}, corr "
                  f"{d['correlation']:.3f}, difference {100 * d['mean']:+.3f}% "
                  f"± {100 * C.Z95 * d['se']:.3f}%, {2 * rounds / seconds:,.0f} game-rounds/s",
                  flush=True)


if __name__ == "__main__":
    main()
