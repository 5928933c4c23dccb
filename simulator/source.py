"""Which code made a set of figures: a fingerprint of bjsim's own source and shipped data, and the
git commit where bjsim runs from a git checkout. For the reports' manifests only: it is no part
of any cache key (every commit would invalidate the caches), but part of a checkpoint's identity:
a run is resumed only by the code that wrote its checkpoint."""

from __future__ import annotations

import functools
import hashlib
import subprocess
from pathlib import Path

from simulator import home_of

ROOT = Path(__file__).resolve().parent.parent  # the folder holding simulator/
# What a run reads of bjsim's own files: its code, the rule sets and the strategies, counting
# systems, index files and plans it ships
PATTERNS = ("simulator/**/*.py", "configs/**/*.toml", "strategies/**/*.toml")
NOT_GIT = "not a git checkout"


def _files(root: Path) -> dict[str, Path]:
    """The files the fingerprint covers (`PATTERNS`): the code under ``root``, the shipped files
    under ``home_of(root)`` (the same names in a checkout and an installed wheel), each by its
    name relative to where it was found, written with ``/``."""
    found = {}
    for pattern in PATTERNS:
        base = root if pattern.startswith("simulator/") else home_of(root)
        found |= {p.relative_to(base).as_posix(): p for p in base.glob(pattern)
                  if p.is_file() and "__pycache__" not in p.relative_to(base).parts}
    return found


def source_files(root: Path = ROOT) -> list[str]:
    """The names of the files the fingerprint covers (`_files`), sorted."""
    return sorted(_files(root))


def fingerprint(root: Path = ROOT) -> str:
    """SHA-256 over `source_files`, in their sorted order, each as its relative path, a NUL,
    its length, a NUL and its bytes: the same files give the same hash on any machine, a
    changed, added or removed file another."""
    h = hashlib.sha256()
    for rel, path in sorted(_files(root).items()):
        data = path.read_bytes()
        h.update(rel.encode() + b"\0" + str(len(data)).encode() + b"\0" + data)
    return h.hexdigest()


def file_sha256(path) -> str | None:
    """A file's SHA-256 (hex), or None where it cannot be read (a manifest's, a plan's files)."""
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError:
        return None


def git_commit(root: Path = ROOT) -> str:
    """The commit checked out in ``root`` (with ``+ changes`` where its files differ from it, or
    one of `source_files` is not in it),
    or `NOT_GIT` where ``root`` is not a git checkout or git cannot be run."""
    def git(*args) -> str | None:
        try:
            res = subprocess.run(["git", "-C", str(root), *args], capture_output=True,
                                 text=True, timeout=20, check=False)
        except (OSError, subprocess.SubprocessError):
            return None
        return res.stdout.strip() if res.returncode == 0 else None

    top = git("rev-parse", "--show-toplevel")
    if not top or Path(top).resolve() != root.resolve():  # (bjsim inside another's checkout)
        return NOT_GIT
    commit = git("rev-parse", "HEAD")
    if not commit:
        return NOT_GIT
    changed = git("status", "--porcelain", "--untracked-files=all", "--",  # (a new file too)
                  *(f":(glob){pattern}" for pattern in PATTERNS))
    return commit + (" + changes not committed" if changed else "")


def provenance_columns() -> dict:
    """`provenance` as a csv's columns (the run on every row: compare's, exact --hands', the
    report manifest's keys): ``source_sha256``, ``source_files``, ``git_commit``."""
    return {k if k == "git_commit" else f"source_{k}": v for k, v in provenance().items()}


@functools.cache
def sha256() -> str:
    """`fingerprint` of this bjsim, once a process: the reports' ``source.sha256`` and a
    checkpoint's ``identity.source_sha256``."""
    return fingerprint()


@functools.cache
def provenance() -> dict:
    """``{"sha256", "files", "git_commit"}`` of this bjsim (`sha256`, how many files it
    covers, `git_commit`), once a process."""
    return {"sha256": sha256(), "files": len(source_files()), "git_commit": git_commit()}
