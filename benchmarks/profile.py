"""Where the engine's time goes: samples of the instruction pointer (``perf record -e cpu-clock``,
which needs no hardware counters), placed on the engine's compiled functions and, with
``--function``, on its instructions (the code dumped from memory, disassembled by ``objdump``).
Compiles afresh (its own numba cache folder) so that the code's symbols can be read.

    python benchmarks/profile.py [CASE] [--rounds N] [--function NAME [--lines]] [--top K]

CASE: ``nz`` (one box, the default), ``7box``, ``7box-ss-off``, ``peek``, ``ss-off`` or a
counting plan (``hi-lo-1-12``, ``hi-lo-flat``, ...). Needs ``perf`` and ``objdump`` (Debian:
linux-perf, binutils)."""

from __future__ import annotations

import argparse
import bisect
import collections
import ctypes
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAMES = {"nz": (1, {}), "7box": (7, {}), "peek": (1, {"hole_card": "peek"}),
         "ss-off": (1, {"super_sevens": False}), "7box-ss-off": (7, {"super_sevens": False})}


def child(case: str, n: int, out: Path) -> None:
    """Play ``n`` rounds of ``case``, then write the engine's symbols and the code around them."""
    sys.path.insert(0, str(ROOT))
    from simulator import kernel
    from simulator.chunks import chunk_state
    from simulator.rules import Rules
    from simulator.strategy import load_strategy, stack

    nz, state, basic = Rules(), chunk_state(1, 0), load_strategy("basic")
    if case in GAMES:
        boxes, keys = GAMES[case]
        rules = nz.replace(boxes=boxes, **keys)
        params, tables = rules.to_params(), stack([basic] * boxes)

        def run(k):
            return kernel.simulate_chunk(params, tables, k, state)
    else:
        from simulator.counter import counter_for
        from simulator.plans import load_plan

        tables, counter, insurance = counter_for(nz, basic, load_plan(case))

        def run(k):
            return kernel.count_chunk(nz.to_params(), tables, k, state, counter, insurance)

    run(1000)
    t = time.perf_counter()
    run(n)
    print(f"{n} rounds in {time.perf_counter() - t:.2f} s", file=sys.stderr)
    disp = kernel._simulate
    lib = disp.overloads[disp.signatures[0]].library
    maps = []
    for line in Path("/proc/self/maps").read_text().splitlines():
        lo, hi = (int(x, 16) for x in line.split()[0].split("-"))
        maps.append((lo, hi))
    regions, syms = set(), []
    for name in sorted(set(re.findall(r"^(_ZN\S+):", lib.get_asm_str(), re.M))):
        addr = lib.get_pointer_to_function(name)
        region = next(((lo, hi) for lo, hi in maps if lo <= addr < hi), None)
        if addr and region:
            syms.append(f"{addr:x} {name}")
            regions.add(region)
    (out / "symbols.txt").write_text("\n".join(syms) + "\n")
    from numba.core.registry import CPUDispatcher

    from simulator.kernel import count, play, rng, tally

    for module in (kernel, count, play, rng, tally):  # each function's own object code
        for fname, f in vars(module).items():
            for res in getattr(f, "overloads", {}).values() if isinstance(f, CPUDispatcher) else ():
                if getattr(res.library, "_compiled_object", None):
                    (out / f"{fname}.o").write_bytes(res.library._compiled_object)
    for lo, hi in sorted(regions):
        (out / f"code_{lo:x}_{hi:x}.bin").write_bytes(ctypes.string_at(lo, hi - lo))


def by_line(by_ip, obj: Path, name: str, start: int, top: int) -> None:
    """The samples of function ``name`` (at address ``start``) by source line, from the line
    table of its own object code, the first the JIT loaded with it (``objdump -d -l``)."""
    if not obj.exists():
        print("\nby source line: numba kept no object code")
        return
    dis = subprocess.run(["objdump", "-d", "-l", str(obj)], capture_output=True, text=True).stdout
    where, base, loc = {}, None, None
    for line in dis.splitlines():
        head = re.match(r"^([0-9a-f]+) <(\S+)>:$", line)
        if head:
            base = int(head.group(1), 16) if head.group(2) == name else base
            continue
        src = re.match(r"^(/\S+\.py):(\d+)", line)
        if src:
            loc = (src.group(1), int(src.group(2)))
            continue
        ins = re.match(r"^\s+([0-9a-f]+):\t", line)
        if ins:
            where[int(ins.group(1), 16)] = loc
    if base is None:
        print(f"\nby source line: {name} is not in the object code")
        return
    lines = collections.Counter()
    for ip, k in by_ip.items():
        lines[where.get(ip - start + base)] += k
    total = sum(by_ip.values())
    print("\nby source line (a line of an inlined function counts where it was inlined)")
    for loc, k in lines.most_common(top):
        src = ""
        if loc and Path(loc[0]).exists():
            src = Path(loc[0]).read_text().splitlines()[loc[1] - 1].strip()[:70]
        at = f"{Path(loc[0]).name}:{loc[1]}" if loc else "?"
        print(f"  {100 * k / total:5.1f}%  {at:16s} {src}")


def short(name: str) -> str:
    """``simulator.kernel.play.walk`` from a mangled numba name."""
    parts, i = [], 3
    while i < len(name) and name[i].isdigit():
        j = i
        while name[j].isdigit():
            j += 1
        size = int(name[i:j])
        parts.append(name[j : j + size])
        i = j + size
    return ".".join(parts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("case", nargs="?", default="nz",
                        help="nz, 7box, 7box-ss-off, peek, ss-off or a plan")
    parser.add_argument("--rounds", type=int, default=40_000_000, help="rounds to sample")
    parser.add_argument("--function", help="also show the hottest instructions of this function "
                        "(a part of its name, e.g. walk)")  # fmt: skip
    parser.add_argument("--top", type=int, default=30, help="instructions shown (default 30)")
    parser.add_argument("--lines", action="store_true", help="with --function: the samples by "
                        "source line (compiled with NUMBA_DEBUGINFO=1 for the line table, which "
                        "changes the code: some helpers, min() among them, are then called, not "
                        "inlined; the shares are a guide, not the release build's)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.case, args.rounds, Path(args.child))
        return
    plans = sorted(p.stem for p in (ROOT / "strategies" / "plans").glob("*.toml"))
    if args.case not in GAMES and args.case not in plans:
        sys.exit(f"profile: unknown case '{args.case}': allowed {', '.join([*GAMES, *plans])}")
    for tool in ("perf", "objdump"):
        if shutil.which(tool) is None:
            sys.exit(f"profile: '{tool}' is not installed")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        env = dict(os.environ, NUMBA_CACHE_DIR=str(out / "cache"))
        if args.lines:
            env["NUMBA_DEBUGINFO"] = "1"
        cmd = ["perf", "record", "-q", "-F", "20000", "-e", "cpu-clock", "-o", str(out / "p.data"),
               sys.executable, __file__, args.case, "--rounds", str(args.rounds), "--child",
               str(out)]  # fmt: skip
        if subprocess.run(cmd, env=env).returncode != 0:
            sys.exit("profile: perf record failed (see /proc/sys/kernel/perf_event_paranoid)")
        ips = subprocess.run(["perf", "script", "-i", str(out / "p.data"), "-F", "ip"],
                             capture_output=True, text=True).stdout.split()  # fmt: skip
        syms = sorted((int(a, 16), n) for a, n in
                      (line.split() for line in (out / "symbols.txt").read_text().splitlines()))
        starts = [a for a, _ in syms]
        regions = [tuple(int(x, 16) for x in p.stem.split("_")[1:]) + (p,)
                   for p in out.glob("code_*.bin")]  # fmt: skip
        by_fn, by_ip = collections.Counter(), collections.Counter()
        for ip in (int(x, 16) for x in ips):
            if any(lo <= ip < hi for lo, hi, _ in regions) and ip >= starts[0]:
                a, name = syms[bisect.bisect_right(starts, ip) - 1]
                by_fn[name] += 1
                if args.function and args.function in short(name):
                    by_ip[ip] += 1
        total = sum(by_fn.values())
        print(f"{args.case}: {len(ips)} samples, {total} in the engine's code")
        for name, k in by_fn.most_common(12):
            print(f"{100 * k / max(total, 1):6.1f}%  {short(name)}")
        if args.function and by_ip:
            ip0 = min(by_ip)
            lo, hi, path = next(r for r in regions if r[0] <= ip0 < r[1])
            dis = subprocess.run(["objdump", "-D", "-b", "binary", "-m", "i386:x86-64",
                                  f"--adjust-vma={lo:#x}", str(path)],
                                 capture_output=True, text=True).stdout  # fmt: skip
            text = {}
            for line in dis.splitlines():
                head, _, rest = line.partition(":")
                if re.fullmatch(r"\s*[0-9a-f]+", head) and rest.count("\t") >= 2:
                    text[int(head, 16)] = rest.split("\t")[-1].strip()
            start = max(a for a in starts if a <= ip0)
            fn = sum(by_ip.values())
            print(f"\nhottest instructions of {args.function} ({fn} samples; a sample lands on the "
                  "instruction after the one that holds retirement up)")
            for ip, k in by_ip.most_common(args.top):
                print(f"  +{ip - start:#6x} {100 * k / fn:5.1f}%  {text.get(ip, '?')}")
            if args.lines:
                name = next(n for a, n in syms if a == start)
                by_line(by_ip, out / f"{short(name).split('.')[-1]}.o", name, start, args.top)


if __name__ == "__main__":
    main()
