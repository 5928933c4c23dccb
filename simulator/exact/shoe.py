"""Shoe compositions by card value (index value - 1: aces at 0, ten-valued cards at 9), rule 3.1,
and the exact API's checks of a composition and a yes-or-no argument."""

from __future__ import annotations

import numpy as np

DECK = np.array([4] * 9 + [16], dtype=np.float64)  # one deck by value, A..T


def full_shoe(decks: int) -> np.ndarray:
    """Cards by value in ``decks`` full decks: 4 per deck of each of A..9, 16 ten-valued."""
    if not 1 <= int(decks) <= 8:
        raise ValueError(f"decks = {decks!r} is out of range: allowed 1-8")
    comp = np.full(10, 4 * int(decks), dtype=np.int64)
    comp[9] = 16 * int(decks)
    return comp


COMPOSITION_ALLOWED = "allowed 10 whole counts >= 0, the cards left by value A..10"


def as_composition(composition) -> np.ndarray:
    """Validate and cast a composition to int64[10]: ten whole counts >= 0 (integral floats
    taken), else a one-line ValueError naming ``composition``."""
    try:
        a = np.asarray(composition)
    except (TypeError, ValueError):  # (ragged: refused below)
        a = np.zeros(0)
    if not (a.shape == (10,) and a.dtype.kind in "iuf" and np.isfinite(a).all()
            and (0 <= a).all() and (a < 2**53).all() and (a == np.floor(a)).all()):
        shown = " ".join(repr(composition).split())  # (a 2-D array's repr on one line)
        raise ValueError(f"composition {shown:.60}: {COMPOSITION_ALLOWED}")  # (4.5 read as 4)
    return np.ascontiguousarray(a, dtype=np.int64)


def removed(decks: int, *values: int) -> np.ndarray:
    """A full shoe with the given card values (1..10) taken out."""
    comp = full_shoe(decks)
    for v in values:
        comp[v - 1] -= 1
    return comp


def flag(name: str, value) -> bool:
    """``value`` as a bool if it is one (or 0, 1), else a ValueError naming ``name``: a text
    such as ``"no"`` is not taken as true."""
    if isinstance(value, (bool, np.bool_, int, np.integer)) and value in (0, 1):
        return bool(value)
    raise ValueError(f"{name} = {value!r:.40}: allowed True or False")
