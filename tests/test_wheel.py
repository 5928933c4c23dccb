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
    # (each folder a package of its own: setuptools warns of data in a folder not named one)
    code = {".".join(p.parent.relative_to(ROOT).parts) for p in ROOT.glob("simulator/**/*.py")
            if "__pycache__" not in p.parts}
    folders = {f"{name}{'.'.join(('', *d.relative_to(root).parts))}": d
               for name, root in _shipped().items()
               for d in (root, *(d for d in root.rglob("*") if d.is_dir()))
               if "__pycache__" not in d.parts}
    assert code | set(folders) == set(SETUP["packages"])
    for name, folder in folders.items():
        files = {p for p in folder.iterdir() if p.is_file()}
        taken = {p for pattern in SETUP["package-data"][name] for p in folder.glob(pattern)}
        assert files and taken == files, (name, sorted(files - taken))


def test_bjsim_laid_out_as_the_wheel_finds_its_shipped_files(tmp_path):
    site = tmp_path / "site-packages"
    shutil.copytree(ROOT / "simulator", site / "simulator",
                    ignore=shutil.ignore_patterns("__pycache__"))
    for name, folder in _shipped().items():  # (where the wheel puts them: by package name)
        shutil.copytree(folder, site.joinpath(*name.split(".")))
    (site / "configs").mkdir()  # (another package's, beside it: bjsim's are its own still)
    (site / "configs" / "__init__.py").write_text("")
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


def test_an_installed_copy_keeps_its_compiled_code_in_the_users_cache(monkeypatch):
    # A packager's review: numba's cache files beside an installed copy's source are not in the
    # wheel's RECORD, and pip uninstall left them (an importable empty package, 5 MB)
    from simulator import jit
    from simulator.kernel import rng

    fn = next(v for v in vars(rng).values() if hasattr(v, "py_func"))
    args = fn.py_func, fn.py_func.__code__.co_filename
    assert jit._INSTALLED is False and jit._EngineInTreeCache.from_function(*args) is not None
    monkeypatch.setattr(jit, "_INSTALLED", True)
    assert jit._EngineInTreeCache.from_function(*args) is None
    assert jit._EngineUserWideCache.from_function(*args) is not None  # (numba's user folder)


def test_a_users_file_named_as_a_shipped_one_is_told_apart(tmp_path, monkeypatch):
    # A packager's review: in another folder, a user's own configs/nz1994.toml (8 decks) and
    # bjsim's were both named "configs/nz1994.toml" in every output
    from simulator.rules import shown_rule_file

    (tmp_path / "configs").mkdir()
    mine = (ROOT / "configs" / "nz1994.toml").read_text().replace("decks = 6", "decks = 8")
    (tmp_path / "configs" / "nz1994.toml").write_text(mine)
    monkeypatch.chdir(tmp_path)
    assert shown_rule_file("configs/nz1994.toml") == "./configs/nz1994.toml"
    assert shown_rule_file(None) == "configs/nz1994.toml"
    assert shown_rule_file(str(ROOT / "configs" / "nz1994.toml")) == "configs/nz1994.toml"
    assert shown_rule_file("configs/mine.toml") == "configs/mine.toml"  # (no shipped one)
    monkeypatch.chdir(tmp_path / "configs")  # (none of the user's here: bjsim's is read)
    assert shown_rule_file("configs/nz1994.toml") == "configs/nz1994.toml"
