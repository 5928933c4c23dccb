"""Seconds of a first run with a cold numba cache: ``bjsim simulate --rounds 100000`` in a fresh
process with ``NUMBA_CACHE_DIR`` set to an empty temporary folder (so nothing is loaded from the
cache), timed from start to exit; then the same command again with that cache warm.

    python benchmarks/compile.py [extra simulate options ...]

Target (issue 9): the cold run at most 30 s on the project's 2-core machine. Prints the lines the
run wrote on stderr that say it is compiling.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(cache: str, extra: list[str]) -> tuple[float, str]:
    env = dict(os.environ, NUMBA_CACHE_DIR=cache)
    cmd = [sys.executable, "-m", "simulator", "simulate", "--rounds", "100000", *extra]
    t = time.perf_counter()
    done = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - t
    if done.returncode != 0:
        sys.exit(f"compile.py: {' '.join(cmd)} failed ({done.returncode}): {done.stderr[-500:]}")
    return seconds, done.stderr


def main() -> None:
    extra = sys.argv[1:]
    with tempfile.TemporaryDirectory(prefix="bjsim-numba-") as cache:
        cold, err = run(cache, extra)
        warm, _ = run(cache, extra)
    said = [line for line in err.splitlines() if "compiling" in line]
    print(f"cold_first_run_s={cold:.1f} warm_run_s={warm:.1f} (cpus={os.cpu_count()}, "
          f"load={os.getloadavg()[0]:.1f})")
    print("stderr while compiling: " + (said[0] if said else "(nothing)"))


if __name__ == "__main__":
    main()
