"""Runs of a counting plan (`simulator.plans`): one at the rule set's penetration, or one per
penetration of a sweep on the same seed; for ``bjsim count`` and the report's counting section.
Each run is `run.simulate` of a `run.Plan` with ``counting`` set; figures: `counting_report`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

from simulator import counting_report, run, stops
from simulator import layout as L
from simulator.counting import list_counts
from simulator.headroom import round_too_large
from simulator.plans import loaded
from simulator.rules import apply_overrides, shown, validate

COUNTER = "counter's run"  # a single run's name beside its control's, in stderr and its bar
CONTROL = "control run (the strategy alone at a flat bet)"


@dataclass
class Runs:
    """The runs played: (penetration or None, rules, run.Result) each, how many were asked for,
    and the strategy played; ``controls``: each run's control, the tally of the strategy alone
    at a flat bet (the same seed and rounds, the plan's base boxes), or None where Ctrl-C came
    first (``stopped``) or in a sweep of penetrations (whose rows do not give it).
    ``partial``: Ctrl-C cut a run or its control short, or stopped the sweep. ``notes``: the
    lines for stderr after the runs' own (a control cut short: what was kept)."""

    runs: list
    asked: int
    strategy: object = None
    controls: list = field(default_factory=list)
    stopped: bool = False
    stopped_after: int | None = None  # a stop noted after the last run's end (`stops`)
    notes: list = field(default_factory=list)
    control_metas: list = field(default_factory=list)  # each control run's meta (cut short too)

    @property
    def timing(self) -> dict:
        """The json's ``timing``: of every run this invocation played, controls included
        (`run.Result.meta`'s each): ``seconds`` and ``resumed_rounds`` summed,
        ``rounds_per_second`` over the rounds played (not those resumed), ``control_seconds``
        the controls' share of the seconds (null where none ran), ``workers`` null where no
        round was played, ``cluster_startup_seconds`` summed; the rest the first run's."""
        metas = [r.meta for _, _, r in self.runs] + self.control_metas
        times = [m["timing"] for m in metas]
        seconds = sum(t["seconds"] for t in times)
        played = sum(m["run"]["rounds_played"] - m["timing"]["resumed_rounds"] for m in metas)
        startups = [t["cluster_startup_seconds"] for t in times
                    if t.get("cluster_startup_seconds") is not None]
        return times[0] | {
            "seconds": seconds,
            "rounds_per_second": played / seconds if seconds > 0 and played > 0 else None,
            "workers": next((t["workers"] for t in times if t["workers"] is not None), None),
            "cluster_startup_seconds": sum(startups) if startups else None,
            "resumed_rounds": sum(t["resumed_rounds"] for t in times),
            "control_seconds": sum(m["timing"]["seconds"] for m in self.control_metas)
            if self.control_metas else None,
        }

    @property
    def messages(self) -> list:
        """The lines for stderr after the runs: each run's (`run.Result.messages`; in a sweep
        naming its penetration: ``bjsim: penetration 0.7: 11,000,000 rounds in 1.62 s``), then
        ``notes``."""
        return [_named(COUNTER if pen is None else f"penetration {pen:g}", line)  # (its bar's)
                for pen, _, r in self.runs for line in r.messages] + self.notes

    @property
    def nothing_played(self) -> bool:
        """A stop came before the first run's first chunk finished: no round to report."""
        return not self.runs or self.partial and self.runs[0][2].meta["run"]["rounds_played"] == 0

    @property
    def stopped_compiling(self) -> bool:
        return bool(self.runs) and self.runs[0][2].stopped_compiling

    @property
    def partial(self) -> bool:
        return (self.stopped or len(self.runs) < self.asked
                or any(r.partial for _, _, r in self.runs))


def _named(what: str | None, line: str) -> str:
    """A run's stderr line (its time taken, an interruption) naming which run it is."""
    if what is None or not line.startswith("bjsim: "):
        return line
    return f"bjsim: {what}: {line.removeprefix('bjsim: ')}"


def check(rules, plan, penetrations=None, options=("--plan", "--penetrations"),
          given=None) -> list:
    """The rules of each run, (penetration or None, rules); a ValueError (one line, naming the
    ``options`` of the plan and the penetrations, and the plan as the user ``given`` it, a name
    or a path: by default its name) for a plan the rule set cannot play or a penetration it
    does not allow. ``rules`` are checked as a run's (`rules.validate`), ``plan`` is a loaded
    plan (`loaded`), ``penetrations`` None or a sequence of numbers (not a text)."""
    rules = validate(rules, "rules")  # (a Rules built in code: played only as a file could say)
    loaded(plan)
    opt_pen = options[1]
    if penetrations is not None and (isinstance(penetrations, (str, bytes))
                                     or not isinstance(penetrations, Iterable)):
        raise ValueError(f"{opt_pen}: {penetrations!r:.40} is not a sequence of numbers: "
                         "allowed a penetration a run, as (0.6, 0.7)")
    if penetrations is not None:
        penetrations = list(penetrations)
        for p in penetrations:  # (a text '0.8' had been parsed as a rule file's value: taken)
            if isinstance(p, (bool, np.bool_)) or not isinstance(
                    p, (int, float, np.integer, np.floating)):
                raise ValueError(f"{opt_pen}: {p!r:.40} is not a number: allowed a penetration "
                                 "a run, as (0.6, 0.7)")
    opt_plan = f"{options[0]} {plan.name if given is None else given}"
    if any(plan.super_sevens.values()) and not rules.super_sevens:
        raise ValueError(f"{opt_plan}: it bets Super Sevens, but the rule set's "
                         "super_sevens is false: allowed with --super-sevens")
    most = max(plan.boxes.values())
    if most > rules.boxes:
        raise ValueError(f"{opt_plan}: it plays up to {most} boxes, the rule set "
                         f"{rules.boxes}: allowed with --boxes {most} or more (rule 13)")
    too_large = round_too_large(rules, plan)
    if too_large is not None:
        raise ValueError(f"{opt_plan}: {too_large}")
    plays = plan.plays  # (read with the plan, not in the run's first chunk)
    if plays is not None and plays.count != plan.count.name:
        where = f"{opt_plan}: key 'indices' = {shown(plan.indices)}: {plays.source}: key 'count'"
        if plays.count not in list_counts():
            raise ValueError(f"{where} = {shown(plays.count)}: neither a shipped count "
                             f"({', '.join(list_counts())}) nor the plan's count: allowed index "
                             f"plays made for {plan.count.name}")
        raise ValueError(f"{where} = {shown(plays.count)}: the index plays are for the count "
                         f"{plays.count}, the plan counts {plan.count.name}: allowed index "
                         f"plays made for {plan.count.name}")
    if penetrations is None:
        return [(None, rules)]
    if rules.shuffle != "cut-card":
        raise ValueError(f"{opt_pen}: the rule set shuffles every round (key 'shuffle' = "
                         f"{shown(rules.shuffle)}), so there is no penetration: allowed with "
                         f"shuffle = {shown('cut-card')}")
    # (each as typed, where the command line kept it: `cli.PenetrationsType`'s `Typed`; a numpy
    # number as its value, not its repr "np.float64(0.8)", which was refused as no number)
    return [(_plain(p), apply_overrides(
        rules, [f"penetration={getattr(p, 'typed', repr(_plain(p)))}"], source=opt_pen))
        for p in penetrations]


def _plain(x):
    """``x`` as a Python number (a numpy number's ``item()``)."""
    return x.item() if isinstance(x, np.generic) else x


def indices_note(rules, plan) -> str | None:
    """Where ``plan`` plays shipped index plays (derived for the NZ rules: the file it read,
    `plans.CountingPlan.files`, is one of `strategies/indices/`) under rules that call for
    another chart, a line saying so; else None."""
    from simulator.derived import chart_change
    from simulator.index_plays import INDEX_DIR

    path = dict(plan.files).get("index plays")
    shipped = path is not None and path.resolve().parent == INDEX_DIR.resolve()
    if path is not None and not shipped and plan.plays is not None:
        return _own_indices_note(rules, plan, path)
    changed = chart_change(rules)
    if not shipped or not changed:
        return None
    return (f"the index plays {path.stem} were derived for the NZ rules; these rules "
            f"differ ({changed}), which can move the indices: bjsim strategy indices derives "
            "them for these rules")


def _own_indices_note(rules, plan, path) -> str | None:
    """For a plan's own index file as `bjsim strategy indices` writes it (its description
    ``COUNT index plays for RULES``): a line where RULES are not these rules' words
    (`exact.indices.rules_words`), which can move the indices; else None (a file written
    otherwise says nothing of its rules)."""
    from simulator.exact.indices import rules_words

    head = f"{plan.count.name} index plays for "
    said, ours = plan.plays.description, rules_words(plan.count, rules)
    if not said.startswith(head) or said == ours:
        return None
    return (f"the index plays {plan.plays.name} ({path.name}) were derived for "
            f"{said.removeprefix(head)}; these rules are {ours.removeprefix(head)}, which can "
            "move the indices: bjsim strategy indices derives them for these rules")


def boxes_note(rules, plan) -> str | None:
    """Where the table has more boxes (``rules.boxes``, `--boxes`) than ``plan``'s ``[boxes]``
    ever plays, a line saying the plan decides (the figures are its boxes', not the table's);
    else None."""
    most = max(plan.boxes.values())
    if rules.boxes <= most:
        return None
    return (f"the plan plays {most} box{'es' if most > 1 else ''} a round at most (its [boxes] "
            f"table); the rule set's {rules.boxes} is only the most it may")


def play(games: list, plan, strategy, name: str, *, rounds: int, seed: int, chunk_rounds: int,
         workers=None, rules_file=None, rules_name=None, overrides=(), quiet=False,
         say=None, checkpoint=None, resume=False, strategy_note=None, strategy_files=None,
         command=None, checkpoint_option="--checkpoint") -> Runs:
    """Play ``plan`` once for each of ``games`` (from `check`), every box playing ``strategy``
    (named ``name``) where no index play applies. ``say(text)``: a line before each run of a
    sweep. Ctrl-C stops the sweep: the runs finished, and the one cut short, are kept.
    ``checkpoint``, ``resume``, ``strategy_note``, ``strategy_files``, ``command``,
    ``checkpoint_option``: as `run.Plan`'s (the first two for a single game, whose control
    run is kept in the same checkpoint: `_control`)."""
    loaded(plan)
    if checkpoint is not None and (len(games) != 1 or games[0][0] is not None):
        raise ValueError("--checkpoint: not with --penetrations (even one): allowed with a "
                         "single run at the rule set's penetration (--set penetration=P for "
                         "another)")
    out = Runs([], len(games), strategy)
    for i, (pen, rules) in enumerate(games):
        if pen is not None and say is not None:
            say(f"penetration {pen:g} ({i + 1} of {len(games)})")
        changes = tuple(overrides) + ((f"penetration={pen:g}",) if pen is not None else ())
        game = run.Plan(rules, (strategy,) * rules.boxes, (name,) * rules.boxes, rounds=rounds,
                        seed=seed, chunk_rounds=chunk_rounds, workers=workers,
                        rules_file=rules_file, rules_name=rules_name, overrides=changes,
                        checkpoint=checkpoint, resume=resume, counting=plan,
                        checkpoint_option=checkpoint_option,
                        strategy_note=strategy_note, strategy_files=strategy_files,
                        command=command, bar="bjsim" if pen is not None else f"bjsim: {COUNTER}")
        try:
            result = run.simulate(game, quiet=quiet)
        except KeyboardInterrupt:  # before any chunk started: nothing of this run to show
            break
        out.runs.append((pen, rules, result))
        if result.partial:
            break
        last = result
        if pen is None:  # the control (a sweep's rows give no gain over it: none is run)
            control = None
            try:
                stops.deliver(result.stopped_after)  # a stop after the run's end: no control
                control = _control(rules, plan, strategy, name, rounds, seed, chunk_rounds,
                                   workers, quiet, checkpoint, checkpoint_option)  # fmt: skip
            except KeyboardInterrupt:  # before the control's first chunk started
                pass
            if control is not None:
                out.control_metas.append(control.meta)
            if control is None or control.partial:  # the sweep stops here too
                out.stopped = True
                out.notes = _control_stopped(control, rounds, checkpoint)
                break
            out.controls.append(control.tally)
            out.notes += [_named(CONTROL, line) for line in control.messages]  # (its time)
            last = control
        if i + 1 == len(games):
            out.stopped_after = last.stopped_after  # (the caller's: nothing is lost)
            break
        try:
            stops.deliver(last.stopped_after)  # after the run's end: no next run
        except KeyboardInterrupt:
            out.stopped = True
            break
    return out


def _control(rules, plan, strategy, name, rounds, seed, chunk_rounds, workers, quiet,
             checkpoint=None, checkpoint_option="--checkpoint"):
    """The strategy alone, every box at one unit, no count: the game the counter is set
    against (its `run.Result`, ``partial`` where Ctrl-C cut it short). With ``checkpoint``
    (the counter's, its run finished), its chunks are kept in that file's section
    ``"control"`` and resumed from there."""
    boxes = max(1, plan.boxes.base)
    flat = rules.replace(boxes=boxes)
    game = run.Plan(flat, (strategy,) * boxes, (name,) * boxes, rounds=rounds, seed=seed,
                    chunk_rounds=chunk_rounds, workers=workers, checkpoint=checkpoint,
                    checkpoint_part=None if checkpoint is None else "control",
                    checkpoint_option=checkpoint_option,
                    bar=f"bjsim: {CONTROL}")  # (its stderr lines' name too)
    return run.simulate(game, quiet=quiet)


def _control_stopped(control, rounds: int, checkpoint) -> list[str]:
    """The stderr lines of a control run (`_control`) that Ctrl-C cut short (None: before its
    first chunk): how far it got, and, with a checkpoint, that line of its closing lines
    (`run.end_lines`, `run.with_save_failed`: the last) which says what the file keeps."""
    done = 0 if control is None else control.meta["run"]["rounds_played"]
    lines = [f"bjsim: interrupted in the {CONTROL} after "
             f"{done:,} of its {rounds:,} rounds: the report is the counter's whole run, "
             "without the gain over the strategy alone"]
    if checkpoint is not None:
        lines.append(control.messages[-1] if control is not None and control.messages else
                     f"{run.SAVED}{checkpoint}: carry on with --resume")
    return lines


def shoe(tally) -> dict | None:
    """A run's shuffles and, of them, the refills (the shoe ran out mid-round) from its tally
    (None: none kept)."""
    return None if tally is None else {"shuffles": int(tally[L.T_SHUFFLES]),
                                       "refills": int(tally[L.T_REFILLS])}


def figures(runs: Runs, plan, bankroll=None, rounds_per_hour=None) -> list:
    """(penetration or None, `counting_report.figures`) of each run."""
    controls = runs.controls + [None] * (len(runs.runs) - len(runs.controls))
    return [(pen, counting_report.figures(r.counting, plan, rules, bankroll, runs.strategy,
                                          control, r.moments, r.nets, shoe(r.tally),
                                          rounds_per_hour))
            for (pen, rules, r), control in zip(runs.runs, controls, strict=True)]
