"""The engine: split a run into chunks, seed each chunk, run the chunks on threads (or a Dask
cluster), add the tallies, and stop on a precision target.

A result depends on the seed, the rule set, the strategies and the chunk size, never on the number
of threads or machines (docs/design.md, "Reproducibility"); memory stays flat however many rounds
are asked for (README, "Scale: precision, checkpoints, clusters, memory").
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Container, Iterator

import numpy as np

from simulator import DEFAULT_CHUNK_ROUNDS, distributed, stops
from simulator import layout as L
from simulator import tally as T
from simulator.checks import whole  # noqa: F401 - engine.whole is part of the API
from simulator.chunks import (  # noqa: F401 - chunk_state and chunk_size are part of the API
    IN_FLIGHT_PER_WORKER,
    PlayChunk,
    chunk_count,
    chunk_size,
    chunk_state,
    iter_jobs,
    lookahead_for,
    schedule,
)
from simulator.rules import validate

Z95 = 1.959963984540054  # two-sided 95% normal quantile (as simulator.tally)


def stack_tables(rules, strategies) -> tuple:
    """``strategy.stack`` of ``strategies`` (one Strategy, or one per box) for ``rules.boxes``."""
    from simulator.strategy import stack

    if not isinstance(strategies, (list, tuple)):
        strategies = [strategies]
    strategies = list(strategies)
    if len(strategies) == 1 and rules.boxes > 1:
        strategies = strategies * rules.boxes
    if len(strategies) != rules.boxes:
        raise ValueError(
            f"strategies: {len(strategies)} given for boxes = {rules.boxes}: give one, or one per "
            "box"
        )
    return stack(strategies)


def _check_run(rounds, chunk_rounds, workers) -> tuple[int, int, int]:
    rounds = whole("rounds", rounds)
    chunk_rounds = whole("chunk_rounds", chunk_rounds, 1)
    workers = (os.cpu_count() or 1) if workers is None else whole("workers", workers, 1)
    return rounds, chunk_rounds, workers


def check_headroom(rules, chunk_rounds: int, option: str = "chunk_rounds =",
                   rounds: int | None = None, rounds_option: str = "rounds =") -> None:
    """Refuse a chunk size whose int64 tally could overflow under ``rules``
    (`simulator.tally.max_chunk_rounds`), naming the field that binds and why; ``option``: how
    the message names the chunk size. With ``rounds`` (the most the run plays, named by
    ``rounds_option``), a chunk holds at most ``min(chunk_rounds, rounds)`` rounds, and only
    those are checked. The run adds chunks in Python integers, exactly."""
    limit = T.max_chunk_rounds(rules)
    held = int(chunk_rounds) if rounds is None else min(int(chunk_rounds), int(rounds))
    if held <= limit:
        return
    per = T.max_per_round(rules)
    field = max(per, key=per.get)  # the largest a round can add binds
    if field.startswith("ss_"):
        why = (f"Super Sevens pays up to {max(rules.super_sevens_pays):,} to 1 on each of "
               f"{rules.boxes} box(es)")
    else:
        why = f"{rules.boxes} box(es) of up to {rules.max_hands} hand(s), each doubled"
    played = f" with {rounds_option} {held:,}" if held < int(chunk_rounds) else ""
    raise ValueError(
        f"{option} {int(chunk_rounds):,}{played} could overflow a chunk's 64-bit tally field "
        f"'{field}' under these rules ({why}): allowed at most {limit:,} rounds a chunk: give "
        f"{option} {limit:,} or fewer"
    )


def iter_chunks(
    rules,
    strategies,
    rounds: int,
    seed: int,
    chunk_rounds: int = DEFAULT_CHUNK_ROUNDS,
    workers=None,
    *,
    skip: Container[int] | None = None,
    scheduler: str | None = None,
    late: list | None = None,
    timing: dict | None = None,
    say: Callable[[str], None] | None = None,
    ready: Callable[[], None] | None = None,
) -> Iterator[tuple[int, int, np.ndarray]]:
    """Run the chunks of a simulation; yield ``(chunk_index, n_rounds, tally)`` as each finishes
    (not necessarily in index order). While chunks play, Ctrl-C is raised between them; while
    the generator is suspended at a yield, it is the caller's (`chunks.iter_jobs`).

    Parameters
    ----------
    rules : Rules
    strategies : Strategy or list of Strategy
        One strategy for every box, or one per box.
    rounds : int
        Total rounds.
    seed : int
        Root seed of the ``SeedSequence``.
    chunk_rounds : int
        Rounds per chunk (the result depends on it).
    workers : int, optional
        Threads; default ``os.cpu_count()``. With ``scheduler``: chunks in flight per Dask
        worker thread is ``IN_FLIGHT_PER_WORKER``, and ``workers`` is the number of workers a
        ``"local"`` cluster starts.
    skip : container of int, optional
        Chunk indices not to run (finished before, e.g. from a checkpoint).
    scheduler : str, optional
        None: threads in this process. ``"local"``: a Dask ``LocalCluster`` started for this run;
        ``"tcp://host:port"``: an existing Dask distributed scheduler (`simulator.distributed`).

    late : list, optional
        Where the chunks finished when the generator is closed (or Ctrl-C stops it, or the
        cluster fails) go: on threads those still running too, as they finish (a thread cannot
        be stopped); on Dask those finished by then (the others are cancelled).
    timing : dict, optional
        With ``scheduler``: ``timing["startup"]``, the seconds the cluster took to be ready, and
        ``timing["threads"]``, the most worker threads it had.
    say : callable, optional
        ``say(text)`` is told, at once, what a stop does to the chunks in play; with
        ``scheduler``, also when the cluster has no worker.
    ready : callable, optional
        With ``scheduler``: ``ready()`` is called once the cluster is ready (connected, or the
        local cluster started), before any chunk is sent (the command line's bar is drawn then).
    """
    rounds, chunk_rounds, workers = _check_run(rounds, chunk_rounds, workers)
    rules = validate(rules, "rules")  # (a Rules built in code: played only as a file could say)
    seed = whole("seed", seed)
    check_headroom(rules, chunk_rounds, rounds=rounds)
    params = rules.to_params()  # computed once for the whole run
    tables = stack_tables(rules, strategies)
    job = PlayChunk(params, tables, seed, rounds, chunk_rounds)
    yield from iter_job_chunks(job, chunk_count(rounds, chunk_rounds), workers, skip=skip,
                               scheduler=scheduler, late=late, timing=timing, say=say,
                               ready=ready)


def iter_job_chunks(
    job: Callable,
    n_chunks: int,
    workers=None,
    *,
    skip: Container[int] | None = None,
    scheduler: str | None = None,
    late: list | None = None,
    timing: dict | None = None,
    say: Callable[[str], None] | None = None,
    ready: Callable[[], None] | None = None,
) -> Iterator[tuple]:
    """Run ``job(i) -> (i, n_rounds, payload)`` for the chunks ``0..n_chunks-1`` not in ``skip``,
    on threads or (``scheduler``) a Dask cluster, as `iter_chunks` does for one rule set; yield
    each result as it finishes (``late``, ``timing``, ``say``, ``ready``: as `iter_chunks`).
    ``bjsim compare`` plays every variant of a chunk in one job."""
    workers = (os.cpu_count() or 1) if workers is None else int(workers)
    if workers < 1:
        raise ValueError(f"workers = {workers} is out of range: allowed >= 1")
    if skip is not None and (not isinstance(skip, Container) or isinstance(skip, (str, bytes))):
        raise ValueError(f"skip = {skip!r:.40}: allowed None or a container of chunk indices "
                         "(a set of ints)")
    if n_chunks == 0:
        return
    todo = schedule(n_chunks, skip)
    if scheduler is not None:
        yield from distributed.iter_jobs(job, todo, scheduler, workers=workers, timing=timing,
                                         late=late, say=say, ready=ready)
    else:
        yield from iter_jobs(job, todo, workers, late, say)


def run(
    rules,
    strategies,
    rounds: int,
    seed: int,
    chunk_rounds: int = DEFAULT_CHUNK_ROUNDS,
    workers=None,
    progress: Callable[[int, np.ndarray], None] | None = None,
    *,
    scheduler: str | None = None,
) -> np.ndarray:
    """Simulate ``rounds`` rounds and return the summed tally (Python integers in an object
    array, `simulator.tally.run_total`; layout ``TALLY_NAMES``).

    ``progress(n_rounds_done, tally_so_far)`` is called in the calling thread after each chunk.
    The result for a seed does not depend on ``workers`` or ``scheduler``.

    Examples
    --------
    >>> from simulator.rules import Rules
    >>> tally = run(Rules(), strategy, rounds=10_000_000, seed=1)  # doctest: +SKIP
    """
    if progress is not None and not callable(progress):
        raise ValueError(f"progress = {progress!r:.40}: allowed None or a function "
                         "progress(n_rounds_done, tally_so_far)")
    total = T.run_total()
    done = 0
    chunks = iter_chunks(
        rules, strategies, rounds, seed, chunk_rounds, workers, scheduler=scheduler
    )
    try:
        with stops.holding():  # (a stop in ``progress`` raised between chunks, as while they play)
            for _, n, tally in chunks:
                T.add_into(total, tally)
                done += n
                if progress is not None:
                    progress(done, total.copy())
    finally:
        chunks.close()
    return total


# ---------------------------------------------------------------------------------------------
# Precision targets and resumable runs


# Rounds before a precision target is checked: the SD of fewer (of two alike: 0) is no ground
# to stop on.
MIN_TARGET_ROUNDS = 1_000


def half_width(tally) -> float | None:
    """The 95% confidence half-width of the house edge of ``tally`` (``Z95 * se``, as
    `simulator.tally.summarize` computes it); None with fewer than two rounds."""
    rounds = int(tally[L.T_ROUNDS])
    if rounds < 2:
        return None
    boxes = int(tally[L.T_BOX_ROUNDS]) // rounds
    s, sq = int(tally[L.T_RTOTAL_SUM]), int(tally[L.T_RTOTAL_SQ])
    var = max(rounds * sq - s * s, 0) / (rounds * (rounds - 1))  # exact integer numerator
    sd = math.sqrt(var) / L.UNIT
    return Z95 * (sd / math.sqrt(rounds) / boxes)


def _precision(p) -> float:
    """``p`` as a float if a number above 0 up to 1, else a ValueError in `run.check_shared`'s
    words (-1 or NaN had played every chunk, the target never met; "x" float()'s words)."""
    if isinstance(p, (bool, np.bool_)) or not isinstance(p, (int, float, np.integer,
                                                             np.floating)) or not 0 < p <= 1:
        shown = p.item() if isinstance(p, np.generic) else p
        raise ValueError(f"precision = {shown!r:.40}: allowed a number above 0 up to 1 "
                         "(a fraction: 0.0005 is ±0.05%)")
    return float(p)


class RunState:
    """What a run has finished: the summed tally of the contiguous prefix of chunks
    ``0..prefix_end-1``, the finished chunks past it (index -> tally), and, with a precision
    target, the chunk it stopped at.

    This is all a checkpoint holds and all a resume needs; its size is bounded by the lookahead
    (`iter_chunks`), not by the number of rounds.

    Parameters
    ----------
    rounds : int
        Rounds of the run (with a precision target: the cap, ``max_rounds``).
    chunk_rounds : int
    precision : float, optional
        Target 95% half-width of the house edge (a fraction: 0.0005 = 0.05%), above 0 up to 1
        as `run.Plan`'s; else a ValueError naming it.
    """

    def __init__(self, rounds: int, chunk_rounds: int, precision: float | None = None):
        self.rounds = whole("rounds", rounds)
        self.chunk_rounds = whole("chunk_rounds", chunk_rounds, 1)
        self.precision = None if precision is None else _precision(precision)
        self.n_chunks = chunk_count(self.rounds, self.chunk_rounds)
        self.prefix_end = 0
        self.prefix = self.zero()
        self.extra: dict[int, np.ndarray] = {}
        self.stop_chunk: int | None = None  # precision target met with chunks 0..stop_chunk

    # -- the payload of a chunk: a tally here; a subclass may sum something else (bjsim compare)
    payload = "tally"  # what a checkpoint of this state holds (`simulator.checkpoint.resume`)

    def zero(self) -> np.ndarray:
        """The payload of no chunk, in Python integers: exact however many rounds."""
        return T.run_total()

    def coerce(self, payload) -> np.ndarray:
        """A chunk's payload as stored."""
        return np.asarray(payload, np.int64)

    def add_into(self, total, payload) -> np.ndarray:
        """``total += payload``, exactly; returns ``total``."""
        return T.add_into(total, payload)

    def measure(self, prefix) -> float | None:
        """The half-width the precision target is checked against."""
        return half_width(prefix)

    @property
    def rounds_done(self) -> int:
        """Rounds in `total` (the first entry of the payload is a tally)."""
        return int(self.total()[L.T_ROUNDS])

    # -- queries
    def __contains__(self, i: int) -> bool:
        """Whether chunk ``i`` is finished."""
        return i < self.prefix_end or i in self.extra

    @property
    def finished(self) -> bool:
        """All chunks done, or the precision target met."""
        return self.stop_chunk is not None or self.prefix_end >= self.n_chunks

    @property
    def target_met(self) -> bool | None:
        """With a precision target: whether it was met (None without a target)."""
        return None if self.precision is None else self.stop_chunk is not None

    def total(self) -> np.ndarray:
        """The result: the prefix once finished, else every finished chunk (a partial result)."""
        out = self.prefix.copy()
        if not self.finished:
            for t in self.extra.values():
                self.add_into(out, t)
        return out

    def half_width(self) -> float | None:
        """The 95% half-width of the prefix (what the stopping rule sees)."""
        return self.measure(self.prefix)

    def skip(self) -> _Skip:
        """A frozen container of the finished chunk indices (for `iter_chunks`)."""
        return _Skip(self.prefix_end, frozenset(self.extra))

    # -- updates
    def add(self, i: int, tally) -> bool:
        """Record finished chunk ``i``; move it and its finished successors into the prefix, one
        at a time, checking the precision target after each. Returns ``finished``."""
        if self.finished or i in self:
            return self.finished
        self.extra[int(i)] = self.coerce(tally)
        while self.prefix_end in self.extra and not self.finished:
            self.add_into(self.prefix, self.extra.pop(self.prefix_end))
            self.prefix_end += 1
            self._check_target()
        if self.finished:
            self.extra.clear()  # chunks past the stop are not part of the result
        return self.finished

    def _check_target(self) -> None:
        if self.precision is None or int(self.prefix[L.T_ROUNDS]) < MIN_TARGET_ROUNDS:
            return
        hw = self.measure(self.prefix)
        if hw is not None and hw <= self.precision:
            self.stop_chunk = self.prefix_end - 1

    def restore(self, prefix_end: int, prefix, extra: dict, stop_chunk: int | None) -> None:
        """Set the state from a checkpoint (`simulator.checkpoint`)."""
        self.prefix_end = int(prefix_end)
        self.prefix = self.add_into(self.zero(), prefix)
        self.extra = {int(i): self.coerce(t) for i, t in extra.items()}
        self.stop_chunk = None if stop_chunk is None else int(stop_chunk)


class _Skip:
    """Finished chunk indices: ``i < prefix_end`` or in ``extra``."""

    def __init__(self, prefix_end: int, extra: frozenset):
        self.prefix_end = prefix_end
        self.extra = extra

    def __contains__(self, i) -> bool:
        return i < self.prefix_end or i in self.extra


def advance(
    state: RunState,
    rules,
    strategies,
    seed: int,
    workers=None,
    *,
    scheduler: str | None = None,
    on_chunk: Callable[[int, int, np.ndarray], None] | None = None,
    timing: dict | None = None,
    say: Callable[[str], None] | None = None,
    ready: Callable[[], None] | None = None,
) -> Iterator[tuple[int, int]]:
    """Run the chunks ``state`` has not finished, recording each in ``state``; yield
    ``(chunk_index, n_rounds)`` after each, and stop once ``state.finished``.

    ``on_chunk(chunk_index, n_rounds, tally)``, if given, sees each chunk's own tally as it
    arrives (any order; chunks past a precision stop too), e.g. to draw the running house edge.

    Closing the generator (or an exception in the caller's loop, e.g. Ctrl-C, or the cluster's
    `distributed.ClusterError`) cancels what has not started; ``state`` then holds every chunk
    that finished, ready for a checkpoint. ``timing``, ``say``, ``ready``: as `iter_chunks`.

    Examples
    --------
    >>> state = RunState(10**9, 10**6, precision=0.0005)  # doctest: +SKIP
    >>> for _ in advance(state, rules, strategy, seed=1):  # doctest: +SKIP
    ...     pass
    >>> state.total(), state.target_met  # doctest: +SKIP
    """
    if state.finished:
        return
    late: list = []
    yield from _record(state, iter_chunks(
        rules, strategies, state.rounds, seed, state.chunk_rounds, workers,
        skip=state.skip(), scheduler=scheduler, late=late, timing=timing, say=say, ready=ready,
    ), on_chunk, late)


def advance_job(state: RunState, job: Callable, workers=None, *,
                scheduler: str | None = None, timing: dict | None = None,
                say: Callable[[str], None] | None = None,
                ready: Callable[[], None] | None = None) -> Iterator[tuple[int, int]]:
    """`advance` for any ``job(i) -> (i, n_rounds, payload)`` whose payload ``state.add``
    takes (``bjsim compare``: every variant of chunk ``i``)."""
    if state.finished:
        return
    late: list = []
    yield from _record(state, iter_job_chunks(job, state.n_chunks, workers, skip=state.skip(),
                                              scheduler=scheduler, late=late, timing=timing,
                                              say=say, ready=ready),
                       late=late)


def _record(state: RunState, chunks, on_chunk=None, late=()) -> Iterator[tuple[int, int]]:
    """Add each finished chunk of ``chunks`` to ``state`` (showing it to ``on_chunk`` first);
    stop once it is finished. Stopped early (closed, or Ctrl-C), the chunks that were running
    and finished meanwhile (``late``, filled by ``chunks`` as it closes) are added too: the
    stop waited for them, so they are kept. A stop is raised between chunks, as ``chunks``
    raises it, not in the middle of recording one; while this generator is suspended at a
    yield the caller's handlers are in place (`stops.DeferredStops.pause`)."""
    try:
        while True:
            with stops.holding():  # (the deferral of ``chunks`` over its yield to here)
                got = next(chunks, None)
                if got is None:
                    break
                i, n, payload = got
                if on_chunk is not None:
                    on_chunk(i, n, payload)
                finished = state.add(i, payload)
            deferred = stops.running()  # (that of ``chunks``)
            if deferred is None or deferred.pause():  # (else a stop noted: raised next)
                try:
                    yield i, n
                finally:
                    if deferred is not None:
                        deferred.resume()
            if finished:
                break
    finally:
        try:
            chunks.close()  # (which raises a stop noted as the last chunks came in)
        finally:
            for i, n, payload in late:
                if state.finished:
                    break
                if on_chunk is not None:
                    on_chunk(i, n, payload)
                state.add(i, payload)
