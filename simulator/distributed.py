"""Chunks on a Dask distributed cluster: ``bjsim simulate --scheduler tcp://HOST:PORT`` (an existing
cluster) or ``--scheduler local`` (a `LocalCluster` of worker processes started for the run).

Each task is the job the threads run (``simulator.chunks``), so a cluster gives the same result,
to the last digit, as threads with the same seed. Dask is optional (``pip install 'bjsim[dask]'``)
and the workers need the same bjsim: README, "Scale: precision, checkpoints, clusters, memory".
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import gc
import logging
import os
import signal
import socket
import threading
import time
import uuid
import warnings
from collections.abc import Iterator
from concurrent.futures import wait as futures_wait

from simulator import stops
from simulator.chunks import IN_FLIGHT_PER_WORKER, STOP_POLL, lookahead_for
from simulator.stops import DeferredStops

INSTALL_HINT = "pip install 'bjsim[dask]' (in a checkout: pip install -e '.[dask]')"
CONNECT_TIMEOUT = "20s"
START_TIMEOUT = 120.0  # seconds a local cluster has to start (two workers: about 3 s)


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


# Which bjsim a worker runs, asked of every worker (`Asker`): sent by value (its module
# is none a worker imports), so that a worker without bjsim answers rather than dies unpickling.
_PROBE = """
def bjsim_code():
    try:
        import simulator
        from simulator.source import sha256
        return [simulator.__version__, sha256()]
    except BaseException as err:  # (an answer, whatever went wrong)
        return [None, f"{type(err).__name__}: {err}"]
"""


def _probe():
    space = {"__name__": "bjsim_probe"}
    exec(_PROBE, space)  # noqa: S102 (our own text, above)
    return space["bjsim_code"]


def _ours() -> str:
    from simulator import __version__
    from simulator.source import sha256

    return f"this bjsim ({__version__}, source SHA-256 {sha256()[:16]}...)"


class Asker:
    """Each worker of the cluster asked, once, which bjsim it runs (`_probe`, a task bound to
    it: a worker that does not answer holds nothing up, nor a stop); a run sends no chunk
    until one has answered right (`checked`). A worker of other bjsim code than this process
    (its source's SHA-256, `source.sha256`), or none, is refused (`ClusterError`): its chunks
    would not be this code's (a worker of another version would play them, the result
    another, its json naming this code), or it dies unpickling the first (the run would wait
    for ever). One that cannot answer (leaving, or not yet ready) is asked again later."""

    def __init__(self, client, scheduler: str):
        self.client, self.scheduler = client, scheduler
        self.checked: set = set()
        self.asked: dict = {}  # worker -> the Dask future of its answer
        self.tag, self.n = uuid.uuid4().hex[:12], 0

    def look(self, workers) -> None:
        """Ask the ``workers`` not asked yet; judge the answers come."""
        from simulator.source import sha256

        for worker in sorted(set(workers) - self.checked - set(self.asked)):
            self.n += 1
            self.asked[worker] = self.client.submit(
                _probe(), key=f"bjsim-which-{self.tag}-w{self.n}", workers=[worker],
                allow_other_workers=False, pure=False)
        for worker, answer in sorted(self.asked.items()):
            if not answer.done():
                continue
            del self.asked[worker]
            try:  # (its answer lost with it: none, asked again while it is there)
                said = answer.result(timeout=FETCH_WAIT) if answer.status == "finished" else None
            except Exception:  # noqa: BLE001
                said = None
            if not isinstance(said, list):  # (no answer: asked again while it is there)
                continue
            if said[0] is None:
                why = f"cannot import bjsim ({said[1]})"
            elif said[1] != sha256():
                why = f"runs other bjsim code ({said[0]}, source SHA-256 {said[1][:16]}...)"
            else:
                self.checked.add(worker)
                continue
            raise ClusterError(f"--scheduler {self.scheduler}: the Dask worker {worker} {why}: "
                               f"every worker needs {_ours()}")

    def close(self) -> None:
        """The questions not answered, cancelled (the run is over)."""
        with contextlib.suppress(Exception):
            self.client.cancel(list(self.asked.values()))


class OtherCode(RuntimeError):
    """A chunk sent to a worker that runs other bjsim code (`_checked`)."""


def _checked(job, code: str, i: int):
    """``job(i)`` on a worker, if it runs the code ``code`` (`source.sha256`) the run is of: a
    worker given a chunk before `Asker` has its answer is held to it too."""
    from simulator.source import sha256

    if sha256() != code:
        from distributed import get_worker

        raise OtherCode(f"the Dask worker {get_worker().address} runs other bjsim code (source "
                        f"SHA-256 {sha256()[:16]}...)")
    return job(i)


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
    if not 1 <= int(port) <= 65535:  # (at once: no wait for a connection that cannot be)
        raise SchedulerError(f"--scheduler: {scheduler!r}: port {port} is out of range: allowed "
                             "1-65535")
    return s


def connect(scheduler: str, workers: int | None = None):
    """A ``(client, cluster)`` pair; ``cluster`` is the `LocalCluster` started for ``"local"``
    (None for an existing scheduler). The caller closes both."""
    require_dask()
    address = check_address(scheduler)
    if address == "local":
        n = workers or os.cpu_count() or 1
        with stops.held() as noted:  # a stop while it starts: once it has, it is closed
            with _ctrl_c_ignored():
                client, cluster = _start_local(n)
        if noted:
            _close_pair(client, cluster)
            stops.deliver(noted)
        return client, cluster
    return _client(address), None


def _start_local(n: int) -> tuple:
    """``(client, cluster)`` of a `LocalCluster` of ``n`` worker processes, made on a thread of its
    own and waited for `START_TIMEOUT` seconds at most; else `ClusterError`, a failure, not a
    mistake of the user's (Dask's start has no time limit of its own, and hung once in this
    project's tests). A pair made after the wait is closed."""
    from distributed import Client, LocalCluster

    made: concurrent.futures.Future = concurrent.futures.Future()

    def make():
        cluster = None
        try:
            with _dask_quiet():
                cluster = LocalCluster(
                    n_workers=n, threads_per_worker=1, processes=True,
                    dashboard_address=None, silence_logs=logging.CRITICAL,
                    # (no dashboard, but its HTTP server listens all the same: on a free
                    # port, not on 8787 with a warning that it is taken)
                    scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
                )
            made.set_result((Client(cluster), cluster))
        except BaseException as err:  # noqa: BLE001 - raised again in the caller's thread
            if cluster is not None:
                _close_pair(None, cluster)
            made.set_exception(err)

    threading.Thread(target=make, name="bjsim-local-cluster", daemon=True).start()
    if not futures_wait([made], timeout=START_TIMEOUT).done:
        # gave up: a pair made later is closed (at once, made since the wait ended)
        made.add_done_callback(lambda f: f.exception() is None and _close_pair(*f.result()))
        raise ClusterError(  # (no mistake of the user's: exit 1, as a cluster's failure)
            f"--scheduler local: the local Dask cluster of {n} worker processes did not start "
            f"in {START_TIMEOUT:g} s: run again, or without --scheduler (threads)")
    return made.result()


def _close_pair(client, cluster) -> None:
    """Close ``client`` (if any) and ``cluster``, Dask's log lines kept off stderr."""
    with _dask_quiet():
        if client is not None:
            client.close()
        cluster.close()


def _client(address: str):
    """``Client(address)``, the whole connection (Dask's handshake and first exchange with the
    scheduler included) bounded by `CONNECT_TIMEOUT`; else `SchedulerError` (one line), whatever
    the failure: a service that is not a Dask scheduler may answer nothing, or bytes that Dask's
    protocol reads as a frame of exabytes. The client is made on a thread of its own, since a
    read in the handshake has no timeout; one made after the wait is closed. A plain TCP
    connection is tried first (`_unreachable`): a refused connection or an unknown host fails at
    once, in the same words every time (Dask's own connect retries until its timeout)."""
    from dask.utils import parse_timedelta
    from distributed import Client

    def cannot(reason: str) -> SchedulerError:
        return SchedulerError(f"--scheduler {address}: cannot connect ({reason})")

    seconds = parse_timedelta(CONNECT_TIMEOUT, default="s")
    made: concurrent.futures.Future = concurrent.futures.Future()
    # (a connection made, then no answer: something else listens there, as a dashboard)
    silent = (f"no Dask scheduler's answer in {CONNECT_TIMEOUT}, though something accepts "
              "connections there: not a Dask scheduler? a scheduler's dashboard port (8787 by "
              "default) is not its own (8786)")
    connected = []

    def make():
        began = time.monotonic()
        reason = _unreachable(address, seconds)
        if reason is not None:
            made.set_exception(cannot(reason))
            return
        connected.append(True)
        left = max(1.0, seconds - (time.monotonic() - began))  # (the whole wait: at most 20 s)
        try:
            made.set_result(Client(address, timeout=left))
            return
        except Exception as err:  # noqa: BLE001 - in a few words, without Dask's frames
            reason = _reason(err, CONNECT_TIMEOUT)
            failed = cannot(silent if reason == f"no answer in {CONNECT_TIMEOUT}" else reason)
        # The half-made client, held in a cycle by the error's frames, is collected here: left
        # to the collector, its __del__ can close it inside another client's start, which
        # holds Dask's loop lock that its close takes: a deadlock.
        gc.collect()
        made.set_exception(failed)

    threading.Thread(target=make, name="bjsim-connect", daemon=True).start()
    try:  # (a little longer than Dask's own timeout, whose error says more)
        return made.result(timeout=seconds + 2)
    except TimeoutError:
        raise cannot(silent if connected else f"no answer in {CONNECT_TIMEOUT}") from None
    finally:  # gave up (no answer in time, Ctrl-C): a client made later is closed
        if not made.done():
            made.add_done_callback(_close_late)


def _unreachable(address: str, seconds: float) -> str | None:
    """Why no TCP connection can be made to the host and port of ``address`` (``tcp://``,
    ``tls://``, ``ws://``, ``wss://``) within ``seconds``, in a few words: ``unknown host``,
    ``connection refused``, the socket's other errors (``no route to host``), ``no answer in
    20s``; None once a connection is made (it is closed at once: the scheduler notes a
    connection closed before its handshake, at its log level info)."""
    from distributed.comm.addressing import parse_address, parse_host_port

    proto, location = parse_address(address)
    if proto == "inproc":
        return None
    host, port = parse_host_port(location)
    try:
        with socket.create_connection((host, port), timeout=seconds):
            return None
    except socket.gaierror as err:  # (no such name, or no answer from the name service)
        if err.errno == getattr(socket, "EAI_AGAIN", None):
            return "unknown host: its name could not be looked up now (temporary failure)"
        return "unknown host"
    except TimeoutError:
        return f"no answer in {CONNECT_TIMEOUT}"
    except OSError as err:
        text = err.strerror or type(err).__name__
        return text[:1].lower() + text[1:]


def _close_late(made: concurrent.futures.Future) -> None:
    """Close the client of ``made``, made after its caller stopped waiting (if it was made)."""
    if made.exception() is None:
        made.result().close()


def _reason(err: BaseException, timeout: str) -> str:
    """Why a connection failed, in a few words: the socket's error (connection refused, ...), no
    answer in time, or an answer that is not a Dask scheduler's (named by the type of error it
    gave, never by its text)."""
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
    # (its text is Dask's or numpy's, of how the answer was misread: "Unable to allocate 3.07
    # EiB for an array", bytes read as a frame's length; the type of error is enough)
    if isinstance(err, MemoryError):  # (not this machine's memory: a length no frame has)
        return "not a Dask scheduler? its answer could not be read: a message of impossible size"
    return f"not a Dask scheduler? its answer could not be read: {type(err).__name__.strip('_')}"


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


class ClusterError(RuntimeError):
    """The cluster failed the run (its scheduler lost, a chunk whose workers all died): one line
    for the command line, which reports the chunks that finished, as after Ctrl-C."""


THREADS_POLL = 1.0  # seconds between looks at the cluster's worker threads (one round trip)
ASK_POLL = 0.05  # ... until a worker has said it runs this code (`Asker`)
ASK_WAIT = 10.0  # seconds without such a worker before stderr says the run waits for one


def cluster_workers(client) -> tuple[int, list]:
    """The worker threads of the cluster (0: no worker) and its workers' addresses, as its
    scheduler last said; asked at most every `THREADS_POLL` seconds by `iter_jobs`."""
    info = client.scheduler_info(n_workers=-1)
    return int(info.get("total_threads", 0) or 0), list(info.get("workers", {}))


class _NoAllExit(logging.Filter):
    """asyncio's "Task exception was never retrieved" for Dask's ``AllExit`` (a fetch cut short
    by its time limit) dropped: logged when the task is collected, which can be after
    `_dask_quiet`'s block has ended (seen once in the suite, a stop under load)."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        return type(exc).__name__ != "AllExit"


_NO_ALL_EXIT = _NoAllExit()


@contextlib.contextmanager
def _dask_quiet():
    """Dask's log lines and warnings kept off stderr in the block (a worker lost, keys
    rescheduled, the connection's retries, and asyncio's "Task exception was never retrieved"
    for a fetch cut short by its time limit: Dask's ``AllExit``): what matters to the user,
    `iter_jobs` says in bjsim's words (`ClusterError`)."""
    names = ["distributed", "tornado", "asyncio"] + [
        name for name in logging.root.manager.loggerDict
        if name.startswith(("distributed.", "tornado."))]
    levels = {name: logging.getLogger(name).level for name in names}
    for name in names:
        logging.getLogger(name).setLevel(logging.CRITICAL + 1)
    logging.getLogger("asyncio").addFilter(_NO_ALL_EXIT)  # (kept after the block: see it)
    try:
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", module=r"(distributed|tornado)(\.|$)")
            yield
    finally:
        for name, level in levels.items():
            logging.getLogger(name).setLevel(level)


def _failure(err: BaseException, scheduler: str, chunk: int | None = None) -> ClusterError | None:
    """`ClusterError` for a Dask failure ``err`` (None for another error, a chunk's own)."""
    from distributed.client import FutureCancelledError, FuturesCancelledError
    from distributed.comm import CommClosedError
    from distributed.scheduler import KilledWorker

    where = f"--scheduler {scheduler}"
    if isinstance(err, OtherCode):
        return ClusterError(f"{where}: {err}: every worker needs {_ours()}")
    if isinstance(err, KilledWorker):
        which = f"chunk {chunk}" if chunk is not None else "a chunk"
        return ClusterError(f"{where}: {which} was being played by each of "
                            f"{err.allowed_failures + 1} Dask workers in turn when it died "
                            "(KilledWorker: out of memory? see the workers' logs)")
    reasons = set()
    if isinstance(err, FuturesCancelledError):
        reasons = {group.reason for group in err.error_groups}
    elif isinstance(err, FutureCancelledError):
        reasons = {err.reason}
    lost = "scheduler-connection-lost" in reasons or isinstance(err, (CommClosedError, OSError))
    if lost or type(err).__name__ == "ClosedClientError":
        return ClusterError(f"{where}: the Dask scheduler was lost (its connection closed)")
    if reasons:
        return ClusterError(f"{where}: the Dask cluster cancelled the chunks in flight "
                            f"({', '.join(sorted(reasons))})")
    return None


def iter_jobs(
    job, todo: Iterator[int], scheduler: str, workers: int | None = None,
    timing: dict | None = None, late: list | None = None, say=None, ready=None,
) -> Iterator[tuple]:
    """Run ``job(i)`` (picklable; ``simulator.chunks.PlayChunk`` or compare's) for the indices
    ``todo`` (increasing) on a Dask cluster; yield each result ``(i, n_rounds, payload)`` as it
    finishes, with the in-flight window and lookahead of ``simulator.chunks.iter_jobs``, the
    window following the cluster's worker threads as workers join or leave (looked at every
    `THREADS_POLL` seconds).

    Closing the generator (or an exception, Ctrl-C) keeps the results of the chunks finished
    by then in ``late``, as the threads' runner does, and cancels the others. A failure of the
    cluster (its scheduler lost, a chunk that killed its workers) is a `ClusterError`, the
    finished chunks kept likewise. ``timing["startup"]``: the seconds the cluster (or the
    connection) took to be ready, which a run's speed leaves out; ``timing["threads"]``: the
    most worker threads the cluster had. ``say(text)``: told once when the cluster has no
    worker (the run waits for one), and at once, on a stop, what it does to the chunks in
    flight. ``ready()``: called once connected (the local cluster started), before any chunk
    is sent."""
    began = time.perf_counter()
    client, cluster = connect(scheduler, workers)
    if timing is not None:
        timing["startup"] = time.perf_counter() - began
    try:
        if ready is not None:
            ready()
        with _dask_quiet():
            yield from _run(client, job, todo, scheduler, timing, late, say)
    finally:
        with _dask_quiet():
            client.close()
            if cluster is not None:
                cluster.close()


def _run(client, job, todo, scheduler, timing, late, say):
    """`iter_jobs` on a connected ``client``."""
    from distributed import wait

    from simulator.source import sha256

    pending: dict = {}  # key -> (future, chunk index)
    tries: dict = {}  # key -> fetches of a finished chunk's result that ran out of time
    stops = DeferredStops()  # (as the threads' runner: a stop raised between chunks)
    run_id = uuid.uuid4().hex[:12]
    upcoming = next(todo, None)
    threads, looked, idle, waiting = 0, 0.0, False, None
    asker = Asker(client, scheduler)

    def look():
        nonlocal threads, looked, idle, waiting
        threads, workers = cluster_workers(client)
        looked = time.monotonic()
        asker.look(workers)
        if timing is not None:
            timing["threads"] = max(threads, timing.get("threads", 0))
            if threads == 0 and waiting is None:  # (a wait for a worker: the cluster is not
                waiting = time.perf_counter()  # ready, and a run's speed leaves it out)
            elif threads and waiting is not None and asker.checked:
                timing["startup"] = timing.get("startup", 0.0) + time.perf_counter() - waiting
                waiting = None
        if threads == 0 and not idle and say is not None:
            say(f"the Dask cluster at {client.scheduler.address} has no worker: the run waits "
                f"for one (dask worker {client.scheduler.address})")
        idle = threads == 0

    def fill():
        nonlocal upcoming
        if not asker.checked:  # (no chunk before a worker has said it runs this code)
            return
        in_flight = max(2, IN_FLIGHT_PER_WORKER * threads)
        lookahead = lookahead_for(in_flight)
        while upcoming is not None and len(pending) < in_flight:
            if pending and upcoming - min(i for _, i in pending.values()) >= lookahead:
                return
            future = client.submit(
                _checked, job, sha256(), upcoming, key=f"bjsim-chunk-{run_id}-{upcoming}",
                pure=False)
            pending[future.key] = (future, upcoming)
            upcoming = next(todo, None)

    began, told = time.monotonic(), False
    try:
        look()
        fill()
        while pending or upcoming is not None:
            if stops.noted:
                if say is not None and stops.stopping():  # (the fetch may take up to KEEP_WAIT)
                    say("stopping: no new chunk starts; the chunks finished on the cluster are "
                        "being fetched, to be kept, and the others cancelled")
                stops.deliver()
            if time.monotonic() - looked >= (THREADS_POLL if asker.checked else ASK_POLL):
                look()
                fill()
            if not pending:  # (no worker has said yet that it runs this code)
                if not told and threads and time.monotonic() - began > ASK_WAIT and say:
                    told = True
                    say(f"no Dask worker of the cluster at {client.scheduler.address} has said "
                        f"which bjsim it runs in {ASK_WAIT:.0f} s: the run waits for one that "
                        "does")
                time.sleep(ASK_POLL)
                continue
            try:
                done = wait([f for f, _ in pending.values()], timeout=STOP_POLL,
                            return_when="FIRST_COMPLETED").done
            except TimeoutError:
                continue
            except Exception as err:  # noqa: BLE001 - Dask's, in one line
                failed = _failure(err, scheduler)
                if failed is None:
                    raise
                raise failed from None
            for future in sorted(done, key=lambda f: pending[f.key][1]):
                chunk = pending.pop(future.key)[1]
                try:  # (never a wait with no end, which would hold a stop back while a worker
                    # that died takes the result with it: Dask makes it again, here waited for
                    # as in play; each try of a chunk twice as long, so that a slow transfer ends)
                    result = future.result(timeout=FETCH_WAIT * 2 ** tries.get(future.key, 0))
                except TimeoutError:
                    pending[future.key] = (future, chunk)
                    tries[future.key] = tries.get(future.key, 0) + 1
                    continue
                except Exception as err:  # noqa: BLE001 - Dask's, in one line; a chunk's own
                    failed = _failure(err, scheduler, chunk)  # error as it is
                    if failed is None:
                        raise
                    raise failed from None
                fill()
                if not stops.pause():  # a stop noted: raised above, the chunk left in play
                    pending[future.key] = (future, chunk)  # (kept, `_keep_finished`)
                    break
                try:
                    yield result  # (the caller's handlers meanwhile: `DeferredStops.pause`)
                finally:  # (released with the deferral back: a stop meanwhile is noted)
                    stops.resume()
                    future.release()
    finally:  # (a signal meanwhile is still noted, and handed on at the end)
        asker.close()
        if waiting is not None and timing is not None:  # (a stop while no worker was there)
            timing["startup"] = timing.get("startup", 0.0) + time.perf_counter() - waiting
        if pending:
            _keep_finished(client, pending, late)
        stops.deliver()


KEEP_WAIT = 10.0  # seconds, at most, to fetch the chunks finished when a run stops
FETCH_WAIT = 5.0  # seconds a finished chunk's result is first fetched for (then 10, 20, ...)


def _keep_finished(client, pending: dict, late: list | None) -> None:
    """The results of the ``pending`` futures that have finished put in ``late`` (in index
    order; fetched for at most `KEEP_WAIT` seconds), the others cancelled."""
    finished = sorted((i, f) for f, i in pending.values() if f.status == "finished")
    if late is not None:
        deadline = time.monotonic() + KEEP_WAIT
        for _, future in finished:
            try:
                late.append(future.result(timeout=max(0.1, deadline - time.monotonic())))
            except Exception:  # noqa: BLE001 - lost with its worker, or the cluster gone
                pass
    try:
        client.cancel([f for f, _ in pending.values()])
    except Exception:  # noqa: BLE001 - the cluster may be gone already
        pass
