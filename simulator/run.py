"""One simulation run, start to finish: `simulate(plan)` plays a `Plan` and returns a `Result`.

It wires the engine (chunks, seeds, workers or a Dask scheduler, the precision target), the
checkpoint (resume, periodic writes, the write on Ctrl-C), the progress bar on stderr, the
metadata of the report and ``--exact`` beside the figures. ``bjsim simulate`` parses options into a
`Plan` and prints the `Result`; ``compare`` and ``report`` call the same function.
"""

from __future__ import annotations

import dataclasses
import errno
import math
import os
import sys
import time
from dataclasses import dataclass, field

import numpy as np

from simulator import (
    __version__,
    atomic,
    batches,
    checkpoint,
    chunks,
    distributed,
    engine,
    stops,
    tally,
)
from simulator import layout as L
from simulator.index_plays import play_words
from simulator.rules import (
    KEYS,
    Rules,
    changes_made,
    load_rule_file,
    no_effect_changes,
    rules_dict,
    validate,
)
from simulator.strategy import charts_sha256, dumps_strategy


class RunError(ValueError):
    """A run that cannot start as asked (a checkpoint in the way, or one that cannot be written)."""


@dataclass(frozen=True)
class Plan:
    """What to play. ``strategies`` and ``names``: one per box. ``rounds`` is the run's length, or
    with ``precision`` the cap (``--max-rounds``). ``rules_file``, ``rules_name`` and ``overrides``
    only label the report."""

    rules: Rules
    strategies: tuple
    names: tuple[str, ...]
    rounds: int = 10_000_000
    seed: int = 1994
    chunk_rounds: int = 1_000_000
    workers: int | None = None
    precision: float | None = None
    scheduler: str | None = None
    checkpoint: str | None = None
    resume: bool = False
    exact: bool = False
    checkpoint_option: str = "--checkpoint"  # the option that named ``checkpoint`` (--resume)
    rules_file: str | None = None
    rules_name: str | None = None
    overrides: tuple[str, ...] = ()
    counting: object = None  # a plans.CountingPlan: every box is the counter's (bjsim count)
    strategy_note: str | None = None  # what the report says of the strategy beside its name
    strategy_files: dict | None = None  # {name: path} of those read from a file (the metadata)
    command: dict | None = None  # the command line's options, kept in the checkpoint (`cli`)
    # the section of ``checkpoint`` this run is kept in, beside the run that made the file
    # (count's control run: "control"; resumed where there, else started afresh)
    checkpoint_part: str | None = None
    bar: str = "bjsim"  # the progress bar's label (count's: which of its runs it is)

    def __post_init__(self):
        """Checked as the command line's options are (a Plan made in code too): ValueError
        naming the field and what is allowed. Rules made in code with no ``rules_file`` or
        ``overrides`` are labelled by their changes from the NZ rule set."""
        from simulator.strategy import Strategy

        rules = validate(self.rules, "rules")
        n = rules.boxes
        if not isinstance(self.strategies, (tuple, list)) or len(self.strategies) != n or not all(
                isinstance(s, Strategy) for s in self.strategies):
            raise ValueError(f"strategies: {self.strategies!r:.60}: allowed a tuple of {n} "
                             f"Strategy (load_strategy), one a box (boxes = {n})")
        if isinstance(self.names, str) or len(self.names) != n or not all(
                isinstance(x, str) for x in self.names):
            raise ValueError(f"names: {self.names!r:.60}: allowed a tuple of {n} strategy names, "
                             "one a box")
        check_shared(self)
        object.__setattr__(self, "rules", rules)
        object.__setattr__(self, "strategies", tuple(self.strategies))
        object.__setattr__(self, "names", tuple(self.names))
        if self.rules_file is None and not self.overrides:
            object.__setattr__(self, "overrides", tuple(changes_made(Rules(), rules, KEYS)))
        if self.rules_file is None and self.rules_name is None:  # the NZ set's, as its file's
            object.__setattr__(self, "rules_name", load_rule_file()[1].get("name"))


def check_shared(plan) -> None:
    """Check the fields a `Plan` and a `simulator.compare.Plan` share, as the command line's
    options are: whole ``rounds``, ``seed`` and ``chunk_rounds`` (set as ints), ``precision``
    None or in (0, 1], with a precision ``rounds`` (its cap, ``--max-rounds``) at least
    `engine.MIN_TARGET_ROUNDS`, ``checkpoint`` None or a path, ``resume`` and ``exact`` True or
    False; else a ValueError naming the field."""
    for name, lo in (("rounds", 0), ("seed", 0), ("chunk_rounds", 1)):
        object.__setattr__(plan, name, engine.whole(name, getattr(plan, name), lo))
    p = plan.precision
    if p is not None and not (isinstance(p, (int, float)) and not isinstance(p, bool)
                              and 0 < p <= 1):
        raise ValueError(f"precision = {p!r}: allowed a number above 0 up to 1 "
                         "(a fraction: 0.0005 is ±0.05%)")
    least = engine.MIN_TARGET_ROUNDS  # (the run had stopped at its cap, the target NOT met)
    if p is not None and plan.rounds < least:
        raise ValueError(f"rounds = {plan.rounds}: a precision target is judged from {least:,} "
                         f"rounds on: allowed at least {least:,} with precision = {p!r}")
    if plan.checkpoint is not None and not isinstance(plan.checkpoint, (str, os.PathLike)):
        raise ValueError(f"checkpoint = {plan.checkpoint!r:.40}: allowed None or a file's path")
    for name in ("resume", "exact"):  # (a yes/no: "yes" or "no" had been taken as true)
        v = getattr(plan, name)
        if not (isinstance(v, (bool, np.bool_)) or isinstance(v, int) and v in (0, 1)):
            raise ValueError(f"{name} = {v!r:.40}: allowed True or False")


@dataclass
class Result:
    """What a run gave: the summed tally, its figures (``summary``, with ``exact`` when asked),
    the report's metadata (``meta``: rules, strategy, run, timing) and the lines for stderr."""

    tally: np.ndarray
    summary: dict
    meta: dict
    partial: bool
    messages: list[str] = field(default_factory=list)
    counting: np.ndarray | None = None  # a counter's counting tally (layout COUNT_NAMES)
    exact_stopped: bool = False  # Ctrl-C while the exact figures were computed: none given
    stopped_after: int | None = None  # a stop signal noted after the last chunk (`stops`)
    stopped_compiling: bool = False  # Ctrl-C while the kernel compiled: no chunk, no bar drawn
    moments: np.ndarray | None = None  # a counter's chunk moments, summed (`batches`)
    nets: np.ndarray | None = None  # a counter's rounds played by their net (`nets_of`)
    failure: str | None = None  # the cluster failed the run (`distributed.ClusterError`)

    @property
    def nothing_played(self) -> bool:
        """A stop (or the cluster's failure) came before any chunk finished: no round to
        report."""
        return self.partial and self.meta["run"]["rounds_played"] == 0


class CountState(engine.RunState):
    """`engine.RunState` of a counter: the payload is a chunk's tally, its counting tally, its
    moments for batch-means SEs (`batches.chunk_moments`), then its rounds played by their net
    (`chunks.CountChunk`)."""

    payload = "count"
    size = L.N_TALLY + L.N_TC * L.N_COUNT + batches.N_MOMENTS + L.N_NETS

    def zero(self) -> np.ndarray:
        return np.array([0] * self.size, dtype=object)

    def coerce(self, payload) -> np.ndarray:
        return np.array([int(x) for x in payload], dtype=object)

    def add_into(self, total, payload) -> np.ndarray:
        total += np.asarray(payload).astype(object)
        return total

    def measure(self, prefix) -> float | None:
        return engine.half_width(prefix[: L.N_TALLY])

    def read_checkpoint(self, prefix_end: int, prefix, extra: dict, stop) -> tuple:
        """A checkpoint's prefix and chunks, checked: whole numbers of the right size, and the
        rounds of both tallies those its chunks play; ValueError if not."""
        from simulator.chunks import chunk_size

        if not 0 <= prefix_end <= self.n_chunks or stop is not None and self.precision is None:
            raise ValueError(f"prefix_end = {prefix_end}, stop_chunk = {stop}: not of this run")
        parts = {"prefix": (prefix, range(prefix_end))}
        parts.update({f"chunk {i}": (v, [int(i)]) for i, v in extra.items()})
        out = {}
        for name, (values, idx) in parts.items():
            if not isinstance(values, list) or len(values) != self.size or any(
                    isinstance(x, bool) or not isinstance(x, int) for x in values):
                raise ValueError(f"{name}: a counter's payload is a list of {self.size} whole "
                                 "numbers")
            if any(not prefix_end <= i < self.n_chunks for i in idx if name != "prefix"):
                raise ValueError(f"{name}: not a chunk of this run past the prefix")
            rounds = sum(chunk_size(i, self.rounds, self.chunk_rounds) for i in idx)
            ct, moments = counted(values)
            nets = nets_of(values)
            if values[L.T_ROUNDS] != rounds or ct[:, L.C_ROUNDS].sum() != rounds or any(
                    values[k] < 0 for k in _NONNEGATIVE) or batches.chunks_of(moments) != len(
                    idx) or not batches.valid(moments) or min(nets) < 0 or sum(
                    nets) != ct[:, L.C_PLAYED].sum():
                raise ValueError(f"{name}: rounds or counts that its chunks cannot give")
            out[name] = np.array(values, dtype=object)
        return out.pop("prefix"), {int(k.split()[1]): v for k, v in out.items()}


def counted(payload) -> tuple[np.ndarray, np.ndarray]:
    """A counter's payload (`CountState`) past its tally: the counting tally (N_TC x N_COUNT)
    and the chunks' moments (`batches`)."""
    values = np.asarray(payload, dtype=object)
    end = L.N_TALLY + L.N_TC * L.N_COUNT
    return (values[L.N_TALLY:end].reshape(L.N_TC, L.N_COUNT),
            values[end:end + batches.N_MOMENTS])


def nets_of(payload) -> np.ndarray:
    """A counter's payload's last part: its rounds played by their net (``layout.N_NETS``)."""
    return np.asarray(payload, dtype=object)[-L.N_NETS:]


# Counts (never negative) of the payload: the tally's counts and the counting tally's.
_NONNEGATIVE = frozenset(
    [L.T_ROUNDS, L.T_BOX_ROUNDS, L.T_HANDS, L.T_CARDS_DEALT, L.T_SHUFFLES, L.T_REFILLS]
    + [L.N_TALLY + r * L.N_COUNT + f for r in range(L.N_TC)
       for f in (L.C_ROUNDS, L.C_PLAYED, L.C_BOXES, L.C_BET, L.C_FLAT_BOXES, L.C_SS_FLAT_BETS,
                 L.C_ROUND_SQ, L.C_FLAT_SQ, L.C_SS_FLAT_SQ, L.C_SS_PLUS, L.C_FLAT_RSQ,
                 L.C_MAIN_SQ, L.C_CROSS, L.C_MAIN_ALONE_SQ, L.C_INS_SQ, L.C_INS_WON,
                 L.C_INS_LOST)])  # fmt: skip


def rules_source(rules_file: str | None, rules_name: str | None, changes) -> dict:
    """What every output says of its rules: the file, its name with the command line's changes
    (``nz1994 (modified: decks=8)``) and the changes."""
    from simulator.rules import modified_name, shown_rule_file

    shown = shown_rule_file(rules_file)
    name = rules_name or shown
    return {"rules_file": shown,
            "rules_name": modified_name(name, changes), "overrides": list(changes)}


def _checkpoint_writer(plan: Plan, state: engine.RunState):
    """Resume from ``plan.checkpoint`` or refuse a file in the way; the writer, or None."""
    if plan.checkpoint is None:
        return None
    tables = engine.stack_tables(plan.rules, list(plan.strategies))
    if plan.counting is not None:
        tables = _counter(plan).tables + tables
    ident = checkpoint.identity(
        plan.rules, tables, plan.seed, plan.chunk_rounds, plan.rounds, plan.precision
    )
    # the names the rule and strategy files give themselves (their `name` keys), which the
    # outputs show: one edited before a resume had relabelled the rounds played before it (a
    # reproducibility review); a file's path is not kept here, so a file moved is given again
    ident["labels"] = _own_names(plan)
    if plan.counting is not None:  # its fields apart, so that a refusal names the one changed
        ident["counting"] = {f.name: repr(getattr(plan.counting, f.name))
                             for f in dataclasses.fields(plan.counting)
                             if f.name not in ("plays", "files", "keys", "sha256", "texts",
                                               "count_file")}
        # (files: where it was read from, sha256 and texts their bytes, count_file how the plan
        # named one (the count itself is `count`); keys: which keys its file wrote, a set, whose
        # repr's order changes between processes: what they say is in the other fields)
        # the index plays themselves, not only the path that names them: a play's index changes
        # no strategy table (tables_hash), only where the count switches between them
        ident["counting"]["index_plays"] = play_words(plan.counting.plays)
        ident["payload"] = (f"tally, counting tally, {batches.N_MOMENTS} chunk moments, "
                            f"{L.N_NETS} nets")
        if plan.rules.super_sevens:  # the 7-7 play its exact Super Sevens sums are of
            ident["super_sevens_exact"] = _exact_play_words(plan)
    return open_checkpoint(plan.checkpoint, plan.resume, ident, state, plan.command,
                           plan.checkpoint_part)


def _own_names(plan: Plan) -> dict:
    """The names the run's rule file and each box's strategy give themselves: the rule file's
    ``[meta] name`` ("none" where it has none; the NZ file's where no file is given), and each
    strategy's name (its file's ``name`` key, else the file's name without .toml)."""
    name = plan.rules_name
    if name is None and plan.rules_file is None:  # (a run made in code: the NZ file's)
        name = load_rule_file()[1].get("name")
    return {"the rule set's name": "none" if name is None else str(name),
            "each box's strategy name": [s.name for s in plan.strategies]}


def _exact_play_words(plan: Plan) -> str:
    """The 7-7 play a counter's exact Super Sevens sums value (`counter.exact_plays`)."""
    from simulator.counter import counter_seven_seven_play, exact_plays

    play = counter_seven_seven_play(plan.rules, plan.strategies[0], plan.counting)
    valued = exact_plays(plan.rules, play)
    if valued is None:
        return "none (the play changes with the count)" if play is None else "the convention"
    return "by up card A, 2-10: " + ", ".join(valued)


def compile_then_bar(job, finished: bool, scheduler: str | None, quiet: bool,
                     **options) -> tuple:
    """A first run's compile (``job.warm()``; not for a ``finished`` run, nor on a ``scheduler``'s
    cluster, which compiles its own: stderr says the cluster is awaited), before the bar and the
    clock start; then the run's progress bar (tqdm on stderr, ``options`` its total, initial and
    desc), none drawn when ``quiet`` or when Ctrl-C stopped the compile; on a ``scheduler``'s
    cluster, not drawn until `shown` (the cluster ready: the runner's ``ready``). Returns ``(bar,
    stopped_compiling)``."""
    compiling = False
    try:
        if not finished and scheduler is None:
            job.warm()
        elif not finished and not quiet:  # (the bar waits at 0% meanwhile)
            print("bjsim: starting a local Dask cluster (at most "
                  f"{distributed.START_TIMEOUT:g} s)" if scheduler == "local" else
                  f"bjsim: connecting to the Dask scheduler at {scheduler} (at most "
                  f"{distributed.CONNECT_TIMEOUT})", file=sys.stderr, flush=True)
        stops.check_lost()  # (a stop lost importing or compiling: no chunk played)
    except KeyboardInterrupt:
        compiling = True  # no chunk played: the caller says 'interrupted while compiling'
    waits = scheduler is not None and not finished  # (a bar at 0% meanwhile: blanked, the
    # Error line of a cluster that cannot be reached was on the bar's line)
    kind = _bar_kinds()[0] if terminal() else _line_bar()
    bar = kind(unit="round", unit_scale=True, file=sys.stderr, disable=quiet or compiling,
               dynamic_ncols=True, leave=False, delay=math.inf if waits else 0, **options)
    return bar, compiling


LINE_EVERY = 60.0  # seconds between the progress lines where stderr is not a terminal
EVERY_VAR = "BJSIM_PROGRESS_SECONDS"  # (the environment's choice of them)


def line_every() -> float:
    """Seconds between progress lines where stderr is not a terminal: `EVERY_VAR` where set to
    a number 0 or more, else (unset or empty, as ``BJSIM_CHECKPOINT_EVERY``) `LINE_EVERY`; set
    to anything else, a warning, once a process (a sweep draws a bar a run)."""
    text = os.environ.get(EVERY_VAR, "").strip()
    if not text:
        return LINE_EVERY
    try:
        every = float(text)
    except ValueError:
        every = -1.0
    if not (math.isfinite(every) and every >= 0):
        if text not in _WARNED:
            _WARNED.add(text)
            print(f"bjsim: warning: {EVERY_VAR}={text!r} is not a number of seconds, 0 or "
                  f"more: {LINE_EVERY:g} used", file=sys.stderr)
        return LINE_EVERY
    return every


_WARNED: set = set()  # (the values of EVERY_VAR warned of)


def terminal() -> bool:
    """Whether stderr is a terminal, where the progress bar redraws itself in place."""
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):  # (no stderr, or a closed one)
        return False


def _line_bar():
    """The progress bar for a stderr that is a file or a pipe (a log: no carriage returns): a
    line of its own every `line_every` seconds, none for a shorter run, and a last one as it
    closes where any was written and the last did not show the end. A redraw showing the
    rounds and figures of the last line (the runner's after its last chunk) writes none until
    `LINE_EVERY` has passed: with ``BJSIM_PROGRESS_SECONDS=0`` the last line came twice."""
    return _bar_kinds()[1]


_BARS: list = []  # (`_bar_kinds`'s two classes, made once)


def _bar_kinds() -> tuple:
    """The progress bar classes, ``(Bar, LineBar)``, made once a process: tqdm's bar, and
    `_line_bar`'s, without tqdm's monitor thread (``monitor_interval = 0``). Each tqdm class
    starts its own, and a disabled bar (``-q``) never stops it: a class made a run left a
    thread a run behind (``run.simulate`` in a loop, a notebook). The monitor redraws a bar
    whose last update came too soon after a draw to be drawn; a runner's bar is drawn at every
    chunk instead (`advance_bar`) and once more after the last."""
    if _BARS:
        return _BARS[0]
    from tqdm import tqdm

    class Bar(tqdm):
        monitor_interval = 0  # (tqdm's documented switch: no monitor thread)

    class LineBar(Bar):
        def __init__(self, *args, **kwargs):
            self._last = None  # (the rounds and figures of the last line written)
            self._every = LINE_EVERY if kwargs.get("disable") else line_every()  # (-q: no
            # bar, no word of its interval)
            super().__init__(*args, bar_format=(  # (no total, a precision run's: no % or ETA)
                "{desc}: {percentage:3.0f}% {n_fmt}/{total_fmt} rounds [{elapsed}<{remaining}, "
                "{rate_fmt}{postfix}]" if kwargs.get("total") else
                "{desc}: {n_fmt} rounds [{elapsed}, {rate_fmt}{postfix}]"), **kwargs)

        def clear(self, nolock=False):  # (tqdm.write's: nothing drawn in place to clear)
            pass

        def display(self, msg=None, pos=None):
            if msg is not None:  # (close's clearing: nothing to clear)
                return False
            now, start = self._time(), getattr(self, "start_t", None)  # (none while it starts)
            if start is None:
                return True
            since = now - max(start, getattr(self, "_line_time", start))
            if since < self._every or (self._shows() == self._last and since < LINE_EVERY):
                return True
            self._line(now)
            return True

        def _shows(self):
            return self.n, self.postfix

        @property
        def format_dict(self):  # the rate since the last line: tqdm's, an average of the last
            d = super().format_dict  # few chunks, swings where chunks end in pairs (two workers)
            now, start = self._time(), getattr(self, "start_t", None)
            t0, n0 = getattr(self, "_line_at", (start, self.initial))
            if start is not None and self.n > n0 and now > t0:
                d["rate"] = (self.n - n0) / (now - t0)
            return d

        def _line(self, now):
            self.fp.write(f"{self}\n")
            self.fp.flush()
            self._line_time, self._last, self._line_at = now, self._shows(), (now, self.n)

        def close(self):  # (no ``disable`` nor ``_last`` where Ctrl-C came inside ``__init__``)
            last = getattr(self, "_last", None)
            if not getattr(self, "disable", True) and last not in (None, self._shows()):
                self._line(self._time())
            super().close()

    _BARS.append((Bar, LineBar))
    return _BARS[0]


def not_started() -> tuple:
    """``(bar, stopped_compiling)`` of a run Ctrl-C stopped while it started (the tables
    stacked, the checkpoint first written, the kernel loaded), as `compile_then_bar`'s of one
    stopped while compiling: no bar drawn, no chunk played; the caller says 'interrupted while
    starting' and removes the checkpoint the run made (it holds no chunk)."""
    return _bar_kinds()[0](disable=True), True


def advance_bar(bar, state) -> None:
    """``bar`` at the rounds ``state`` holds (`engine.RunState.rounds_done`): the chunks past a
    precision stop, played but left out of the result, are taken off the bar too. Drawn: an
    update within tqdm's interval of its last draw (two chunks ending together) is not, and
    without tqdm's monitor thread (`_bar_kinds`) it would wait for the next chunk."""
    bar.update(state.rounds_done - bar.n)
    if not bar.disable and not bar.delay and bar.last_print_n != bar.n:
        now = bar._time()  # as tqdm's own draw: the rate's sample taken (else the rate stays
        dn, dt = bar.n - bar.last_print_n, now - bar.last_print_t  # at the last slow chunk's),
        if bar.smoothing and dn > 0 and dt > 0 and hasattr(bar, "_ema_dt"):  # and the rounds
            bar._ema_dn(dn)  # and time drawn at kept (a tqdm without these keeps its own
            bar._ema_dt(dt)  # average)
        bar.refresh()
        bar.last_print_n, bar.last_print_t = bar.n, now


def shown(bar) -> None:
    """Draw ``bar`` (`compile_then_bar`'s), held back until the cluster was ready; its clock
    (the rate) from now."""
    if not bar.disable and bar.delay:
        bar.delay = 0
        bar.unpause()
        bar.refresh()


def _counter(plan: Plan) -> chunks.CountChunk:
    """The job of a counter's run (``plan.counting``, every box playing ``plan.strategies[0]``
    with its index plays)."""
    from simulator.counter import counter_for

    tables, counter, insurance = counter_for(plan.rules, plan.strategies[0], plan.counting)
    return chunks.CountChunk(plan.rules.to_params(), tables, counter, insurance, plan.seed,
                             plan.rounds, plan.chunk_rounds)  # fmt: skip


def checkpoint_problem(path: str, resume: bool, option: str = "--checkpoint") -> str | None:
    """Why ``path`` cannot be a run's checkpoint (``resume``: one to carry on), or None, named
    by ``option``: the option that named the file as typed (`cli.checkpoint_option`: ``--resume``
    where ``--resume FILE`` did)."""
    if not path:
        return f"{option}: an empty path: name a file"
    if os.path.islink(path) and not os.path.exists(path):  # (a loop had read as a file "another
        target = os.path.realpath(path)  # run" made at the same time; a new file is made where
        try:  # a link leads, as its store)
            os.stat(path)
        except OSError as err:
            if err.errno == errno.ELOOP:
                return (f"{option} {path}: a symbolic link that leads nowhere (a loop): allowed "
                        "the path of a checkpoint file, or of a link to one")
        if resume:
            return f"--resume: checkpoint {path} does not exist (a symbolic link to {target})"
        if not os.path.isdir(os.path.dirname(target)):
            return (f"{option} {path}: cannot write: a symbolic link to {target}, in no folder "
                    f"{os.path.dirname(target)}")
    folder = atomic.target_problem(path)  # (in the words of the command line's -o and --checkpoint)
    if folder is not None and resume and os.path.isdir(path):
        return (f"{option} {path}: a folder, not a checkpoint: allowed the path of an existing "
                "checkpoint file (the run to carry on)")
    if folder is not None:
        return f"{option} {path}: {folder}"
    if os.path.exists(path) and not os.path.isfile(path):  # (a device read without end, a pipe)
        allowed = ("the path of an existing checkpoint file (the run to carry on)" if resume
                   else "the path of a checkpoint file (a new one is made there)")
        return f"{option} {path}: not a regular file (a device or a pipe): allowed {allowed}"
    if resume and not os.path.exists(path):
        return f"--resume: checkpoint {path} does not exist"
    if not resume and os.path.exists(path):
        return f"{option}: {path} exists: pass --resume to carry on with it, or remove it"
    return None


def open_checkpoint(path: str, resume: bool, ident: dict, state,
                    command: dict | None = None, part: str | None = None) -> checkpoint.Writer:
    """Load ``path`` into ``state`` (``resume``) or refuse a file in the way; the writer of the
    run ``ident`` (``simulate`` and ``compare``), which keeps ``command`` (the command line's
    options: `checkpoint.save`) in the file. With ``part``, the run is that section of the
    file another run made (`checkpoint.save_part`): resumed from it where there, whatever
    ``resume``."""
    resume = resume or part is not None
    problem = checkpoint_problem(path, resume)
    if problem is not None:
        raise RunError(problem)
    writer = checkpoint.Writer(path, ident, command=command, part=part)
    writer.fresh = not resume
    if resume and not writer.hold():  # (both would play its chunks and overwrite each other)
        raise RunError(f"--resume: checkpoint {path} is in use by another bjsim run: allowed "
                       "once that run has ended")
    if resume:
        try:
            writer.base = checkpoint.resume(path, ident, state, part)
        except BaseException:  # (refused: let it go at once, not when the writer is collected)
            writer.release()
            raise
    return writer


def saver(writer, state, option: str = "--checkpoint"):
    """``save(now)``: write ``state`` through ``writer`` (None: no checkpoint) now, or if its
    interval has passed (a finished run resumed: never, so a read-only one still gives its
    report). The first save, before the run, refuses an unwritable file
    (`RunError`); later, a failed write (a full disk) does not stop the run: stderr says so
    once, the next saves try again, and ``save.failed`` holds the last failure (None once a
    write succeeds), for the run's closing lines. ``save.release()``, after the last save, lets
    the file go, and removes one the run made (not one resumed) that holds no chunk (Ctrl-C, or
    an error, before any chunk finished): the same command then starts afresh, where it was
    refused (the file exists) though the file held nothing to carry on. A failed write names
    the file by the ``option`` that named it, as typed (``--resume FILE``)."""
    from tqdm import tqdm

    finished_before = state.finished  # a finished checkpoint resumed: nothing to write

    def save(now: bool) -> None:
        if writer is None or finished_before:
            return
        try:
            writer.write(state) if now else writer.maybe(state)
        except FileExistsError:  # (the first write of a new file: another run made it first)
            raise RunError(f"{option}: {writer.path} exists: another bjsim run started on it "
                           "at the same time: pass --resume to carry on with it once that run "
                           "has ended, or remove it") from None
        except OSError as err:
            text = f"{option} {writer.path}: cannot write: {err.strerror or err}"
            if not save.tried:
                raise RunError(text) from None
            if save.failed is None:
                tqdm.write(f"bjsim: {text}: the run goes on, its checkpoint as last saved "
                           "until a write succeeds", file=sys.stderr)
            save.failed = text
        else:
            save.failed = None
        finally:
            save.tried = True

    def release() -> None:
        if writer is None:
            return
        if writer.fresh and writer.writes and not state.finished and not state.rounds_done:
            writer.remove()
        else:
            writer.release()

    save.tried, save.failed, save.release = False, None, release
    return save


# A stop while chunks played, the chunks in play then finishing the run (`chunks.iter_jobs`)
STOPPED_WHOLE = "bjsim: stopped after the last chunk finished: the run is whole, every round played"
SAVED = "bjsim: finished chunks saved in "  # (`end_lines`: where a stopped run carries on)
KEPT = "; finished chunks saved in "  # (the same, at the end of a failed run's Error: line)


def with_save_failed(lines: list[str], save) -> list[str]:
    """A run's closing ``lines``, and where its last checkpoint write failed (`saver`) the line
    that says so in place of `end_lines`' "finished chunks saved" (which it contradicts)."""
    failed = getattr(save, "failed", None)
    if failed is None:
        return lines
    return [ln.split(KEPT)[0] for ln in lines if not ln.startswith(SAVED)] + [
        f"bjsim: {failed}: the report has every chunk played, but the checkpoint holds only what "
        "an earlier save wrote (--resume carries on from there)"]


def _progress_text(state: engine.RunState, precision: float | None) -> str:
    """The progress bar's running figure: the house edge, or in a counter's run (`CountState`)
    the counter's advantage per initial bet; and the precision target."""
    total = state.total()
    if isinstance(state, CountState):
        summed = counted(total)[0].sum(axis=0)
        bet = int(summed[L.C_BET])
        text = "" if not bet else \
            f"counter's advantage {100 * int(summed[L.C_NET]) / L.UNIT / bet:+.3f}%"
    else:
        he = tally.running_house_edge(total)
        text = "" if he is None else f"house edge {100 * he:.3f}%"
    if precision is not None:
        hw = state.half_width()
        hw_text = "-" if hw is None else f"{100 * hw:.4f}%"
        text += f" ±{hw_text} (target ±{100 * precision:.4f}%)"
    return text.strip()


@dataclass
class Played:
    """What `play_chunks` leaves its caller: the run's state and checkpoint saver, the rounds it
    resumed with, whether it is partial (a stop or the cluster's ``failure`` before the last
    chunk), ``stopped`` (Ctrl-C while chunks played, the run whole or not), its seconds (a
    cluster's start-up left out, in ``timing``) and ``late``, the stops held while it ended
    (the caller's)."""
    state: object
    save: object
    resumed: int
    partial: bool
    stopped: bool
    failure: str | None
    seconds: float
    timing: dict
    late: list
    compiling: bool  # stopped while compiling: no chunk played


def play_chunks(fresh, open_writer, make_job, chunks_of, progress, option, quiet, scheduler,
                precision, rounds, desc) -> Played:
    """The run of `simulate` and `compare.compare`: a ``fresh()`` state, resumed from the
    checkpoint ``open_writer(state)`` opens (its writer, or None), the job ``make_job()``
    compiled with a bar on stderr (``desc``, ``progress(state)`` its running figure; none if
    ``quiet``), then the chunks ``chunks_of(state, job, timing, ready)`` plays, each saved.
    Ctrl-C before the first chunk: no chunk, said as a stop while compiling; while they play:
    the finished ones kept (partial unless every chunk had finished)."""
    state = fresh()
    writer, starting = None, False  # starting: Ctrl-C before the first chunk started
    try:
        writer = open_writer(state)
    except KeyboardInterrupt:  # (the tables stacked, the checkpoint read: none of it kept)
        state, starting = fresh(), True
    save = saver(writer, state, option)
    resumed = int(state.rounds_done)
    job = None
    try:
        if not starting:
            save(now=True)  # a path that cannot be written fails now, not after an hour
            job = make_job()
            bar, compiling = compile_then_bar(
                job, state.finished, scheduler, quiet, initial=resumed, desc=desc,
                total=None if precision is not None else rounds)
    except KeyboardInterrupt:  # before the first chunk: as a stop while compiling, said so
        starting = True
    except BaseException:  # (an error before the run: the checkpoint made holds no chunk)
        save.release()
        raise
    if starting:
        bar, compiling = not_started()
    partial = compiling  # stopped while compiling: no chunk played, no bar drawn
    stopped = False  # Ctrl-C while chunks played (the run may be whole all the same)
    failure = None  # the cluster's (`distributed.ClusterError`): a partial result, as Ctrl-C's
    start = time.perf_counter()
    timing: dict = {}  # a Dask cluster's start-up, left out of the run's time
    played = chunks_of(state, job, timing, lambda: shown(bar))
    try:
        with stops.holding():  # (a stop raised where the engine looks, between chunks)
            for _chunk, _rounds in () if partial else played:
                bar.set_postfix_str(progress(state), refresh=False)
                advance_bar(bar, state)
                save(now=False)
        bar.refresh()  # the last chunk's figures, whenever the bar last drew
    except KeyboardInterrupt:
        partial = stopped = True
        played.close()  # cancels the chunks that have not started, keeps those in play
        bar.set_postfix_str(progress(state), refresh=False)
        advance_bar(bar, state)  # (its last line the rounds kept, the result's)
    except distributed.ClusterError as err:  # (the chunks finished by then are kept)
        partial, failure = True, str(err)
    finally:
        with stops.held() as late:  # (a stop from here on is the caller's: nothing is lost)
            bar.close()
            save(now=True)
            save.release()
    if partial and state.finished and failure is None:  # a stop after the last chunk: the
        late.insert(0, stops.last_signal())  # caller's too, as itself (SIGTERM: 143, not 130;
        # a cluster failed after the last chunk: no stop)
    # A stop after the last chunk (or the precision target) loses nothing: not partial.
    partial = partial and not state.finished
    failure = failure if partial else None  # (the cluster's, after the last chunk: the same)
    seconds = time.perf_counter() - start - (timing.get("startup") or 0.0)
    return Played(state, save, resumed, partial, stopped, failure, seconds, timing, late,
                  compiling)


def simulate(plan: Plan, quiet: bool = False, on_chunk=None, say=None) -> Result:
    """Play ``plan``: every chunk not already in its checkpoint, with a progress bar on stderr
    unless ``quiet``. Ctrl-C stops the run: the chunks that finished make a partial result
    (``Result.partial``), saved in the checkpoint if there is one. ``on_chunk(i, n_rounds,
    tally)``: called with each chunk's own tally as it finishes (`engine.advance`).
    ``say(text)``: told of a step that takes a while after the run (the exact figures). Ctrl-C
    while those are computed gives the run's result without them (``Result.exact_stopped``).

    Raises
    ------
    RunError, CheckpointError, RuleError, ValueError
        One-line messages for the command line (a checkpoint in the way, of another run, or that
        cannot be written).
    """
    counting = plan.counting is not None
    kind = CountState if counting else engine.RunState

    def job():
        return _counter(plan) if counting else chunks.PlayChunk(
            plan.rules.to_params(), engine.stack_tables(plan.rules, list(plan.strategies)),
            plan.seed, plan.rounds, plan.chunk_rounds)

    def played(state, job, timing, ready):
        if counting:
            return engine.advance_job(state, job, plan.workers, scheduler=plan.scheduler,
                                      timing=timing, say=tell, ready=ready)
        return engine.advance(state, plan.rules, list(plan.strategies), plan.seed, plan.workers,
                              scheduler=plan.scheduler, on_chunk=on_chunk, timing=timing,
                              say=tell, ready=ready)

    ran = play_chunks(lambda: kind(plan.rounds, plan.chunk_rounds, plan.precision),
                      lambda state: _checkpoint_writer(plan, state), job, played,
                      lambda state: _progress_text(state, plan.precision),
                      plan.checkpoint_option, quiet, plan.scheduler, plan.precision, plan.rounds,
                      plan.bar)
    state, save, resumed, partial, failure = (ran.state, ran.save, ran.resumed, ran.partial,
                                              ran.failure)
    with stops.held() as later:
        startup, seconds = ran.timing.get("startup"), ran.seconds
        total = state.total()
        ctally = moments = nets = None
        if counting:
            (ctally, moments), nets, total = counted(total), nets_of(total), total[: L.N_TALLY]
        summary = tally.summarize(total, plan.rules, tally.ss_lines_possible(
            plan.strategies, plan.rules), plan.strategies, plan.names)
        meta = _meta(plan, state, total, partial, resumed, seconds, startup,
                     ran.timing.get("threads"))
        if failure is not None:  # (the table's words for the stop: not in json or csv)
            meta["failure"] = failure
        messages = with_save_failed(_messages(plan, meta, resumed, partial, quiet, failure),
                                    save) + ([STOPPED_WHOLE] if ran.stopped and not partial else [])
    noted = (ran.late + later + [None])[0]
    try:
        if plan.exact:
            stops.deliver(noted)  # a stop since the last chunk: no exact figures
        _add_exact(plan, summary, say)
    except KeyboardInterrupt:  # the run's own figures stand
        summary.pop("exact", None)
        messages.append("bjsim: interrupted while the exact figures were computed: the report "
                        "is the whole run's, without them")
        return Result(total, summary, meta, partial, messages, ctally, exact_stopped=True,
                      moments=moments, nets=nets)
    return Result(total, summary, meta, partial, messages, ctally, stopped_after=noted,
                  stopped_compiling=ran.compiling, moments=moments, failure=failure, nets=nets)


def _add_exact(plan: Plan, summary: dict, say) -> None:
    """``--exact``: the exact figures beside the simulated ones in ``summary["exact"]``."""
    if plan.exact:  # the exact figures from the cache where it holds them (`derived`)
        from simulator import derived, report
        from simulator.exact import compare
        from simulator.exact.cache import then_kept

        said = []

        def computing():  # once, and only for figures not in the cache
            if say is not None and not said:
                said.append(say("exact figures by card removal (some seconds, "
                                f"{then_kept()})"))

        figures = derived.exact_for(plan.rules, plan.strategies, computing)
        th = {"house_edge": figures["house_edge"], "super_sevens": figures["super_sevens_ev"]}
        summary["exact"] = compare.compare_with_simulation(
            summary, plan.rules, list(plan.strategies), th
        )
        by = report.by_strategy(summary, list(plan.names))
        if by:  # each strategy against its own one-box figure
            summary["exact"]["by_strategy"] = [_exact_of(e, plan, computing) for e in by]


def _exact_of(entry: dict, plan: Plan, say=None) -> dict:
    """A strategy's figures (`report.by_strategy`) beside its exact one-box figures."""
    from simulator import derived, report
    from simulator.exact import compare

    one, strategy = plan.rules.replace(boxes=1), plan.strategies[entry["first_box"] - 1]
    figures = derived.exact_for(one, [strategy], say)
    th = {"house_edge": figures["house_edge"], "super_sevens": figures["super_sevens_ev"]}
    cmp = compare.compare_with_simulation(  # (its z's cut-card caveat: of the table's boxes)
        {"house_edge": entry["house_edge"], "super_sevens": entry["super_sevens"] or {},
         "total": entry["house_edge"]}, one, [strategy], th, plan.rules.boxes,
        len(entry["box_numbers"]))  # (its illustration by its own boxes' SD)
    cmp.pop("exact_note")  # (named as in results.by_strategy, to join them; label: the table's)
    return {"strategy": entry["strategy"], "box_numbers": entry["box_numbers"],
            "label": report.strategy_label(entry)} | cmp


def _meta(plan: Plan, state, total, partial: bool, resumed: int, seconds: float,
          startup: float | None = None, threads: int | None = None) -> dict:
    """The report's metadata. ``threads``: a ``tcp://`` cluster's worker threads (the most it
    had), its ``timing.workers``."""
    done = int(total[L.T_ROUNDS])
    # the changes of no effect under the other rules (`rules.no_effect`), and why
    idle = no_effect_changes(plan.rules, plan.overrides)
    meta = {
        "version": __version__,
        "rules": rules_dict(plan.rules),
        "strategy": list(plan.names),
        # each box's charts as the engine plays them (`strategy.charts_sha256`): what a name or
        # a file's path cannot say, an edited copy of a chart from the one before the edit
        "strategy_sha256": [charts_sha256(s) for s in plan.strategies],
        # and each as a strategy file, by that hash: a run of a file rebuilt from the json alone
        "strategy_charts": {charts_sha256(s): dumps_strategy(s) for s in plan.strategies},
        "run": rules_source(plan.rules_file, plan.rules_name, plan.overrides)
        | ({"no_effect": idle} if idle else {}) | {
            "seed": plan.seed,
            "rounds": plan.rounds,
            "rounds_played": done,
            "chunk_rounds": plan.chunk_rounds,
            "boxes": plan.rules.boxes,
            "super_sevens": plan.rules.super_sevens,
            "partial": partial,
            "strategy_note": plan.strategy_note,
        } | ({"strategy_files": dict(plan.strategy_files)} if plan.strategy_files else {}),
        "timing": {
            "seconds": seconds,
            "rounds_per_second": (done - resumed) / seconds if seconds > 0 and done > resumed
            else None,  # (none played here: no speed)
            "workers": timing_workers(plan.workers, plan.scheduler, threads, done > resumed),
            "scheduler": plan.scheduler,
            "cluster_startup_seconds": startup,  # (not in "seconds")
            "checkpoint": plan.checkpoint,
            "resumed_rounds": resumed,
        },
    }
    if plan.rules.super_sevens:
        from simulator.report import sevens_note, sevens_play_text, sevens_player_edge

        meta["sevens_play"] = [sevens_play_text(s, plan.rules) for s in plan.strategies]
        meta["sevens_note"] = sevens_note(meta["sevens_play"], meta["rules"])
        meta["sevens_player_edge"] = sevens_player_edge(meta["rules"])
    if plan.precision is not None:
        meta["run"]["precision"] = {
            "target": plan.precision,
            "max_rounds": plan.rounds,
            "half_width": state.half_width() if not partial else engine.half_width(total),
            "met": bool(state.target_met),
            "stop_chunk": state.stop_chunk,
        }
    return meta


# A resumed run stopped before a chunk finished, in place of a speed: its rounds are the
# checkpoint's, and it is not finished (`finished_line` is for one that is)
NO_CHUNK = "(stopped before a chunk finished)"


def finished_line(done: int, checkpoint, games: str = "") -> str:
    """stderr's line for a resumed run its checkpoint held whole (``games``: compare's ``2 games
    x ``): no rounds played now, not ``0 rounds in 0.00 s``. Not for a run stopped before a
    chunk finished (partial: `NO_CHUNK`)."""
    return (f"bjsim: {games}all {done:,} rounds from {checkpoint}, none left to play (a finished "
            "run)")


def rounds_line(done: int, resumed: int, seconds: float, speed: str, checkpoint, partial: bool,
                games: str = "", startup: float | None = None) -> str:
    """stderr's line for the rounds a run played now (``speed``: ``(N rounds/s)``, said where
    it played a chunk), with the cluster's start-up and those resumed from ``checkpoint``; or
    `finished_line` for a resumed run its checkpoint held whole (not one stopped before a
    chunk finished, ``partial``)."""
    if resumed and done == resumed and not partial:
        return finished_line(done, checkpoint, games)
    return (f"bjsim: {games}{done - resumed:,} rounds in {seconds:.2f} s "
            + (speed if done > resumed or not resumed else NO_CHUNK)
            + (f", after {startup:.2f} s for the Dask cluster to be ready" if startup else "")
            + (f"; {resumed:,} more from {checkpoint}" if resumed else ""))


def _messages(plan: Plan, meta: dict, resumed: int, partial: bool, quiet: bool,
              failure: str | None = None) -> list[str]:
    """The lines for stderr after the run: its speed (unless ``quiet``), the precision target, an
    interruption or the cluster's ``failure``."""
    done, timing = meta["run"]["rounds_played"], meta["timing"]
    out = [] if quiet else [rounds_line(
        done, resumed, timing["seconds"], f"({timing['rounds_per_second'] or 0:,.0f} rounds/s)",
        plan.checkpoint, partial, startup=timing.get("cluster_startup_seconds"))]
    return out + end_lines(meta["run"].get("precision"), done, partial, plan.checkpoint,
                           failure=failure)


def end_lines(precision: dict | None, done: int, partial: bool, checkpoint_path,
              half_width: str = "half-width", rounds: str = "rounds",
              unit: str = "%", failure: str | None = None) -> list[str]:
    """The stderr lines on how a run ended: its precision target (``meta["run"]["precision"]``)
    met or not, or an interruption and where its chunks were saved. ``unit``: after the
    percents (" pp" for a difference of house edges). ``failure``: the cluster's, which
    stopped the run (`distributed.ClusterError`): one ``Error:`` line in place of the
    interruption's, saying what was kept."""
    out = []
    if precision is not None and not partial:
        p = precision
        hw = "-" if p["half_width"] is None else f"±{100 * p['half_width']:.4f}{unit}"
        target = f"±{100 * p['target']:.4f}{unit}"
        if p["met"]:
            out.append(f"bjsim: precision target {target} met after {done:,} {rounds} "
                       f"({half_width} {hw})")
        else:
            out.append(f"bjsim: precision target {target} NOT met: stopped at --max-rounds "
                       f"{p['max_rounds']:,} ({half_width} {hw})")
    if partial and failure is not None:
        out.append(f"Error: {failure}: partial result of {done:,} {rounds}"
                   + (f"{KEPT}{checkpoint_path}: carry on with --resume"
                      if checkpoint_path is not None else ""))
    elif partial:
        out.append(f"bjsim: interrupted: partial result of {done:,} {rounds}")
        if checkpoint_path is not None:
            out.append(f"{SAVED}{checkpoint_path}: carry on with --resume")
    return out


def timing_workers(workers: int | None, scheduler: str | None, threads: int | None,
                   played: bool = True):
    """A report's ``timing.workers``: the threads (with ``--scheduler local``: the worker
    processes) asked for, else every CPU; on a ``tcp://`` cluster, its worker threads (the most
    it had in the run; None before it was reached), ``--workers`` playing no part there. None
    where the run played no round (not ``played``: a finished checkpoint resumed)."""
    if not played:
        return None
    if scheduler is not None and scheduler != "local":
        return threads
    return workers or os.cpu_count()


def tell(text: str) -> None:
    """The runner's word (`distributed.iter_jobs`: a cluster with no worker) as a line on stderr
    above the bar, with or without ``-q``, as a failed checkpoint write's: the run waits, and a
    user must know why."""
    from tqdm import tqdm

    tqdm.write(f"bjsim: {text}", file=sys.stderr)


def render(result: Result, fmt: str) -> str:
    """The report of a run in ``fmt`` (``table``, ``csv``, ``json``), ``--exact`` included."""
    from simulator import report

    text = report.render(result.summary, fmt, result.meta)
    comparison = result.summary.get("exact")
    if comparison is not None:
        from simulator.exact import compare

        if fmt == "table":
            text += compare.comparison_text(comparison)
        elif fmt == "csv":
            text += compare.comparison_csv(comparison)
    return text
