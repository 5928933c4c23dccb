"""Headless Chromium, where it is installed: print a page to PDF, or take a screenshot of it.

``BJSIM_CHROMIUM`` names the browser's executable (one it names that is not there is said so,
`missing`, not passed over); otherwise the first of `NAMES` on the PATH.
Each call runs a fresh browser with a throwaway profile and no network services of its own.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import tempfile
from pathlib import Path

from simulator import stops

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


def missing() -> str | None:
    """Why no Chromium is found (`find`), in words, or None where one is. A ``BJSIM_CHROMIUM``
    that names no executable is named as set, with why (``BJSIM_CHROMIUM=/nonexistent: no such
    file``), and not passed over for one on the PATH: the user named that browser."""
    if find() is not None:
        return None
    named = os.environ.get("BJSIM_CHROMIUM")
    if not named:
        return "Chromium not found (install chromium, or name it in BJSIM_CHROMIUM)"
    path = Path(named).expanduser()
    if os.sep not in named:
        why = "not found on the PATH"
    elif not path.exists():
        why = "no such file"
    elif path.is_dir():
        why = "a folder, not an executable"
    else:
        why = "not executable"
    return (f"BJSIM_CHROMIUM={named}: {why} (name Chromium's executable there, or unset it to use "
            f"the first of {', '.join(NAMES[:-1])} or {NAMES[-1]} on the PATH)")


def run(page: Path, *args: str, exe: str | None = None) -> subprocess.CompletedProcess:
    """Run headless Chromium on the local file ``page`` with ``args``; its output, as text."""
    exe = exe or find()
    if exe is None:
        raise FileNotFoundError(missing())
    with _profile() as profile:
        cmd = [exe, *FLAGS, f"--user-data-dir={profile}", *args, Path(page).resolve().as_uri()]
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                stdin=subprocess.DEVNULL, text=True, start_new_session=True)
        try:
            out, err = proc.communicate(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            _end(proc)
            return subprocess.CompletedProcess(cmd, proc.returncode, "",
                                               f"no answer after {TIMEOUT} s: stopped")
        except BaseException:  # Ctrl-C: the browser goes with bjsim
            _end(proc)
            raise
        _end(proc)  # the helper processes it may have left
        return subprocess.CompletedProcess(cmd, proc.returncode, out, err)


@contextlib.contextmanager
def _profile():
    """A throwaway profile folder for the browser, made and removed with Ctrl-C and SIGTERM held
    back (then delivered), so that a stop leaves none in the temporary folder."""
    with stops.held() as noted:
        path = tempfile.mkdtemp(prefix="bjsim-chromium-")
    try:
        stops.deliver(noted)
        yield path
    finally:
        with stops.held() as noted:
            shutil.rmtree(path, ignore_errors=True)
        stops.deliver(noted)


def _end(proc: subprocess.Popen) -> None:
    """Kill the browser's session (it and every process it started) and reap it."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    if proc.returncode is None:
        proc.communicate()


def print_pdf(page: Path, pdf: Path) -> subprocess.CompletedProcess:
    """Print ``page`` to ``pdf``, no header or footer, on the paper its CSS ``@page`` names (the
    report's: A4; Chromium's own default is US Letter), with bookmarks of its headings."""
    return run(page, f"--print-to-pdf={Path(pdf).resolve()}", "--no-pdf-header-footer",
               "--generate-pdf-document-outline")


def screenshot(page: Path, png: Path, width: int, height: int) -> subprocess.CompletedProcess:
    """A ``width`` x ``height`` screenshot of the top of ``page`` as ``png``."""
    return run(page, f"--screenshot={Path(png).resolve()}", f"--window-size={width},{height}")
