"""Exact (combinatorial) analysis of the game by card removal from the full shoe.

- `dealer_probabilities(rules, composition, up, no_blackjack=False)`: dealer final totals.
- `analyze(rules, strategy=None, optimal=False)`: the main game's expected return and SD, the
  value of every first decision, and the Super Sevens figures.
- `basic_strategy(rules, with_super_sevens=False, name=None, insurance=False)`: the optimal
  total-dependent strategy as a `Strategy` (what `bjsim strategy generate` writes), insurance
  and even money each taken where it gains (`analyze.worth_taking`), both with ``insurance``.
- `simulator.exact.compare`: the figures of `bjsim exact` (the 7-7 question included) and of
  `bjsim simulate --exact` (theory, difference and z-score beside a simulated summary).
- `super_sevens(rules, sevens_play, guaranteed_third=False)`: Super Sevens line by line.

Method and approximations: ``docs/exact.md``.
"""

from simulator.exact.analyze import analyze, basic_strategy
from simulator.exact.dealer import OUTCOMES, dealer_probabilities
from simulator.exact.sevens import super_sevens
from simulator.exact.shoe import full_shoe

__all__ = ["OUTCOMES", "analyze", "basic_strategy", "dealer_probabilities", "full_shoe",
           "super_sevens"]
