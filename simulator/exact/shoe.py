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


def as_composition(composition) -> np.ndarray:
    """Validate and cast a composition to int64[10]."""
    try:
        comp = np.asarray(composition, dtype=np.int64)
    except (TypeError, ValueError, OverflowError):  # (None, text, ragged: refused below)
        comp = np.zeros(0, np.int64)
    if comp.shape != (10,) or (comp < 0).any():
        raise ValueError(f"composition {composition!r}: expected 10 non-negative counts (A..10)")
    return np.ascontiguousarray(comp)


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
