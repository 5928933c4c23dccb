"""Argument checks shared by the public functions of the engine, the run and the exact
analyzer."""

from __future__ import annotations

import numpy as np


def whole(name: str, x, lo: int = 0, hi: float = np.inf) -> int:
    """``x`` as an int, if a whole number (an integral float too; an integer beyond 2**53,
    which no float holds, compared exactly) in ``lo..hi``; else a ValueError naming it and
    what is allowed (``rounds = 1.5`` had played 1 round)."""
    try:
        ok = not isinstance(x, (bool, np.bool_, str)) and x == int(x) and lo <= int(x) <= hi
    except (TypeError, ValueError, OverflowError):
        ok = False
    if not ok:
        allowed = f"{lo}-{hi}" if hi < np.inf else f">= {lo}"
        shown = x.item() if isinstance(x, np.generic) else x  # (1.5, not np.float64(1.5))
        raise ValueError(f"{name} = {shown!r}: allowed a whole number {allowed}")
    return int(x)
