"""Exact (combinatorial) analysis of the game by card removal from the full shoe.

`dealer_probabilities`, `analyze`, `basic_strategy` and `super_sevens`; `simulator.exact.compare`
makes the figures of ``bjsim exact`` and ``bjsim simulate --exact``. What each returns:
docs/exact.md, "API"; method and approximations: the rest of docs/exact.md.
"""

from simulator.exact.analyze import analyze, basic_strategy
from simulator.exact.dealer import OUTCOMES, dealer_probabilities
from simulator.exact.sevens import super_sevens
from simulator.exact.shoe import full_shoe

__all__ = ["OUTCOMES", "analyze", "basic_strategy", "dealer_probabilities", "full_shoe",
           "super_sevens"]
