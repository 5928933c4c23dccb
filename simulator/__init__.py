"""bjsim: a Monte Carlo house-edge simulator for blackjack as approved in New Zealand Gazette
1994 No. 112 (with its Super Sevens side bet), and for variants of it described as rule sets."""

__version__ = "0.2.0"
