"""Pure-Python work (basic-strategy derivations, exact analyses) side by side on worker processes
(``python -m simulator.processes``, fed pickled tasks on stdin), stopped cleanly by Ctrl-C or
SIGTERM. The workers run this module, not the caller's script: a script without a
``__main__`` guard, or one read from stdin, is not run again in them."""

from __future__ import annotations

import os
import pickle
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import traceback
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HEAD = struct.Struct("<Q")  # a message: its length, then the pickle
WORKER = "BJSIM_WORKER"  # set in a worker's environment
_NOTES: list = []  # a worker's lines for the user, sent back with its task's result


def note(line: str) -> None:
    """A line for the user on stderr: said here, or by a worker with its task's result (a
    worker's own stderr is shown only if it fails)."""
    if os.environ.get(WORKER):
        _NOTES.append(line)
    else:
        sys.stderr.write(line + "\n")


def map_spawned(fn, items, workers: int | None = None, done=None) -> list:
    """``[fn(x) for x in items]``, on up to ``workers`` worker processes (default: every CPU; one
    item, one worker, or called in a worker: in this process). ``fn`` is a module-level function
    the workers can import. ``done(k, n)``, if given, is called as each item is finished (``k``
    of ``n``). Stopped (Ctrl-C, SIGTERM), the workers are ended before the KeyboardInterrupt
    goes on. An error in a worker is raised here as it was raised there (a ValueError stays a
    ValueError), its traceback the cause; a worker gone, a RuntimeError."""
    items = list(items)
    n = processes_for(len(items), workers)
    finished = [0]
    if n <= 1:
        out = []
        for x in items:
            out.append(fn(x))
            if done is not None:
                done(len(out), len(items))
        return out
    todo, lock, out = iter(enumerate(items)), threading.Lock(), [None] * len(items)

    def serve(proc):
        while True:
            with lock:
                task = next(todo, None)
            if task is None:
                return
            _send(proc.stdin, (fn, task[1]))
            ok, value, notes = _receive(proc.stdout)
            for line in notes:
                note(line)
            if not ok:
                error, text = value
                raise (error or RuntimeError("a worker process failed")) from WorkerError(text)
            with lock:
                out[task[0]] = value
                finished[0] += 1
                k = finished[0]
            if done is not None:  # (outside the lock: a failing callback is not a worker's)
                done(k, len(items))

    procs, threads = [], ThreadPoolExecutor(n)
    try:
        for _ in range(n):
            procs.append(_start())  # (one by one: a stop between them ends those started)
        for job in [threads.submit(serve, p) for p in procs]:
            try:
                job.result()
            except (EOFError, OSError) as e:  # a worker gone (killed, out of memory)
                raise RuntimeError(f"a worker process ended: {_said(procs)}") from e
    finally:
        for p in procs:
            p.kill()
        for p in procs:
            p.wait()
            p.log.close()
        threads.shutdown()
    return out


def processes_for(n_items: int, workers: int | None = None) -> int:
    """How many processes ``map_spawned`` runs ``n_items`` items on (1: in this process)."""
    if os.environ.get(WORKER):  # (a worker's work stays in the worker)
        return min(n_items, 1)
    return min(n_items, workers or os.cpu_count() or 1)


class WorkerError(Exception):
    """The traceback of an error in a worker process (the cause of the error raised here)."""


def _start() -> subprocess.Popen:
    home = Path(__file__).resolve().parent.parent  # where this simulator package is: the
    log = tempfile.TemporaryFile()  # worker starts there, so it imports this one, not another
    proc = subprocess.Popen([sys.executable, "-m", "simulator.processes"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=log, cwd=home,
                            env=dict(os.environ, **{WORKER: "1"}))
    proc.log = log  # what it wrote on stderr
    return proc


def _said(procs) -> str:
    """The end of what the workers wrote on stderr."""
    text = b""
    for p in procs:
        p.kill()
        p.wait()
        p.log.seek(0)
        text += p.log.read()[-2000:]
    return text.decode(errors="replace").strip() or "(nothing on stderr)"


def _send(stream, obj) -> None:
    data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(HEAD.pack(len(data)) + data)
    stream.flush()


def _receive(stream):
    head = stream.read(HEAD.size)
    if len(head) < HEAD.size:
        raise EOFError("no message")
    (size,) = HEAD.unpack(head)
    data = stream.read(size)
    if len(data) < size:
        raise EOFError("a message cut short")
    return pickle.loads(data)


def _serve() -> None:
    """A worker: tasks ``(fn, x)`` from stdin, ``(True, fn(x), notes)`` or ``(False, (error or
    None if it cannot be pickled, its traceback), notes)`` to stdout (``notes``: its `note`
    lines), until stdin ends. Ctrl-C and SIGTERM are
    for the process that started it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    inp, out = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr  # (a print goes to stderr, not into the messages)
    while True:
        try:
            fn, x = _receive(inp)
        except EOFError:
            return
        try:
            result = (True, fn(x))
        except Exception as e:  # noqa: BLE001 (handed back whole)
            try:
                error = pickle.loads(pickle.dumps(e))
            except Exception:  # noqa: BLE001
                error = None
            result = (False, (error, traceback.format_exc()))
        _send(out, (*result, _NOTES[:]))
        _NOTES.clear()


if __name__ == "__main__":  # (the module's own copy, whose `_NOTES` the tasks' `note` fills)
    from simulator.processes import _serve as serve_here

    serve_here()
