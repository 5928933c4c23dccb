"""Ctrl-C and SIGTERM noted, not raised, while a whole run's report is made and written: a stop
that comes after the last chunk loses nothing (README, "bjsim simulate")."""

from __future__ import annotations

import signal
import threading
from contextlib import contextmanager

STOPS = (signal.SIGINT, signal.SIGTERM)
_noted: list[int] = []


@contextmanager
def held():
    """Within the block a stop signal is noted (`take`) instead of raised; in the main thread
    only (elsewhere Python sets no handler)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = {sig: signal.signal(sig, lambda sig, _: _noted.append(sig)) for sig in STOPS}
    try:
        yield
    finally:
        for sig, handler in before.items():
            signal.signal(sig, handler)


def take() -> int | None:
    """The first stop signal noted since the last call, or None."""
    first = _noted[0] if _noted else None
    _noted.clear()
    return first
