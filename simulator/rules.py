"""The rule set: New Zealand Gazette 1994 No. 112 blackjack, its variants, and their validation.

Implements the rule-set keys of rules 3.1 (decks), 7.1 (1999; cut card and shuffle), 8.2
(blackjack pays), 9 (insurance pays), 10 (doubling), 11 (splitting), 12.3 (dealer draws), the
undecided points (12.4, dealer blackjack against doubled or split hands, hole card, surrender), 13
(boxes) and 14 (Super Sevens). A `Rules` is immutable; `to_params` packs it into the int64 vector
the kernel reads (indices in `simulator.layout`).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import numpy as np

from simulator import layout as L

SHUFFLES = ("cut-card", "every-round")
HOLE_CARDS = ("none", "peek")
DOUBLE_ON = ("any", "hard", "9-11", "10-11")
DEALER_BJ_TAKES = ("all", "original-and-busted", "original")
SURRENDERS = ("none", "late", "early")


@dataclass(frozen=True)
class Rules:
    """One rule set. Field names are the TOML keys; defaults are the NZ 1994 game."""

    decks: int = 6  # 3.1
    penetration: float = 0.75  # 7.1: fraction of the shoe dealt before the cut card
    shuffle: str = "cut-card"  # 7.1
    hole_card: str = "none"  # dealing: no hole card
    blackjack_pays: float = 1.5  # 8.2
    insurance_pays: float = 2.0  # 9.5
    double_on: str = "hard"  # 10 (inferred)
    double_after_split: bool = True  # 10 (inferred)
    max_hands: int = 3  # 11
    resplit_aces: bool = False  # 11 (b)
    hit_split_aces: bool = False  # 11 (b)
    dealer_hits_soft_17: bool = False  # 12.3
    dealer_draws_when_no_live_box: bool = False  # 12.4 (inferred)
    dealer_blackjack_takes: str = "original-and-busted"  # inferred
    surrender: str = "none"  # not offered in NZ
    boxes: int = 1  # 13
    super_sevens: bool = True  # 14
    super_sevens_bet: float = 1.0  # 14.2: Super Sevens stake relative to the initial wager
    super_sevens_pays: tuple[int, int, int, int, int] = field(default=(3, 50, 100, 500, 5000))

    def replace(self, **changes) -> Rules:
        """Return a copy with some keys changed (no validation here; see `validate`)."""
        return dataclasses.replace(self, **changes)

    @property
    def cut(self) -> int:
        """Cards dealt before the cut card: round(penetration * 52 * decks)."""
        return int(round(self.penetration * 52 * self.decks))

    def to_params(self) -> np.ndarray:
        """Pack into the int64 parameter vector of `simulator.layout` (P_* indices)."""
        p = np.zeros(L.N_PARAMS, dtype=np.int64)
        p[L.P_DECKS] = self.decks
        p[L.P_CUT] = self.cut
        p[L.P_SHUFFLE] = SHUFFLES.index(self.shuffle)
        p[L.P_HOLE] = HOLE_CARDS.index(self.hole_card)
        p[L.P_BJ_WIN] = int(round(self.blackjack_pays * L.UNIT))
        p[L.P_INS_WIN] = int(round(self.insurance_pays * L.INSURANCE_STAKE))
        p[L.P_DOUBLE_ON] = DOUBLE_ON.index(self.double_on)
        p[L.P_DAS] = int(self.double_after_split)
        p[L.P_MAX_HANDS] = self.max_hands
        p[L.P_RSA] = int(self.resplit_aces)
        p[L.P_HSA] = int(self.hit_split_aces)
        p[L.P_H17] = int(self.dealer_hits_soft_17)
        p[L.P_DRAW_NO_LIVE] = int(self.dealer_draws_when_no_live_box)
        p[L.P_DBJ] = DEALER_BJ_TAKES.index(self.dealer_blackjack_takes)
        p[L.P_SURRENDER] = SURRENDERS.index(self.surrender)
        p[L.P_BOXES] = self.boxes
        p[L.P_SS] = int(self.super_sevens)
        p[L.P_SS_PAY_A : L.P_SS_PAY_E + 1] = self.super_sevens_pays
        return p
