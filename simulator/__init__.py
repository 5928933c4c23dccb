"""bjsim: a Monte Carlo house-edge simulator for blackjack as approved in New Zealand Gazette
1994 No. 112 (with its Super Sevens side bet), and for variants of it described as rule sets."""

__version__ = "0.2.0"

DEFAULT_CHUNK_ROUNDS = 1_000_000  # rounds a chunk by default (simulate, count, the engine)
