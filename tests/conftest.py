"""Test configuration: make the repository importable, register the ``slow`` marker and run
property tests without hypothesis' deadline."""

import sys
from pathlib import Path

import pytest
from hypothesis import settings

# No deadline on any property test: an example's time depends on the machine's load (a 2-core
# CI runs two workers beside each other), and a deadline missed there fails a correct test.
settings.register_profile("bjsim", deadline=None)
settings.load_profile("bjsim")

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: long statistical runs (deselect with -m 'not slow')")


def pytest_xdist_auto_num_workers(config):
    """``-n auto`` (the addopts) runs in one process when the command names single tests
    (``file::test``): starting the workers would take longer than the tests."""
    args = [str(a) for a in config.args]
    if args and all("::" in a for a in args):
        return 0
    return None


@pytest.fixture
def terminal_bar(monkeypatch):
    """The progress bar as on a terminal (redrawn in place with carriage returns), where the
    test's stderr is not one: a file or pipe gets a line a minute instead (`run.terminal`)."""
    from simulator import run

    monkeypatch.setattr(run, "terminal", lambda: True)
