"""An installed wheel (``pip install .``, not editable): pyproject.toml names every package and
shipped file, and bjsim laid out as the wheel lays it out finds its rule sets and strategies
(they had been left out of the wheel: its first command failed with "no such rule file")."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

from simulator import source

ROOT = Path(__file__).resolve().parent.parent
SETUP = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]


def _shipped() -> dict[str, Path]:
    """The packages pyproject.toml maps to a folder of shipped files (package-dir), by name."""
    return {name: ROOT / folder for name, folder in SETUP["package-dir"].items()}


def test_pyproject_names_every_package_and_every_shipped_file():
    code = {".".join(p.parent.relative_to(ROOT).parts) for p in ROOT.glob("simulator/**/*.py")
            if "__pycache__" not in p.parts}
    assert code | set(_shipped()) == set(SETUP["packages"])
    for name, folder in _shipped().items():
        files = {p for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts}
        taken = {p for pattern in SETUP["package-data"][name] for p in folder.glob(pattern)}
        assert files and taken == files, (name, sorted(files - taken))


def test_bjsim_laid_out_as_the_wheel_finds_its_shipped_files(tmp_path):
    site = tmp_path / "site-packages"
    shutil.copytree(ROOT / "simulator", site / "simulator",
                    ignore=shutil.ignore_patterns("__pycache__"))
    for name, folder in _shipped().items():  # (where the wheel puts them: by package name)
        shutil.copytree(folder, site.joinpath(*name.split(".")))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = dict(os.environ, PYTHONPATH=str(site))

    def run(*args) -> str:
        res = subprocess.run([sys.executable, *args], cwd=elsewhere, env=env, text=True,
                             capture_output=True, timeout=120, check=False)
        assert res.returncode == 0, res.stderr
        return res.stdout

    where = run("-c", "import simulator, simulator.source as s; "
                      "print(simulator.__file__, simulator.HOME, s.fingerprint(), sep='\\n')")
    code, home, fingerprint = where.split()
    assert Path(code).parent == site / "simulator"
    assert Path(home) == site / "simulator" / "shipped"
    assert fingerprint == source.fingerprint()  # (the same names and bytes as the checkout's)
    assert "configs/nz1994.toml" in run("-m", "simulator", "rules", "show")
    assert "configs/nz1994-8deck.toml: ok" in run("-m", "simulator", "rules", "check",
                                                   "nz1994-8deck")
    listed = run("-m", "simulator", "strategy", "list")
    assert all(p.stem in listed for p in (ROOT / "strategies").glob("*.toml"))
