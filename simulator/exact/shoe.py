"""Shoe compositions by card value (index value - 1: aces at 0, ten-valued cards at 9), rule 3.1."""

from __future__ import annotations

import numpy as np


def full_shoe(decks: int) -> np.ndarray:
    """Cards by value in ``decks`` full decks: 4 per deck of each of A..9, 16 ten-valued."""
    if not 1 <= int(decks) <= 8:
        raise ValueError(f"decks = {decks!r} is out of range: allowed 1-8")
    comp = np.full(10, 4 * int(decks), dtype=np.int64)
    comp[9] = 16 * int(decks)
    return comp


def as_composition(composition) -> np.ndarray:
    """Validate and cast a composition to int64[10]."""
    comp = np.asarray(composition, dtype=np.int64)
    if comp.shape != (10,) or (comp < 0).any():
        raise ValueError(f"composition {composition!r}: expected 10 non-negative counts (A..10)")
    return np.ascontiguousarray(comp)


def removed(decks: int, *values: int) -> np.ndarray:
    """A full shoe with the given card values (1..10) taken out."""
    comp = full_shoe(decks)
    for v in values:
        comp[v - 1] -= 1
    return comp
