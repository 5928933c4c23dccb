"""Test configuration: make the repository importable and register the ``slow`` marker."""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: long statistical runs (deselect with -m 'not slow')")
