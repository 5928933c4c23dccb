"""simulator.run: one run start to finish, as `bjsim simulate` and later commands call it."""

from __future__ import annotations

import contextlib
import itertools
import json
import signal
import types

import numpy as np
import pytest
from helpers import ctrl_c_reaches_the_caller, interrupt_after_first_chunk

from simulator import engine, run
from simulator import layout as L
from simulator.rules import Rules
from simulator.strategy import load_strategy

NZ = Rules()
BASIC = load_strategy("basic")


def _plan(**kw) -> run.Plan:
    base = dict(rules=NZ, strategies=(BASIC,), names=("basic",), rounds=3_000, seed=11,
                chunk_rounds=1_000, workers=2)
    base.update(kw)
    return run.Plan(**base)


def test_simulate_is_the_engine_run_with_its_metadata():
    result = run.simulate(_plan(), quiet=True)
    want = engine.run(NZ, BASIC, 3_000, seed=11, chunk_rounds=1_000, workers=2)
    assert np.array_equal(result.tally, want)
    assert not result.partial
    assert result.meta["run"]["seed"] == 11 and result.meta["run"]["rounds_played"] == 3_000
    assert result.meta["strategy"] == ["basic"] and result.meta["rules"]["decks"] == 6
    assert result.summary["rounds"] == 3_000
    assert result.messages == []  # quiet: no speed line, no target, not interrupted


def test_render_json_names_the_run_and_the_messages_say_the_speed():
    result = run.simulate(_plan(rounds=2_000), quiet=False)
    doc = json.loads(run.render(result, "json"))
    assert doc["run"]["seed"] == 11 and doc["results"]["rounds"] == 2_000
    assert len(result.messages) == 1 and "2,000 rounds in" in result.messages[0]


def test_precision_target_is_reported_met_or_not():
    met = run.simulate(_plan(rounds=50_000, precision=0.5), quiet=True)
    assert met.meta["run"]["precision"]["met"] and met.meta["run"]["precision"]["stop_chunk"] == 0
    assert "met after 1,000 rounds" in met.messages[0]
    unmet = run.simulate(_plan(rounds=2_000, precision=1e-6), quiet=True)
    assert unmet.meta["run"]["precision"]["met"] is False
    assert "NOT met" in unmet.messages[0]


def test_the_progress_bar_ends_on_the_rounds_the_result_uses(monkeypatch):
    # Chunks past a precision stop were counted on the bar (570k) though left out of the result
    # (550,000). Here chunks 1 and 2 finish before chunk 0, which meets the target.
    real_bar, bars = run.compile_then_bar, []

    def kept_bar(*args, **kwargs):
        bar, compiling = real_bar(*args, **kwargs)
        bars.append(bar)
        return bar, compiling

    def late_first_chunk(state, rules, strategies, seed, workers, **kwargs):
        first = list(itertools.islice(engine.iter_chunks(
            rules, strategies, state.rounds, seed, state.chunk_rounds, 1), 3))
        return engine._record(state, (c for c in (first[1], first[2], first[0])))

    monkeypatch.setattr(run, "compile_then_bar", kept_bar)
    monkeypatch.setattr(engine, "advance", late_first_chunk)
    result = run.simulate(_plan(rounds=5_000, precision=0.9), quiet=False)
    assert result.meta["run"]["precision"]["stop_chunk"] == 0
    assert result.summary["rounds"] == 1_000 and bars[0].n == 1_000


def test_a_stopped_runs_bar_ends_on_the_rounds_kept(monkeypatch, capsys):
    # The chunks in play at a stop, waited for and kept, never reached the bar: a log's last
    # line read 250M (or 140M) where the partial result held 300M (180M).
    real_bar, bars = run.compile_then_bar, []

    def kept_bar(*args, **kwargs):
        bar, compiling = real_bar(*args, **kwargs)
        bars.append(bar)
        return bar, compiling

    class Stopped:  # chunk 0 played, then Ctrl-C; chunk 1, in play, kept as the stop closes it
        def __init__(self, state, rules, strategies, seed, workers, **kwargs):
            self.state = state
            self.chunks = list(itertools.islice(engine.iter_chunks(
                rules, strategies, state.rounds, seed, state.chunk_rounds, 1), 2))
            self.served = 0

        def __iter__(self):
            return self

        def __next__(self):
            self.served += 1
            if self.served > 1:
                raise KeyboardInterrupt
            i, n, payload = self.chunks[0]
            self.state.add(i, payload)
            return i, n

        def close(self):
            i, _, payload = self.chunks[1]
            self.state.add(i, payload)

    monkeypatch.setenv(run.EVERY_VAR, "0")  # (a line a draw: stderr is a log here)
    monkeypatch.setattr(run, "compile_then_bar", kept_bar)
    monkeypatch.setattr(engine, "advance", Stopped)
    result = run.simulate(_plan(rounds=5_000, workers=1), quiet=False)
    assert result.partial and result.summary["rounds"] == 2_000
    assert bars[0].n == 2_000
    lines = [ln for ln in capsys.readouterr().err.splitlines() if "rounds [" in ln]
    assert lines and "2.00k/5.00k rounds" in lines[-1], lines


def test_a_checkpoint_that_is_a_folder_is_refused_in_the_command_lines_words(tmp_path):
    """run.simulate refused a folder as its checkpoint with '--checkpoint: F is not a regular
    file', where every command refuses it in -o's words, 'cannot write: it is a folder': one
    wording, from one helper (atomic.target_problem)."""
    from click.testing import CliRunner

    from simulator.cli import cli

    folder = tmp_path / "runs"
    folder.mkdir()
    for resume in (False, True):
        said = f"--checkpoint {folder}: " + (
            "a folder, not a checkpoint: allowed the path of an existing checkpoint file (the run "
            "to carry on)" if resume else "cannot write: it is a folder")
        assert run.checkpoint_problem(str(folder), resume) == said
        with pytest.raises(run.RunError) as refused:
            run.simulate(_plan(checkpoint=str(folder), resume=resume), quiet=True)
        assert str(refused.value) == said
        args = ["simulate", "-n", "1000", "--checkpoint", str(folder)] + ["--resume"] * resume
        assert CliRunner().invoke(cli, args).stderr == f"Error: {said}\n"
    assert CliRunner().invoke(cli, ["simulate", "-o", str(folder)]).stderr == \
        f"Error: -o {folder}: cannot write: it is a folder\n"


def test_checkpoint_in_the_way_is_refused_and_resume_needs_the_file(tmp_path):
    path = tmp_path / "run.ckpt"
    first = run.simulate(_plan(checkpoint=str(path)), quiet=True)
    with pytest.raises(run.RunError, match="exists: pass --resume"):
        run.simulate(_plan(checkpoint=str(path)), quiet=True)
    again = run.simulate(_plan(checkpoint=str(path), resume=True), quiet=True)
    assert np.array_equal(again.tally, first.tally)
    assert again.meta["timing"]["resumed_rounds"] == 3_000
    with pytest.raises(run.RunError, match="does not exist"):
        run.simulate(_plan(checkpoint=str(tmp_path / "none"), resume=True), quiet=True)


def test_interrupted_run_is_partial_with_the_finished_chunks(monkeypatch):
    interrupt_after_first_chunk(monkeypatch, engine, "iter_chunks")
    result = run.simulate(_plan(workers=1), quiet=True)
    assert result.partial and result.meta["run"]["partial"]
    # the first chunk, and the second if it was running when the stop came (it is kept)
    done = int(result.tally[L.T_ROUNDS])
    assert done in (1_000, 2_000)
    assert f"interrupted: partial result of {done:,} rounds" in result.messages[-1]


def test_chunks_running_at_a_stop_are_waited_for_and_kept():
    # A stop waited for the chunks in play (a thread cannot be stopped), then threw them away:
    # with chunks of 3e8 rounds, 24 s of play lost.
    import time

    def job(i):
        time.sleep(0.2 if i == 0 else 0.8)
        t = np.zeros(L.N_TALLY, np.int64)
        t[L.T_ROUNDS] = 10
        return i, 10, t

    state = engine.RunState(20, 10)  # chunks 0 and 1
    played = engine.advance_job(state, job, workers=2)
    assert next(played) == (0, 10)
    played.close()  # as Ctrl-C does: chunk 1 is running, and is waited for
    assert 1 in state and state.finished and int(state.total()[L.T_ROUNDS]) == 20


def test_the_compile_is_not_timed(monkeypatch):
    # A first run's compile (warm) comes before the progress bar and the clock: its seconds were
    # counted in the run's rounds per second and the bar's estimate. A slow warm stands in here.
    import time

    from simulator import chunks

    warmed = []
    real_warm = chunks.PlayChunk.warm

    def warm(self):  # slow the first time only, as a compile is (a real one too, if uncached)
        real_warm(self)
        if not warmed:
            time.sleep(1.0)
        warmed.append(1)

    monkeypatch.setattr(chunks.PlayChunk, "warm", warm)
    result = run.simulate(_plan(), quiet=True)
    assert warmed and result.meta["timing"]["seconds"] < 1.0


def test_a_stop_after_the_last_chunk_is_not_partial(monkeypatch):
    # Ctrl-C while a finished run (or a met precision target) waited for chunks past its end
    # labelled the whole result PARTIAL and exited 130.
    real = engine.iter_chunks

    def stopped_at_close(*args, **kwargs):
        try:
            yield from real(*args, **kwargs)
        finally:
            raise KeyboardInterrupt  # as Ctrl-C while the chunks in play are waited for

    monkeypatch.setattr(engine, "iter_chunks", stopped_at_close)
    result = run.simulate(_plan(rounds=1_000, workers=1), quiet=True)
    assert not result.partial and result.meta["run"]["partial"] is False
    assert result.tally[L.T_ROUNDS] == 1_000
    assert not any("interrupted" in m for m in result.messages)
    # the stop is the caller's (a report stops at its next step), not forgotten
    assert result.stopped_after == signal.SIGINT


def test_a_checkpoint_that_stops_being_writable_does_not_stop_the_run(tmp_path, monkeypatch,
                                                                     capsys):
    # A full disk mid-run ended it with an error, exit 2, and no report: the run was lost.
    from simulator import checkpoint

    real, calls = checkpoint.Writer.write, []

    def write(self, state):
        calls.append(1)
        if len(calls) > 1:
            raise OSError(28, "No space left on device")
        real(self, state)

    monkeypatch.setattr(checkpoint.Writer, "write", write)
    monkeypatch.setenv("BJSIM_CHECKPOINT_EVERY", "0")
    path = tmp_path / "full.ckpt"
    result = run.simulate(_plan(checkpoint=str(path)), quiet=True)
    assert not result.partial and result.tally[L.T_ROUNDS] == 3_000
    err = capsys.readouterr().err
    assert f"--checkpoint {path}: cannot write: No space left on device: the run goes on" in err
    assert err.count("the run goes on") == 1 and len(calls) > 2  # once, however many fail
    assert result.messages[-1] == (
        f"bjsim: --checkpoint {path}: cannot write: No space left on device: the report has "
        "every chunk played, but the checkpoint holds only what an earlier save wrote (--resume "
        "carries on from there)")
    # stopped: no "finished chunks saved in" beside it, which it contradicts
    stopped = run.with_save_failed([f"{run.SAVED}{path}: carry on with --resume", "x"],
                                   types.SimpleNamespace(failed="f"))
    assert stopped[0] == "x" and len(stopped) == 2 and "earlier save wrote" in stopped[1]
    with pytest.raises(run.RunError, match="cannot write"):  # before the run: refused
        monkeypatch.setattr(checkpoint.Writer, "write", lambda self, state: write(self, state))
        run.simulate(_plan(checkpoint=str(tmp_path / "other.ckpt")), quiet=True)


def test_a_finished_checkpoint_resumes_without_writing(tmp_path, monkeypatch):
    # A finished checkpoint in a read-only folder could not be reported: resuming wrote it.
    from simulator import checkpoint

    path = str(tmp_path / "done.ckpt")
    whole = run.simulate(_plan(checkpoint=path), quiet=True)

    def refuse(self, state):
        raise OSError(30, "Read-only file system")

    monkeypatch.setattr(checkpoint.Writer, "write", refuse)
    again = run.simulate(_plan(checkpoint=path, resume=True), quiet=True)
    assert np.array_equal(again.tally, whole.tally) and not again.partial
    assert not any("cannot write" in m for m in again.messages)


@contextlib.contextmanager
def _ctrl_c_raises():
    """Ctrl-C's own handler for the block: a test process may start with SIGINT ignored (a
    background job of a non-interactive shell does, and pytest-xdist's workers inherit it), and
    then a stop the runner hands on raises nothing."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)


def test_a_stop_signal_while_chunks_play_is_raised_where_the_runner_looks():
    # Raised wherever it landed, a Ctrl-C could come as concurrent.futures.wait held some
    # futures' locks: a worker finishing its chunk then waited on them forever, and the stop
    # with it (CI saw a SIGTERM stop hang 300 s). The runner notes the signal and raises it
    # between chunks, its handler restored, the chunks in play kept.
    import os
    import signal
    import time

    from simulator.chunks import iter_jobs

    def job(i):
        if i == 1:  # (a worker thread, as the runner waits: the main thread notes it)
            os.kill(os.getpid(), signal.SIGINT)
        time.sleep(1.0 if i == 0 else 0.3)  # (no chunk to yield before it is noted)
        return i, 1, None

    late: list = []
    with _ctrl_c_raises():
        jobs = iter_jobs(job, iter(range(1000)), 2, late)
        try:
            with pytest.raises(KeyboardInterrupt) as stop:
                for _ in range(100):
                    next(jobs)
        finally:
            jobs.close()  # (a failure above must not leave the runner's handler to the next test)
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    assert stop.traceback[-1].name == "deliver"  # (the runner's, not where it landed)
    assert {0, 1} <= {i for i, _, _ in late}


@pytest.mark.parametrize("kind", ["iter_chunks", "advance", "iter_jobs"])
def test_a_generator_of_chunks_suspended_at_a_yield_leaves_a_stop_to_its_caller(kind):
    # A review: a notebook that took a chunk of engine.iter_chunks and kept the generator could
    # not be interrupted: the handler that notes a stop to raise it between chunks stayed in
    # place while the generator waited on its caller, the stop raised only as it went on (or
    # as "Exception ignored" as it was collected). While it waits, the caller's handler is in
    # place; as it goes on, the runner's again.

    from simulator.chunks import iter_jobs

    state = engine.RunState(3_000, 1_000)
    make = {
        "iter_chunks": lambda: engine.iter_chunks(NZ, BASIC, 3_000, 7, 1_000, workers=1),
        "advance": lambda: engine.advance(state, NZ, BASIC, 7, workers=1),
        "iter_jobs": lambda: iter_jobs(lambda i: (i, 1_000, None), iter(range(3)), 1),
    }[kind]
    with _ctrl_c_raises():
        got = ctrl_c_reaches_the_caller(make())
    assert sorted(c[0] for c in got) == [0, 1, 2] and all(c[1] == 1_000 for c in got)
    assert kind != "advance" or state.finished and state.rounds_done == 3_000


def test_a_stop_signal_as_the_last_chunk_comes_in_is_not_lost():
    # Noted while the last chunk played and the runner ended, it was dropped with the handlers
    # put back: the command carried on as if never stopped.
    import os
    import signal
    import time

    from simulator.chunks import iter_jobs

    def job(i):
        if i == 1:  # the last chunk: the runner has looked for a stop before it ends
            time.sleep(0.3)
            os.kill(os.getpid(), signal.SIGINT)  # (a worker thread: the main thread notes it)
        return i, 1, None

    with _ctrl_c_raises():
        with pytest.raises(KeyboardInterrupt):
            list(iter_jobs(job, iter(range(2)), 1))
            # On a loaded machine the kernel may hand the signal to an idle thread only after
            # the runner has ended and put the handlers back: the handler put back raises it
            # then (not lost either). A stop noted and dropped raises nothing, here or there.
            time.sleep(1.0)
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


@pytest.mark.parametrize("tty", [False, True])
def test_no_thread_outlives_a_run(monkeypatch, tty):
    # A review: every run left a thread behind (tqdm's monitor), -q or not, where stderr was not
    # a terminal: each run made a bar class of its own, and each tqdm class starts its monitor,
    # which a disabled bar never stops. A notebook's loop of runs piled them up.
    import threading

    from simulator import compare, count_runs, plans

    monkeypatch.setattr(run, "terminal", lambda: tty)
    games = tuple(compare.Game(label, rules, (BASIC,), ("basic",))
                  for label, rules in (("nz", NZ), ("2 decks", NZ.replace(decks=2))))
    before = threading.active_count()
    for quiet in (True, False, True):
        run.simulate(_plan(rounds=2_000), quiet=quiet)
        compare.compare(compare.Plan(games, rounds=2_000, chunk_rounds=1_000, exact=False),
                        quiet=quiet)
    plan = plans.load_plan("hi-lo-1-12")
    for quiet in (True, False):
        count_runs.play(count_runs.check(NZ, plan), plan, BASIC, "basic", rounds=2_000,
                        seed=3, chunk_rounds=1_000, workers=1, quiet=quiet)
    assert threading.active_count() == before, [t.name for t in threading.enumerate()]


def test_a_run_on_another_thread_while_the_main_thread_holds_a_generator_of_chunks():
    # A review: a thread's engine.advance took the main thread's deferral (stops.running reads
    # the process's SIGINT handler) and paused it from the thread: "ValueError: signal only
    # works in main thread", or, with a stop noted there, its chunks silently not yielded
    import threading

    held = engine.iter_chunks(NZ, BASIC, 4_000, 1, 1_000, 1)
    next(held)  # (the main thread's generator suspended at its yield, its deferral paused)
    out: list = []

    def other():
        try:
            state = engine.RunState(3_000, 1_000)
            for _ in engine.advance(state, NZ, BASIC, 2, 1):
                pass
            out.append(state.total())
        except BaseException as err:  # noqa: BLE001 - the test reports it
            out.append(err)

    with engine.stops.held():  # (the main thread inside a deferral while the thread runs)
        thread = threading.Thread(target=other)
        thread.start()
        thread.join()
    held.close()
    assert len(out) == 1 and isinstance(out[0], np.ndarray), out
    assert np.array_equal(out[0], engine.run(NZ, BASIC, 3_000, 2, 1_000, 1))


def test_a_bar_shows_each_chunk_though_two_end_together(monkeypatch):
    # Without tqdm's monitor thread (a review's fix of a thread a run left behind) an update
    # within tqdm's interval of its last draw, as two chunks ending together, was not drawn, and
    # the bar stayed a chunk behind until the next chunk, however long
    import io
    import time

    class Tty(io.StringIO):
        def isatty(self):
            return True

    monkeypatch.setenv(run.EVERY_VAR, "0")  # (a line a draw where stderr is a log)
    for kind in run._bar_kinds():
        out = Tty()
        bar = kind(total=3_000_000, file=out, unit="round", unit_scale=True, leave=True,
                   mininterval=5)
        time.sleep(0.05)
        for done in (1_000_000, 2_000_000):  # (the second within 5 s of the first's draw)
            run.advance_bar(bar, types.SimpleNamespace(rounds_done=done))
        drawn = out.getvalue().replace("\r", "\n").strip().splitlines()
        assert drawn and "2.00M/3.00M" in drawn[-1], (kind, out.getvalue())
        bar.close()
    line = run._line_bar().__new__(run._line_bar())  # (Ctrl-C inside __init__: no error)
    line.close()


def test_a_bars_rate_follows_the_chunks_it_draws_not_the_last_slow_one(monkeypatch):
    # A draw forced between tqdm's own (`advance_bar`) took no sample of the rate, so one slow
    # chunk fixed it for the rest of the run: a log read 1.97M rounds/s on a 46M/s Dask run,
    # and 496k/s (ETA 23:30) for ever after a pause. Chunks of 10 rounds 0.01 s apart after one
    # 0.5 s: the rate is near 1,000 rounds/s.
    import io

    clock = [0.0]
    monkeypatch.setenv(run.EVERY_VAR, "0")
    for kind in run._bar_kinds():
        bar = kind(total=10_000, file=io.StringIO(), unit="round")
        bar._time = lambda: clock[0]
        bar.start_t = bar.last_print_t = 0.0
        done = 0
        for step in [0.5] + [0.01] * 200:
            clock[0] += step
            done += 10
            run.advance_bar(bar, types.SimpleNamespace(rounds_done=done))
        rate = bar.format_dict["rate"]
        assert 900 < rate < 1_100, (kind, rate)
        bar.close()
    # without a total (a precision run's) a log line has no percentage nor time left
    out = io.StringIO()
    line = run._line_bar()(total=None, file=out, unit="round", unit_scale=True)
    run.advance_bar(line, types.SimpleNamespace(rounds_done=5_000_000))
    line.close()
    assert "5.00M rounds [" in out.getvalue(), out.getvalue()
    assert "%" not in out.getvalue() and "<" not in out.getvalue() and "/?" not in out.getvalue()


def test_a_log_lines_rate_is_the_rounds_since_the_line_before(monkeypatch):
    """A scale user's review: with two workers, chunks ending in pairs (a long gap, then none),
    tqdm's average of the last few swung a log's rate between 63M and 117M rounds/s on a steady
    85M/s run, and its time left with it. A log line gives the rounds since the line before
    over the time since: here 1,000 rounds/s, chunks of 10 in pairs 0.019 s and 0.001 s apart."""
    import io
    import re

    clock = [0.0]
    monkeypatch.setenv(run.EVERY_VAR, "1")
    out = io.StringIO()
    bar = run._line_bar()(total=100_000, file=out, unit="round")
    bar._time = lambda: clock[0]
    bar.start_t = bar.last_print_t = 0.0
    done = 0
    for step in [0.019, 0.001] * 500:
        clock[0] += step
        done += 10
        run.advance_bar(bar, types.SimpleNamespace(rounds_done=done))
    rates = [float(r) for r in re.findall(r"([\d.]+)round/s", out.getvalue())]
    assert len(rates) >= 8 and all(970 <= r <= 1_030 for r in rates), out.getvalue()
    bar.close()


def test_a_strategy_file_run_is_rebuilt_from_its_json_alone(tmp_path):
    # A review carried for many sessions: the json named a strategy file by its name and the
    # SHA-256 of its charts, but held no chart, so a run of a user's file could not be rebuilt.
    from click.testing import CliRunner

    from simulator.cli import cli
    from simulator.strategy import charts_sha256, dumps_strategy, load_strategy

    path = tmp_path / "mine.toml"  # (a user's file: never-bust's charts under its own name)
    path.write_text(dumps_strategy(load_strategy("never-bust")).replace(
        'name = "never-bust"', 'name = "mine"'))
    args = ["simulate", "--rounds", "50000", "--seed", "9", "--boxes", "2", "-q", "-f", "json"]
    first = json.loads(CliRunner().invoke(cli, [*args, "--strategy", str(path)]).stdout)
    (sha,) = set(first["strategy_sha256"])
    assert list(first["strategy_charts"]) == [sha] == [charts_sha256(load_strategy(str(path)))]
    rebuilt = tmp_path / "rebuilt.toml"
    rebuilt.write_text(first["strategy_charts"][sha])
    again = json.loads(CliRunner().invoke(cli, [*args, "--strategy", str(rebuilt)]).stdout)
    assert again["strategy_sha256"] == first["strategy_sha256"]
    assert again["results"] == first["results"]
    shipped = json.loads(CliRunner().invoke(cli, args).stdout)  # (the default: basic)
    assert shipped["strategy_charts"][shipped["strategy_sha256"][0]].startswith('name = "')
