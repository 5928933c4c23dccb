"""simulator.processes: work on worker processes that run bjsim's own module, not the caller's."""

from __future__ import annotations

import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

from simulator.processes import WorkerError, map_spawned

ROOT = Path(__file__).resolve().parent.parent


def test_results_come_back_in_order_from_the_workers_and_here():
    items = [9, 1, 16, 4, 25]
    assert map_spawned(math.sqrt, items, workers=2) == [3.0, 1.0, 4.0, 2.0, 5.0]
    assert map_spawned(math.sqrt, items, workers=1) == [3.0, 1.0, 4.0, 2.0, 5.0]
    assert map_spawned(math.sqrt, [], workers=2) == []


def test_each_finished_item_is_told_in_turn_from_the_workers_and_here():
    for workers in (2, 1):
        told = []
        out = map_spawned(math.sqrt, [9, 1, 16], workers=workers,
                          done=lambda k, n: told.append((k, n)))  # noqa: B023
        assert out == [3.0, 1.0, 4.0] and told == [(1, 3), (2, 3), (3, 3)], workers


def test_a_script_read_from_stdin_without_a_main_guard_is_not_run_again_in_the_workers():
    # With multiprocessing's spawn, each worker ran the caller's main module again: from stdin
    # it could not, and the pool started workers without end.
    script = ("import math\nfrom simulator.processes import WorkerError, map_spawned\n"
              "print(map_spawned(math.factorial, [3, 4, 5], 2))\n")
    done = subprocess.run([sys.executable, "-"], input=script, capture_output=True, text=True,
                          timeout=120, cwd=ROOT.parent, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[6, 24, 120]"


def test_a_worker_imports_this_simulator_package_not_one_in_the_callers_folder(tmp_path):
    # A worker started in the caller's folder took a `simulator` package there (another checkout,
    # an older version) before this one.
    fake = tmp_path / "simulator"
    fake.mkdir()
    (fake / "__init__.py").write_text("")
    (fake / "processes.py").write_text("raise SystemExit('the other simulator package')\n")
    script = ("import math\nfrom simulator.processes import map_spawned\n"
              "print(map_spawned(math.factorial, [3, 4], 2))\n")
    done = subprocess.run([sys.executable, "-P", "-"], input=script, capture_output=True,
                          text=True, timeout=120, cwd=tmp_path,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[6, 24]"


def test_a_worker_error_is_raised_as_it_was_with_its_traceback_the_cause():
    # It came back as a RuntimeError, so a ValueError a command shows in one line (an emptied
    # shoe in `strategy indices`) became a traceback.
    with pytest.raises(ValueError, match="math domain error") as got:
        map_spawned(math.sqrt, [4, -1], workers=2)
    assert isinstance(got.value.__cause__, WorkerError)
    assert "Traceback" in str(got.value.__cause__)


def test_an_error_that_cannot_be_pickled_comes_back_as_a_runtime_error_with_its_traceback(
        monkeypatch):
    monkeypatch.setenv("PYTHONPATH", str(Path(__file__).parent))  # (this file's functions)
    with pytest.raises(RuntimeError, match="a worker process failed") as got:
        map_spawned(_unpicklable_error, [1, 2], workers=2)
    assert "NotPickled" in str(got.value.__cause__)


class NotPickled(Exception):
    def __init__(self, a, b):  # (pickle calls it with the message alone: it cannot come back)
        super().__init__(f"{a} {b}")


def _unpicklable_error(x):
    raise NotPickled(x, x)


def test_a_worker_that_dies_is_an_error_not_a_hang():
    with pytest.raises(RuntimeError, match="a worker process ended"):
        map_spawned(os._exit, [3, 3], workers=2)


def test_work_asked_of_workers_by_a_worker_is_done_in_that_worker(monkeypatch):
    # (a worker starting workers of its own would put n * n processes on n cores)
    monkeypatch.setenv("PYTHONPATH", str(Path(__file__).parent))  # (this file's functions)
    assert map_spawned(_workers_seen, [2, 3], workers=2) == [[1, 1], [1, 1, 1]]


def _workers_seen(n):
    return map_spawned(_in_a_worker, range(n), workers=n)


def _in_a_worker(_):
    return int(bool(os.environ.get("BJSIM_WORKER")))
