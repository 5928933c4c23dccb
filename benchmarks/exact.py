"""Time of the exact analysis (`bjsim exact`) on the default NZ rules: the issue's target is under
10 seconds on a 2-core machine.

    python benchmarks/exact.py          # prints: exact_seconds=... house_edge=...
"""

import argparse
import time

from simulator.exact import analyze
from simulator.rules import load_rules


def main():
    argparse.ArgumentParser(
        description="Seconds of the exact analysis (bjsim exact) on the default NZ rules, after "
        "compiling its numba parts on a one-deck game; the target is under 10 s.").parse_args()
    rules = load_rules()
    analyze(rules.replace(decks=1))  # compile the numba parts first
    t = time.perf_counter()
    res = analyze(rules)
    print(f"exact_seconds={time.perf_counter() - t:.2f} house_edge={res['house_edge']:.6f}")


if __name__ == "__main__":
    main()
