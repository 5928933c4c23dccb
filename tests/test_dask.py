"""Chunks on a Dask cluster give the same result as threads: a LocalCluster of two worker processes
(one thread each, no dashboard) started once for the module; plus the errors of --scheduler.

Skipped when dask/distributed are not installed (they are in the ``test`` extra).
"""

from __future__ import annotations

import builtins
import contextlib
import json
import logging
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import types
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from helpers import ctrl_c_reaches_the_caller

from simulator import distributed as D
from simulator import engine
from simulator.cli import cli
from simulator.rules import Rules
from simulator.strategy import load_strategy

NZ = Rules()
BASIC = load_strategy("basic")
RUN = ["--rounds", "8000", "--chunk-rounds", "500", "--seed", "17", "-q", "-f", "json"]


def run_cli(*args):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


@pytest.fixture(scope="module")
def scheduler():
    import distributed as dd

    cluster = dd.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
        silence_logs=logging.ERROR, scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
    )
    try:
        yield cluster.scheduler_address
    finally:
        cluster.close()


@contextlib.contextmanager
def threads_cluster(n_workers: int = 1, threads: int = 1):
    """A cluster of worker threads in this process (quick to start: for fake jobs that sleep),
    on tcp:// as --scheduler takes; yields the cluster."""
    import distributed as dd

    cluster = dd.LocalCluster(
        n_workers=n_workers, threads_per_worker=threads, processes=False, protocol="tcp",
        dashboard_address=None, silence_logs=logging.ERROR,
        scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
    )
    try:
        yield cluster
    finally:
        cluster.close()


def test_cluster_result_equals_threads(scheduler):
    rules = NZ.replace(boxes=2)
    threads = engine.run(rules, BASIC, 7_300, seed=4, chunk_rounds=500, workers=2)
    dask = engine.run(rules, BASIC, 7_300, seed=4, chunk_rounds=500, scheduler=scheduler)
    assert np.array_equal(threads, dask)


def test_cluster_precision_stops_at_the_same_chunk_as_threads(scheduler):
    a = engine.RunState(60_000, 250, precision=0.06)
    b = engine.RunState(60_000, 250, precision=0.06)
    for _ in engine.advance(a, NZ, BASIC, seed=21, workers=1):
        pass
    for _ in engine.advance(b, NZ, BASIC, seed=21, scheduler=scheduler):
        pass
    assert a.stop_chunk is not None and a.stop_chunk == b.stop_chunk
    assert np.array_equal(a.total(), b.total())


def test_cluster_skips_finished_chunks_and_closing_cancels(scheduler):
    got = [i for i, _, _ in engine.iter_chunks(NZ, BASIC, 5_000, 3, 500, skip={1, 2},
                                               scheduler=scheduler)]
    assert sorted(got) == [0, 3, 4, 5, 6, 7, 8, 9]
    chunks = engine.iter_chunks(NZ, BASIC, 10**12, 3, 100, scheduler=scheduler)
    next(chunks)
    chunks.close()  # returns: 10^10 chunks are never created; futures in flight are cancelled


def test_cli_scheduler_address_gives_the_threads_report(scheduler, monkeypatch):
    threads = run_cli("simulate", *RUN)
    monkeypatch.setattr(os, "cpu_count", lambda: 5)  # (this machine's CPUs: not the cluster's)
    dask = run_cli("simulate", *RUN, "--scheduler", scheduler)
    assert dask.exit_code == 0, dask.output
    a, b = json.loads(threads.stdout), json.loads(dask.stdout)
    assert a["results"] == b["results"] and a["run"] == b["run"]
    assert b["timing"]["scheduler"] == scheduler
    # the cluster's worker threads played it (--workers is refused there), not this machine's
    # CPUs
    assert b["timing"]["workers"] == 2


def test_the_bar_is_drawn_once_the_cluster_is_ready(scheduler, terminal_bar):
    loud = [a for a in RUN if a != "-q"]
    r = run_cli("simulate", *loud, "--scheduler", scheduler)
    assert r.exit_code == 0, r.output
    waited, _, rest = r.stderr.partition("\n")
    assert waited == f"bjsim: connecting to the Dask scheduler at {scheduler} (at most 20s)"
    assert "8.00k/8.00k" in rest, r.stderr  # (drawn, once connected)


def test_cli_scheduler_local_starts_its_own_cluster():
    threads = run_cli("simulate", *RUN)
    local = run_cli("simulate", *RUN, "--scheduler", "local", "--workers", "2")
    assert local.exit_code == 0, local.output
    doc = json.loads(local.stdout)
    assert doc["results"] == json.loads(threads.stdout)["results"]
    # the cluster's start-up is given apart, not in the run's time (its speed read 10x low)
    startup, seconds = doc["timing"]["cluster_startup_seconds"], doc["timing"]["seconds"]
    assert startup > 0 and seconds > 0
    assert json.loads(threads.stdout)["timing"]["cluster_startup_seconds"] is None


def test_simulate_workers_with_a_tcp_scheduler_is_refused_before_connecting():
    # --workers was accepted with a tcp:// scheduler and not used (the cluster's threads play;
    # compare's --workers also sets the processes deriving strategies, so it stays there)
    r = run_cli("simulate", *RUN, "--workers", "3", "--scheduler", "tcp://127.0.0.1:9")
    assert r.exit_code == 2, r.output
    assert r.stderr.strip().splitlines()[-1] == (
        "Error: --workers: not with --scheduler tcp://127.0.0.1:9: the cluster's workers play "
        "the chunks, as many at once as their threads (dask worker --nthreads N)")


def test_unreachable_scheduler_is_one_line(monkeypatch):
    monkeypatch.setattr(D, "CONNECT_TIMEOUT", "1s")
    r = run_cli("simulate", *RUN, "--scheduler", "tcp://127.0.0.1:9")
    assert r.exit_code == 2, r.output
    last = [ln for ln in r.stderr.splitlines() if ln.strip()][-1]
    assert last.startswith("Error: --scheduler tcp://127.0.0.1:9: cannot connect")
    assert "connecting" not in r.stderr  # (-q)
    # without -q the bar sat at 0% for the whole wait, with no word of what it waited for
    loud = run_cli("simulate", *[a for a in RUN if a != "-q"], "--scheduler", "tcp://127.0.0.1:9")
    assert loud.exit_code == 2
    assert loud.stderr.startswith("bjsim: connecting to the Dask scheduler at tcp://127.0.0.1:9 "
                                  "(at most 1s)\n")


def a_closed_port() -> int:
    """A local port nothing listens on (a connection to it is refused at once)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_a_refused_connection_fails_at_once_in_the_same_words():
    # Dask's connect retried a refused connection until its 20 s timeout, then said either
    # 'no answer in 20s' or 'connection refused' for the same address, run to run
    address = f"tcp://127.0.0.1:{a_closed_port()}"
    for _ in range(2):
        began = time.monotonic()
        r = run_cli("simulate", *RUN, "--scheduler", address)
        assert time.monotonic() - began < 10
        assert r.exit_code == 2, r.output
        assert r.stderr == f"Error: --scheduler {address}: cannot connect (connection refused)\n"


def test_an_unknown_host_is_named_so_at_once():
    # tcp://nonexistent.invalid:8786 said 'no answer in 20s' after 20 s
    began = time.monotonic()
    r = run_cli("simulate", *RUN, "--scheduler", "tcp://nonexistent.invalid:8786")
    assert time.monotonic() - began < 15
    assert r.exit_code == 2, r.output
    assert r.stderr.startswith("Error: --scheduler tcp://nonexistent.invalid:8786: cannot "
                               "connect (unknown host"), r.stderr


def test_a_host_that_does_not_answer_is_no_answer_in_the_timeout(monkeypatch):
    def silent(address, timeout):
        assert address == ("10.0.0.5", 8786) and timeout == 20
        raise TimeoutError("timed out")

    monkeypatch.setattr(socket, "create_connection", silent)
    assert D._unreachable("tcp://10.0.0.5:8786", 20) == "no answer in 20s"


def test_no_bar_is_drawn_before_the_cluster_is_ready():
    # a 0% bar was drawn while connecting, and blanked: the Error line landed on its line
    address = f"tcp://127.0.0.1:{a_closed_port()}"
    loud = [a for a in RUN if a != "-q"]
    r = run_cli("simulate", *loud, "--scheduler", address)
    assert r.exit_code == 2, r.output
    assert r.stderr == (f"bjsim: connecting to the Dask scheduler at {address} (at most 20s)\n"
                        f"Error: --scheduler {address}: cannot connect (connection refused)\n")


@contextlib.contextmanager
def not_a_scheduler(reply: bytes | None):
    """A TCP server on a free local port that, to each connection, sends ``reply`` and keeps it
    open, or (``None``) sends nothing; yields its ``tcp://`` address."""
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(0.1)
    stop, held = threading.Event(), []

    def serve():
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except TimeoutError:
                continue
            held.append(conn)
            if reply is not None:
                conn.sendall(reply)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    finally:
        stop.set()
        thread.join(timeout=5)
        for conn in held:
            conn.close()
        server.close()


@pytest.mark.parametrize("reply, reason", [
    # waited for ever: a read in Dask's handshake has no timeout; a connection made, so not a
    # scheduler, as a dashboard's port is not
    (None, "no Dask scheduler's answer in 1s, though something accepts connections there: "
     "not a Dask scheduler?"),
    # read as a frame's length: numpy's ArrayMemoryError, a traceback
    (b"HTTP/1.0 400 Bad request\r\n\r\n<html>bad</html>\n",
     "not a Dask scheduler? its answer could not be read: "),
    (b"\xff" * 64, "not a Dask scheduler? its answer could not be read: "),
], ids=["silent", "http", "junk"])
def test_a_service_that_is_not_a_scheduler_is_one_line(monkeypatch, reply, reason):
    # (a misread answer fails without waiting: its timeout is long, so that a loaded machine's
    # slow start of Dask's client is not taken for no answer, as it was in 1 s)
    monkeypatch.setattr(D, "CONNECT_TIMEOUT", "1s" if reply is None else "10s")
    with not_a_scheduler(reply) as address:
        began = time.monotonic()
        r = CliRunner().invoke(cli, ["simulate", *RUN, "--scheduler", address])
        seconds = time.monotonic() - began
    assert r.exit_code == 2, r.output
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, r.stderr
    assert lines[0].startswith(f"Error: --scheduler {address}: cannot connect ({reason}"), lines
    assert lines[0].endswith(")")
    # numpy's words of how the answer was misread ("Unable to allocate 3.07 EiB for an array")
    # and Dask's ("Maximum allowed dimension exceeded") are not the user's business
    assert "allocate" not in lines[0] and "dimension" not in lines[0], lines
    assert seconds < 15, seconds  # the timeout (1 s where it waits), and 2 s for Dask's error


def test_scheduler_without_dask_installed_is_one_line(monkeypatch):
    real_import = builtins.__import__

    def no_dask(name, *args, **kwargs):
        if name.split(".")[0] in ("dask", "distributed"):
            raise ImportError(f"No module named {name!r}")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_dask)
    r = run_cli("simulate", *RUN, "--scheduler", "local")
    assert r.exit_code == 2, r.output
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert lines == ["Error: --scheduler: needs Dask, which is not installed: "
                     "pip install 'bjsim[dask]' (in a checkout: pip install -e '.[dask]')"]


@pytest.mark.parametrize("bad", ["nowhere", "tcp://host", "tcp://:8786", "http://h:1", "h:8786"])
def test_bad_scheduler_addresses(bad):
    with pytest.raises(D.SchedulerError, match="tcp://HOST:PORT"):
        D.check_address(bad)
    assert D.check_address("tcp://10.0.0.5:8786") == "tcp://10.0.0.5:8786"


@pytest.mark.parametrize("port", ["0", "99999"])
def test_a_port_out_of_range_is_refused_at_once(port):
    # tcp://127.0.0.1:99999 waited 20 s for a connection that cannot be
    with pytest.raises(D.SchedulerError, match=f"port {port} is out of range: allowed 1-65535"):
        D.check_address(f"tcp://127.0.0.1:{port}")


def test_compare_on_the_cluster_equals_threads(scheduler):
    """bjsim compare's job (every game of a chunk, block by block) on Dask: the same payload."""
    from simulator import compare as C

    games = tuple(C.Game(label, rules, (BASIC,), ("basic",)) for label, rules in
                  (("nz", NZ), ("h17", NZ.replace(dealer_hits_soft_17=True))))
    plan = C.Plan(games, rounds=3_000, seed=8, chunk_rounds=1_000, pair_rounds=100, workers=2,
                  exact=False)
    threads = C.compare(plan, quiet=True)
    cluster = C.compare(C.Plan(**{**plan.__dict__, "scheduler": scheduler}), quiet=True)
    assert list(cluster.payload) == list(threads.payload)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_stop_with_scheduler_local_ends_its_workers_without_a_traceback(tmp_path, sig):
    # Ctrl-C in a terminal reaches the whole process group: each Dask worker process printed a
    # traceback (and SIGTERM the scheduler's "Couldn't gather keys"), before bjsim's own line.
    root = Path(__file__).resolve().parents[1]
    cmd = [sys.executable, "-m", "simulator", "simulate", "--scheduler", "local", "--workers",
           "2", "--rounds", "1e10", "--chunk-rounds", "1e6"]
    proc = subprocess.Popen(cmd, cwd=tmp_path, env=dict(os.environ, PYTHONPATH=str(root),
                                                        BJSIM_PROGRESS_SECONDS="0"),  # (a bar
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,  # line
                            start_new_session=True)  # a redraw: stderr is a pipe here)
    err: list[str] = []
    reader = threading.Thread(target=lambda: err.extend(iter(lambda: proc.stderr.read(1), "")))
    reader.start()
    deadline = time.monotonic() + 120
    while "house edge" not in "".join(err) and time.monotonic() < deadline:  # a chunk has run
        time.sleep(0.2)
    os.killpg(proc.pid, sig)  # as Ctrl-C in a terminal: bjsim and its workers
    out = proc.stdout.read()
    proc.wait(timeout=60)
    reader.join(timeout=10)
    text = "".join(err)
    assert proc.returncode == 128 + sig, text
    assert "Traceback" not in text and "ERROR" not in text, text
    assert text.rstrip().endswith("rounds"), text  # bjsim: interrupted: partial result of ...
    assert "bjsim: interrupted: partial result of" in text and "PARTIAL" in out
    for _ in range(100):  # no worker left
        alive = subprocess.run(["pgrep", "-g", str(proc.pid)], capture_output=True,
                               text=True).stdout
        if not alive:
            break
        time.sleep(0.1)
    assert alive == "", alive


def test_the_local_cluster_takes_no_fixed_port():
    # Its HTTP server (metrics: no dashboard) listened on 8787 all the same: a second run at once
    # printed Dask's "UserWarning: Port 8787 is already in use", even with -q.
    import warnings

    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        client, cluster = D.connect("local", 1)
        try:
            port = cluster.scheduler.http_server.port
        finally:
            client.close()
            cluster.close()
    assert port != 8787
    assert not [w for w in seen if "already in use" in str(w.message)], seen


def _tally(n: int) -> np.ndarray:
    from simulator import layout as L

    t = np.zeros(L.N_TALLY, np.int64)
    t[L.T_ROUNDS] = n
    return t


def test_a_stop_keeps_the_chunks_the_cluster_finished():
    # Ctrl-C as the first chunk was being recorded: chunks 2-4 had finished on the cluster
    # meanwhile and were cancelled with the others (the threads' runner keeps them).
    class Job:
        def __call__(self, i):
            time.sleep(4.0 if i == 0 else 0.2)
            return i, 1000, _tally(1000)

    state = engine.RunState(8000, 1000)
    got = []
    with threads_cluster(1, 2) as cluster, pytest.raises(KeyboardInterrupt):
        for i, _ in engine.advance_job(state, Job(), scheduler=cluster.scheduler_address):
            got.append(i)
            time.sleep(1.5)  # a slow consumer: chunks 2, 3 and 4 finish meanwhile
            raise KeyboardInterrupt
    held = set(range(state.prefix_end)) | set(state.extra)
    assert got == [1] and {1, 2, 3, 4} <= held, held


def test_a_generator_on_the_cluster_suspended_at_a_yield_leaves_a_stop_to_its_caller():
    # As on threads (test_run): the handler that notes a stop stayed in place while the
    # generator waited on its caller, so Ctrl-C was not raised until it went on.
    class Job:
        def __call__(self, i):
            return i, 1, None

    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with threads_cluster() as cluster:
            got = ctrl_c_reaches_the_caller(
                D.iter_jobs(Job(), iter(range(3)), cluster.scheduler_address))
    finally:
        signal.signal(signal.SIGINT, before)
    assert sorted(i for i, _, _ in got) == [0, 1, 2]


def test_a_lost_scheduler_is_one_error_and_keeps_what_finished(capfd):
    # It was Dask's FuturesCancelledError (scheduler-connection-lost), 40 lines of traceback and
    # Dask's log lines of its reconnection.
    class Job:
        def __call__(self, i):
            time.sleep(0.2)
            return i, 1, None

    got = []
    with threads_cluster(1, 2) as cluster:
        jobs = D.iter_jobs(Job(), iter(range(1000)), cluster.scheduler_address)
        with pytest.raises(D.ClusterError) as err:
            for i, _, _ in jobs:
                got.append(i)
                if len(got) == 2:
                    cluster.close()
    assert str(err.value) == (f"--scheduler {cluster.scheduler_address}: the Dask scheduler "
                              "was lost (its connection closed)")
    assert err.value.__cause__ is None and err.value.__suppress_context__
    captured = capfd.readouterr()
    assert "distributed" not in captured.err and "Traceback" not in captured.err, captured.err


def test_a_chunk_that_kills_its_workers_is_one_line():
    from distributed.scheduler import KilledWorker

    err = D._failure(KilledWorker("bjsim-chunk-x-7", None, 3), "tcp://h:1", 7)
    assert str(err) == ("--scheduler tcp://h:1: chunk 7 was being played by each of 4 Dask "
                        "workers in turn when it died (KilledWorker: out of memory? see the "
                        "workers' logs)")
    assert D._failure(ValueError("a chunk's own error"), "tcp://h:1", 7) is None


def test_cli_a_lost_cluster_gives_the_partial_report_and_one_error_line(tmp_path, monkeypatch):
    """The run's side of a cluster that fails (faked: a chunk played, one more finished as it
    failed): the partial report as after Ctrl-C, the checkpoint kept, one Error: line, exit 1;
    --resume carries on to the whole run's report."""
    address = "tcp://127.0.0.1:9"
    lost = f"--scheduler {address}: the Dask scheduler was lost (its connection closed)"

    def failing(job, todo, scheduler, workers=None, timing=None, late=None, say=None,
                ready=None):
        yield job(next(todo))
        late.append(job(next(todo)))
        raise D.ClusterError(lost)

    monkeypatch.setattr(D, "iter_jobs", failing)
    ckpt = tmp_path / "run.ckpt"
    r = run_cli("simulate", *RUN, "--scheduler", address, "--checkpoint", str(ckpt))
    assert r.exit_code == 1, r.output
    doc = json.loads(r.stdout)
    assert doc["run"]["partial"] is True and doc["run"]["rounds_played"] == 1000
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert lines == [f"Error: {lost}: partial result of 1,000 rounds; finished chunks saved in "
                     f"{ckpt}: carry on with --resume"], lines
    monkeypatch.undo()
    whole = run_cli("simulate", "--resume", str(ckpt), "-q", "-f", "json")
    assert whole.exit_code == 0, whole.output
    threads = run_cli("simulate", *RUN)
    assert json.loads(whole.stdout)["results"] == json.loads(threads.stdout)["results"]


@pytest.mark.parametrize("command", [["simulate"], ["compare", "--vary", "decks=8", "--no-exact",
                                                   "--pair-rounds", "50"]])
def test_a_cluster_failure_after_the_last_chunk_loses_nothing(monkeypatch, command):
    """The cluster lost once every chunk had finished (carried in the notes as untested): the
    whole result, as on threads, not partial, no Error: line, exit 0."""
    lost = "--scheduler tcp://127.0.0.1:9: the Dask scheduler was lost (its connection closed)"

    def failing(job, todo, scheduler, workers=None, timing=None, late=None, say=None,
                ready=None):
        for i in todo:
            yield job(i)
        raise D.ClusterError(lost)

    monkeypatch.setattr(D, "iter_jobs", failing)
    r = run_cli(*command, *RUN, "--scheduler", "tcp://127.0.0.1:9")
    assert r.exit_code == 0, r.output
    assert "Error" not in r.stderr and "partial" not in r.stderr.lower(), r.stderr
    doc = json.loads(r.stdout)
    assert doc["run"]["partial"] is False
    monkeypatch.undo()
    threads = json.loads(run_cli(*command, *RUN).stdout)
    key = "results" if "results" in doc else "variants"  # (compare's figures)
    assert doc[key] == threads[key]


def test_more_local_workers_than_cores_are_warned_of(monkeypatch):
    """An environment review: --scheduler local --workers 64 on 2 cores started 64 processes
    without a word (and did not start in the time allowed)."""
    def playing(job, todo, scheduler, workers=None, timing=None, late=None, say=None,
                ready=None):
        for i in todo:
            yield job(i)

    monkeypatch.setattr(D, "iter_jobs", playing)
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    said = run_cli("simulate", *RUN, "--scheduler", "local", "--workers", "3").stderr
    assert ("bjsim: warning: --workers 3 with --scheduler local starts 3 worker processes on 2 "
            "cores: each loads the engine (about 200 MB), and they share the cores") in said
    assert "warning" not in run_cli("simulate", *RUN, "--scheduler", "local", "--workers",
                                    "2").stderr


def test_a_cluster_failure_before_any_chunk_is_one_line(monkeypatch):
    lost = "--scheduler tcp://127.0.0.1:9: the Dask scheduler was lost (its connection closed)"

    def failing(job, todo, scheduler, workers=None, timing=None, late=None, say=None,
                ready=None):
        raise D.ClusterError(lost)
        yield

    monkeypatch.setattr(D, "iter_jobs", failing)
    r = run_cli("simulate", *RUN, "--scheduler", "tcp://127.0.0.1:9")
    assert r.exit_code == 1, r.output
    assert r.stdout == ""
    assert [ln for ln in r.stderr.splitlines() if ln.strip()] == [
        f"Error: {lost}: no chunk finished: nothing to report"]


def test_the_window_follows_the_workers_that_join(monkeypatch):
    # The chunks in flight were fixed when the run connected: a cluster with no worker yet
    # kept 2 in flight for the whole run, whatever joined later, and said nothing meanwhile.
    monkeypatch.setattr(D, "THREADS_POLL", 0.2)

    class Job:
        def __call__(self, i):
            began = time.monotonic()
            time.sleep(0.5)
            return i, 1, (began, time.monotonic())

    said: list[str] = []
    timing: dict = {}
    with threads_cluster(0, 4) as cluster:
        joins = threading.Timer(1.0, cluster.scale, (1,))
        joins.start()
        try:
            spans = [p for _, _, p in D.iter_jobs(Job(), iter(range(12)), cluster.scheduler_address,
                                                  timing=timing, say=said.append)]
        finally:
            joins.join()
    address = cluster.scheduler_address
    assert said == [f"the Dask cluster at {address} has no worker: the run waits for one "
                    f"(dask worker {address})"]
    edges = sorted([(a, 1) for a, _ in spans] + [(b, -1) for _, b in spans])
    running = [0]
    for _, step in edges:
        running.append(running[-1] + step)
    assert max(running) >= 3, spans  # (4 threads joined: all busy, but for a slow start)
    assert timing["threads"] == 4


TERM_WHILE_STARTING = """
import multiprocessing, os, signal, threading, time
from simulator import distributed

def stop(signum, frame):
    raise KeyboardInterrupt

def term_once_a_worker_starts():
    while not multiprocessing.active_children():
        time.sleep(0.02)
    os.kill(os.getpid(), signal.SIGTERM)

signal.signal(signal.SIGTERM, stop)  # (bjsim's: SIGTERM taken as Ctrl-C)
threading.Thread(target=term_once_a_worker_starts, daemon=True).start()
try:
    distributed.connect("local", 2)
    print("connected")
except KeyboardInterrupt:
    print("stopped")
"""


def test_a_stop_while_the_local_cluster_starts_leaves_no_traceback(tmp_path):
    # Raised inside LocalCluster(), the stop left a half-started cluster, which Dask's atexit
    # failed to close: "Exception ignored in atexit callback: <function close_clusters ...>",
    # 30 lines ending "AssertionError: Status.init". Now it is held until the cluster is up,
    # which is closed, then raised.
    root = Path(__file__).resolve().parents[1]
    done = subprocess.run([sys.executable, "-c", TERM_WHILE_STARTING], cwd=tmp_path,
                          env=dict(os.environ, PYTHONPATH=str(root)), capture_output=True,
                          text=True, timeout=120)
    assert done.stdout == "stopped\n", done
    assert done.stderr == "", done.stderr


def _lost_after_one_chunk(monkeypatch) -> str:
    """The Dask runner replaced by one whose scheduler is lost after its first chunk; the
    failure's words."""
    lost = "--scheduler tcp://127.0.0.1:9: the Dask scheduler was lost (its connection closed)"

    def failing(job, todo, scheduler, workers=None, timing=None, late=None, say=None,
                ready=None):
        yield job(next(todo))
        raise D.ClusterError(lost)

    monkeypatch.setattr(D, "iter_jobs", failing)
    return lost


def test_cli_compare_a_lost_cluster_gives_the_partial_report_and_one_error_line(monkeypatch):
    lost = _lost_after_one_chunk(monkeypatch)
    r = run_cli("compare", "--vary", "dealer_hits_soft_17=true", "--rounds", "3000",
                "--chunk-rounds", "1000", "--no-exact", "-q", "-f", "json", "--scheduler",
                "tcp://127.0.0.1:9")
    assert r.exit_code == 1, r.output
    assert json.loads(r.stdout)["run"]["partial"] is True
    assert [ln for ln in r.stderr.splitlines() if ln.strip()] == [
        f"Error: {lost}: partial result of 1,000 rounds per game"]


def test_an_answer_misread_as_a_huge_frame_is_named_plainly():
    # numpy's words reached the user: "cannot connect (not a Dask scheduler? Unable to allocate
    # 3.07 EiB for an array with shape (3541774087847204864,) and data type uint8)"
    class ArrayMemoryError(MemoryError):
        pass

    err = ArrayMemoryError("Unable to allocate 3.07 EiB for an array with shape (35417,)")
    assert D._reason(err, "1s") == ("not a Dask scheduler? its answer could not be read: a "
                                    "message of impossible size")
    assert D._reason(ValueError("Maximum allowed dimension exceeded"), "1s") == (
        "not a Dask scheduler? its answer could not be read: ValueError")


def test_a_failed_connection_leaves_no_half_made_client_for_the_collector():
    """A client whose handshake failed was held in a reference cycle by its error's frames; the
    collector later ran its __del__ (a close, which takes Dask's loop lock) inside another
    client's start, which holds that lock: the test suite hung there. It is collected at once."""
    import gc

    from distributed import Client

    gc.collect()  # (any left by other tests: closed here, not in the check below)
    # (a client of another test of this worker may still be held, closing, under load: the
    # check is of clients this connection made; the whole suite under load failed here once)
    before = {id(o) for o in gc.get_objects() if isinstance(o, Client)}
    with not_a_scheduler(b"\xff" * 64) as address:
        with pytest.raises(D.SchedulerError, match="not a Dask scheduler"):
            D._client(address)
        for t in threading.enumerate():
            if t.name == "bjsim-connect":
                t.join(timeout=30)
    assert not [o for o in gc.get_objects() if isinstance(o, Client) and id(o) not in before]


def test_a_result_lost_with_its_worker_is_waited_for_again_not_without_end(monkeypatch):
    # A worker killed while its finished chunk was fetched: future.result() with no timeout
    # waited for ever (the result to be made again, no worker left), a stop noted meanwhile
    # never acted on. Now the fetch has a time limit and the chunk goes back to those in play.
    import distributed

    class Future:
        def __init__(self, key, value, lost):
            self.key, self.value, self.lost, self.status = key, value, lost, "finished"

        def result(self, timeout=None):
            assert timeout is not None, "a fetch with no time limit"
            waits.append((self.key, timeout))
            if self.lost:
                self.lost -= 1
                raise TimeoutError
            return self.value

        def release(self):
            pass

        def done(self):
            return True

    class Client:
        scheduler = types.SimpleNamespace(address="tcp://fake:1")

        def submit(self, fn, *args, key, pure, **where):  # (the chunk checked: `D._checked`;
            # the question to the one worker, of this code: `D.Asker`)
            return Future(key, fn(*args), lost=3 if args and args[-1] == 1 else 0)

        def cancel(self, futures):
            pass

    def wait(futures, timeout, return_when):
        return types.SimpleNamespace(done={f for f in futures if f.status == "finished"})

    monkeypatch.setattr(distributed, "wait", wait)
    monkeypatch.setattr(D, "cluster_workers", lambda client: (1, ["tcp://fake:2"]))
    monkeypatch.setattr(D, "FETCH_WAIT", 0.01)
    waits: list = []
    got = list(D._run(Client(), lambda i: (i, 1, i), iter(range(4)), "tcp://fake:1", None, None,
                      None))
    assert sorted(got) == [(i, 1, i) for i in range(4)]
    # each try of the lost one twice as long (a slow transfer is not cut short for ever)
    lost = [t for key, t in waits if key.endswith("-1")]
    assert lost == pytest.approx([0.01, 0.02, 0.04, 0.08]), waits


@pytest.mark.parametrize("command", [["simulate", *RUN[:-2]],
                                     ["compare", "--vary", "dealer_hits_soft_17=true", "--rounds",
                                      "3000", "--chunk-rounds", "1000", "--no-exact", "-q"]])
def test_a_lost_clusters_partial_table_says_the_failure_not_an_interruption(monkeypatch,
                                                                            command):
    # the table said "PARTIAL RESULT: interrupted after ..." of a run no one interrupted
    _lost_after_one_chunk(monkeypatch)
    r = run_cli(*command, "-f", "table", "--scheduler", "tcp://127.0.0.1:9")
    assert r.exit_code == 1, r.output
    assert "interrupted" not in r.stdout, r.stdout
    if command[0] == "simulate":
        assert ("PARTIAL RESULT: stopped by a cluster failure after 500 of 8,000 rounds; "
                "not reproducible as it stands") in r.stdout
    else:
        assert "(PARTIAL: stopped by a cluster failure)" in r.stdout
    for fmt in ("json", "csv"):  # (their partial flag as it was: the failure is stderr's)
        again = run_cli(*command, "-f", fmt, "--scheduler", "tcp://127.0.0.1:9")
        assert "cluster failure" not in again.stdout


def test_a_precision_run_stopped_by_a_cluster_failure_is_not_said_interrupted():
    # "Precision: ... NOT met (interrupted)" under "PARTIAL RESULT: stopped by a cluster failure"
    from simulator.report import precision_text, stopped_how

    p = {"target": 0.0001, "met": False, "half_width": 0.0005, "max_rounds": 10**9}
    how = stopped_how({"failure": "--scheduler tcp://x:1: the Dask scheduler was lost"})
    assert precision_text(p, how).endswith("NOT met (stopped by a cluster failure): ±0.0500%")
    assert precision_text(p, stopped_how({})).endswith("NOT met (interrupted): ±0.0500%")
    assert precision_text(p, True).endswith("NOT met (interrupted): ±0.0500%")
    assert "(stopped at --max-rounds 1,000,000,000)" in precision_text(p, False)


class _Workers:
    """A client whose ``submit`` to a worker calls the function as the worker would, or gives
    its answer, or fails (an exception), or never answers (``"hang"``)."""

    def __init__(self, answers):
        self.answers = answers

    def submit(self, fn, key, workers, allow_other_workers, pure):
        assert not allow_other_workers and not pure
        (worker,) = workers
        answer = self.answers[worker]
        status = ("pending" if answer == "hang" else "error"
                  if isinstance(answer, BaseException) else "finished")
        value = fn() if answer is None else answer
        return types.SimpleNamespace(done=lambda: status != "pending", status=status,
                                     result=lambda timeout: value)


def _judged(asker, workers, wait=5.0):
    """``asker.look(workers)`` until every worker's answer has come (or ``wait`` seconds)."""
    end = time.monotonic() + wait
    asker.look(workers)
    while time.monotonic() < end and any(w in asker.asked for w in workers
                                         if w != "tcp://stuck:9"):
        time.sleep(0.01)
        asker.look(workers)


def test_a_worker_of_other_code_or_none_is_refused_by_name():
    """A Dask review: a worker running another bjsim played the run (another result, its json
    naming this code); one that could not import bjsim died on its first chunk and the run
    waited for ever. Each worker is asked which bjsim it runs (by a function sent by value, so
    that one without bjsim answers), on a thread (one that never answers holds nothing up), and
    the run refused naming a worker of other code or none."""
    from distributed.protocol.pickle import dumps

    from simulator.source import sha256

    probe = D._probe()
    assert probe() == [__import__("simulator").__version__, sha256()]
    # (by value: its code in the pickle, no module of bjsim's named for a worker to import)
    data = dumps(probe)
    assert b"bjsim_code" in data and b"simulator.distributed" not in data
    asker = D.Asker(_Workers({"tcp://a:1": None, "tcp://stuck:9": "hang",
                              "tcp://gone:3": OSError("gone")}), "tcp://s:8786")
    _judged(asker, ["tcp://a:1", "tcp://stuck:9", "tcp://gone:3"])
    # right: checked; no answer yet, or none (leaving): not refused, asked again later
    assert asker.checked == {"tcp://a:1"} and set(asker.asked) == {"tcp://stuck:9"}
    for answer, words in (([None, "ModuleNotFoundError: No module named 'simulator'"],
                           "cannot import bjsim (ModuleNotFoundError: No module named "
                           "'simulator')"),
                          (["0.1.9", "ab" * 32], "runs other bjsim code (0.1.9, source SHA-256 "
                           "abababababababab...)")):
        asker = D.Asker(_Workers({"tcp://a:1": None, "tcp://b:2": answer}), "tcp://s:8786")
        with pytest.raises(D.ClusterError) as err:
            _judged(asker, ["tcp://a:1", "tcp://b:2"])
        assert str(err.value) == (f"--scheduler tcp://s:8786: the Dask worker tcp://b:2 {words}: "
                                  f"every worker needs {D._ours()}")


def test_a_chunk_sent_to_a_worker_of_other_code_is_not_played(monkeypatch):
    import distributed

    from simulator import source

    monkeypatch.setattr(distributed, "get_worker", lambda: types.SimpleNamespace(
        address="tcp://late:3"))
    assert D._checked(lambda i: i * 2, source.sha256(), 21) == 42
    with pytest.raises(D.OtherCode, match="the Dask worker tcp://late:3 runs other bjsim code"):
        D._checked(lambda i: i * 2, "0" * 64, 21)
    failed = D._failure(D.OtherCode("the Dask worker tcp://late:3 runs other bjsim code"), "x")
    assert isinstance(failed, D.ClusterError) and "every worker needs this bjsim" in str(failed)


def test_a_port_that_answers_no_dask_is_said_to_be_no_scheduler(monkeypatch):
    # the dashboard's port (8787): "cannot connect (no answer in 20s)", no hint
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(5)
    port = server.getsockname()[1]
    monkeypatch.setattr(D, "CONNECT_TIMEOUT", "2s")
    try:
        with pytest.raises(D.SchedulerError) as err:
            D._client(f"tcp://127.0.0.1:{port}")
    finally:
        server.close()
    assert "no Dask scheduler's answer in 2s, though something accepts connections there: " \
        "not a Dask scheduler? a scheduler's dashboard port (8787 by default)" in str(err.value)


def test_a_local_cluster_that_does_not_start_is_named_and_closed_when_it_does(monkeypatch):
    # Dask's LocalCluster has no time limit on its start, and hung once in this suite: the run
    # sat silent. Now the wait is bounded, said in one line, and a cluster made late is closed.
    import distributed

    go, closed = threading.Event(), []

    class Late:
        def __init__(self, **kwargs):
            go.wait(30)

        def close(self):
            closed.append("cluster")

    class Client:
        def __init__(self, cluster):
            self.cluster = cluster

        def close(self):
            closed.append("client")

    monkeypatch.setattr(distributed, "LocalCluster", Late)
    monkeypatch.setattr(distributed, "Client", Client)
    monkeypatch.setattr(D, "START_TIMEOUT", 0.2)
    with pytest.raises(D.ClusterError) as err:  # (exit 1, not a user's mistake's 2)
        D.connect("local", 2)
    assert str(err.value) == (
        "--scheduler local: the local Dask cluster of 2 worker processes did not start in 0.2 s: "
        "run again, or without --scheduler (threads)")
    assert closed == []
    go.set()
    for _ in range(100):
        if len(closed) == 2:
            break
        time.sleep(0.05)
    assert closed == ["client", "cluster"]
    # the command line (the first start ended first: one start in Dask's quiet block at a
    # time, as in a run): one Error: line, exit 1, a cluster's failure (an environment review
    # found exit 2, a user's mistake's, which a CI job reads as a bad command)
    go.clear()
    r = run_cli("simulate", *RUN, "--scheduler", "local", "--workers", "2")
    assert r.exit_code == 1, r.output
    assert [ln for ln in r.stderr.splitlines() if ln.strip()] == [
        "Error: --scheduler local: the local Dask cluster of 2 worker processes did not start "
        "in 0.2 s: run again, or without --scheduler (threads): no chunk finished: nothing to "
        "report"]
    go.set()
    for _ in range(100):
        if len(closed) == 4:
            break
        time.sleep(0.05)
    assert closed == ["client", "cluster"] * 2


def test_a_local_cluster_made_as_the_wait_ends_is_closed(monkeypatch):
    # A last read: made between the wait's end and the check for it, the pair was never closed
    import concurrent.futures

    import distributed

    closed, real_wait = [], D.futures_wait

    class Made:
        def __init__(self, **kwargs):
            pass

        def close(self):
            closed.append("cluster")

    class Client:
        def __init__(self, cluster):
            pass

        def close(self):
            closed.append("client")

    def late_wait(futures, timeout=None):  # as if the start ended just after the time limit
        real_wait(futures)
        return concurrent.futures._base.DoneAndNotDoneFutures(set(), set(futures))

    monkeypatch.setattr(distributed, "LocalCluster", Made)
    monkeypatch.setattr(distributed, "Client", Client)
    monkeypatch.setattr(D, "futures_wait", late_wait)  # (distributed's own name: not the module's)
    with pytest.raises(D.ClusterError, match="did not start"):
        D.connect("local", 1)
    assert closed == ["client", "cluster"]


def test_an_unretrieved_all_exit_is_dropped_after_the_quiet_block_too():
    # A fetch cut short by its time limit leaves Dask's AllExit in a task that asyncio reports
    # ("Task exception was never retrieved", a traceback) when it is collected: once after the
    # quiet block had ended, under load, between bjsim's own lines of a stopped run
    import io
    import logging

    from distributed.client import AllExit

    with D._dask_quiet():
        pass
    log, seen = logging.getLogger("asyncio"), io.StringIO()
    handler = logging.StreamHandler(seen)
    log.addHandler(handler)
    try:
        try:
            raise AllExit()
        except AllExit as err:
            log.error("Task exception was never retrieved", exc_info=(AllExit, err, None))
        log.error("another asyncio error", exc_info=(ValueError, ValueError("x"), None))
    finally:
        log.removeHandler(handler)
    assert "never retrieved" not in seen.getvalue() and "another asyncio error" in seen.getvalue()
