"""Strategies as data: the file format, its loader and validation, and the int8 tables.

A strategy decides what the rules leave to the player: hit, stand, double, split, surrender
(rules 10, 11, 12.1), insurance (9), even money (8.3) and the 7-7 play with a Super Sevens bet up
(14.4). The tables are indexed as in `docs/design.md`; the file format is `docs/strategy-format.md`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simulator import layout as L


@dataclass(frozen=True, eq=False)
class Strategy:
    """A strategy as int8 tables (codes in `simulator.layout`).

    hard, soft : (22, 10) int8, row = total, column = up-card index (value - 2; ace = 9)
    pairs : (10, 10) int8, row = pair value - 1 (A = 0, ten-valued = 9)
    sevens : (10,) int8, the first decision on 7-7 with a Super Sevens bet up
    insurance, even_money : take insurance (9) / even money (8.3) when offered
    """

    name: str
    hard: np.ndarray
    soft: np.ndarray
    pairs: np.ndarray
    sevens: np.ndarray
    insurance: bool = False
    even_money: bool = False
    description: str = ""
    source: str = ""

    @property
    def flags(self) -> np.ndarray:
        return np.array([int(self.insurance), int(self.even_money)], dtype=np.int8)


def stack(strategies: list[Strategy]):
    """Stack per-box strategies on a leading box axis: (hard, soft, pairs, sevens, flags), int8."""
    return (
        np.ascontiguousarray(np.stack([s.hard for s in strategies]).astype(np.int8)),
        np.ascontiguousarray(np.stack([s.soft for s in strategies]).astype(np.int8)),
        np.ascontiguousarray(np.stack([s.pairs for s in strategies]).astype(np.int8)),
        np.ascontiguousarray(np.stack([s.sevens for s in strategies]).astype(np.int8)),
        np.ascontiguousarray(np.stack([s.flags for s in strategies]).astype(np.int8)),
    )
