"""Numba decorator options, in one place, and the engine's on-disk cache stamp.

Every kernel is compiled with ``njit`` from here: cached, releasing the GIL, with numpy's error
model, never ``fastmath`` (money is exact integer arithmetic). Why each option, where the cache
is, and why each group of modules is stamped with one hash of its sources: docs/design.md,
"Compiling and the cache".
"""

import functools
import hashlib
import os
import stat
import sys
import tempfile
import threading
import traceback
from pathlib import Path

import numba
from numba.core import caching

from simulator import HOME

JIT_OPTIONS = {"cache": True, "nogil": True, "error_model": "numpy"}

njit = functools.partial(numba.njit, **JIT_OPTIONS)

_HERE = Path(__file__).resolve().parent
_INSTALLED = HOME != _HERE.parent  # (an installed wheel: its shipped files inside the package)


def _stamps(*groups) -> dict:
    """{source file: the hash of its group's sources}."""
    out = {}
    for group in groups:
        stamp = hashlib.sha256(b"".join(p.read_bytes() for p in group)).hexdigest()
        out |= dict.fromkeys(group, stamp)
    return out


_STAMPS = _stamps(
    sorted((_HERE / "kernel").glob("*.py")) + [_HERE / "layout.py", _HERE / "jit.py"],
    [_HERE / "exact" / "dealer.py", _HERE / "exact" / "tree.py", _HERE / "jit.py"])


class _EngineStamp:
    """A cache locator's stamp for a group's modules: the hash of all their sources."""

    def __init__(self, py_func, py_file):
        super().__init__(py_func, py_file)
        self._stamp = _STAMPS[Path(py_file).resolve()]

    def get_source_stamp(self):
        return self._stamp

    @classmethod
    def from_function(cls, py_func, py_file):
        if Path(py_file).resolve() not in _STAMPS:
            return None
        return super().from_function(py_func, py_file)


class _EngineUserCache(_EngineStamp, caching.UserProvidedCacheLocator):
    """``NUMBA_CACHE_DIR`` set: the engine's functions there, stamped as the engine."""


class _EngineInTreeCache(_EngineStamp, caching.InTreeCacheLocator):
    """Else ``__pycache__`` beside the source, stamped as the engine: in a checkout only (an
    installed copy's cache goes to the user's, which uninstalling it does not leave behind)."""

    @classmethod
    def from_function(cls, py_func, py_file):
        return None if _INSTALLED else super().from_function(py_func, py_file)


class _EngineUserWideCache(_EngineStamp, caching.UserWideCacheLocator):
    """Else (a read-only install) numba's folder in the user's cache, stamped as the engine."""


def private_folder() -> str | None:
    """A folder of the system's temporary one that this user alone owns and writes
    (``bjsim-numba-UID``), made if missing; where that name is another user's (its cached code
    is not loaded), or cannot be made, one made afresh for this process; None where none can."""
    path = os.path.join(tempfile.gettempdir(), f"bjsim-numba-{os.getuid()}")
    try:
        os.makedirs(path, mode=0o700, exist_ok=True)
        st = os.lstat(path)
    except OSError:
        return _own_folder()
    ours = stat.S_ISDIR(st.st_mode) and st.st_uid == os.getuid()
    return path if ours and not st.st_mode & 0o022 else _own_folder()


@functools.cache
def _own_folder() -> str | None:
    """Where the folder of that name is another's: one made afresh for this process (its cache
    lasts the process), rather than no cache and numba's error; None where none can be made."""
    try:
        return tempfile.mkdtemp(prefix=f"bjsim-numba-{os.getuid()}-")
    except OSError:
        return None


class _TempCache(caching.InTreeCacheLocator):
    """Else (a read-only install, no home to write in) a private folder of the temporary one
    (`private_folder`): a cache that may not last, rather than no run at all."""

    def __init__(self, py_func, py_file):
        super().__init__(py_func, py_file)
        self._cache_path = os.path.join(private_folder() or "", self.get_suitable_cache_subpath(
            py_file))

    def get_cache_path(self):
        return self._cache_path

    @classmethod
    def from_function(cls, py_func, py_file):
        return None if private_folder() is None else super().from_function(py_func, py_file)


class _EngineTempCache(_EngineStamp, _TempCache):
    """The same for the engine's functions, stamped as the engine."""


caching.CacheImpl._locator_classes[:0] = [_EngineUserCache, _EngineInTreeCache,
                                          _EngineUserWideCache, _EngineTempCache]
caching.CacheImpl._locator_classes.append(_TempCache)


# Each compiled version of the engine (``warm``'s names), and the analyzer's kernels: what stderr
# calls it while it compiles, and about how many seconds a cold compile of it takes (the
# measurements: docs/performance.md).
VERSIONS = {"simulate": ("the simulation kernel", 25), "count": ("the counter's kernel", 30),
            "stacked": ("the kernel's stacked mode", 20),
            "stacked count": ("the counter's stacked mode", 35),
            "exact": ("the exact analyzer", 20)}  # fmt: skip


def compiling(name: str) -> str:
    """What stderr says while version ``name`` of the engine compiles."""
    what, seconds = VERSIONS[name]
    return f"bjsim: compiling {what}, first run only, about {seconds} s"


_WARM = threading.Lock()
_warmed: set = set()
_said: set = set()  # the versions whose compiling() stderr has said (a cold cache)


def compile_said() -> bool:
    """Has stderr said in this process that a version is compiling (``warm``)?"""
    return bool(_said)


def _say_compiling(name: str) -> None:
    """``compiling(name)`` on a line of its own: a progress bar drawn is cleared and drawn again
    below it (it began with a blank line on a first run, where no bar is drawn yet)."""
    _said.add(name)
    _say(compiling(name))


def warm(name: str, fn, *args) -> None:
    """Compile ``fn`` (or load it from the cache) once per process by a call that plays no
    round; when that takes over two seconds (a cold cache) stderr says so while it lasts."""
    with _WARM:
        if name in _warmed:
            return
        timer = threading.Timer(2.0, _say_compiling, (name,))
        timer.daemon = True
        timer.start()
        try:
            try:
                fn(*args)
            except Exception as err:  # noqa: BLE001 (numba's own, loading a damaged cache file)
                if not _in_the_cache(err) or not _forget_cache(fn):
                    raise
                _say(f"bjsim: the cache of {VERSIONS[name][0]} could not be read ("
                     f"{type(err).__name__}: a file cut short or damaged): compiling it again")
                fn(*args)  # (an error here is not the cache's: raised)
        finally:
            timer.cancel()
        _warmed.add(name)


def _in_the_cache(err: Exception) -> bool:
    """Was ``err`` raised reading numba's on-disk cache (a file cut short, overwritten), not
    writing it (a full disk) nor anywhere else?"""
    return any(f.filename.replace("\\", "/").endswith("numba/core/caching.py")
               and f.name in _READING for f in traceback.extract_tb(err.__traceback__))


_READING = {"load_overload", "_load_overload", "load", "_load_index", "_load_data"}


def _forget_cache(fn) -> bool:
    """Empty the on-disk cache index (numba's ``Cache.flush``) of ``fn``, of the compiled
    functions its module names, and of every compiled function of bjsim's (one ``fn`` calls,
    in a module of its own, may hold the damaged file), so that each compiles and writes its
    cache again; False where there is none."""
    modules = [getattr(getattr(fn, "py_func", fn), "__globals__", {})] + [
        vars(m) for name, m in list(sys.modules.items())
        if name == "simulator" or name.startswith("simulator.")]
    found = {id(f): f for f in [fn] + [v for g in modules for v in list(g.values())]
             if hasattr(f, "_cache") and hasattr(f, "py_func")}
    caches = [f._cache for f in found.values() if type(f._cache).__name__ != "NullCache"
              and hasattr(f._cache, "flush")]
    try:
        for cache in caches:
            cache.flush()
    except OSError:
        return False
    return bool(caches)


def _say(line: str) -> None:
    """``line`` on stderr, on a line of its own above a progress bar drawn."""
    from tqdm import tqdm

    tqdm.write(line, file=sys.stderr)
    sys.stderr.flush()
