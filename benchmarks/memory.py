"""Peak memory of ``bjsim simulate`` against the number of rounds: it should stay flat.

Each size runs as its own process (``python -m simulator simulate --rounds N -q -f json``), and its
peak resident set size is read from the kernel's accounting for that one child (``os.wait4``), so
the figures do not include this script or each other. Chunk indices are generated lazily, at most
``2 * workers`` chunks are in flight and at most a lookahead of finished chunks wait to be merged,
so 10^8 rounds should need no more memory than 10^7.

    python benchmarks/memory.py                 # 10^7 and 10^8 rounds
    python benchmarks/memory.py --max 1e9       # and 10^9
    python benchmarks/memory.py --checkpoint    # with --checkpoint (a temporary file) too
    python benchmarks/memory.py --scheduler local   # chunks on a local Dask cluster (client RSS)

The first size also loads the compiled kernel from numba's cache (or compiles it once).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def measure(rounds: int, extra: list[str]) -> tuple[float, float, int]:
    """(seconds, peak RSS in MiB, exit code) of one simulate run in a child process."""
    cmd = [sys.executable, "-m", "simulator", "simulate", "--rounds", str(rounds), "-q",
           "-f", "json", "-o", os.devnull, *extra]
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=ROOT)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    seconds = time.perf_counter() - start
    rss_mib = usage.ru_maxrss / 1024  # Linux: KiB
    return seconds, rss_mib, proc.returncode


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max", type=float, default=1e8, help="largest size (default 1e8)")
    parser.add_argument("--workers", type=int, default=None, help="--workers for simulate")
    parser.add_argument("--chunk-rounds", default="1000000", help="--chunk-rounds for simulate")
    parser.add_argument("--checkpoint", action="store_true", help="also write a checkpoint")
    parser.add_argument("--scheduler", default=None, help="--scheduler for simulate")
    args = parser.parse_args(argv)

    sizes = [10**e for e in range(6, 10) if 10**e <= int(args.max)]
    extra = ["--chunk-rounds", args.chunk_rounds]
    if args.workers:
        extra += ["--workers", str(args.workers)]
    if args.scheduler:
        extra += ["--scheduler", args.scheduler]
    print(f"bjsim simulate peak memory (python {sys.version.split()[0]}, {os.cpu_count()} CPUs, "
          f"chunks of {args.chunk_rounds} rounds{', checkpoint on' if args.checkpoint else ''})")
    print(f"{'rounds':>15}  {'seconds':>8}  {'rounds/s':>12}  {'peak RSS MiB':>12}")
    worst = 0
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            run_extra = list(extra)
            if args.checkpoint:
                run_extra += ["--checkpoint", os.path.join(tmp, f"{n}.ckpt")]
            seconds, rss, code = measure(n, run_extra)
            if code != 0:
                print(f"{n:>15,}  failed with exit code {code}")
                worst = code
                continue
            print(f"{n:>15,}  {seconds:>8.1f}  {n / seconds:>12,.0f}  {rss:>12.1f}", flush=True)
    return worst


if __name__ == "__main__":
    sys.exit(main())
