"""bjsim: a Monte Carlo house-edge simulator for blackjack as approved in New Zealand Gazette
1994 No. 112 (with its Super Sevens side bet), and for variants of it described as rule sets."""

from pathlib import Path

__version__ = "0.2.0"

DEFAULT_CHUNK_ROUNDS = 1_000_000  # rounds a chunk by default (simulate, count, the engine)


def home_of(root: Path) -> Path:
    """bjsim's folder: where its shipped rule sets (configs/) and strategies (strategies/) are.
    In a checkout (an editable install) ``root``, the folder holding this package; in an
    installed wheel, which carries them inside the package, ``root``/simulator/shipped."""
    shipped = root / "simulator" / "shipped"  # (first: another package's configs/ may lie
    return shipped if (shipped / "configs").is_dir() else root  # beside an installed copy)


HOME = home_of(Path(__file__).resolve().parent.parent)
