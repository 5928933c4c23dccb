"""Chunks on a Dask distributed cluster: ``bjsim simulate --scheduler tcp://HOST:PORT`` (an existing
cluster) or ``--scheduler local`` (a `LocalCluster` of worker processes started for the run).

Each task is the same job the threads run (``simulator.chunks``): chunk ``i``, seeded from
``SeedSequence(seed, spawn_key=(i,))`` on the worker, returns its integer tally, so a cluster gives
the same result, to the last digit, as a run on threads with the same seed. At most
``IN_FLIGHT_PER_WORKER`` chunks per worker thread are in flight (`as_completed` with a window),
chunk indices are generated lazily, and closing the generator (Ctrl-C) cancels the futures in
flight.

Dask is optional: ``pip install 'bjsim[dask]'``. The workers of a remote cluster need bjsim (the
same version) installed, since tasks run ``simulator.chunks.PlayChunk``.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import logging
import os
import signal
import threading
import time
import uuid
from collections.abc import Iterator

from simulator.chunks import IN_FLIGHT_PER_WORKER, STOP_POLL, lookahead_for
from simulator.stops import DeferredStops

INSTALL_HINT = "pip install 'bjsim[dask]'"
CONNECT_TIMEOUT = "20s"


class SchedulerError(ValueError):
    """A bad ``--scheduler`` value, a missing Dask, or a scheduler that cannot be reached."""


def require_dask() -> None:
    """Raise `SchedulerError` (one line) unless dask and distributed can be imported."""
    try:
        import dask  # noqa: F401
        import distributed  # noqa: F401
    except ImportError:
        raise SchedulerError(
            f"--scheduler: needs Dask, which is not installed: {INSTALL_HINT}"
        ) from None


def check_address(scheduler: str) -> str:
    """``"local"`` or a scheduler address like ``tcp://10.0.0.5:8786``; else `SchedulerError`."""
    s = str(scheduler).strip()
    if s == "local":
        return s
    proto, sep, rest = s.partition("://")
    host, colon, port = rest.rpartition(":")
    if not sep or proto not in ("tcp", "tls", "inproc", "ws", "wss") or not colon or not host \
            or not port.isdigit():
        raise SchedulerError(
            f"--scheduler: {scheduler!r} is not a scheduler address: allowed 'local' or "
            "tcp://HOST:PORT"
        )
    if not 1 <= int(port) <= 65535:  # (it waited 20 s for a connection that cannot be)
        raise SchedulerError(f"--scheduler: {scheduler!r}: port {port} is out of range: allowed "
                             "1-65535")
    return s


def connect(scheduler: str, workers: int | None = None):
    """A ``(client, cluster)`` pair; ``cluster`` is the `LocalCluster` started for ``"local"``
    (None for an existing scheduler). The caller closes both."""
    require_dask()
    from distributed import Client, LocalCluster

    address = check_address(scheduler)
    if address == "local":
        n = workers or os.cpu_count() or 1
        cluster = None
        try:
            with _ctrl_c_ignored():
                cluster = LocalCluster(
                    n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None,
                    silence_logs=logging.CRITICAL,
                )
            return Client(cluster), cluster
        except BaseException:  # SIGTERM while it started, say
            if cluster is not None:
                cluster.close()
            raise
    return _client(address), None


def _client(address: str):
    """``Client(address)``, the whole connection (Dask's handshake and first exchange with the
    scheduler included) bounded by `CONNECT_TIMEOUT`; else `SchedulerError` (one line), whatever
    the failure: a service that is not a Dask scheduler may answer nothing, or bytes that Dask's
    protocol reads as a frame of exabytes. The client is made on a thread of its own, since a
    read in the handshake has no timeout; one made after the wait is closed."""
    from dask.utils import parse_timedelta
    from distributed import Client

    def cannot(reason: str) -> SchedulerError:
        return SchedulerError(f"--scheduler {address}: cannot connect ({reason})")

    seconds = parse_timedelta(CONNECT_TIMEOUT, default="s")
    made: concurrent.futures.Future = concurrent.futures.Future()

    def make():
        try:
            made.set_result(Client(address, timeout=seconds))
        except Exception as err:  # noqa: BLE001 - in a few words, without Dask's frames
            made.set_exception(cannot(_reason(err, CONNECT_TIMEOUT)))

    threading.Thread(target=make, name="bjsim-connect", daemon=True).start()
    try:  # (a little longer than Dask's own timeout, whose error says more)
        return made.result(timeout=seconds + 2)
    except TimeoutError:
        raise cannot(f"no answer in {CONNECT_TIMEOUT}") from None
    finally:  # gave up (no answer in time, Ctrl-C): a client made later is closed
        if not made.done():
            made.add_done_callback(_close_late)


def _close_late(made: concurrent.futures.Future) -> None:
    """Close the client of ``made``, made after its caller stopped waiting (if it was made)."""
    if made.exception() is None:
        made.result().close()


def _reason(err: BaseException, timeout: str) -> str:
    """Why a connection failed, in a few words: the socket's error (connection refused, ...), no
    answer in time, or an answer that is not a Dask scheduler's."""
    from distributed.comm import CommClosedError

    chain = [err]
    while len(chain) < 20 and (chain[-1].__cause__ or chain[-1].__context__) is not None:
        chain.append(chain[-1].__cause__ or chain[-1].__context__)
    for e in chain:
        if isinstance(e, OSError) and e.strerror:
            return e.strerror[:1].lower() + e.strerror[1:]
    if any(isinstance(e, TimeoutError) for e in chain):
        return f"no answer in {timeout}"
    if any(isinstance(e, CommClosedError) for e in chain):
        return "not a Dask scheduler? it closed the connection"
    text = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
    return f"not a Dask scheduler? {text}"


@contextlib.contextmanager
def _ctrl_c_ignored():
    """Ctrl-C ignored in the block (from the main thread): the worker processes started in it
    inherit that, so a Ctrl-C to the terminal's process group stops the run in this process
    alone, which closes the cluster, without a traceback from each worker. (Blocking it
    instead, to deliver it later, does not reach the workers: Dask starts them from a thread
    of its own.)"""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)


def iter_jobs(
    job, todo: Iterator[int], scheduler: str, workers: int | None = None,
    timing: dict | None = None,
) -> Iterator[tuple]:
    """Run ``job(i)`` (picklable; ``simulator.chunks.PlayChunk`` or compare's) for the indices
    ``todo`` (increasing) on a Dask cluster; yield each result ``(i, n_rounds, payload)`` as it
    finishes, with the in-flight window and lookahead of ``simulator.chunks.iter_jobs``.
    ``timing["startup"]``: the seconds the cluster (or the connection) took to be ready, which
    a run's speed leaves out."""
    from distributed import wait

    began = time.perf_counter()
    client, cluster = connect(scheduler, workers)
    if timing is not None:
        timing["startup"] = time.perf_counter() - began
    pending: dict = {}  # key -> (future, chunk index)
    stops = DeferredStops()  # (as the threads' runner: a stop raised between chunks)
    try:
        threads = sum(client.nthreads().values()) or 1
        in_flight = max(2, IN_FLIGHT_PER_WORKER * threads)
        lookahead = lookahead_for(in_flight)
        run_id = uuid.uuid4().hex[:12]
        upcoming = next(todo, None)

        def fill():
            nonlocal upcoming
            while upcoming is not None and len(pending) < in_flight:
                if pending and upcoming - min(i for _, i in pending.values()) >= lookahead:
                    return
                future = client.submit(
                    job, upcoming, key=f"bjsim-chunk-{run_id}-{upcoming}", pure=False
                )
                pending[future.key] = (future, upcoming)
                upcoming = next(todo, None)

        fill()
        while pending:
            if stops.noted:
                stops.deliver()
            try:
                done = wait([f for f, _ in pending.values()], timeout=STOP_POLL,
                            return_when="FIRST_COMPLETED").done
            except TimeoutError:
                continue
            for future in sorted(done, key=lambda f: pending[f.key][1]):
                del pending[future.key]
                result = future.result()
                future.release()
                fill()
                yield result
    finally:  # (a signal meanwhile is still noted, and handed on at the end)
        if pending:
            try:
                client.cancel([f for f, _ in pending.values()])
            except Exception:  # noqa: BLE001 - the cluster may be gone already
                pass
        client.close()
        if cluster is not None:
            cluster.close()
        stops.deliver()
