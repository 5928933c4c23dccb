"""Ctrl-C and SIGTERM (and SIGHUP, SIGXCPU: `STOP_SIGNALS`) noted, not raised where they land, and
delivered at a point of the caller's choosing: between chunks (a stop raised inside
``concurrent.futures`` could leave its locks held), and from the last chunk to the written report (a
stop there loses nothing). A generator of chunks suspended at a yield leaves the caller's handlers
in place (`pause`), but for the library's own code it yields to (`holding`)."""

from __future__ import annotations

import signal
import threading
from contextlib import contextmanager

# The signals that stop a command as Ctrl-C does, nothing lost: Ctrl-C, a scheduler's SIGTERM,
# and where the system has them a terminal closed (SIGHUP; not where ignored, as under nohup)
# and a CPU-time limit's warning before its kill (SIGXCPU).
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM) + tuple(
    getattr(signal, name) for name in ("SIGHUP", "SIGXCPU") if hasattr(signal, name)
    and signal.getsignal(getattr(signal, name)) is not signal.SIG_IGN)


class DeferredStops:
    """While chunks play, Ctrl-C and the other `STOP_SIGNALS` are noted, not raised where they
    land, and `deliver` hands them to the handlers they had at a point of its choosing. Raised at
    an arbitrary point, one could land as ``concurrent.futures.wait`` held some futures' locks,
    leaving them held: a worker finishing its chunk then waited on them forever, and the stop
    with it. (Main thread only; elsewhere signals are as they were.)"""

    SIGNALS = STOP_SIGNALS

    def __init__(self):
        self.noted: list = []
        self.paused: dict | None = None  # (the caller's handlers, while `pause`d)
        try:
            self.previous = {sig: signal.signal(sig, self._note) for sig in self.SIGNALS}
        except ValueError:  # not the main thread
            self.previous = {}

    def _note(self, signum, frame):
        self.noted.append((signum, frame))

    def stopping(self) -> bool:
        """Whether a noted signal stops the caller when delivered (its handler not ignoring it)."""
        return any(self.previous.get(sig) not in (None, signal.SIG_IGN) for sig, _ in self.noted)

    def pause(self) -> bool:
        """Before the generator holding this deferral yields: the caller's handlers put back,
        so that a stop while it is suspended is the caller's, raised at once (a notebook that
        keeps a generator of chunks stays interruptible); `resume` puts this deferral back as
        it resumes. False, and nothing changed, where a stop is noted: the generator raises it
        (`deliver`) rather than yield. Within `holding`, True: the deferral stays over the
        yield, and a stop noted is raised as the generator resumes."""
        if _HOLDING[0] or not self.previous or (
                threading.current_thread() is not threading.main_thread()):
            return True
        if self.noted:
            return False
        self.paused = dict(self.previous)
        self.restore()
        if self.noted:  # (noted as the handlers went back)
            self.resume()
            return False
        return True

    def resume(self) -> None:
        """After `pause`, as the generator resumes (or is closed): this deferral in place again,
        in front of the handlers the caller has now (main thread only; a generator closed on
        another thread leaves signals as they are)."""
        handlers, self.paused = self.paused, None
        if handlers:
            try:
                self.previous = {sig: signal.signal(sig, self._note) for sig in handlers}
            except ValueError:  # not the main thread
                self.previous = {}

    def restore(self) -> None:
        """The handlers put back; what was noted is kept for `deliver`."""
        for sig, handler in self.previous.items():
            signal.signal(sig, handler)
        self.previous = {}

    def deliver(self) -> None:
        """Call each noted signal's own handler, in turn, the handlers restored first: the
        first raises KeyboardInterrupt (as Ctrl-C's does), raised once all have been told.
        Called between chunks and, last, when the runner ends: a signal noted as the last
        chunks came in is not lost."""
        noted, self.noted = self.noted, []
        handlers = dict(self.previous)
        self.restore()
        stop = None
        for signum, frame in noted:
            handler = handlers.get(signum)
            try:
                if callable(handler):
                    handler(signum, frame)
                elif handler == signal.SIG_DFL:
                    signal.raise_signal(signum)  # (the default: the process ends)
            except KeyboardInterrupt as err:
                stop = stop or err
        if stop is not None:
            raise stop


_HOLDING = [0]  # `holding` blocks open on the main thread


@contextmanager
def holding():
    """Within it, a generator of chunks keeps its deferral over its yields (`pause`): the code
    it yields to is the library's own (a runner's loop, `engine.advance`'s bookkeeping, the
    progress callback of `engine.run`), where a stop is raised as the generator resumes, as
    while a chunk plays, not wherever it lands. (Main thread only.)"""
    main = threading.current_thread() is threading.main_thread()
    _HOLDING[0] += main
    try:
        yield
    finally:
        _HOLDING[0] -= main


def running() -> DeferredStops | None:
    """The deferral whose handler SIGINT has now (a generator's of chunks, running), if any; on
    another thread than the main one, None (the main thread's deferral is not this run's)."""
    if threading.current_thread() is not threading.main_thread():
        return None
    owner = getattr(signal.getsignal(signal.SIGINT), "__self__", None)
    return owner if isinstance(owner, DeferredStops) else None


@contextmanager
def held():
    """Within the block a stop is noted, not raised; after it, the list the block was given
    holds the signal numbers noted (main thread only; elsewhere signals are as they were)."""
    deferred = DeferredStops()
    noted: list[int] = []
    try:
        yield noted
    finally:
        deferred.restore()
        noted.extend(sig for sig, _ in deferred.noted)


_AGAIN = [False]  # within `deliver`: the signal is one noted before, sent again


def deliver(noted) -> None:
    """The first stop ``noted`` (a signal number, or `held`'s list; None or empty: none) sent
    again to the handlers now in place: a step of a longer job (the exact figures after a run,
    a count's control run, a report's next run) stops there as at the signal itself."""
    first = noted[0] if isinstance(noted, list) and noted else noted or None
    if first is not None:
        _AGAIN[0] = True
        try:
            signal.raise_signal(first)  # (its Python handler runs before this returns)
        finally:
            _AGAIN[0] = False


def sent_again() -> bool:
    """Whether the signal being handled is a stop `deliver` sends again, not a new one: a
    handler holding a second stop (the command's) takes it as the first, which a run caught
    (the run whole all the same) and handed on to the next step."""
    return _AGAIN[0]


_RAISED = [0, 0, 0]  # stops the command's handler raised (less those sent again); that count at
# its start; the commands under way (`commanding`: options read, then the command run)
_LAST = [signal.SIGINT]  # the signal of the last stop the command's handler raised


def raising(signum: int = signal.SIGINT) -> None:
    """The command's handler raises a stop (KeyboardInterrupt) where it landed, for
    ``signum``."""
    _RAISED[0] += 1
    _LAST[0] = signum


def last_signal() -> int:
    """The signal of the last stop raised (`raising`; SIGINT before any, or outside a command:
    a KeyboardInterrupt is Ctrl-C's): a stop caught is sent again as itself (`deliver`)."""
    return _LAST[0]


def swallowed() -> None:
    """A stop raised was swallowed where it was reported (a callback from compiled code): it is
    sent again, and counted again when raised."""
    _RAISED[0] -= 1


@contextmanager
def commanding():
    """A command under way (its options read, then run: one command, the outermost block):
    `check_lost` counts the stops raised from its start, and none outside a command (a library
    call after an interrupted command plays as any other)."""
    if _RAISED[2] == 0:
        _RAISED[1], _LAST[0] = _RAISED[0], signal.SIGINT
    _RAISED[2] += 1
    try:
        yield
    finally:
        _RAISED[2] -= 1
        if _RAISED[2] == 0:  # (outside a command a KeyboardInterrupt is Ctrl-C's again)
            _LAST[0] = signal.SIGINT


def check_lost() -> None:
    """KeyboardInterrupt again where a stop raised since the command began was lost: cleared
    by code that ran the handler and went on (CPython's C code clears an exception in places,
    as ``PyObject_HasAttr`` does; the run had gone on to the end of its rounds). For a point
    no caught stop reaches: a command stops at its first (before the first chunk)."""
    if _RAISED[2] and _RAISED[0] > _RAISED[1]:
        raise KeyboardInterrupt
