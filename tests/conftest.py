"""Test configuration: make the repository importable, register the ``slow`` marker, and with
workers compile the kernels once before they start."""

import sys
from pathlib import Path

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



def pytest_sessionstart(session):
    """With workers (pytest-xdist), the engine's compiled versions and the exact analyzer's
    kernels are compiled (or loaded) first, in two processes side by side, so that the workers
    load them from numba's cache instead of each compiling them on a fresh clone."""
    if not session.config.pluginmanager.has_plugin("dsession"):
        return
    import subprocess
    import time

    start = time.monotonic()
    code = "import conftest; conftest.compile_kernels({})"
    procs = [subprocess.Popen([sys.executable, "-c", code.format(k)], cwd=Path(__file__).parent,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
             for k in (0, 1)]  # fmt: skip
    for proc in procs:
        proc.wait()
    took = time.monotonic() - start
    if took > 5:
        print(f"\ncompiled the engine and the exact analyzer for the workers in {took:.0f} s",
              file=sys.stderr)


def compile_kernels(group: int) -> None:
    """Half of what a test run compiles, by calls that play next to nothing (`jit.VERSIONS`)."""
    import numpy as np

    from simulator import engine
    from simulator import kernel as K
    from simulator.rules import Rules
    from simulator.strategy import load_strategy, stack_for

    rules, basic = Rules(), load_strategy("basic")
    if group == 0:
        K.simulate_chunk(rules.to_params(), stack_for(rules, [basic]), 10, engine.chunk_state(1, 0))
        K.play_stacked(np.arange(52) % 52, rules, [basic])
        from simulator.exact.tree import compile_kernels as exact

        exact()
    else:
        from simulator.counter import counter_for
        from simulator.plans import load_plan

        tables, counter, insurance = counter_for(rules, basic, load_plan("hi-lo-1-12"))
        K.count_chunk(rules.to_params(), tables, 10, engine.chunk_state(1, 0), counter, insurance)
        K.play_stacked(np.arange(52) % 52, rules, [basic], counter=(tables, counter, insurance))
