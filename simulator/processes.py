"""Pure-Python work (basic-strategy derivations, exact analyses) side by side on spawned
processes, and stopped cleanly by Ctrl-C or SIGTERM."""

from __future__ import annotations

import gc
import multiprocessing
import os
import signal


def map_spawned(fn, items, workers: int | None = None) -> list:
    """``[fn(x) for x in items]``, on up to ``workers`` processes (default: every CPU; one item
    or one worker: in this process). ``fn`` is a module-level function. Stopped (Ctrl-C,
    SIGTERM), the processes and their locks are gone before the KeyboardInterrupt goes on (a
    lock left to the end has Python warn of it)."""
    items = list(items)
    n = min(len(items), workers or os.cpu_count() or 1)
    if n <= 1:
        return [fn(x) for x in items]
    # spawn, not fork: a forked copy of a process with threads (the engine's) can hang
    pool = multiprocessing.get_context("spawn").Pool(n, initializer=_quiet)
    try:
        return pool.map(fn, items, chunksize=1)
    except KeyboardInterrupt:
        pass  # (its traceback, which holds the pool, goes here)
    finally:
        pool.terminate()
        pool.join()
    del pool
    gc.collect()
    raise KeyboardInterrupt


def _quiet() -> None:
    """A worker process leaves Ctrl-C and SIGTERM to bjsim's own process, which ends it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
