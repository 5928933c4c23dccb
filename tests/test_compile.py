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


def test_a_read_only_install_without_a_writable_home_caches_in_a_private_temporary_folder(
        monkeypatch):
    """An environment review: with the package's folders and the home read-only, every command
    (--help too) ended in numba's "cannot cache function ...: no locator available" traceback.
    The engine's functions, stamped as the engine, and any other, are cached in a folder of the
    temporary one that the user alone owns."""
    from numba.core import caching

    from simulator import jit
    from simulator.exact import dealer
    from simulator.kernel import tally

    nowhere = lambda self: "/proc/bjsim-no-cache"  # noqa: E731 (mkdir fails there, root too)
    monkeypatch.setattr(caching.InTreeCacheLocator, "get_cache_path", nowhere)
    monkeypatch.setattr(caching.UserWideCacheLocator, "get_cache_path", nowhere)
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setattr(caching.config, "CACHE_DIR", "")
    folder = jit.private_folder()
    assert folder and os.stat(folder).st_uid == os.getuid() and not os.stat(folder).st_mode & 0o077
    engine = [f for f in vars(tally).values() if hasattr(f, "py_func")][0]
    impl = caching.CompileResultCacheImpl(engine.py_func)
    assert type(impl.locator) is jit._EngineTempCache
    assert impl.locator.get_cache_path().startswith(folder)
    assert impl.locator.get_source_stamp() == jit._STAMPS[Path(tally.__file__).resolve()]
    analyzer = [f for f in vars(dealer).values() if hasattr(f, "py_func")][0]
    assert type(caching.CompileResultCacheImpl(analyzer.py_func).locator) is jit._EngineTempCache
    # any other function (none is compiled outside the two groups today): unstamped, there too
    other = caching.CompileResultCacheImpl(private_folder_user).locator
    assert type(other) is jit._TempCache and other.get_cache_path().startswith(folder)


def private_folder_user():  # (a function of a file outside the engine's groups)
    return 1


def test_a_temporary_folder_of_another_users_is_not_used(monkeypatch, tmp_path):
    """Its cached code is not loaded: a folder made afresh for the process is used instead
    (None had been numba's traceback again, for anyone who made the folder first)."""
    from simulator import jit

    monkeypatch.setattr(jit.tempfile, "gettempdir", lambda: str(tmp_path))
    jit._own_folder.cache_clear()
    theirs = tmp_path / f"bjsim-numba-{os.getuid()}"
    theirs.mkdir(mode=0o700)
    assert jit.private_folder() == str(theirs)
    os.chmod(theirs, 0o777)  # (anyone could have put code there)
    own = jit.private_folder()
    assert own != str(theirs) and Path(own).parent == tmp_path
    assert os.stat(own).st_uid == os.getuid() and not os.stat(own).st_mode & 0o077
    if os.getuid() == 0:  # (another user's, where this one can make it so)
        os.chmod(theirs, 0o700)
        os.chown(theirs, 65534, 65534)
        assert jit.private_folder() == own
    jit._own_folder.cache_clear()


DAMAGED = """
import sys
sys.path.insert(0, sys.argv[1])
import small
from simulator import jit
jit.warm("simulate", small.add_one, 1)
print(small.add_one(41))
"""


def test_a_damaged_cache_file_is_compiled_again_not_a_traceback(tmp_path):
    """An environment review: a cache file of numba's cut short (a crash, a full disk) or
    overwritten ended every later run in numba's UnpicklingError traceback, or "Aborted!" for
    an empty one (click reading its EOFError as Ctrl-D), until the file was found and removed.
    `jit.warm` empties the function's cache index and compiles it again, saying so, once."""
    (tmp_path / "mod").mkdir()
    (tmp_path / "mod" / "inner.py").write_text(
        "from simulator.jit import njit\n\n\n@njit\ndef one():\n    return 1\n")
    (tmp_path / "mod" / "small.py").write_text(
        "from inner import one\n\nfrom simulator.jit import njit\n\n\n@njit\n"
        "def add_one(x):\n    return x + one()\n")
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"), PYTHONPATH=str(ROOT))

    def run():
        return subprocess.run([sys.executable, "-c", DAMAGED, str(tmp_path / "mod")], cwd=ROOT,
                              env=env, capture_output=True, text=True, timeout=300)

    assert run().returncode == 0
    (data,) = (tmp_path / "cache").rglob("small.add_one-*.nbc")
    (index,) = (tmp_path / "cache").rglob("small.add_one-*.nbi")
    (callee,) = (tmp_path / "cache").rglob("inner.one-*.nbc")

    def the_callee():  # (a crash in a first compile: the callee's file cut short, no caller's)
        index.unlink()
        data.unlink()
        callee.write_bytes(b"")

    for damage in (lambda: data.write_bytes(b""), lambda: index.write_bytes(b"\x80\x04junk"),
                   lambda: data.write_bytes(b"not a pickle " * 50), the_callee):
        damage()
        done = run()
        assert done.returncode == 0 and done.stdout.strip() == "42", done.stderr[-2000:]
        said = [ln for ln in done.stderr.splitlines() if ln.strip()]
        assert len(said) == 1 and said[0].startswith(
            "bjsim: the cache of the simulation kernel could not be read ("), said
        again = run()  # (written again: read without a word)
        assert again.returncode == 0 and again.stderr.strip() == "", again.stderr


def test_an_error_not_the_caches_is_raised_as_it_is(capsys):
    """`jit.warm` compiles again only for an error raised reading numba's cache: any other (a
    stop's RuntimeError in a worker, a full disk writing the cache) is raised, nothing said."""
    import pytest

    from simulator import jit

    def broken():
        raise RuntimeError("not the cache")

    with pytest.raises(RuntimeError, match="not the cache"):
        jit.warm("simulate-test-broken", broken)
    assert capsys.readouterr().err == ""
