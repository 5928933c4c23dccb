"""Headless Chromium, where it is installed: print a page to PDF, or take a screenshot of it.

``BJSIM_CHROMIUM`` names the browser's executable; otherwise the first of `NAMES` on the PATH.
Each call runs a fresh browser with a throwaway profile and no network services of its own.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run",
         "--disable-default-apps", "--hide-scrollbars")
TIMEOUT = 180  # seconds


def find() -> str | None:
    """The Chromium executable, or None."""
    named = os.environ.get("BJSIM_CHROMIUM")
    if named:
        return shutil.which(named)
    return next((p for p in map(shutil.which, NAMES) if p), None)


def run(page: Path, *args: str, exe: str | None = None) -> subprocess.CompletedProcess:
    """Run headless Chromium on the local file ``page`` with ``args``; its output, as text."""
    exe = exe or find()
    if exe is None:
        raise FileNotFoundError("Chromium not found: install it (e.g. apt-get install chromium) "
                                "or name it in BJSIM_CHROMIUM")
    with tempfile.TemporaryDirectory(prefix="bjsim-chromium-") as profile:
        return subprocess.run(
            [exe, *FLAGS, f"--user-data-dir={profile}", *args, Path(page).resolve().as_uri()],
            capture_output=True, text=True, timeout=TIMEOUT, check=False,
            stdin=subprocess.DEVNULL)


def print_pdf(page: Path, pdf: Path) -> subprocess.CompletedProcess:
    """Print ``page`` to ``pdf`` (A4, no header or footer)."""
    return run(page, f"--print-to-pdf={Path(pdf).resolve()}", "--no-pdf-header-footer")


def screenshot(page: Path, png: Path, width: int, height: int) -> subprocess.CompletedProcess:
    """A ``width`` x ``height`` screenshot of the top of ``page`` as ``png``."""
    return run(page, f"--screenshot={Path(png).resolve()}", f"--window-size={width},{height}")
