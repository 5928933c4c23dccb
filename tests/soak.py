"""Soak test: the agreement checks of the suite on fresh random games, for as long as it is given.

Each case is a random rule set (every key, the pays too), random strategies (one a box) and, for
a counter, a random counting plan; it is drawn from ``(seed, case)`` alone, so a failure is
replayed by its command line. Six checks, in turn:

- ``reference``: the engine's stacked mode and the reference game on the same shoes (full shoes,
  or shoes of a few ranks, which make the rare paths common), round by round;
- ``walk``: one box's round walk and the round loop on one seed, tally field by field;
- ``replay``: a simulated chunk's tally and the sums of its rounds replayed in stacked mode;
- ``counter``: a counter's walk and the round loop, tally and counting tally field by field;
- ``exact``: one box shuffled every round, 2 million rounds: the house edge and the Super
  Sevens return within 5 standard errors of the exact analyzer's;
- ``cli``: ``bjsim simulate``, ``compare``, ``count``, ``exact``, ``replay`` or ``report`` on a
  random rule set the command line takes: it succeeds, or refuses with one ``Error:`` line,
  never a traceback.

    python tests/soak.py [--minutes M] [--seed S] [--check NAME ...] [--case K]

Exits 1 at the first disagreement, printing it and the command that replays it.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
import traceback
from pathlib import Path

import numpy as np
from click.testing import CliRunner

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import test_kernel as TK  # noqa: E402
from helpers import basic_strategy, describe_record, play_records, random_strategy  # noqa: E402
from test_count_engine import plan, ramp  # noqa: E402

from simulator import engine, reference, tally  # noqa: E402
from simulator import kernel as K  # noqa: E402
from simulator import layout as L  # noqa: E402
from simulator.chunks import chunk_state  # noqa: E402
from simulator.cli import cli  # noqa: E402
from simulator.counter import counter_for  # noqa: E402
from simulator.exact import analyze  # noqa: E402
from simulator.rules import RuleError, validate  # noqa: E402

NZ = TK.NZ
COUNTS = ("hi-lo", "ko", "hi-opt-ii", "zen", "omega-ii", "sevens")


def random_rules(rng, boxes: int, min_decks: int = 1, penetration=(0.3, 0.95)):
    """``test_kernel``'s random rules, with random pays for blackjack (1 to 3), insurance (0.2 to
    5) and Super Sevens (1 to 1,000,000 to 1, most often ascending) and a random Super Sevens
    stake."""
    rules = TK._random_rules(rng, boxes, min_decks, penetration)
    pays = [int(x) for x in np.exp(rng.uniform(0, np.log(1e6), 5)).round()]
    return rules.replace(
        insurance_pays=round(int(rng.integers(1, 26)) * 0.2, 1),
        blackjack_pays=round(int(rng.integers(10, 31)) / 10, 1),
        super_sevens_pays=tuple(sorted(pays) if rng.random() < 0.7 else pays),
        super_sevens_bet=float(rng.choice([0.5, 1, 2.5, 5, 1000])),
    )


def runnable(rules):
    """``rules`` as a run takes them, a rule set a file could hold (`rules.validate`): no resplit
    of aces with fewer than 3 hands, no hitting split aces without splits (the stacked checks
    take any)."""
    return rules.replace(resplit_aces=rules.resplit_aces and rules.max_hands >= 3,
                         hit_split_aces=rules.hit_split_aces and rules.max_hands >= 2)


def strategies(rng, boxes: int) -> list:
    return [random_strategy(rng) if rng.random() < 0.7 else basic_strategy() for _ in range(boxes)]


def check_reference(rng) -> tuple[str, str | None]:
    boxes = int(rng.integers(1, 8))
    rules = random_rules(rng, boxes)
    strats = strategies(rng, boxes)
    if rng.random() < 0.5:
        ranks = rng.choice(list(L.RANKS), size=int(rng.integers(2, 6)), replace=False)
        codes = np.array([L.RANKS.index(r) * 4 + s for r in ranks for s in range(4)], np.int8)
        fresh, shoes = np.repeat(codes, 8), "rich in " + "".join(ranks)
    else:
        fresh, shoes = np.repeat(np.arange(L.N_CODES, dtype=np.int8), rules.decks), "full"
    cards = np.concatenate([rng.permutation(fresh) for _ in range(20)])
    results = reference.play_stacked(cards, rules, strats)
    ref = reference.records(results, boxes)
    ker = play_records("kernel", cards, rules, strats)
    what = f"{len(ref)} rounds, shoes {shoes}, {rules}"
    for i in range(max(len(ref), len(ker))):
        if i >= len(ref) or i >= len(ker) or not np.array_equal(ref[i], ker[i]):
            return what, "\n".join(
                [
                    f"round {i}",
                    "reference: " + (describe_record(ref[i]) if i < len(ref) else "(none)"),
                    "engine:    " + (describe_record(ker[i]) if i < len(ker) else "(none)"),
                    reference.format_round(results[i], i) if i < len(results) else "",
                ]
            )
    return what, None


def _differ(names, a, b) -> str | None:
    """The fields where tallies ``a`` and ``b`` differ (a counting tally's with their row)."""
    bad = [tuple(j) for j in np.argwhere(a != b)[:8]]
    at = [f"{names[j[-1]]}" + (f" (row {j[0]})" if len(j) > 1 else "") for j in bad]
    return ", ".join(f"{w}: {a[j]} against {b[j]}" for w, j in zip(at, bad, strict=True)) or None


def check_walk(rng) -> tuple[str, str | None]:
    rules = random_rules(rng, 1)
    strat = strategies(rng, 1)
    walked = TK._sim(rules, strat, 5000)
    looped, trace = TK._sim_trace(rules, strat, 5000)
    return str(rules), _differ(L.TALLY_NAMES, walked, looped)


def check_replay(rng) -> tuple[str, str | None]:
    boxes = int(rng.integers(1, 8))
    rules = random_rules(rng, boxes, max(2, boxes), (0.5, 0.85))  # (no round runs out of cards:
    # the trace leaves out a round dealt partly from reshuffled discards)
    strats = strategies(rng, boxes) if rng.integers(2) else strategies(rng, 1)
    try:
        TK._check_replay(rules, strats, 2000)
    except AssertionError as e:
        return str(rules), f"{traceback.extract_tb(e.__traceback__)[-1].line} {e}"
    return str(rules), None


def check_counter(rng) -> tuple[str, str | None]:
    rules = random_rules(rng, 1)
    if rng.random() < 0.8:
        rules = rules.replace(hole_card="none")  # (the walk plays no peek game)

    def steps(base, n, top=12):
        at = np.sort(rng.uniform(-4, 8, n))
        return ramp(base, *((float(round(x, 2)), int(rng.integers(1, top))) for x in at))

    count = str(rng.choice(COUNTS))
    kw = dict(
        count=count,
        resolution=str(rng.choice(["exact", "half", "whole"])),
        indices="hi-lo-nz" if count == "hi-lo" and rng.random() < 0.7 else None,
        bet=steps(int(rng.integers(0, 3)), int(rng.integers(0, 6))),
        ss=steps(0, int(rng.integers(0, 4))) if rules.super_sevens else None,
    )
    if rng.random() < 0.4:
        kw["enter"] = float(round(rng.uniform(-2, 3), 1))
        kw["leave"] = kw["enter"] - float(round(rng.uniform(0, 3), 1))
    tables, ctr, ins = counter_for(rules, basic_strategy(), plan(**kw))
    p, state = rules.to_params(), chunk_state(int(rng.integers(1, 10**6)), 0)
    walked, ct_walked = K.count_chunk(p, tables, 6000, state, ctr, ins)
    trace = np.full(6000 * 80, -1, np.int8)
    looped, ct_looped = K.count_chunk(p, tables, 6000, state, ctr, ins, trace)
    what = f"{count} ({kw['resolution']}, indices {kw['indices']}), {rules}"
    return what, (
        _differ(L.TALLY_NAMES, walked, looped) or _differ(L.COUNT_NAMES, ct_walked, ct_looped)
    )


def check_exact(rng) -> tuple[str, str | None]:
    """One box shuffled every round (the analyzer's full shoe each round): the simulated house
    edge and Super Sevens return within 5 standard errors of ``simulator.exact.analyze``."""
    rules = runnable(random_rules(rng, 1).replace(shuffle="every-round"))
    strat = strategies(rng, 1)[0]
    want = analyze(rules, strat)
    got = tally.summarize(
        engine.run(rules, strat, 2_000_000, int(rng.integers(1, 10**6)), workers=1), rules
    )
    bad = []
    he = got["house_edge"]
    if abs(he["mean"] - want["house_edge"]) > 5 * he["se"]:
        bad.append(
            f"house edge {he['mean']:+.5f} (SE {he['se']:.5f}), exact {want['house_edge']:+.5f}"
        )
    if rules.super_sevens:
        ss = got["super_sevens"]
        # the sample SE, also where the report withholds it for too few wins of a rare line
        se = ss["se"] if ss["se"] is not None else ss["sd_bet"] / ss["bets"] ** 0.5
        if abs(ss["mean"] - want["super_sevens"]["ev"]) > 5 * se:
            bad.append(
                f"Super Sevens {ss['mean']:+.5f} (SE {se:.5f}), exact "
                f"{want['super_sevens']['ev']:+.5f}"
            )
    return f"{strat.name}, {rules}", "; ".join(bad) or None


STRATEGIES = ("basic", "basic-super-sevens", "insurance-taker", "mimic-dealer", "never-bust")
PLANS = ("hi-lo-1-12", "hi-lo-flat", "sevens-super-sevens")


def _sets(rules) -> list[str]:
    """``--set`` options giving ``rules`` from the NZ defaults."""
    out = []
    for key, value in vars(rules).items():
        if value != getattr(NZ, key):
            v = (
                ",".join(map(str, value))
                if isinstance(value, tuple)
                else str(value).lower()
                if isinstance(value, bool)
                else str(value)
            )
            out += ["--set", f"{key}={v}"]
    return out


def _plan_file(rng, rules, folder: str) -> str:
    """A random counting plan the rule set can play, written into ``folder``."""

    def steps(n, units):
        at = np.sort(rng.choice(np.arange(-10, 16), n, replace=False))
        return "[" + ", ".join(f"[{a}, {u}]" for a, u in zip(at, sorted(units), strict=True)) + "]"

    count = str(rng.choice(COUNTS))
    n = int(rng.integers(0, 6))
    bets = [int(x) for x in rng.integers(1, 40, n)]
    base = int(rng.integers(1, 3))
    lines = [
        f'name = "soak"\ncount = "{count}"',
        f'deck_estimation = "{rng.choice(["exact", "half", "whole"])}"',
        f"table_min = {min([base, *bets])}",
        f"table_max = {max([base, *bets])}",
        f"[bet]\nbase = {base}\nsteps = {steps(n, bets)}",
    ]
    if count == "hi-lo" and rng.random() < 0.6:
        lines.insert(2, 'indices = "hi-lo-nz"')
    if rng.random() < 0.3:
        lines.insert(2, f"bankroll = {int(rng.integers(1, 5000))}")
    if rules.super_sevens and rng.random() < 0.5:
        k = int(rng.integers(0, 4))
        lines.append(
            f"[super_sevens]\nbase = {int(rng.integers(0, 2))}\n"
            f"steps = {steps(k, [int(x) for x in rng.integers(0, 10, k)])}"
        )
    if rng.random() < 0.3:
        enter = int(rng.integers(-3, 12))
        lines.append(f"[wong]\nenter = {enter}\nleave = {enter - int(rng.integers(0, 4))}")
    if rules.boxes > 1 and rng.random() < 0.4:
        k = int(rng.integers(1, 3))
        lines.append(
            f"[boxes]\nbase = 1\nsteps = "
            f"{steps(k, [int(x) for x in rng.integers(1, rules.boxes + 1, k)])}"
        )
    path = Path(folder) / "plan.toml"
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def _valid_rules(rng, boxes: int):
    """A random rule set the command line takes (``random_rules`` may combine keys it refuses)."""
    while True:
        rules = random_rules(rng, boxes, max(1, boxes // 2))
        try:
            return validate(rules)
        except RuleError:
            pass


def check_cli(rng) -> tuple[str, str | None]:
    """A command on a random valid rule set, in-process: it succeeds, or refuses with one
    ``Error:`` line (exit 2); never an exception."""
    boxes = int(rng.integers(1, 8))
    rules = _valid_rules(rng, boxes)
    tiny = ["--chunk-rounds", "5000", "--seed", str(int(rng.integers(1, 99)))]
    tiny += (
        ["--precision", "0.05", "--max-rounds", "40000"] if rng.random() < 0.15 else ["-n", "20k"]
    )
    command = str(
        rng.choice(["simulate", "simulate", "compare", "count", "exact", "replay", "report"])
    )
    args = [command] + _sets(rules)
    tmp = tempfile.mkdtemp(prefix="bjsim-soak-")  # a plan file, a report: removed after the run
    if command == "simulate":
        k = int(rng.integers(1, boxes + 1)) if rng.random() < 0.3 else 1
        args += tiny + ["--format", str(rng.choice(["table", "csv", "json"]))]
        args += [
            x
            for _ in range(k if k in (1, boxes) else 1)
            for x in ("--strategy", str(rng.choice(STRATEGIES)))
        ]
    elif command == "compare":  # one to three variants, each a key of another random game
        keys = _sets(_valid_rules(rng, int(rng.integers(1, 8))))[1::2] or ["boxes=2"]
        for i in rng.choice(len(keys), size=min(len(keys), int(rng.integers(1, 4))), replace=False):
            args += ["--vary", keys[i]]
        args += tiny + ["--same-strategy"] + (["--no-exact"] if rng.random() < 0.7 else [])
    elif command == "count":
        plan = str(rng.choice(PLANS)) if rng.random() < 0.3 else _plan_file(rng, rules, tmp)
        args += tiny[:4] + ["-n", "20k", "--plan", plan]  # (no --precision)
        args += ["--format", str(rng.choice(["table", "json", "csv", "markdown"]))]
        if rng.random() < 0.2 and rules.shuffle == "cut-card":
            args += ["--penetrations", "0.5,0.8"]
    elif command == "report":
        args += tiny + ["--no-variants", "-o", str(Path(tmp) / "report")]
    elif command == "replay":
        cards = rng.permutation(np.repeat(np.arange(L.N_CODES), rules.decks))[:60]
        text = " ".join(L.RANKS[c // 4] + L.SUITS[c % 4] for c in cards)
        args += ["--cards", "-"]
    result = CliRunner().invoke(cli, args, input=text if command == "replay" else None)
    shutil.rmtree(tmp)
    what = "bjsim " + " ".join(args)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        return what, "".join(traceback.format_exception(result.exception))
    lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
    if result.exit_code == 2 and lines and lines[-1].startswith("Error:"):
        return what, None
    if result.exit_code != 0 or "Traceback" in result.output:
        return what, f"exit {result.exit_code}: {result.output[-2000:]}"
    return what, None


CHECKS = {
    "reference": check_reference,
    "walk": check_walk,
    "replay": check_replay,
    "counter": check_counter,
    "exact": check_exact,
    "cli": check_cli,
}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--minutes", type=float, default=10.0, help="how long to run (default 10)")
    ap.add_argument("--seed", type=int, default=1, help="the run's seed (default 1)")
    ap.add_argument("--check", nargs="+", choices=list(CHECKS), default=list(CHECKS))
    ap.add_argument("--case", type=int, help="replay this one case (with its --seed and --check)")
    args = ap.parse_args()
    stop = time.monotonic() + 60 * args.minutes
    done = {c: 0 for c in args.check}
    k = 0
    for k in [args.case] if args.case is not None else range(10**12):
        if args.case is None and time.monotonic() > stop:
            break
        name = args.check[k % len(args.check)]
        what, bad = CHECKS[name](np.random.default_rng([args.seed, k]))
        done[name] += 1
        if bad is not None:
            print(
                f"soak: {name}, case {k}: DISAGREE\n  {what}\n{bad}\nreplay: python "
                f"tests/soak.py --seed {args.seed} --check {' '.join(args.check)} --case {k}"
            )
            return 1
        if args.case is not None or k % 200 == 0:
            print(f"soak: {sum(done.values())} cases agree ({name}: {what[:90]})", flush=True)
    print("soak: " + ", ".join(f"{n} {c} cases" for c, n in done.items()) + ", all agree")
    return 0


if __name__ == "__main__":
    sys.exit(main())
