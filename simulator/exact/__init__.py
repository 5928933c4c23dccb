"""Exact (combinatorial) analysis of the game by card removal from the full shoe.

See ``docs/exact.md`` for the method and its approximations.
"""

from simulator.exact.dealer import OUTCOMES, dealer_probabilities
from simulator.exact.shoe import full_shoe

__all__ = ["OUTCOMES", "dealer_probabilities", "full_shoe"]
