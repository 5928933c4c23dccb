"""Atomic file writes: a temporary file in the target's folder renamed over it, so that a reader
finds the old file or the new one whole, and a failed write leaves no temporary file."""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import tempfile

_UMASK = os.umask(0o022)  # the process's umask, read once (setting it is the only way to read it)
os.umask(_UMASK)
USER_MODE = 0o666 & ~_UMASK  # a file the user writes, as the shell would make it


def target_problem(path, folder: bool = False) -> str | None:
    """Why what is at ``path`` cannot be written over by what a command writes there, a file
    (with ``folder``: a folder), in the words every command refuses an output with (``-o``,
    ``--checkpoint``, ``--resume``; `simulator.run.checkpoint_problem` too): ``cannot write: it
    is a folder``, ``cannot write: it is a file, not a folder``; None where nothing is there or
    it is of the kind written."""
    if folder and os.path.exists(path) and not os.path.isdir(path):
        return "cannot write: it is a file, not a folder"
    if not folder and os.path.isdir(path):
        return "cannot write: it is a folder"
    return None


def _prefix(name: str) -> str:
    """The temporary file's name before `tempfile.mkstemp`'s 8 characters and ``.tmp``: ``name.``,
    cut to fit the 255 bytes a file's name may have (a legal name of 243 to 255 bytes had made
    one too long)."""
    raw = os.fsencode(name)
    if len(raw) <= 242:
        return name + "."
    # (cut, with a hash of the whole name: two long names alike at the start stay apart)
    return os.fsdecode(raw[:225]) + "-" + hashlib.sha256(raw).hexdigest()[:16] + "."


def leftovers(path) -> list[str]:
    """The temporary files `write` makes for ``path`` (``NAME.XXXXXXXX.tmp`` beside it, as
    `tempfile.mkstemp` names them) that are there now: one a killed process left (a failed
    write removes its own), or one another process is writing."""
    path = os.path.abspath(os.fspath(path))
    folder, name = os.path.split(path)
    made = re.compile(re.escape(_prefix(name)) + r"[a-z0-9_]{8}\.tmp")
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    return [os.path.join(folder, n) for n in names if made.fullmatch(n)]


def _put_new(tmp: str, path: str) -> None:
    """``tmp`` made ``path`` where no file is there, in one step (a hard link, which fails on
    a file there; where the file system has none, the name taken first by an exclusive create,
    then replaced); FileExistsError where one is."""
    try:
        os.link(tmp, path)
    except FileExistsError:
        raise
    except OSError:  # (no hard links here)
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
        mine = os.fstat(fd).st_ino
        os.close(fd)
        try:
            os.replace(tmp, path)
        except OSError:  # (the name taken, not written: let go, if still the one taken)
            with contextlib.suppress(OSError):
                if os.stat(path).st_ino == mine:
                    os.unlink(path)
            raise
        return
    with contextlib.suppress(OSError):  # (the file is in place: a name left is a leftover)
        os.unlink(tmp)


def write(path, data: str | bytes, mode: int | None = None, durable: bool = False,
          before_rename=None, exclusive: bool = False) -> None:
    """Write ``data`` (text as UTF-8) to ``path`` atomically, with permissions ``mode`` (None:
    0600, a file only the user reads) and, if ``durable``, on disk before the rename;
    ``before_rename``: called with the written file's path just before it takes ``path``'s
    place (a checkpoint locks it: `checkpoint.Writer`); ``exclusive``: FileExistsError where a
    file is at ``path`` as it is put in place, never replaced (two runs starting one
    checkpoint: `_put_new`). Raises OSError."""
    path = os.fspath(path)
    fd, tmp = tempfile.mkstemp(prefix=_prefix(os.path.basename(path)), suffix=".tmp",
                               dir=os.path.dirname(os.path.abspath(path)))
    try:
        if mode is not None:
            os.fchmod(fd, mode)
        with os.fdopen(fd, "wb") as f:
            # (a file name not UTF-8, in the text as a surrogate: written as \udce9)
            f.write(data.encode("utf-8", "backslashreplace") if isinstance(data, str) else data)
            if durable:
                f.flush()
                os.fsync(f.fileno())
        if before_rename is not None:
            before_rename(tmp)
        if exclusive:
            _put_new(tmp, path)
        else:
            os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
