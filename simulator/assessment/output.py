"""Write the report folder: report.json (every figure), report.html, report.md, csv/ (each
table), charts/ (PNG) and report.pdf (printed from the HTML by headless Chromium, when found).
The report is made in a hidden folder inside and moved into place whole (Ctrl-C and SIGTERM held
back while it moves), so that an interrupted or failed write leaves an earlier report as it was."""

from __future__ import annotations

import contextlib
import csv
import datetime
import json
import os
import shutil
import tempfile
from collections.abc import Callable
from contextlib import contextmanager
from pathlib import Path

from simulator import stops
from simulator.assessment import charts, chromium, render, sections
from simulator.report import csv_cell as report_cell
from simulator.streams import inert


def _csv(table: sections.Table, path: Path, run: dict | None = None) -> None:
    """``table`` as CSV, each row ending with the columns ``run`` (`sections.csv_run`); a value
    as `bjsim simulate`'s csv writes it (`report.csv_cell`: ``true``, a list ``3; 50; 100``)."""
    run = run or {}
    header = table.csv_header()
    names = [k if k not in header else f"run_{k}" for k in run]
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header + names)
        w.writerows([[csv_cell(v.value if isinstance(v, sections.Withheld) else v) for v in row]
                     + [csv_cell(v) for v in run.values()] for row in table.rows])


def csv_cell(v):
    """A CSV cell: a number as it is (full precision), else as `report.csv_cell` writes it."""
    return v if isinstance(v, (int, float)) and not isinstance(v, bool) else inert(report_cell(v))


# What a report folder holds: an earlier report's are replaced together. In the folders, only
# the files an earlier report wrote (its report.json's "files") go; any other file stays.
PARTS = ("report.json", "report.md", "report.html", "report.pdf")
FOLDERS = ("csv", "charts")


def write_report(data: dict, out_dir, say: Callable[[str], None] = lambda _m: None) -> dict:
    """Write every rendering of ``data`` (from `figures.compute`) into ``out_dir``; returns
    {what: path} of the files written. ``data["charts"]`` is filled in with the charts drawn,
    ``data["files"]`` with the files written into csv/ and charts/. An earlier report there is
    replaced whole (a report.pdf this one cannot print goes with it) once the new one is made;
    until then, and if making it fails, it stays as it was. Files it did not write stay."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    earlier = _earlier_files(out)
    stage = Path(tempfile.mkdtemp(prefix=".bjsim-report-", dir=out))
    try:
        written = _write(data, stage, say)
        if (out / "report.pdf").exists() and "report.pdf" not in written:
            say("an earlier report.pdf removed: it held another report")
        with _held_back(written):
            for part in PARTS:
                old = out / part
                if old.is_dir() and not old.is_symlink():
                    shutil.rmtree(old)
                elif old.exists() or old.is_symlink():
                    old.unlink()
                if (stage / part).exists():
                    os.replace(stage / part, old)
            for rel in earlier:
                (out / rel).unlink(missing_ok=True)
            for rel in data["files"]:
                folder = (out / rel).parent
                if folder.exists() and not folder.is_dir() or folder.is_symlink():
                    folder.unlink()
                folder.mkdir(exist_ok=True)
                os.replace(stage / rel, out / rel)
            for name in FOLDERS:  # one the earlier report alone had filled
                with contextlib.suppress(OSError):
                    (out / name).rmdir()
    finally:
        shutil.rmtree(stage, ignore_errors=True)
    return {name: out / name for name in written}


def _earlier_files(out: Path) -> list[str]:
    """The files in csv/ and charts/ that an earlier report in ``out`` wrote (as its report.json
    says), each a plain file there, in the folder itself (not through a link to another); none if
    it says nothing readable."""
    try:
        files = json.loads((out / "report.json").read_text(encoding="utf-8")).get("files")
    except (OSError, ValueError, AttributeError):
        return []
    if not isinstance(files, list):
        return []
    return [f for f in files if isinstance(f, str) and len(Path(f).parts) == 2
            and Path(f).parts[0] in FOLDERS and Path(f).name not in ("", ".", "..")
            and not (out / Path(f).parts[0]).is_symlink()
            and (out / f).is_file() and not (out / f).is_symlink()]


class Written(KeyboardInterrupt):
    """A stop held back while the report was moved into place, delivered after: it is whole."""


@contextmanager
def _held_back(written):
    """Ctrl-C and SIGTERM held back until the block has run, then delivered (to the handlers
    before; their KeyboardInterrupt as `Written`): no report is left half moved."""
    with stops.held() as noted:
        yield
    try:
        stops.deliver(noted)
    except KeyboardInterrupt as err:
        raise Written(written) from err


def _write(data: dict, out: Path, say: Callable[[str], None]) -> dict:
    """``write_report`` into the empty folder ``out``."""
    say("charts (matplotlib)")
    data["charts"] = charts.draw(data, out / "charts")
    for name, c in data["charts"].items():
        if "missing" in c:
            say(f"chart {name} not drawn: {c['missing']}")
    secs = sections.build(data)
    say("report.json, report.html, report.md and csv/")
    (out / "csv").mkdir(exist_ok=True)
    written = {}
    for t in sections.tables(secs):
        _csv(t, out / "csv" / f"{t.name}.csv", sections.csv_run(data, t.name))
        written[f"csv/{t.name}.csv"] = out / "csv" / f"{t.name}.csv"
    written.update({c["file"]: out / c["file"] for c in data["charts"].values() if "file" in c})
    data["files"] = sorted(w for w in written if "/" in w)
    # (each text as `streams.inert` leaves it: a file's name holding an escape sequence or a
    # bidirectional override shown as written, not acting on a terminal or reordering figures)
    (out / "report.json").write_text(inert(json.dumps(data, indent=1, allow_nan=False) + "\n"),
                                     encoding="utf-8")
    head = sections.head_line(data)
    (out / "report.md").write_text(inert(render.to_markdown(data["title"], secs, head)),
                                   encoding="utf-8")
    (out / "report.html").write_text(inert(render.to_html(data["title"], secs, head=head)),
                                     encoding="utf-8")
    for name in ("report.json", "report.md", "report.html"):
        written[name] = out / name
    if chromium.find() is None:
        say(f"report.pdf not written: {chromium.missing()}")
    else:
        say("report.pdf (headless Chromium)")
        pdf, page = out / "report.pdf", out / "print.html"  # (the page printed: then removed)
        today = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d")
        page.write_text(inert(render.to_html(data["title"], secs, printed=today,
                                             game=data.get("game"), head=head)), encoding="utf-8")
        try:
            res = chromium.print_pdf(page, pdf)
        finally:
            page.unlink(missing_ok=True)
        if pdf.is_file() and pdf.stat().st_size > 0:
            written["report.pdf"] = pdf
        else:
            last = (res.stderr.strip().splitlines() or ["no output"])[-1]
            say(f"report.pdf not written: Chromium failed (exit {res.returncode}): {last}")
    return written
