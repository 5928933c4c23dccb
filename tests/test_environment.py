"""The command line in unusual but legitimate environments (an environment review): standard
streams closed, an output encoding that cannot show every character, a file name not UTF-8, a
legal file name near the 255-byte limit, a relative cache folder. Each works, or ends with one
line naming the problem; never a traceback or a run thrown away."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUN = ["simulate", "-n", "1000", "--chunk-rounds", "1000"]


def bjsim(*args, cwd, env=None, **kw):
    env = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    return subprocess.run([sys.executable, "-m", "simulator", *map(str, args)], cwd=cwd,
                          env=env, capture_output=True, timeout=300, **kw)


def test_closed_stderr_keeps_the_result(tmp_path):
    # `2>&-`: the progress bar's close raised, the result was lost, exit 1
    out = tmp_path / "out.txt"
    with open(out, "wb") as f:
        r = subprocess.run([sys.executable, "-m", "simulator", *RUN], cwd=tmp_path, stdout=f,
                           stderr=None, timeout=300, close_fds=True,
                           env={**os.environ, "PYTHONPATH": str(ROOT)},
                           preexec_fn=lambda: os.close(2))
    assert r.returncode == 0 and "HOUSE EDGE" in out.read_text()


def test_a_stderr_that_cannot_be_written_keeps_the_result(tmp_path):
    # `2>/dev/full` (a full log disk): simulate's first note raised, the run died with nothing
    # written, exit 1; compare's too; where only the last line failed, a written result exit 1.
    # Here stderr is a file opened for reading, which refuses every write as /dev/full does
    # (EBADF for ENOSPC), on any system
    (tmp_path / "log").write_text("")
    for args in ([*RUN, "-f", "json"], ["compare", "--vary", "decks=8", "-n", "1000", "-f",
                                        "json"], ["count", "-n", "1000", "-f", "json"]):
        with open(tmp_path / "log") as unwritable:
            r = subprocess.run([sys.executable, "-m", "simulator", *args], cwd=tmp_path,
                               stdout=subprocess.PIPE, stderr=unwritable, timeout=300,
                               env={**os.environ, "PYTHONPATH": str(ROOT)})
        assert r.returncode == 0 and json.loads(r.stdout)["bjsim"], args


def test_closed_stdout_is_an_error_not_a_silent_exit(tmp_path):
    # `>&-`: exit 0 and no report anywhere
    r = subprocess.run([sys.executable, "-m", "simulator", *RUN], cwd=tmp_path,
                       stderr=subprocess.PIPE, timeout=300,
                       env={**os.environ, "PYTHONPATH": str(ROOT)},
                       preexec_fn=lambda: os.close(1))
    assert r.returncode == 1
    assert r.stderr.decode().strip().splitlines()[-1] == "Error: stdout: cannot write: it is closed"


def test_closed_stdin_for_cards_is_one_line(tmp_path):
    r = subprocess.run([sys.executable, "-m", "simulator", "replay", "--cards", "-"],
                       cwd=tmp_path, capture_output=True, timeout=300,
                       env={**os.environ, "PYTHONPATH": str(ROOT)},
                       preexec_fn=lambda: os.close(0))
    assert r.returncode == 2 and r.stderr.decode().strip() == (
        "Error: --cards -: standard input is closed: give the cards there, or a card file")


def test_an_encoding_without_a_character_escapes_it(tmp_path):
    # PYTHONIOENCODING=cp437 (no `×`): the finished run was thrown away, exit 2
    r = bjsim(*RUN, cwd=tmp_path, env={"PYTHONIOENCODING": "cp437"})
    assert r.returncode == 0, r.stderr
    assert b"HOUSE EDGE" in r.stdout and b"\\xd7" in r.stdout  # (the dealer note's ×)


def test_a_file_name_not_utf8_is_written_to_a_file(tmp_path):
    # a rule file named in Latin-1: -o's file could not be written (strict UTF-8), exit 2
    name = os.fsdecode(b"r\xe9gles.toml")
    (tmp_path / name).write_bytes((ROOT / "configs" / "nz1994.toml").read_bytes())
    r = bjsim(*RUN, "--rules", name, "-o", "out.json", "-f", "json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "r\\udce9gles.toml" in (tmp_path / "out.json").read_text()  # (json's escape)
    r = bjsim(*RUN, "--rules", name, "-o", "out.csv", "-f", "csv", cwd=tmp_path)
    assert r.returncode == 0, r.stderr  # (the csv's text: the byte as an escape)
    assert "r\\udce9gles.toml" in (tmp_path / "out.csv").read_text()


def test_a_legal_name_of_250_bytes_is_written(tmp_path):
    # its temporary file's name, 13 bytes longer, had passed 255: "File name too long"
    name = "b" * 246 + ".txt"
    r = bjsim(*RUN, "-q", "-o", name, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / name).is_file() and [p.name for p in tmp_path.iterdir()] == [name]


def test_a_relative_xdg_cache_home_is_not_used(tmp_path, monkeypatch):
    from simulator.exact.cache import cache_dir

    monkeypatch.delenv("BJSIM_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", "relcache")
    assert cache_dir().is_absolute() and "relcache" not in str(cache_dir())
    import pwd

    monkeypatch.setenv("HOME", "")  # (not "/": expanduser's reading of an empty one)
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert cache_dir() == Path(pwd.getpwuid(os.getuid()).pw_dir) / ".cache" / "bjsim"


def test_two_long_names_alike_at_the_start_have_temporary_files_apart(tmp_path):
    from simulator import atomic

    a, b = "x" * 240 + "-one.json", "x" * 240 + "-two.json"
    assert atomic._prefix(a) != atomic._prefix(b)
    assert all(len(os.fsencode(atomic._prefix(n))) + 12 <= 255 for n in (a, b, "é" * 127))
    assert atomic._prefix("short.json") == "short.json."


def test_an_explicit_strict_encoding_is_kept(tmp_path):
    # PYTHONIOENCODING=ascii:strict asks for an error rather than escapes: kept
    r = bjsim(*RUN, cwd=tmp_path, env={"PYTHONIOENCODING": "cp437:strict"})
    assert r.returncode != 0 and b"HOUSE EDGE" not in r.stdout


def test_matplotlib_without_a_writable_config_folder_says_nothing(tmp_path):
    # HOME not a folder (or not writable): matplotlib's two warnings ("mkdir -p failed ...",
    # "Matplotlib created a temporary cache directory ...") reached stderr of report and
    # compare --plot, though the charts were drawn all the same
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MPL", "XDG_"))}
    code = ("from simulator.assessment import charts\n"
            "from simulator.plotting import pyplot\n"
            "assert charts.available()\n"
            "pyplot().figure().savefig('c.png')\n")
    r = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                       text=True, timeout=300,
                       env={**env, "HOME": os.devnull, "PYTHONPATH": str(ROOT)})
    assert r.returncode == 0 and r.stderr == "", r.stderr
    assert (tmp_path / "c.png").stat().st_size > 0
