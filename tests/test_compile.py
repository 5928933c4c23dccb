"""The engine compiles each of its functions once a version: a cold compile of the plain game
(an empty numba cache, in a fresh process) leaves no engine function with two compiled
signatures. A literal argument (a 0 or True typed as ``Literal``) or an array typed with two
layouts makes numba compile a callee twice, which cost bjsim simulate's first run about a third
of its compile time (docs/performance.md, session 28)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SCRIPT = """
import gc, json
from numba.core.registry import CPUDispatcher
from simulator import kernel
from simulator.chunks import chunk_state
from simulator.rules import Rules
from simulator.strategy import load_strategy, stack

rules = Rules()
kernel.simulate_chunk(rules.to_params(), stack([load_strategy("basic")]), 2000, chunk_state(1, 0))
compiled = {}
for d in gc.get_objects():
    if isinstance(d, CPUDispatcher) and d.py_func.__module__.startswith("simulator"):
        name = d.py_func.__module__ + "." + d.py_func.__qualname__
        compiled[name] = [str(sig) for sig in d.overloads]
print(json.dumps(compiled))
"""


def test_a_cold_compile_of_the_plain_game_compiles_each_engine_function_once(tmp_path):
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path), PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=600)  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    compiled = json.loads(done.stdout.splitlines()[-1])
    assert "simulator.kernel.play.play_rounds" in compiled  # (it compiled here, not loaded)
    twice = {name: sigs for name, sigs in compiled.items() if len(sigs) > 1}
    assert not twice, twice
