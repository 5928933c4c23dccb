"""Chunks of a run: their seeds and sizes, and the thread-pool runner that plays them.

Chunk ``i`` plays ``chunk_size(i, ...)`` rounds from a fresh shuffle with the xoshiro256** state
``chunk_state(seed, i)``. A job is any picklable callable ``job(i) -> (i, n_rounds, payload)``,
with a ``warm()`` that compiles the kernel it calls: `PlayChunk` plays one rule set
(``simulate``), ``bjsim compare`` plays every variant of chunk ``i`` in one job. `iter_jobs` runs
jobs on threads; ``simulator.distributed.iter_jobs`` on Dask.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Callable, Container, Iterator
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait

import numpy as np

from simulator.batches import chunk_moments
from simulator.checks import whole
from simulator.headroom import INT64_MAX, NET_ALLOWED, counting_overflow
from simulator.kernel import count_chunk, simulate_chunk
from simulator.layout import N_NETS
from simulator.stops import DeferredStops

IN_FLIGHT_PER_WORKER = 2
MIN_LOOKAHEAD = 64  # chunks started at most this far (or 4x the in-flight window) past the lowest


def chunk_state(seed: int, chunk: int) -> np.ndarray:
    """The xoshiro256** state (four uint64) of chunk ``chunk`` of a run seeded with ``seed``
    (whole numbers, 0 or more)."""
    seed, chunk = whole("seed", seed), whole("chunk", chunk)
    return np.random.SeedSequence(seed, spawn_key=(chunk,)).generate_state(4, np.uint64)


def chunk_count(rounds: int, chunk_rounds: int) -> int:
    """Number of chunks of a run of ``rounds`` rounds (the last one may be short)."""
    return -(-whole("rounds", rounds) // whole("chunk_rounds", chunk_rounds, 1))


def chunk_size(i: int, rounds: int, chunk_rounds: int) -> int:
    """Rounds played by chunk ``i`` (``0..chunk_count - 1``)."""
    n = chunk_count(rounds, chunk_rounds)
    if n == 0:
        raise ValueError(f"chunk = {i!r}: a run of 0 rounds has no chunk")
    whole("chunk", i, 0, n - 1)
    return min(chunk_rounds, rounds - i * chunk_rounds)


def lookahead_for(in_flight: int) -> int:
    """How far past the lowest unfinished chunk a new chunk may be started."""
    return max(MIN_LOOKAHEAD, 4 * in_flight)


def schedule(n_chunks: int, skip: Container[int] | None = None) -> Iterator[int]:
    """Chunk indices ``0..n_chunks-1`` not in ``skip``, in order, generated lazily."""
    for i in range(n_chunks):
        if skip is None or i not in skip:
            yield i


class PlayChunk:
    """The job of one rule set: ``job(i) -> (i, n_rounds, tally)`` (picklable, for Dask)."""

    def __init__(self, params, tables, seed: int, rounds: int, chunk_rounds: int):
        self.params, self.tables = params, tables
        self.seed, self.rounds, self.chunk_rounds = int(seed), int(rounds), int(chunk_rounds)

    def __call__(self, i: int) -> tuple[int, int, np.ndarray]:
        n = chunk_size(i, self.rounds, self.chunk_rounds)
        return i, n, simulate_chunk(self.params, self.tables, n, chunk_state(self.seed, i))

    def warm(self) -> None:
        """Compile (or load) the kernel the job calls, playing no round."""
        simulate_chunk(self.params, self.tables, 0, chunk_state(self.seed, 0))


class CountChunk(PlayChunk):
    """The job of a counter (``bjsim count``): ``job(i) -> (i, n_rounds, payload)``, the payload
    the chunk's tally, its counting tally flattened (`kernel.count_chunk`), the moments of its
    sums that batch-means SEs need (`batches.chunk_moments`), then its rounds played by their
    net (``layout.N_NETS``), in Python integers."""

    def __init__(self, params, tables, counter, insurance: bool, seed: int, rounds: int,
                 chunk_rounds: int):  # fmt: skip
        super().__init__(params, tables, seed, rounds, chunk_rounds)
        self.counter, self.insurance = counter, bool(insurance)

    def __call__(self, i: int) -> tuple[int, int, np.ndarray]:
        n = chunk_size(i, self.rounds, self.chunk_rounds)
        nets = np.zeros(N_NETS, np.int64)
        tally, ct = count_chunk(self.params, self.tables, n, chunk_state(self.seed, i),
                                self.counter, self.insurance, nets=nets)  # fmt: skip
        over = counting_overflow(self.params, self.counter, tally, ct, nets)
        if over is not None:
            field, bound = over
            # (half what this chunk allows: the next chunk's rounds may add more)
            limit = max(n * INT64_MAX // bound // 2, 1)
            fix = (f"allowed chunks of about {limit:,} rounds or fewer: give --chunk-rounds "
                   f"{limit:,}" if bound <= n * INT64_MAX else "no chunk size holds it, one "
                   f"round's bound alone passing the limit: {NET_ALLOWED}")
            raise ValueError(
                f"--chunk-rounds {self.chunk_rounds:,}: chunk {i}'s counting tally field "
                f"'{field}' could have passed the 64-bit limit (it could reach {bound:.3g}, the "
                f"limit {INT64_MAX:.3g}) under this plan's bets and these rules' pays: {fix}")
        return i, n, np.concatenate([tally.astype(object), ct.ravel().astype(object),
                                     np.array(chunk_moments(ct), dtype=object),
                                     nets.astype(object)])

    def warm(self) -> None:
        count_chunk(self.params, self.tables, 0, chunk_state(self.seed, 0), self.counter,
                    self.insurance)  # fmt: skip


STOP_POLL = 0.1  # seconds between looks for a stop signal while chunks play


_KEPT = contextvars.ContextVar("bjsim_stop_keeps", default=True)


@contextlib.contextmanager
def nothing_kept():
    """Within it a stop keeps nothing (`bjsim report`: a stopped report is not written), and
    the stop's lines say so (`stopping_words`, `stop_keeps`), not that the chunks are kept."""
    token = _KEPT.set(False)
    try:
        yield
    finally:
        _KEPT.reset(token)


def stop_keeps() -> bool:
    """Does a stop keep the chunks finished (a partial result), or nothing (`nothing_kept`)?"""
    return _KEPT.get()


def stopping_words(running: int) -> str:
    """What a stop does to the chunks in play on threads (`iter_jobs`), said as it is taken."""
    it = "it" if running == 1 else "them"
    chunks = (f"the {running:,} chunk{'s' if running > 1 else ''} in play "
              f"{'is' if running == 1 else 'are'} being finished")
    if not stop_keeps():  # (a running chunk cannot be stopped: it ends, then nothing is kept)
        return (f"stopping: no new chunk starts; {chunks}, as a running chunk cannot be "
                "stopped, and nothing is kept: no report is written (Ctrl-\\ quits at once)")
    return (f"stopping: no new chunk starts; {chunks}, to be kept (Ctrl-\\ quits at once, "
            f"losing {it})")


def iter_jobs(job: Callable, todo: Iterator[int], workers: int,
              late: list | None = None, say: Callable[[str], None] | None = None
              ) -> Iterator[tuple]:
    """Run ``job(i)`` for the indices ``todo`` (increasing) on ``workers`` threads; yield each
    result as it finishes. At most ``IN_FLIGHT_PER_WORKER * workers`` jobs are in flight and none
    starts more than `lookahead_for` indices past the lowest unfinished one, so memory stays
    flat. Closing the generator (or an exception, Ctrl-C) cancels the jobs that have not
    started and waits for the running ones (a thread cannot be stopped): their results go into
    ``late``, not lost. ``say(text)``: told at once, on a stop, of the chunks it waits for.
    While jobs play a stop is noted and raised between them (`DeferredStops`); while the
    generator is suspended at a yield, the caller's handlers are in place (`stops.holding`
    keeps the deferral there)."""
    in_flight = IN_FLIGHT_PER_WORKER * workers
    lookahead = lookahead_for(in_flight)
    upcoming = next(todo, None)
    if upcoming is not None and hasattr(job, "warm"):  # a first run's compile here, where Ctrl-C
        job.warm()  # stops it; on a worker thread it would run on (about 15 s) before an exit
    pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="bjsim")
    pending: dict = {}  # future -> index
    stops = DeferredStops()
    try:
        while pending or upcoming is not None:
            if stops.noted:  # a Ctrl-C or SIGTERM since the last look: raised here
                running = sum(f.running() for f in pending)
                if running and say is not None and stops.stopping():  # (before a second
                    say(stopping_words(running))  # signal's line; the wait may be long)
                stops.deliver()
            while upcoming is not None and len(pending) < in_flight:
                if pending and upcoming - min(pending.values()) >= lookahead:
                    break
                pending[pool.submit(job, upcoming)] = upcoming
                upcoming = next(todo, None)
            done, _ = wait(pending, timeout=STOP_POLL, return_when=FIRST_COMPLETED)
            for future in sorted(done, key=pending.__getitem__):
                result = future.result()
                if not stops.pause():  # a stop noted: raised above, the chunk left in pending
                    break  # (kept in ``late``, or yielded next where the stop stops nothing)
                del pending[future]
                try:
                    yield result  # (the caller's handlers meanwhile: `DeferredStops.pause`)
                finally:
                    stops.resume()
    finally:  # (a signal meanwhile is still noted, and handed on at the end)
        for future in pending:
            future.cancel()
        pool.shutdown(wait=True, cancel_futures=True)
        if late is not None:
            late += [f.result() for f in sorted(pending, key=pending.__getitem__)
                     if f.done() and not f.cancelled() and f.exception() is None]
        stops.deliver()
