"""The engine: split a run into chunks, seed each chunk, run the chunks on threads, add the tallies.

Chunk ``i`` always plays ``min(chunk_rounds, rounds - i * chunk_rounds)`` rounds from a fresh
shuffle with the xoshiro256** state of ``SeedSequence(seed, spawn_key=(i,))``, and integer tallies
add exactly in any order, so a result depends on the seed, the rule set, the strategies and the
chunk size, never on the number of threads (docs/design.md, "Reproducibility"). The kernel releases
the GIL, so chunks run in parallel on a thread pool. At most ``2 * workers`` chunks are in flight
at any time: memory stays flat however many rounds are asked for.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait

import numpy as np

from simulator import layout as L
from simulator.kernel import simulate_chunk, stack_for

IN_FLIGHT_PER_WORKER = 2


def chunk_state(seed: int, chunk: int) -> np.ndarray:
    """The xoshiro256** state (four uint64) of chunk ``chunk`` of a run seeded with ``seed``."""
    return np.random.SeedSequence(seed, spawn_key=(chunk,)).generate_state(4, np.uint64)


def _chunk_count(rounds: int, chunk_rounds: int) -> int:
    return -(-rounds // chunk_rounds)


def _check_run(rounds, chunk_rounds, workers) -> tuple[int, int, int]:
    rounds = int(rounds)
    chunk_rounds = int(chunk_rounds)
    if rounds < 0:
        raise ValueError(f"rounds = {rounds} is out of range: allowed >= 0")
    if chunk_rounds < 1:
        raise ValueError(f"chunk_rounds = {chunk_rounds} is out of range: allowed >= 1")
    workers = (os.cpu_count() or 1) if workers is None else int(workers)
    if workers < 1:
        raise ValueError(f"workers = {workers} is out of range: allowed >= 1")
    return rounds, chunk_rounds, workers


def iter_chunks(
    rules, strategies, rounds: int, seed: int, chunk_rounds: int = 1_000_000, workers=None
) -> Iterator[tuple[int, int, np.ndarray]]:
    """Run the chunks of a simulation on threads; yield ``(chunk_index, n_rounds, tally)`` as each
    finishes (not necessarily in index order).

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
        Threads; default ``os.cpu_count()``.

    Closing the generator cancels the chunks that have not started (running ones finish first).
    """
    rounds, chunk_rounds, workers = _check_run(rounds, chunk_rounds, workers)
    params = rules.to_params()  # computed once for the whole run
    tables = stack_for(rules, strategies)
    n_chunks = _chunk_count(rounds, chunk_rounds)
    if n_chunks == 0:
        return

    def job(i: int) -> tuple[int, int, np.ndarray]:
        n = min(chunk_rounds, rounds - i * chunk_rounds)
        return i, n, simulate_chunk(params, tables, n, chunk_state(seed, i))

    pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="bjsim")
    pending = set()
    next_chunk = 0
    try:
        while pending or next_chunk < n_chunks:
            while next_chunk < n_chunks and len(pending) < IN_FLIGHT_PER_WORKER * workers:
                pending.add(pool.submit(job, next_chunk))
                next_chunk += 1
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in sorted(done, key=lambda f: f.result()[0]):
                yield future.result()
    finally:
        for future in pending:
            future.cancel()
        pool.shutdown(wait=True, cancel_futures=True)


def run(
    rules,
    strategies,
    rounds: int,
    seed: int,
    chunk_rounds: int = 1_000_000,
    workers=None,
    progress: Callable[[int, np.ndarray], None] | None = None,
) -> np.ndarray:
    """Simulate ``rounds`` rounds and return the summed tally (int64, layout ``TALLY_NAMES``).

    ``progress(n_rounds_done, tally_so_far)`` is called in the calling thread after each chunk.
    The result for a seed does not depend on ``workers``.

    Examples
    --------
    >>> from simulator.rules import Rules
    >>> tally = run(Rules(), strategy, rounds=10_000_000, seed=1)  # doctest: +SKIP
    """
    total = np.zeros(L.N_TALLY, np.int64)
    done = 0
    chunks = iter_chunks(rules, strategies, rounds, seed, chunk_rounds, workers)
    try:
        for _, n, tally in chunks:
            total += tally
            done += n
            if progress is not None:
                progress(done, total.copy())
    finally:
        chunks.close()
    return total
