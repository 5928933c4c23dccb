"""Interruption: a checkpointed run (``python -m simulator simulate ... --checkpoint F`` in a
subprocess) stopped by SIGINT (Ctrl-C) or SIGKILL at random moments resumes to exactly the
uninterrupted result, for a fixed number of rounds and for a precision target; SIGTERM is taken
as Ctrl-C.

The moments are drawn from a fixed seed as fractions of the run's length on the machine, counted
from when the run has started (its first checkpoint is on disk), so each test does the same
thing every time it runs. Checkpoints are
written every 0.05 s here (``BJSIM_CHECKPOINT_EVERY``) so that a kill lands part way through. One
case of each signal runs in the default suite; the others are marked slow (`make test-slow`).
"""

from __future__ import annotations

import json
import os
import random
import select
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from simulator.cli import cli

ROOT = Path(__file__).resolve().parent.parent
FIXED = ["--rounds", "20M", "--chunk-rounds", "200k", "--seed", "13", "--workers", "2"]
PRECISION = ["--precision", "0.0007", "--max-rounds", "40M", "--chunk-rounds", "100k", "--seed",
             "17", "--workers", "2"]


def uninterrupted(args) -> dict:
    result = CliRunner().invoke(cli, ["simulate", *args, "-q", "-f", "json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def finish(proc: subprocess.Popen, timeout: float) -> tuple[str, str]:
    """``proc.communicate(timeout)``; a process that has not ended by then is made to print
    every thread's stack (faulthandler, on SIGABRT) and the test fails with it."""
    try:
        return proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGABRT)
        out, err = proc.communicate(timeout=60)
        pytest.fail(f"the run did not end within {timeout} s; its threads:\n{err[-6000:]}")


def from_a_terminal() -> None:
    """A child's Ctrl-C as a terminal gives it: SIGINT at its default. A background job of a
    non-interactive shell (CI run with ``&``) starts with SIGINT ignored, which Python then
    keeps until bjsim installs its own handler: a signal sent while it still imports was lost
    (exit 0, the run played to its end)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start(args, checkpoint: Path, resume: bool = False) -> subprocess.Popen:
    env = dict(os.environ, BJSIM_CHECKPOINT_EVERY="0.05", PYTHONPATH=str(ROOT),
               PYTHONFAULTHANDLER="1")
    cmd = [sys.executable, "-m", "simulator", "simulate", *args, "-q", "-f", "json",
           "--checkpoint", str(checkpoint)] + (["--resume"] if resume else [])
    return subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, preexec_fn=from_a_terminal)


def _rounds_saved(checkpoint: Path) -> int:
    try:
        return json.loads(checkpoint.read_text())["rounds_done"]
    except (OSError, ValueError):
        return 0


def interrupt(args, checkpoint: Path, sig: int, delay: float):
    """Start the run, wait until its checkpoint holds a finished chunk, then ``delay`` seconds,
    and send ``sig``. Returns (exit code, stdout, stderr)."""
    proc = start(args, checkpoint)
    deadline = time.monotonic() + 300
    while not _rounds_saved(checkpoint) and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    time.sleep(delay)
    if proc.poll() is None:
        proc.send_signal(sig)
    out, err = finish(proc, 300)
    return proc.returncode, out, err


def resume(args, checkpoint: Path) -> dict:
    proc = start(args, checkpoint, resume=True)
    out, err = finish(proc, 600)
    assert proc.returncode == 0, err
    return json.loads(out)


def check(args, tmp_path: Path, sig: int, delay: float, whole: dict) -> int:
    """Interrupt, resume, compare; the rounds the checkpoint held when interrupted."""
    path = tmp_path / f"run-{sig}-{delay:.3f}.ckpt"
    code, out, err = interrupt(args, path, sig, delay)
    assert "Traceback" not in err
    saved = json.loads(path.read_text())["rounds_done"]
    stopped = {signal.SIGINT: 130, signal.SIGTERM: 143}.get(sig)  # SIGTERM is taken as Ctrl-C
    if code == stopped and out:  # stopped part way: a partial report
        partial = json.loads(out)
        assert partial["run"]["partial"] is True
        assert partial["results"]["rounds"] == saved
    elif code == stopped:  # stopped after the chunks, before the report
        assert "interrupted before the report was written" in err
    elif sig == signal.SIGKILL and code == -signal.SIGKILL:  # killed, or killed on the way out
        assert out == "" or json.loads(out)["results"] == whole["results"]
    else:  # the run had finished before the signal came (SIGINT may still end the interpreter's
        # shutdown after the report is out)
        assert code in (0, -signal.SIGINT) and json.loads(out)["results"] == whole["results"]
    again = resume(args, path)
    assert again["results"] == whole["results"]
    assert again["run"]["partial"] is False
    assert again["timing"]["resumed_rounds"] == saved
    return saved


def span(args, checkpoint: Path) -> float:
    """Seconds from the run's first saved chunk to its last, run through without a signal."""
    proc = start(args, checkpoint)
    while not _rounds_saved(checkpoint) and proc.poll() is None:
        time.sleep(0.002)
    first = last = time.monotonic()
    saved = _rounds_saved(checkpoint)
    while proc.poll() is None:
        if _rounds_saved(checkpoint) != saved:
            saved, last = _rounds_saved(checkpoint), time.monotonic()
        time.sleep(0.002)
    finish(proc, 300)
    return last - first


def moments(seed: int, n: int, longest: float) -> list[float]:
    """``n`` moments drawn from ``seed``, as fractions of ``longest`` (a run's ``span`` on this
    machine: fixed seconds would land after the end of a fast run)."""
    rng = random.Random(seed)
    return sorted(round(rng.uniform(0.05, 0.9) * longest, 3) for _ in range(n))


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM, signal.SIGKILL],
                         ids=["SIGINT", "SIGTERM", "SIGKILL"])
def test_a_run_stopped_part_way_resumes_to_the_uninterrupted_result(tmp_path, sig):
    whole = uninterrupted(FIXED)
    saved = check(FIXED, tmp_path, sig, 0.1, whole)
    assert saved < whole["results"]["rounds"]  # the stop came part way through


@pytest.mark.parametrize("sig", [signal.SIGTERM] + [getattr(signal, n) for n in (
    "SIGHUP", "SIGXCPU") if hasattr(signal, n)], ids=lambda s: signal.Signals(s).name)
def test_sigterm_part_way_saves_every_finished_chunk_and_reports_them(tmp_path, sig):
    """A scheduler's SIGTERM is taken as Ctrl-C: exit 143, the partial report of the chunks
    finished, and the checkpoint holding them all (saved on the way out, not only every few
    seconds). So are a terminal closed (SIGHUP, 129) and a CPU-time limit's warning (SIGXCPU,
    152): an environment review found each ended the run with no report and a checkpoint up to
    5 s behind."""
    path = tmp_path / "term.ckpt"
    proc = start(FIXED, path)
    deadline = time.monotonic() + 300
    while not _rounds_saved(path) and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    proc.send_signal(sig)
    out, err = finish(proc, 300)
    assert proc.returncode == 128 + sig, err
    assert "Traceback" not in err and "bjsim: interrupted" not in out
    partial = json.loads(out)
    assert partial["run"]["partial"] is True
    assert partial["results"]["rounds"] == _rounds_saved(path) > 0


def test_a_second_ctrl_c_while_stopping_keeps_the_partial_report(tmp_path):
    """A second Ctrl-C while the first one's stop waited for the chunks in play (or wrote the
    report) lost the report ("interrupted before the report was written"). It is held: the
    partial report comes out, with the chunks the stop waited for."""
    path = tmp_path / "twice.ckpt"
    big = ["--rounds", "200M", "--chunk-rounds", "5M", "--seed", "13", "--workers", "2"]
    proc = start(big, path)
    deadline = time.monotonic() + 300
    while not _rounds_saved(path) and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    proc.send_signal(signal.SIGINT)
    time.sleep(0.05)  # the chunks in play take a few tenths of a second more
    assert proc.poll() is None
    proc.send_signal(signal.SIGINT)
    out, err = finish(proc, 300)
    assert proc.returncode == 130, err
    assert "already stopping" in err and "before the report was written" not in err
    assert "\n\n" not in err  # (stderr a pipe, a log: no blank line, as past a terminal's ^C)
    partial = json.loads(out)
    assert partial["run"]["partial"] is True
    assert partial["results"]["rounds"] == _rounds_saved(path) > 0


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGKILL], ids=["SIGINT", "SIGKILL"])
def test_stops_at_several_random_moments_resume_exactly(tmp_path, sig):
    whole = uninterrupted(FIXED)
    longest = span(FIXED, tmp_path / "span.ckpt")
    saved = [check(FIXED, tmp_path, sig, delay, whole) for delay in moments(2026, 4, longest)]
    assert any(0 < s < whole["results"]["rounds"] for s in saved), saved


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGKILL], ids=["SIGINT", "SIGKILL"])
def test_with_a_precision_target_stops_resume_to_the_same_stopping_chunk(tmp_path, sig):
    whole = uninterrupted(PRECISION)
    assert whole["run"]["precision"]["met"]
    longest = span(PRECISION, tmp_path / "span.ckpt")
    saved = [check(PRECISION, tmp_path, sig, delay, whole) for delay in moments(1994, 3, longest)]
    assert any(0 < s < whole["results"]["rounds"] for s in saved), saved


def _ctrl_c_in(monkeypatch, module, name, then=None):
    """Make ``module.name`` stop as Ctrl-C does: a real SIGINT to this process, and ``then``
    (an exception raised after the KeyboardInterrupt is swallowed, as in a numba callback)."""

    def stopped(*_args, **_kwargs):
        try:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(1)
        except KeyboardInterrupt:
            if then is None:
                raise
        raise then

    monkeypatch.setattr(module, name, stopped)


@pytest.mark.parametrize("then", [None, RuntimeError("no compiled object yet")],
                         ids=["KeyboardInterrupt", "swallowed"])
def test_ctrl_c_in_a_command_without_a_run_exits_130_in_one_line(monkeypatch, tmp_path, then):
    from simulator.exact import compare, indices

    monkeypatch.setenv("BJSIM_CACHE_DIR", str(tmp_path))  # (empty: exact says it computes)

    _ctrl_c_in(monkeypatch, compare, "exact_figures", then)
    _ctrl_c_in(monkeypatch, indices, "derive_indices", then)
    for args in (["exact"], ["strategy", "indices"]):
        result = CliRunner().invoke(cli, args)
        assert result.exit_code == 130, (args, result.output)
        said = [ln for ln in result.stderr.splitlines() if ln.strip()]  # what it computes, then:
        assert len(said) == 2 and said[-1] == "bjsim: interrupted", result.stderr
        assert "Aborted!" not in result.output and "Traceback" not in result.output


def test_ctrl_c_while_compare_compiles_says_what_simulate_says(monkeypatch):
    """compare's first kernel call, the probe of how long a shoe lasts, compiles the kernel on a
    first run: a Ctrl-C there said only ``bjsim: interrupted``, where simulate says the run was
    stopped while compiling."""
    from simulator import chunks, compare, jit

    monkeypatch.setattr(jit, "_said", {"simulate"})  # (a cold cache: stderr said it compiles)
    _ctrl_c_in(monkeypatch, chunks.PlayChunk, "warm")
    _ctrl_c_in(monkeypatch, compare, "rounds_per_shoe")
    said = {}
    for args in (["simulate"], ["compare", "--vary", "decks=8", "--same-strategy", "--no-exact"]):
        result = CliRunner().invoke(cli, [*args, "-n", "1000", "-q"])
        assert result.exit_code == 130, (args, result.output)
        assert "Traceback" not in result.output and result.stdout == ""
        said[args[0]] = result.stderr.strip().splitlines()
    assert said["compare"] == said["simulate"] == [
        "bjsim: interrupted while compiling, before any chunk finished: nothing to report"]


START = {"simulate": ["simulate"],
         "compare": ["compare", "--vary", "decks=8", "--same-strategy", "--no-exact"],
         "count": ["count", "--plan", "hi-lo-flat"]}


@pytest.mark.parametrize("where", ["warm", "first chunk"])
@pytest.mark.parametrize("command", list(START))
def test_a_stop_before_any_chunk_leaves_no_checkpoint_in_the_way(monkeypatch, tmp_path, command,
                                                                 where):
    """Ctrl-C while the run started (the kernel loading, or its first chunk in play) said
    "nothing to report" but left the checkpoint it had made, holding no chunk, and the same
    command again was refused: "--checkpoint: e.ckpt exists: pass --resume". Now that file is
    removed and the command runs again as given."""
    from simulator import chunks, compare, engine

    path = tmp_path / "e.ckpt"
    args = [*START[command], "-n", "2000", "--chunk-rounds", "1000", "--seed", "4",
            "--checkpoint", str(path), "-q"]
    with monkeypatch.context() as mp:
        if where == "warm":
            for job in (chunks.PlayChunk, chunks.CountChunk, compare.PlayVariants):
                _ctrl_c_in(mp, job, "warm")
        else:
            def no_chunk(state, chunks, *a, **k):  # (the first chunk in play: none finished)
                made.append(path.exists())
                chunks.close()
                raise KeyboardInterrupt
                yield

            made = []
            mp.setattr(engine, "_record", no_chunk)
        stopped = CliRunner().invoke(cli, args)
    assert stopped.exit_code == 130, stopped.output
    assert stopped.stderr.strip().splitlines()[-1].endswith(
        "before any chunk finished: nothing to report"), stopped.stderr
    assert where == "warm" or made == [True]  # (the checkpoint was on disk when it stopped)
    assert not path.exists() and os.listdir(tmp_path) == []
    again = CliRunner().invoke(cli, args)
    assert again.exit_code == 0, again.output
    assert json.load(open(path))["finished"] is True


@pytest.mark.parametrize("where", ["identity", "set-up", "set-up, no checkpoint"])
@pytest.mark.parametrize("command", list(START))
def test_a_stop_while_the_run_starts_says_so_without_a_resume_hint(monkeypatch, tmp_path,
                                                                   command, where):
    """Ctrl-C after the kernel had loaded but before the first chunk started (the tables
    stacked for the checkpoint's identity, the job made) said 'interrupted before the report
    was written' (simulate: with 'carry on with --resume --checkpoint F', no F left; compare:
    'interrupted' alone; count: no 'while starting'), where a stop while starting says
    'nothing to report' (a review)."""
    from simulator import compare, engine, jit, run

    monkeypatch.setattr(jit, "_said", set())  # (the kernel loaded from the cache)
    if where == "identity":  # (the tables for the checkpoint's identity)
        _ctrl_c_in(monkeypatch, *((compare, "identity") if command == "compare" else
                                  (engine, "stack_tables")))
    else:
        _ctrl_c_in(monkeypatch, run, "compile_then_bar")
    path = tmp_path / "s.ckpt"
    args = [*START[command], "-n", "2000", "--chunk-rounds", "1000", "-q"]
    if "no checkpoint" not in where:
        args += ["--checkpoint", str(path)]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 130, result.output
    assert "Traceback" not in result.output and result.stdout == ""
    said = result.stderr.strip().splitlines()  # (a cold cache: compare's probe compiles first)
    assert said[-1] == ("bjsim: interrupted while " + ("compiling" if jit.compile_said() else
                        "starting") + ", before any chunk finished: nothing to report"), said
    assert "--resume" not in result.stderr and os.listdir(tmp_path) == []


def test_a_checkpoint_holding_no_chunk_is_removed_only_where_the_run_made_it(tmp_path):
    """`run.saver`'s release: a file the run made with no chunk in it goes; one resumed (the
    user's, named by --resume) stays as it was, and so does one holding a chunk."""
    from simulator import checkpoint, engine, run

    for fresh, chunk, kept in ((True, False, False), (False, False, True), (True, True, True)):
        path = tmp_path / f"{fresh}-{chunk}.ckpt"
        state = engine.RunState(2000, 1000)
        if chunk:
            state.add(0, [1000] + [0] * (len(state.zero()) - 1))
        writer = checkpoint.Writer(str(path), {"seed": 1})
        writer.fresh = fresh
        save = run.saver(writer, state)
        save(now=True)
        save.release()
        assert path.exists() is kept, (fresh, chunk)
        assert writer.held is None


def test_ctrl_c_between_click_steps_exits_130_not_aborted(monkeypatch):
    """A Ctrl-C after the command has run, as its context closes (outside the parts of click's
    ``main`` that `cli.MainGroup` wraps), is no ``Aborted!``, exit 1 either."""
    import click

    close = click.Context.close

    def closing(self):
        if self.parent is None:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(1)
        close(self)

    monkeypatch.setattr(click.Context, "close", closing)
    result = CliRunner().invoke(cli, ["rules", "show"])
    assert result.exit_code == 130, result.output
    assert result.stderr.strip().splitlines()[-1] == "bjsim: interrupted"
    assert "Aborted!" not in result.output


def _running_bjsim(pid: int, timeout: float = 60) -> None:
    """Wait until process ``pid`` runs bjsim's own code: numpy mapped (bjsim imports it;
    Python's start-up does not). Without ``/proc``, at once."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if "_multiarray_umath" in Path(f"/proc/{pid}/maps").read_text():
                return
        except OSError:  # (no /proc, or the process has ended)
            return
        time.sleep(0.002)


@pytest.mark.parametrize("delay", [0.0, 0.3, 1.0])
def test_ctrl_c_at_any_moment_of_a_run_exits_130(delay):
    """SIGINT while importing, compiling or playing: exit code 130, no click 'Aborted!', no
    traceback; once the run has started, its partial report. The delay counts from bjsim's
    first import: a Ctrl-C within Python's own start-up (its site and runpy modules, 20-70 ms
    on this machine, longer under load) is Python's, a traceback before any of bjsim's code
    runs; a fixed delay from the launch had landed there on a loaded machine."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "simulator", "simulate", "-n", "1e9", "-q",
                             "--chunk-rounds", "100k", "--workers", "1"], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=from_a_terminal)
    _running_bjsim(proc.pid)
    time.sleep(delay)
    proc.send_signal(signal.SIGINT)
    # One Ctrl-C is enough: one lost in a numba callback is sent again. Lost for good, the run
    # of 1e9 rounds would end on its own with exit 0, which the assertions below refuse.
    out, err = proc.communicate(timeout=60)
    # 130; or killed by SIGINT, which a shell shows as 130 too (Python ends so when the
    # interrupt passed through code run by PyRun_String, even though bjsim handled it)
    assert proc.returncode in (130, -signal.SIGINT), err
    assert "Aborted!" not in err and "Traceback" not in err, err
    assert "bjsim: interrupted" in err
    assert out == "" or "PARTIAL RESULT" in out


def test_a_ctrl_c_lost_in_a_callback_is_sent_again(capsys):
    """numba swallows a KeyboardInterrupt that lands in a callback from its compiled code (Python
    reports it to ``sys.unraisablehook``); bjsim sends the signal again, so the command stops."""
    import types

    import click

    from simulator import cli as cli_module

    lost = types.SimpleNamespace(exc_type=KeyboardInterrupt, exc_value=KeyboardInterrupt(),
                                 exc_traceback=None, err_msg="callback", object=None)
    # (a Ctrl-C, as MainGroup.main starts a command: a SIGTERM test before it in this worker
    # left the last signal seen at SIGTERM, and the signal sent again was that one, exit 143)
    cli_module._STOPPED_BY[0] = signal.SIGINT
    start = time.monotonic()
    with pytest.raises(click.exceptions.Exit) as info:
        with cli_module._interrupt_exits():
            sys.unraisablehook(lost)
            time.sleep(30)  # the signal sent again ends this
    assert info.value.exit_code == 130
    assert time.monotonic() - start < 25
    assert capsys.readouterr().err.strip() == "bjsim: interrupted"


def _bjsim_with(body: str) -> tuple:
    """``simulator.__main__.run`` in a fresh process, the command line replaced by a function of
    ``body``: its completed process and seconds."""
    code = ("import atexit, os, signal, sys, threading, time\nimport simulator.cli\n"
            "from simulator.__main__ import run\n\ndef command():\n"
            + textwrap.indent(textwrap.dedent(body).strip("\n"), "    ")
            + "\n\nsimulator.cli.main = command\nrun()\n")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    start = time.monotonic()
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=60)
    return done, time.monotonic() - start


def test_ctrl_c_after_the_command_has_finished_keeps_its_exit_code_without_a_traceback():
    """A Ctrl-C while Python shuts down after a finished command (its atexit callbacks, here one
    that takes a while) ends the process at once with the command's exit code; Python used to
    print ``Exception ignored in atexit callback`` and a KeyboardInterrupt traceback."""
    done, seconds = _bjsim_with("""
        print("the report")
        atexit.register(lambda: (os.kill(os.getpid(), signal.SIGINT), time.sleep(5)))
        sys.exit(3)
    """)
    assert done.returncode == 3, done.stderr
    assert done.stdout == "the report\n"
    assert "Traceback" not in done.stderr and "KeyboardInterrupt" not in done.stderr
    assert seconds < 4.5  # (not after the callback's 5 s)


def test_a_finished_command_ends_the_process_without_the_teardown_a_signal_could_end():
    """Once the command has finished, the process ends with its exit code at once, not after
    the interpreter's teardown (a worker thread still busy, here 5 s; numba's and LLVM's): a
    Ctrl-C in that teardown ended a complete ``simulate --precision`` run with 130."""
    done, seconds = _bjsim_with("""
        threading.Thread(target=time.sleep, args=(5,)).start()  # not a daemon
        print("the report")
        sys.exit(0)
    """)
    assert done.returncode == 0 and done.stdout == "the report\n", done.stderr
    assert seconds < 4.5  # (not after the thread's 5 s)


def test_the_installed_script_takes_ctrl_c_while_importing(monkeypatch, capsys):
    """The ``bjsim`` script runs ``simulator.__main__:run``, which takes a Ctrl-C during the
    command line's import as one later: exit 130, one line, no traceback."""
    import builtins
    import tomllib

    from simulator.__main__ import run

    with open(ROOT / "pyproject.toml", "rb") as f:
        assert tomllib.load(f)["project"]["scripts"]["bjsim"] == "simulator.__main__:run"
    real_import = builtins.__import__

    def interrupted(name, *args, **kwargs):
        if name == "simulator.cli":
            raise KeyboardInterrupt
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", interrupted)
    with pytest.raises(SystemExit) as stop:
        run()
    assert stop.value.code == 130
    assert capsys.readouterr().err.strip() == "bjsim: interrupted"


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_stop_while_basic_strategies_are_derived_side_by_side_ends_them_cleanly(tmp_path, sig):
    # `compare` derives the strategies not yet cached on several processes (derived.py): a stop
    # left Python's warning of leaked locks, until the pool went before bjsim's exit.
    env = dict(os.environ, BJSIM_CACHE_DIR=str(tmp_path), PYTHONPATH=str(ROOT))
    cmd = [sys.executable, "-m", "simulator", "compare", "--vary", "decks=1", "--vary",
           "decks=2", "--rounds", "1000", "--workers", "2"]
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True,
                            preexec_fn=from_a_terminal)
    said = proc.stderr.readline()
    assert "on 2 processes" in said, said
    time.sleep(1.5)
    os.killpg(proc.pid, sig)  # as Ctrl-C in a terminal: bjsim and its processes
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 128 + sig, err
    assert err.strip() == "bjsim: interrupted", err
    for _ in range(50):  # none of its processes is left (its helpers end as their pipes close)
        alive = subprocess.run(["pgrep", "-a", "-g", str(proc.pid)], capture_output=True,
                               text=True).stdout
        if not alive:
            break
        time.sleep(0.1)
    assert alive == "", alive


@pytest.mark.parametrize("where", ["summarize", "render"])
def test_a_stop_after_the_last_chunk_loses_nothing(monkeypatch, where):
    """A Ctrl-C after the last chunk, while the report was made or written, printed
    ``interrupted before the report was written`` and lost the whole run (README: such a stop
    loses nothing). Now the report is whole and the command ends as if not stopped."""
    from simulator import run, tally

    args = ["simulate", "--rounds", "20000", "--chunk-rounds", "10000", "--seed", "3", "-q"]
    whole = CliRunner().invoke(cli, args).stdout
    module, name = (tally, "summarize") if where == "summarize" else (run, "render")
    real = getattr(module, name)

    def stopped(*a, **k):
        os.kill(os.getpid(), signal.SIGINT)
        return real(*a, **k)

    monkeypatch.setattr(module, name, stopped)
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert result.stdout == whole and "PARTIAL" not in result.stdout and result.stderr == ""
    if where == "summarize":  # with --exact, the stop is taken as one while they are computed
        result = CliRunner().invoke(cli, [*args, "--exact"])
        assert result.exit_code == 130
        assert "interrupted while the exact figures were computed" in result.stderr
        assert result.stdout.startswith(whole.split("\n\n")[0])


@pytest.mark.parametrize("command", ["count", "compare"])
def test_a_stop_while_count_or_compare_writes_its_report_loses_nothing(monkeypatch, command):
    from simulator import compare_report, counting_report

    args = {"count": ["count", "--plan", "hi-lo-flat", "--rounds", "20000", "--chunk-rounds",
                      "10000", "-q"],
            "compare": ["compare", "--vary", "blackjack_pays=1.2", "--rounds", "20000",
                        "--chunk-rounds", "10000", "--no-exact", "--same-strategy", "-q"]}[command]
    whole = CliRunner().invoke(cli, args)
    assert whole.exit_code == 0, whole.output
    module = counting_report if command == "count" else compare_report
    real = module.render

    def stopped(*a, **k):
        os.kill(os.getpid(), signal.SIGTERM)
        return real(*a, **k)

    monkeypatch.setattr(module, "render", stopped)
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert "PARTIAL" not in result.stdout and result.stderr == ""
    if command == "count":  # (its timing line aside, the same report)
        assert result.stdout == whole.stdout


def test_a_stop_after_the_counters_last_chunk_skips_its_control(monkeypatch):
    """Noted after the counter's run, the stop keeps that run whole and plays no control run
    (as a Ctrl-C in the control): it was not lost while the control played on."""
    from simulator import tally

    real, calls = tally.summarize, []

    def summarize(*a, **k):
        calls.append(1)
        if len(calls) == 1:
            os.kill(os.getpid(), signal.SIGINT)
        return real(*a, **k)

    monkeypatch.setattr(tally, "summarize", summarize)
    result = CliRunner().invoke(cli, ["count", "--plan", "hi-lo-flat", "--rounds", "20000",
                                      "--chunk-rounds", "10000", "-q", "-f", "json"])
    assert result.exit_code == 130 and len(calls) == 1
    run = json.loads(result.stdout)["run"]
    assert run["partial"] is True and run["control_interrupted"] is True
    assert run["rounds_played"] == 20000


def said_until(proc: subprocess.Popen, text: str, timeout: float = 300) -> str:
    """``proc``'s stderr read as it comes, until it holds ``text`` (or the process ends)."""
    fd, got = proc.stderr.fileno(), b""
    deadline = time.monotonic() + timeout
    while text.encode() not in got and time.monotonic() < deadline:
        if select.select([fd], [], [], 0.1)[0]:
            more = os.read(fd, 65536)
            if not more:
                break
            got += more
    return got.decode(errors="replace")


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_count_stopped_in_its_control_run_resumes_to_the_uninterrupted_report(tmp_path, sig):
    """``bjsim count`` plays its control run (the strategy alone at a flat bet) after the
    counter's: a Ctrl-C once its bar ("house edge") shows dropped its finished chunks, said
    nothing on stderr of what was kept, and a resume played it all again. Now the checkpoint
    keeps them, stderr says so, and the resume gives the uninterrupted report."""
    args = ["count", "--rounds", "10M", "--chunk-rounds", "100k", "--seed", "13", "--workers",
            "2", "-f", "json"]
    whole = CliRunner().invoke(cli, [*args, "-q"])
    assert whole.exit_code == 0, whole.output
    path = tmp_path / "count.ckpt"
    env = dict(os.environ, BJSIM_CHECKPOINT_EVERY="0.05", PYTHONPATH=str(ROOT),
               PYTHONFAULTHANDLER="1", BJSIM_PROGRESS_SECONDS="0")  # (a bar line each redraw)
    proc = subprocess.Popen([sys.executable, "-m", "simulator", *args, "--checkpoint", str(path)],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, preexec_fn=from_a_terminal)
    before = said_until(proc, "house edge")  # the control's bar (the counter's: its advantage)
    assert "house edge" in before and proc.poll() is None, before
    proc.send_signal(sig)
    out, err = finish(proc, 300)
    err = before + err
    assert proc.returncode == {signal.SIGINT: 130, signal.SIGTERM: 143}[sig], err
    assert "Traceback" not in err
    assert json.loads(out)["run"]["control_interrupted"] is True
    saved = json.loads(path.read_text())
    assert saved["finished"] is True and 0 < saved["control"]["rounds_done"] < 10_000_000
    assert saved["control"]["finished"] is False
    assert (f"bjsim: interrupted in the control run (the strategy alone at a flat bet) after "
            f"{saved['control']['rounds_done']:,} of its 10,000,000 rounds") in err, err
    assert f"bjsim: finished chunks saved in {path}: carry on with --resume" in err, err
    again = CliRunner().invoke(cli, ["count", "--resume", str(path), "-q", "-f", "json"])
    assert again.exit_code == 0, again.output
    doc, want = json.loads(again.stdout), json.loads(whole.stdout)
    timing = doc.pop("timing")  # (both runs': the counter's and the control's rounds saved)
    assert timing["resumed_rounds"] == 10_000_000 + saved["control"]["rounds_done"]
    assert timing["workers"] is not None and timing["rounds_per_second"] > 0
    want.pop("timing")
    assert doc == want


def test_a_stop_after_a_reports_first_run_stops_the_report(monkeypatch, tmp_path):
    """Noted after the report's main run, the stop is not lost while its other steps play on:
    the report stops there, its folder as it was (143 for SIGTERM)."""
    from simulator import tally

    real = tally.summarize

    def summarize(*a, **k):
        os.kill(os.getpid(), signal.SIGTERM)
        return real(*a, **k)

    monkeypatch.setattr(tally, "summarize", summarize)
    out = tmp_path / "rep"
    result = CliRunner().invoke(cli, ["report", "-q", "-n", "20000", "--chunk-rounds", "10000",
                                      "--sample-rounds", "10000", "--choice", "basic",
                                      "--no-variants", "-o", str(out)])
    assert result.exit_code == 143, result.output
    assert not (out / "report.json").exists()


@pytest.mark.parametrize("command", list(START))
def test_a_ctrl_c_lost_while_compiling_still_stops_the_command(monkeypatch, command):
    """A Ctrl-C whose KeyboardInterrupt is cleared where it lands (CPython's C code clears one in
    places, as ``PyObject_HasAttr`` does) and the compile goes on: the command stops before its
    first chunk all the same. It had played the whole run (seen once in the suite: a Ctrl-C 0.3 s
    into a run of 1e9 rounds ran on)."""
    from simulator import chunks, compare

    def lost(*_args, **_kwargs):
        try:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(1)
        except KeyboardInterrupt:
            pass  # cleared, the compile going on

    for job in (chunks.PlayChunk, chunks.CountChunk, compare.PlayVariants):
        monkeypatch.setattr(job, "warm", lost)
    result = CliRunner().invoke(cli, [*START[command], "-n", "2000", "-q"])
    assert result.exit_code == 130, result.output
    assert result.stdout == "" and "Traceback" not in result.output
    assert result.stderr.strip().splitlines()[-1].endswith(
        "before any chunk finished: nothing to report"), result.stderr


def test_a_run_after_an_interrupted_command_in_the_same_process_plays(monkeypatch):
    """A last read: the count of stops raised was kept after a command ended, so a library run
    (run.simulate, as a notebook calls it) after an interrupted command played nothing, as if
    a stop had been lost in it."""
    from simulator import chunks, run, stops
    from simulator.rules import Rules
    from simulator.strategy import load_strategy

    with monkeypatch.context() as mp:
        _ctrl_c_in(mp, chunks.PlayChunk, "warm")
        assert CliRunner().invoke(cli, ["simulate", "-n", "2000", "-q"]).exit_code == 130
    plan = run.Plan(Rules(), (load_strategy("basic"),), ("basic",), rounds=2000,
                    chunk_rounds=1000)
    result = run.simulate(plan, quiet=True)
    assert not result.partial and result.meta["run"]["rounds_played"] == 2000
    with stops.commanding():  # (within a command, a stop raised and not caught is lost)
        stops.raising()
        with pytest.raises(KeyboardInterrupt):
            stops.check_lost()
    stops.check_lost()  # (and none outside one)


def test_a_ctrl_c_lost_while_importing_still_stops_the_command(monkeypatch, capsys):
    """As above, in the command line's import (before any command's handler): exit 130."""
    import builtins

    from simulator.__main__ import run

    real_import = builtins.__import__

    def lost(name, *args, **kwargs):
        if name == "simulator.cli":
            try:
                os.kill(os.getpid(), signal.SIGINT)
                time.sleep(1)
            except KeyboardInterrupt:
                pass  # cleared, the import going on
        return real_import(name, *args, **kwargs)

    def exit_now(code):  # (run ends a command so; the test goes on)
        raise SystemExit(code)

    monkeypatch.setattr(builtins, "__import__", lost)
    monkeypatch.setattr(sys, "argv", ["bjsim", "--version"])  # (the interrupt lost: it runs)
    monkeypatch.setattr(os, "_exit", exit_now)
    handler = signal.getsignal(signal.SIGINT)
    try:
        with pytest.raises(SystemExit) as stop:
            run()
    finally:
        signal.signal(signal.SIGINT, handler)
    assert stop.value.code == 130
    assert capsys.readouterr().err.strip() == "bjsim: interrupted"


def test_the_entry_module_imports_in_its_guarded_block():
    """``simulator.__main__`` imports nothing at its top that Python's start-up has not (``sys``):
    an import there (``signal`` took one) was a window where Ctrl-C gave runpy's traceback, not
    ``bjsim: interrupted``; each is made in ``run``'s block that turns Ctrl-C into exit 130."""
    import ast

    tree = ast.parse((ROOT / "simulator" / "__main__.py").read_text())
    top = [a.name for node in tree.body if isinstance(node, ast.Import) for a in node.names]
    top += [node.module for node in tree.body if isinstance(node, ast.ImportFrom)]
    assert top == ["sys"], top


@pytest.mark.parametrize("command, sig", [("simulate", signal.SIGINT), ("compare", signal.SIGINT),
                                         ("count", signal.SIGINT), ("count", signal.SIGTERM)])
def test_a_stop_in_the_last_chunk_is_said_at_once_and_the_whole_result_said_so(monkeypatch,
                                                                             command, sig):
    """A Ctrl-C while the run's last chunk played was taken without a word: the chunk played
    on to its end and the report, whole, said nothing of the stop. Stderr now says at once what
    the stop does to the chunk in play, and at the end that the run is whole. A count's next
    run (its control) stops as at the signal itself: a SIGTERM's exit code 143, not 130 (a
    scale review: the stop was handed on as SIGINT)."""
    import threading

    from simulator import chunks, compare, run

    said = threading.Event()
    real_tell = run.tell

    def tell(text):
        real_tell(text)
        if text.startswith("stopping: "):
            said.set()

    job = {"simulate": chunks.PlayChunk, "compare": compare.PlayVariants,
           "count": chunks.CountChunk}[command]
    real_job, early = job.__call__, []

    def stopped(self, i):  # the only chunk: a stop while it plays, said before it ends
        os.kill(os.getpid(), sig)
        early.append(said.wait(10))
        return real_job(self, i)

    monkeypatch.setattr(run, "tell", tell)
    monkeypatch.setattr(job, "__call__", stopped)
    args = {"simulate": ["simulate"], "compare": ["compare", "--vary", "decks=8", "--no-exact",
                                                  "--same-strategy"],
            "count": ["count", "--plan", "hi-lo-flat"]}[command]
    result = CliRunner().invoke(cli, [*args, "--rounds", "10000", "--chunk-rounds", "10000",
                                      "--workers", "1", "-q", "-f", "json"])
    assert early == [True], result.output
    lines = result.stderr.splitlines()
    assert lines[0] == ("bjsim: stopping: no new chunk starts; the 1 chunk in play is being "
                        "finished, to be kept (Ctrl-\\ quits at once, losing it)")
    doc = json.loads(result.stdout)
    assert doc["run"]["rounds_played"] == 10000
    if command == "count":  # the counter's run whole, its control (the next run) not played
        # (the stop handed on to it was taken as a second one: "already stopping", the control
        # played through)
        assert result.exit_code == 128 + sig and doc["run"]["control_interrupted"] is True
        assert lines[1] == "bjsim: counter's run: " + run.STOPPED_WHOLE.removeprefix("bjsim: ")
        assert "in the control run" in lines[2]  # (each run named, as its bar is)
    else:
        assert result.exit_code == 0 and doc["run"]["partial"] is False
        assert lines[1:] == [run.STOPPED_WHOLE]


def test_after_an_interrupt_llvms_half_made_objects_print_nothing_in_the_teardown(capsys):
    # CI: a Ctrl-C 0.3 s into a cold run cut a compile short, and at exit llvmlite's
    # ObjectRef.__del__ printed "Exception ignored ... Traceback" after "bjsim: interrupted".
    from simulator.__main__ import _interrupted

    class Half:
        def __del__(self):
            raise AttributeError("no attribute '_as_parameter_'")

    Half.__del__.__module__ = "llvmlite.binding.ffi"

    class Other:
        def __del__(self):
            raise AttributeError("shown")

    before, seen = sys.unraisablehook, []
    sys.unraisablehook = lambda u: seen.append(str(u.exc_value))  # (the hook it passes on to)
    try:
        with pytest.raises(SystemExit) as stop:
            _interrupted()
        assert stop.value.code == 130
        Half()  # (collected at once: its finalizer's error goes to the hook)
        Other()
    finally:
        sys.unraisablehook = before
    assert seen == ["shown"], seen
    assert capsys.readouterr().err == "bjsim: interrupted\n"  # (stderr no terminal: no
    # blank line before it in a log, a pipeline's review)


def test_the_interrupted_line_leads_with_a_blank_line_on_a_terminal_alone(monkeypatch):
    from simulator import cli as cli_mod

    monkeypatch.setattr(cli_mod, "_stderr_is_terminal", lambda: True)
    assert cli_mod.interrupted_line() == "\nbjsim: interrupted"  # (after the terminal's ^C)
    monkeypatch.setattr(cli_mod, "_stderr_is_terminal", lambda: False)
    assert cli_mod.interrupted_line() == "bjsim: interrupted"


def test_a_sigterm_in_compares_last_chunk_is_handed_on_as_sigterm(monkeypatch):
    """A stop in the last chunk leaves the comparison whole and is handed on to the caller's
    next step (the report's) as the signal it was: compare had handed every one on as SIGINT,
    so a report stopped so exited 130, not SIGTERM's 143 (a last read of the day)."""
    from simulator import compare, stops
    from simulator.rules import Rules
    from simulator.strategy import load_strategy

    real = compare.PlayVariants.__call__

    def stopped(self, i):  # the only chunk: SIGTERM while it plays
        os.kill(os.getpid(), signal.SIGTERM)
        return real(self, i)

    def on_term(signum, frame):  # (as the command's handler: the stop raised, and its signal)
        stops.raising(signum)
        raise KeyboardInterrupt

    monkeypatch.setattr(compare.PlayVariants, "__call__", stopped)
    nz, basic = Rules(), load_strategy("basic")
    games = tuple(compare.Game(label, rules, (basic,), ("basic",)) for label, rules in
                  (("nz", nz), ("h17", nz.replace(dealer_hits_soft_17=True))))
    plan = compare.Plan(games, rounds=1_000, seed=8, chunk_rounds=1_000, pair_rounds=100,
                        workers=1, exact=False)
    previous = signal.signal(signal.SIGTERM, on_term)
    try:
        with stops.commanding():
            result = compare.compare(plan, quiet=True)
    finally:
        signal.signal(signal.SIGTERM, previous)
    assert not result.partial and result.stopped_after == signal.SIGTERM


def test_outside_a_command_a_stop_is_ctrl_cs_again():
    # (a last read: a SIGTERM that stopped a command in this process was handed on, as
    # `stops.last_signal`, by a later library call's Ctrl-C, the default handler then ending
    # the interpreter)
    from simulator import stops

    with stops.commanding():
        stops.raising(signal.SIGTERM)
        assert stops.last_signal() == signal.SIGTERM
    assert stops.last_signal() == signal.SIGINT


@pytest.mark.skipif(not hasattr(signal, "SIGHUP"),
                    reason="needs SIGHUP (a terminal's hang-up), which Linux and macOS have and "
                    "Windows has not")
def test_a_run_under_nohup_plays_on_when_its_terminal_closes(tmp_path):
    """SIGHUP stops a run as SIGTERM does, but not one that started with it ignored (nohup):
    that run ends whole."""
    def ignoring_hangups():
        from_a_terminal()
        signal.signal(signal.SIGHUP, signal.SIG_IGN)

    path = tmp_path / "run.ckpt"
    env = dict(os.environ, BJSIM_CHECKPOINT_EVERY="0.05", PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "simulator", "simulate", *FIXED, "-q", "-f",
                             "json", "--checkpoint", str(path)], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=ignoring_hangups)
    deadline = time.monotonic() + 300
    while not _rounds_saved(path) and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert proc.poll() is None  # (playing: the hang-up comes part way)
    proc.send_signal(signal.SIGHUP)
    out, err = finish(proc, 300)
    assert proc.returncode == 0, err
    assert json.loads(out)["run"]["partial"] is False
