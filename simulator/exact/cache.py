"""The exact analyzer's results kept on disk between runs: the cache folder, the analyzer's
source hash every key includes, atomic writes, and `bjsim exact`'s figures (``figures-<key>
.pickle``: Python pickles, in a folder only the user writes). `simulator.derived` keeps its
derived strategies and house edges in the same folder."""

from __future__ import annotations

import functools
import hashlib
import os
import pickle
from pathlib import Path

from simulator import __version__, atomic
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
    """`atomic.write` to ``path`` (0600: a cache only the user reads), its folder made first;
    False if it cannot be written (then nothing is kept)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic.write(path, data)
        return True
    except OSError:
        return False


def _path(kind: str, rules, strategy) -> Path:
    """Where a result ``kind`` of (rules, strategy) is kept: keyed by the bjsim version, the
    analyzer's source, every rule-set key and the strategy (None: derived), name and
    description included (the figures name it)."""
    key = pickle.dumps((__version__, analyzer_hash(), rules_dict(rules), strategy))
    return cache_dir() / f"{kind}-{hashlib.sha256(key).hexdigest()[:20]}.pickle"


def _load(kind: str, rules, strategy):
    try:
        with open(_path(kind, rules, strategy), "rb") as f:
            return pickle.load(f)  # (a file bjsim wrote in the user's own cache folder)
    except Exception:  # noqa: BLE001 (missing, damaged or from another numpy: compute again)
        return None


def _save(kind: str, rules, strategy, value) -> None:
    """Kept atomically; a folder that cannot be written only means no caching."""
    write_atomic(_path(kind, rules, strategy),
                 pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))


def load_figures(rules, strategy):
    """The cached ``exact_figures(rules, strategy)`` (a pair: the figures and the strategy), or
    None (not cached, or a file that does not load: computed again)."""
    hit = _load("figures", rules, strategy)
    return hit if isinstance(hit, tuple) and len(hit) == 2 and isinstance(hit[0], dict) else None


def save_figures(rules, strategy, figures) -> None:
    """Keep ``exact_figures(rules, strategy)``'s result for the next run."""
    _save("figures", rules, strategy, figures)


def load_hands(rules, strategy, up: int):
    """The cached ``hands.hand_values(rules, strategy, [up])`` (a list of rows), or None."""
    hit = _load(f"hands{up}", rules, strategy)
    return hit if isinstance(hit, list) and all(isinstance(r, dict) for r in hit) else None


def save_hands(rules, strategy, up: int, rows) -> None:
    _save(f"hands{up}", rules, strategy, rows)
