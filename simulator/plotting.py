"""matplotlib for the charts (``bjsim report``) and plots (``bjsim compare --plot``): imported on
its non-interactive backend, with its own log lines kept off stderr."""

from __future__ import annotations

import logging


def pyplot():
    """``matplotlib.pyplot`` on its non-interactive backend (ImportError without matplotlib),
    imported with matplotlib's own log lines kept off stderr (a config folder it cannot write, as
    with HOME read-only: two warnings, after which it works from a temporary folder; its font
    cache being built)."""
    log = logging.getLogger("matplotlib")
    level = log.level
    log.setLevel(logging.ERROR)
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    finally:
        log.setLevel(level)
    return plt
