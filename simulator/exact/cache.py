"""The exact analyzer's results kept on disk between runs: the cache folder, the analyzer's
source hash every key includes, atomic writes, and `bjsim exact`'s figures (``figures-<key>
.pickle``, ``figures-optimal-<key>.pickle`` with ``--optimal``: Python pickles, in a folder only
the user writes), each computed by one process at a time (`one_at_a_time`). `simulator.derived`
keeps its derived strategies and house edges in the same folder. Every file carries a SHA-256
of its content (`sealed`), checked when it is read: one edited, damaged or written before
checksums counts as not kept (`rejected`), and is made again, which stderr says once."""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import hashlib
import os
import pickle
import sys
import tempfile
from pathlib import Path

from simulator import __version__, atomic
from simulator.processes import note
from simulator.rules import Rules, rules_dict

try:
    import fcntl
except ImportError:  # (not on Windows: there two processes may compute one result)
    fcntl = None

CACHE_ENV = "BJSIM_CACHE_DIR"
# The rule-set keys the exact analyzer does not read: it values one box from a full shoe.
UNSEEN = ("penetration", "shuffle", "boxes")


def one_box(rules):
    """``rules`` with the keys the analyzer does not read (`UNSEEN`) at their defaults: one box,
    the default cut card and shuffle. Its results are those of ``rules`` (per box)."""
    nz = Rules()
    return dataclasses.replace(rules, **{k: getattr(nz, k) for k in UNSEEN})


def cache_dir() -> Path:
    """The cache folder (not created here)."""
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV])
    xdg = os.environ.get("XDG_CACHE_HOME", "")  # (a relative one ignored, as its spec says)
    return Path(xdg if os.path.isabs(xdg) else os.path.join(_home(), ".cache")) / "bjsim"


def _home() -> str:
    """The user's home: ``$HOME``, or where it is empty or relative the account's."""
    home = os.environ.get("HOME", os.path.expanduser("~"))  # (an empty one: "/" to expanduser)
    if not os.path.isabs(home):
        try:
            import pwd

            home = pwd.getpwuid(os.getuid()).pw_dir
        except (ImportError, KeyError):
            home = tempfile.gettempdir()
    return home


@functools.cache
def analyzer_hash() -> str:
    """SHA-256 of the exact analyzer's source (``simulator/exact/*.py``): a changed analyzer
    derives and evaluates again."""
    h = hashlib.sha256()
    for path in sorted(Path(__file__).parent.glob("*.py")):
        h.update(path.name.encode() + b"\0" + path.read_bytes())
    return h.hexdigest()


SEAL = "# sha256 "  # a cache file's first line: this, then the SHA-256 (hex) of the rest


# Why a cache file is not used, in every kind of cache file's words (`rejected`).
NO_SEAL = "has no sha256 checksum (damaged, or written by an older bjsim)"
MISMATCH = "does not match its sha256 checksum (edited or damaged)"


def sealed(data: str | bytes) -> bytes:
    """``data`` (text as UTF-8) after a first line holding its SHA-256 (`SEAL`): a comment in a
    TOML file. `unsealed` gives it back."""
    data = data.encode() if isinstance(data, str) else data
    return f"{SEAL}{hashlib.sha256(data).hexdigest()}\n".encode() + data


def unsealed(path: Path, raw: bytes) -> bytes | None:
    """What `sealed` wrapped in ``raw`` (the file ``path``'s bytes), or None (`rejected`) where
    the first line holds no checksum (written before checksums) or one the rest does not match
    (edited or damaged)."""
    head, _, data = raw.partition(b"\n")
    if not head.startswith(SEAL.encode()):
        rejected(path, NO_SEAL)
        return None
    if head[len(SEAL):] != hashlib.sha256(data).hexdigest().encode():
        rejected(path, MISMATCH)
        return None
    return data


def then_kept() -> str:
    """What a line announcing a slow result says of keeping it: ``then cached``, or where the
    cache folder cannot be made or written (a file tried in it), that it is not kept."""
    folder = cache_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder):
            return "then cached"
    except OSError:
        return "not kept: the cache folder cannot be written"


def rejected(path: Path, why: str) -> None:
    """The cache file ``path`` is not used (``why``: it does not match its checksum, or does not
    load): counted as not kept; `write_atomic` says so on stderr when it is made again."""
    _REJECTED[Path(path)] = why


_REJECTED: dict = {}


def write_atomic(path: Path, data: str | bytes) -> bool:
    """`atomic.write` to ``path`` (0600: a cache only the user reads), its folder made first;
    False if it cannot be written (then nothing is kept). A file made again after it was
    `rejected` is said once on stderr."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic.write(path, data)
        why = _REJECTED.pop(Path(path), None)
        if why is not None:  # (in a worker process, said by the process that started it)
            note(f"bjsim: the cached {path} {why}: made again")
        return True
    except OSError as err:
        if os.path.isdir(path):  # (the entry, not its folder: a folder in its place)
            sys.stderr.write(f"bjsim: the cache file {path} cannot be written (a folder is in "
                             "its place): this result is not kept (remove that folder)\n")
        elif not _WARNED:  # once a process: every later result is not kept either
            _WARNED.append(path)
            sys.stderr.write(f"bjsim: the cache folder {cache_dir()} cannot be written "
                             f"({_why_not(cache_dir(), err)}): results are not kept, and are "
                             f"worked out again each run (set {CACHE_ENV} to a folder you can "
                             "write)\n")
        return False


def _why_not(folder: Path, err: OSError) -> str:
    """Why ``folder`` cannot be written, for the line: it, or a folder above it, is a file
    (which the system calls "File exists" or "Not a directory"); else ``err``'s words."""
    there = next((p for p in (folder, *folder.parents) if p.exists()), None)
    if there is not None and not there.is_dir():
        return ("it is a file, not a folder" if there == folder else
                f"{there}, above it, is a file, not a folder")
    return err.strerror or str(err)


_WARNED: list = []


@contextlib.contextmanager
def one_at_a_time(path: Path):
    """Held while the result kept at ``path`` is looked for and computed: another process asking
    for it meanwhile waits, then finds it kept (the lock file ``path.lock`` stays; without a
    writable folder, or without ``fcntl``, no waiting)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        f = open(path.with_name(path.name + ".lock"), "a")  # noqa: SIM115 (closed below)
    except OSError:
        f = None
    try:
        if f is not None and fcntl is not None:
            fcntl.flock(f, fcntl.LOCK_EX)  # (released by the system if the process dies)
        yield
    finally:
        if f is not None:
            f.close()


def _path(kind: str, rules, strategy) -> Path:
    """Where a result ``kind`` of (rules, strategy) is kept: keyed by the bjsim version, the
    analyzer's source, every rule-set key it reads (`one_box`) and the strategy (None:
    derived), name and description included (the figures name it)."""
    key = pickle.dumps((__version__, analyzer_hash(), rules_dict(one_box(rules)), strategy))
    return cache_dir() / f"{kind}-{hashlib.sha256(key).hexdigest()[:20]}.pickle"


def _load(kind: str, rules, strategy):
    path = _path(kind, rules, strategy)
    try:
        data = unsealed(path, path.read_bytes())
    except OSError:  # (missing: computed)
        return None
    try:
        return None if data is None else pickle.loads(data)  # (a file bjsim wrote and sealed
        # in the user's own cache folder)
    except Exception:  # noqa: BLE001 (damaged, or from another numpy: computed again)
        rejected(path, "does not load")
        return None


def _save(kind: str, rules, strategy, value) -> None:
    """Kept atomically (`sealed`); a folder that cannot be written only means no caching."""
    write_atomic(_path(kind, rules, strategy),
                 sealed(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)))


def _figures_kind(optimal: bool) -> str:
    return "figures-optimal" if optimal else "figures"


def figures_path(rules, strategy, optimal: bool = False) -> Path:
    """Where ``exact_figures(rules, strategy, optimal)`` is kept."""
    return _path(_figures_kind(optimal), rules, strategy)


def load_figures(rules, strategy, optimal: bool = False):
    """The cached ``exact_figures(rules, strategy, optimal)`` (a pair: the figures and the
    strategy), or None (not cached, or a file that does not load: computed again)."""
    hit = _load(_figures_kind(optimal), rules, strategy)
    return hit if isinstance(hit, tuple) and len(hit) == 2 and isinstance(hit[0], dict) else None


def save_figures(rules, strategy, figures, optimal: bool = False) -> None:
    """Keep ``exact_figures(rules, strategy, optimal)``'s result for the next run."""
    _save(_figures_kind(optimal), rules, strategy, figures)


def load_hands(rules, strategy, up: int):
    """The cached ``hands.hand_values(rules, strategy, [up])`` (a list of rows), or None."""
    hit = _load(f"hands{up}", rules, strategy)
    return hit if isinstance(hit, list) and all(isinstance(r, dict) for r in hit) else None


def save_hands(rules, strategy, up: int, rows) -> None:
    _save(f"hands{up}", rules, strategy, rows)


def _removal_kind(optimal: bool) -> str:
    return "removal-optimal" if optimal else "removal"


def load_removal(rules, strategy, optimal: bool = False):
    """The cached ``removal.effects_of_removal(rules, strategy, optimal)``, or None."""
    hit = _load(_removal_kind(optimal), rules, None if optimal else strategy)
    return hit if isinstance(hit, dict) and isinstance(hit.get("eor"), dict) else None


def save_removal(rules, strategy, effects, optimal: bool = False) -> None:
    """Keep ``removal.effects_of_removal(rules, strategy, optimal)`` for the next run."""
    _save(_removal_kind(optimal), rules, None if optimal else strategy, effects)
