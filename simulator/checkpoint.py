"""Checkpoints: what a run has finished, on disk, so that ``bjsim simulate --checkpoint FILE
--resume`` carries on where an interrupted run stopped and gives exactly the result an uninterrupted
run gives.

A checkpoint is a small JSON file:

``identity``
    everything the result depends on: bjsim version, every rule-set key, a SHA-256 of the
    strategy tables, seed, ``chunk_rounds``, ``rounds`` (with a precision target: the cap,
    ``max_rounds``) and ``precision``. A resume refuses a checkpoint whose identity differs and
    names the first thing that differs.
``state``
    `simulator.engine.RunState`: ``prefix_end`` (chunks ``0..prefix_end-1`` are finished),
    ``prefix`` (their summed tally), ``extra`` (finished chunks past the prefix: index -> tally;
    at most the engine's lookahead of them) and ``stop_chunk`` (the chunk a precision target was met
    at). Its size does not grow with the number of rounds.

Writes are atomic: the file is written to a temporary file in the same folder, flushed, synced and
renamed over the old one (``os.replace``), so a crash or a full disk leaves the previous checkpoint
whole, never a partial file. `Writer` writes at most every ``every`` seconds (default 5) while a run
goes on, and always at its end or interruption: a write costs about a millisecond, so the run is not
slowed, and a hard kill loses at most a few seconds of work.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import tempfile
import time

import numpy as np

from simulator import __version__
from simulator import layout as L

FORMAT = "bjsim-checkpoint"
FORMAT_VERSION = 1
WRITE_EVERY_SECONDS = 5.0


class CheckpointError(ValueError):
    """A checkpoint that cannot be read, or belongs to a different run."""


def tables_hash(tables) -> str:
    """SHA-256 (hex) of stacked strategy tables (`strategy.stack`): shapes, dtypes and bytes."""
    h = hashlib.sha256()
    for a in tables:
        a = np.ascontiguousarray(a)
        h.update(f"{a.dtype.str}{a.shape};".encode())
        h.update(a.tobytes())
    return h.hexdigest()


def identity(rules, tables, seed: int, chunk_rounds: int, rounds: int,
             precision: float | None = None) -> dict:
    """Everything the result of a run depends on (see the module docstring)."""
    rule_dict = {
        k: list(v) if isinstance(v, tuple) else v for k, v in dataclasses.asdict(rules).items()
    }
    return {
        "bjsim": __version__,
        "rules": rule_dict,
        "strategies_sha256": tables_hash(tables),
        "seed": int(seed),
        "chunk_rounds": int(chunk_rounds),
        "rounds": int(rounds),
        "precision": None if precision is None else float(precision),
    }


def _differs(saved: dict, current: dict) -> str | None:
    """The first difference between two identities, in words; None if equal."""
    common = ("bjsim", "seed", "chunk_rounds", "rounds", "precision", "strategies_sha256")
    more = sorted((set(saved) | set(current)) - set(common) - {"rules"})  # e.g. compare's keys
    for key in (*common, *more):
        a, b = saved.get(key), current.get(key)
        if a != b:
            name = {"bjsim": "bjsim version", "strategies_sha256": "strategy tables",
                    "rounds": "rounds (or --max-rounds)"}.get(key, key)
            if key == "strategies_sha256":
                return f"{name} differ"
            return f"{name} is {a} there, {b} here"
    rs, rc = saved.get("rules", {}), current.get("rules", {})
    for key in sorted(set(rs) | set(rc)):
        if rs.get(key) != rc.get(key):
            return f"rule '{key}' is {rs.get(key)!r} there, {rc.get(key)!r} here"
    return None


def save(path, ident: dict, state) -> None:
    """Write ``state`` (`engine.RunState`) with ``ident`` to ``path`` atomically."""
    doc = {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "identity": ident,
        "tally_names": list(L.TALLY_NAMES),
        "state": {
            "prefix_end": int(state.prefix_end),
            "prefix": [int(x) for x in state.prefix],
            "extra": {str(i): [int(x) for x in t] for i, t in sorted(state.extra.items())},
            "stop_chunk": state.stop_chunk,
        },
        "rounds_done": state.rounds_done,
        "finished": bool(state.finished),
        "written": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }
    text = json.dumps(doc, indent=1) + "\n"
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=os.path.basename(path) + ".", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def load(path) -> dict:
    """Read a checkpoint file; `CheckpointError` (one line) if it is not one."""
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except OSError as err:
        raise CheckpointError(f"--checkpoint {path}: cannot read: {err.strerror or err}") from None
    except ValueError as err:
        raise CheckpointError(f"--checkpoint {path}: not a bjsim checkpoint: {err}") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise CheckpointError(f"--checkpoint {path}: not a bjsim checkpoint")
    if doc.get("version") != FORMAT_VERSION:
        raise CheckpointError(
            f"--checkpoint {path}: checkpoint format version {doc.get('version')}: allowed "
            f"{FORMAT_VERSION}"
        )
    if doc.get("tally_names") != list(L.TALLY_NAMES):
        raise CheckpointError(f"--checkpoint {path}: its tally layout differs from this bjsim's")
    return doc


def resume(path, ident: dict, state) -> None:
    """Load ``path`` into ``state`` (`engine.RunState`) after checking that it is a checkpoint of
    the run ``ident``; else `CheckpointError` naming what differs."""
    doc = load(path)
    diff = _differs(doc.get("identity", {}), ident)
    if diff is not None:
        raise CheckpointError(f"--resume: {path} is a checkpoint of a different run: {diff}")
    try:
        s = doc["state"]
        shape = state.zero().shape
        extra = {int(i): state.coerce(t) for i, t in s["extra"].items()}
        prefix = state.coerce(s["prefix"])
        if prefix.shape != shape or any(t.shape != shape for t in extra.values()):
            raise ValueError("tally of the wrong length")
        state.restore(s["prefix_end"], prefix, extra, s.get("stop_chunk"))
    except (KeyError, TypeError, ValueError, AttributeError) as err:
        raise CheckpointError(f"--checkpoint {path}: damaged state: {err}") from None


class Writer:
    """Write a run's checkpoint at most every ``every`` seconds (`maybe`), or now (`write`)."""

    def __init__(self, path, ident: dict, every: float = WRITE_EVERY_SECONDS):
        self.path = path
        self.ident = ident
        self.every = float(every)
        self.last = time.monotonic()
        self.writes = 0

    def maybe(self, state) -> bool:
        """Write if ``every`` seconds have passed since the last write; True if it wrote."""
        if time.monotonic() - self.last < self.every:
            return False
        self.write(state)
        return True

    def write(self, state) -> None:
        save(self.path, self.ident, state)
        self.last = time.monotonic()
        self.writes += 1
