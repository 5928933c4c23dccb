"""The exact analyzer's results kept on disk between runs: the cache folder, the analyzer's
source hash every key includes, atomic writes, and `bjsim exact`'s figures (``figures-<key>
.pickle``: Python pickles, in a folder only the user writes). `simulator.derived` keeps its
derived strategies and house edges in the same folder."""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import pickle
import tempfile
from pathlib import Path

from simulator import __version__
from simulator.rules import rules_dict

CACHE_ENV = "BJSIM_CACHE_DIR"


def cache_dir() -> Path:
    """The cache folder (not created here)."""
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV])
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "bjsim"


@functools.cache
def analyzer_hash() -> str:
    """SHA-256 of the exact analyzer's source (``simulator/exact/*.py``): a changed analyzer
    derives and evaluates again."""
    h = hashlib.sha256()
    for path in sorted(Path(__file__).parent.glob("*.py")):
        h.update(path.name.encode() + b"\0" + path.read_bytes())
    return h.hexdigest()


def write_atomic(path: Path, data: str | bytes) -> bool:
    """Write ``data`` to ``path`` through a temporary file renamed over it; False if the folder
    cannot be written (then nothing is kept)."""
    tmp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "wb") as f:
            f.write(data.encode("utf-8") if isinstance(data, str) else data)
        os.replace(tmp, path)
        return True
    except OSError:
        if tmp is not None:  # (a full disk: no half-written file left behind)
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        return False


def _figures_path(rules, strategy) -> Path:
    """Where ``exact.compare.exact_figures(rules, strategy)`` is kept: keyed by the bjsim
    version, the analyzer's source, every rule-set key and the strategy (None: derived), name
    and description included (the figures name it)."""
    key = pickle.dumps((__version__, analyzer_hash(), rules_dict(rules), strategy))
    return cache_dir() / f"figures-{hashlib.sha256(key).hexdigest()[:20]}.pickle"


def load_figures(rules, strategy):
    """The cached ``exact_figures(rules, strategy)`` (a pair: the figures and the strategy), or
    None (not cached, or a file that does not load: computed again)."""
    try:
        with open(_figures_path(rules, strategy), "rb") as f:
            hit = pickle.load(f)  # (a file bjsim wrote in the user's own cache folder)
    except Exception:  # noqa: BLE001 (missing, damaged or from another numpy: compute again)
        return None
    return hit if isinstance(hit, tuple) and len(hit) == 2 and isinstance(hit[0], dict) else None


def save_figures(rules, strategy, figures) -> None:
    """Keep ``exact_figures(rules, strategy)``'s result for the next run (atomically; a folder
    that cannot be written only means no caching)."""
    write_atomic(_figures_path(rules, strategy),
                 pickle.dumps(figures, protocol=pickle.HIGHEST_PROTOCOL))
