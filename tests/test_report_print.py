"""report.pdf's pages (headless Chromium, read back with poppler's pdftotext): a table keeps its
header with its first rows, a long command list breaks rather than leaving a page half blank,
and the page foot is one line. Skipped, saying why, without Chromium or pdftotext (.ci/run
installs both)."""

import os
import re
import shutil
import subprocess

import pytest

from simulator.assessment import chromium, render, sections

NEEDS_PRINTING = pytest.mark.skipif(
    (chromium.find() is None or shutil.which("pdftotext") is None)
    and not os.environ.get("BJSIM_NEED_CHROMIUM"),
    reason="headless Chromium or pdftotext not installed (apt-get install chromium "
           "poppler-utils; .ci/run installs them)")


def printed(tmp_path, blocks, title="Title") -> list[str]:
    """The text of each page of ``blocks`` printed as report.pdf is."""
    page, pdf = tmp_path / "print.html", tmp_path / "print.pdf"
    page.write_text(render.to_html(title, [sections.Section("s", "S", blocks)],
                                   printed="2026-12-05"), encoding="utf-8")
    res = chromium.print_pdf(page, pdf)
    assert pdf.is_file(), res.stderr[-2000:]
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True,
                          text=True, check=True).stdout
    return text.split("\f")[:-1]


@NEEDS_PRINTING
def test_a_table_keeps_its_header_with_its_first_rows(tmp_path):
    """A page of the review's report ended on a table's header row, its rows on the next; here
    150 tables of 12 rows, each after a paragraph of another length, so that some header lands
    at a page's foot (7 did under the old style): each is printed with at least 3 rows."""
    blocks = []
    for k in range(150):
        blocks.append("Filler words here " * (3 + (37 * k) % 61))
        blocks.append(sections.Table(f"t{k}", f"Table T{k}Z", [("a", f"HDR{k}Z", "text"),
                                                                ("b", "b", "int")],
                                     [[f"ROW{k}x{i}Z", 5] for i in range(12)]))
    pages = printed(tmp_path, blocks)
    short = []
    for k in range(150):
        at = next(i for i, t in enumerate(pages) if f"T{k}Z" in t)
        rows = len(re.findall(rf"ROW{k}x\d+Z", pages[at]))
        if f"HDR{k}Z" not in pages[at] or rows < 3:
            short.append((k, at + 1, rows))
    assert not short, short


@NEEDS_PRINTING
def test_a_long_command_list_breaks_rather_than_leaving_a_page_half_blank(tmp_path):
    """The manifest's list of commands moved whole to the next page (pre kept unbroken), leaving
    the page before half blank: it starts where it stands and runs on."""
    lines = "\n".join(f"bjsim simulate --strategy s{i} --rounds 1000 LINE{i}Z" for i in range(80))
    pages = printed(tmp_path, ["Filler words here " * 250, sections.Code(lines)])
    assert "Filler" not in pages[1] and "LINE0Z" in pages[0] and "LINE79Z" in pages[-1]


@NEEDS_PRINTING
def test_the_page_foot_is_one_line(tmp_path):
    """A title of 40 words wrapped the page foot onto several lines, into the page number: the
    foot holds the title on one line (cut at a word where it must be), then the date and page."""
    title = " ".join(["Mathematical assessment of a table with a very long title"] * 5)
    pages = printed(tmp_path, ["Some words."], title=title)
    lines = [ln for ln in pages[0].splitlines() if ln.strip()]
    assert lines[-1].split()[:4] == ["Mathematical", "assessment", "of", "a"]
    assert lines[-1].rstrip().endswith("printed 2026-12-05, page 1 of 1")
    assert "Some words." in lines[-2]  # (nothing of the foot above its line)
    assert render._foot(title).endswith("\u2026") and len(render._foot(title)) <= 100
    assert render._foot("A short title") == "A short title"


def test_the_page_foot_cuts_a_long_title_at_a_clause_never_inside_a_bracket():
    # The foot read "...blackjack, with 3 rules changed (3…" (101 characters, cut at 100): an
    # unclosed bracket. A long title loses whole clauses, the bracketed tail first.
    title = ("Mathematical assessment of New Zealand Gazette 1994 No. 112 blackjack, with 3 "
             "rules changed (3 boxes)")
    assert len(title) > 100
    assert render._foot(title) == ("Mathematical assessment of New Zealand Gazette 1994 No. 112 "
                                   "blackjack, with 3 rules changed\u2026")
    # Given the game as the title names it, its name is cut, not the changes and choices
    game = "New Zealand Gazette 1994 No. 112 blackjack"
    assert render._foot(title, game) == ("Mathematical assessment of New Zealand Gazette 1994 "
                                         "No. 112…, with 3 rules changed (3 boxes)")
    long = "Mathematical assessment of " + "a very long game name " * 5 + "(with a bracket)"
    foot = render._foot(long)
    assert len(foot) <= 100 and foot.count("(") == foot.count(")") and foot.endswith("\u2026")
    one = "A" + " word (in brackets" * 10 + ")"
    assert render._foot(one).count("(") == render._foot(one).count(")")


LONG = ("bjsim report --rules 'configs/my table.toml' --set hole_card=peek --set "
        "super_sevens_pays=3,50,100,500,2500 --variant-rounds 10000000 --rounds 10000000 "
        "--seed 1994 --chunk-rounds 100000 --sample-rounds 1000000 -o /tmp/a-folder/report")


def test_a_long_command_is_broken_at_its_options_with_a_line_continuation():
    """The review pasted a command from report.pdf: it was wrapped mid-command ("... --chunk-rounds
    100000 -f" / "json") and the first line failed. Long commands are broken between options,
    each line but the last ending with a shell line continuation, in a block that does not
    wrap."""
    text = render.shell_lines(LONG)
    lines = text.split("\n")
    assert len(lines) > 1 and all(x.endswith(" \\") for x in lines[:-1])
    assert all(len(x) <= render.CODE_CHARS for x in lines)
    assert all(x.startswith("    -") for x in lines[1:])  # (each line starts at an option)
    assert text.replace(" \\\n    ", " ") == LONG  # (the same words, the quotes kept)
    assert render.shell_lines("bjsim exact -f json") == "bjsim exact -f json"
    assert "white-space: pre;" in render.CSS and "pre-wrap" not in render.CSS


@NEEDS_PRINTING
def test_every_printed_command_pasted_into_a_shell_is_the_command(tmp_path):
    """Read back from the PDF with ``pdftotext -raw`` (as the review did), the commands parse in
    bash and give the words of the commands printed."""
    import shlex
    cmds = [LONG, "bjsim simulate --seed 1994 --chunk-rounds 100000 --strategy insurance-taker "
            "--rounds 10000000 -f json"]
    page, pdf = tmp_path / "print.html", tmp_path / "print.pdf"
    page.write_text(render.to_html("T", [sections.Section("s", "S", [sections.Code(
        "\n".join(cmds))])], printed="2026-12-05"), encoding="utf-8")
    res = chromium.print_pdf(page, pdf)
    assert pdf.is_file(), res.stderr[-2000:]
    text = subprocess.run(["pdftotext", "-raw", str(pdf), "-"], capture_output=True,
                          text=True, check=True).stdout
    start = text.index("bjsim report")
    got, line = [], ""
    for x in text[start:].splitlines():
        line += x
        if x.endswith("\\"):
            line = line[:-1]
            continue
        got.append(line)
        line = ""
        if len(got) == len(cmds):
            break
    assert [shlex.split(g) for g in got] == [shlex.split(c) for c in cmds]
    script = "\n".join(text[start:].splitlines()[:len(render.shell_lines(LONG).split("\n"))])
    assert subprocess.run(["bash", "-n"], input=script, text=True).returncode == 0


def _word_heights(pdf, word) -> list[float]:
    """The heights (pt) of ``word`` on the printed pages, by ``pdftotext -bbox``."""
    xml = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], capture_output=True,
                         text=True, check=True).stdout
    return [float(b) - float(a) for a, b in re.findall(
        rf'<word xMin="[\d.]+" yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">{word}</word>', xml)]


@NEEDS_PRINTING
def test_a_counting_sections_penetration_table_prints_every_page_at_full_size(tmp_path):
    """The penetration table (25 columns) was wider than the A4 page, and Chromium printed the
    whole report smaller to fit it: body type 7.0 pt against 9.2. Printed in parts, the text
    beside it is the size it is without it."""
    _, (alone, beside), _ = _the_sweep_printed(tmp_path, "2026-12-05")
    assert alone and beside and max(alone) - min(alone) < 0.01
    assert min(beside) > 0.98 * alone[0], (alone[0], min(beside))


def _the_sweep_printed(tmp_path, printed):
    """The counting section's sweep, printed beside filler words and the filler alone, as
    report.pdf's page (``printed`` a date) or report.html (None): ``(section, (the filler's
    word heights alone, beside it), (the pages' text alone, beside it))``."""
    from tests.test_count_report import sweep_section

    sec, _ = sweep_section("sevens-super-sevens", 500, "basic-super-sevens")
    heights, texts = [], []
    for blocks in (["Filler words here " * 50], ["Filler words here " * 50, *sec.blocks]):
        page, pdf = tmp_path / "print.html", tmp_path / "print.pdf"
        page.write_text(render.to_html("Title", [sections.Section("s", "S", blocks)],
                                       printed=printed), encoding="utf-8")
        res = chromium.print_pdf(page, pdf)
        assert pdf.is_file(), res.stderr[-2000:]
        heights.append(_word_heights(pdf, "Filler"))
        texts.append(subprocess.run(["pdftotext", "-raw", str(pdf), "-"], capture_output=True,
                                    text=True, check=True).stdout)
    return sec, heights, texts


@NEEDS_PRINTING
def test_report_html_printed_by_a_browser_prints_a_wide_table_in_parts(tmp_path):
    """A review: report.html (not report.pdf's page) printed from a browser clipped the
    penetration table at the page's edge. Printed as a browser prints it (no ``printed`` date),
    every column's head is on the pages and the text beside it is at full size; on a screen the
    table is whole, once with its id."""
    sec, (alone, beside), texts = _the_sweep_printed(tmp_path, None)
    table = next(b for b in sec.blocks if isinstance(b, sections.Table) and len(b.parts()) > 1)
    html = (tmp_path / "print.html").read_text(encoding="utf-8")
    assert min(beside) > 0.98 * alone[0], (alone[0], min(beside))
    words = " ".join(texts[1].split())
    last = table.shown()[0][-1][1]  # (the last column's head: cut off where the page clipped)
    assert " ".join(last.split()) in words, last
    assert f"(part {len(table.parts())} of {len(table.parts())}" in words
    assert html.count(f'id="t-{table.name}"') == 1 and f'id="t-{table.name}-2"' not in html


@NEEDS_PRINTING
def test_the_pdf_has_bookmarks_of_its_sections(tmp_path):
    # A document officer's review: 13-14 pages, 11 sections, no outline to file it by
    page, pdf = tmp_path / "print.html", tmp_path / "print.pdf"
    page.write_text(render.to_html("Title", [sections.Section("a", "First part", ["Words."]),
                                            sections.Section("b", "Second part", ["More."])],
                                   printed="2026-12-05"), encoding="utf-8")
    res = chromium.print_pdf(page, pdf)
    assert pdf.is_file(), res.stderr[-2000:]
    assert b"/Outlines" in pdf.read_bytes()


def test_the_page_reads_for_a_screen_reader_and_a_narrow_screen():
    # The same review: column headers without scope, twenty links all reading "CSV", and the
    # contents in two columns overlapping at 400 px
    t = sections.Table("wagers", "Wagers", [("a", "wager", "text"), ("b", "return", "pct")],
                       [["main", 0.01]])
    page = render.to_html("Title", [sections.Section("s", "S", [t])])
    assert '<th scope="col">wager</th><th scope="col" class="n">return</th>' in page
    assert '<a href="csv/wagers.csv">wagers.csv</a>' in page
    assert "@media (max-width: 40em) { nav ol { columns: 1; }" in page
    printed = render.to_html("Title", [sections.Section("s", "S", [t])], printed="2026-12-05")
    assert "(csv/wagers.csv)" in printed and "<a href" not in printed.split("<nav")[1]\
        .split("</nav>")[1]
    # An accessibility audit: no viewport (a phone laid the page out at 980 px, its text 5.7
    # px), no main landmark, the sections unnamed regions, the contents an unnamed navigation
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in page
    assert "<body><main>" in page and "</main></body>" in page
    # (a wide table's caption, which scrolled away with it at 320 px, stays in view)
    assert ".wide caption { position: sticky; left: 0; max-width: calc(100vw - 4em); }" in page
    assert '<nav aria-label="Contents">' in page
    assert '<section id="s" aria-labelledby="h-s"><h2 id="h-s">S</h2>' in page


def _png(path, width: int, height: int) -> None:
    """A white PNG of ``width`` x ``height`` pixels."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    raw = b"".join(b"\x00" + b"\xff" * (3 * width) for _ in range(height))
    path.write_bytes(b"\x89PNG\r\n\x1a\n"
                     + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
                     + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


@NEEDS_PRINTING
def test_a_line_introducing_a_chart_is_printed_with_it(tmp_path):
    # A document officer's review: "Super Sevens per bet: from the run's tally: ..." sat alone at
    # a page's foot, its chart on the next page after a third of a page left blank
    _png(tmp_path / "c.png", 90, 60)
    blocks = []
    for k in range(12):
        blocks.append("Filler words here " * (20 + (53 * k) % 140))
        blocks.append(f"INTRO{k}Z introduces the chart below.")
        blocks.append(sections.Chart(f"c{k}", f"CAP{k}Z a chart", "c.png", 900, 600))
    pages = printed(tmp_path, blocks)
    apart = [k for k in range(12) if not any(f"INTRO{k}Z" in p and f"CAP{k}Z" in p
                                             for p in pages)]
    assert not apart, apart


def _print_rules(css: str) -> str:
    """The rules of ``css``'s ``@media print`` block."""
    return css.split("@media print {", 1)[1]


def _size(rules: str, selector: str) -> float:
    """The font size (pt) ``rules`` give ``selector``."""
    m = re.search(rf"(?:^|[}};\s]){re.escape(selector)} {{[^}}]*font-size: ([\d.]+)pt", rules)
    assert m, selector
    return float(m.group(1))


def test_print_type_is_readable_on_paper_and_the_margin_takes_a_hole_punch():
    # A document officer's review: tables at 8px (6 pt), body text at 11px (8 pt), commands at
    # 8.5px, and side margins of 12 mm, tight for filing
    rules = _print_rules(render.CSS)
    assert _size(rules, "body") >= 10
    assert _size(rules, "table") >= 8.5 and _size(rules, "table.many") >= 8
    assert _size(rules, "pre") >= 8.5 and _size(rules, "figcaption") >= 8.5
    top, right, bottom, left = map(float, re.search(
        r"@page { size: A4; margin: (\d+)mm (\d+)mm (\d+)mm (\d+)mm; }", render.CSS).groups())
    assert left >= 20 and right >= 15
    # a narrow table keeps its natural width: none is stretched to the page's
    assert not re.search(r"table[^{]*{[^}]*\bwidth: 100%", render.CSS)


def test_each_row_is_headed_by_its_label():
    # The same review: no row headers. The first cell names the row, a figure's as a figure
    t = sections.Table("wagers", "Wagers", [("a", "wager", "text"), ("b", "return", "pct")],
                       [["main", 0.01], ["  sub-row", 0.02]])
    page = render.to_html("Title", [sections.Section("s", "S", [t])])
    assert '<tr><th scope="row">main</th><td class="n">1.0000%</td></tr>' in page
    assert '<th scope="row">\u00a0\u00a0\u00a0\u00a0sub-row</th>' in page
    counts = sections.Table("c", "By count", [("tc", "true count", "int"), ("n", "n", "int")],
                            [[-1, 5]])
    assert ('<th scope="row" class="n">-1</th>'
            in render.to_html("T", [sections.Section("s", "S", [counts])]))
    assert "tbody th { background: none; font-weight: normal; }" in render.CSS


def _words(pdf) -> list[tuple[float, float, float, float, str]]:
    """Every word of ``pdf`` (``pdftotext -bbox``): xMin, yMin, xMax, yMax (pt) and the word."""
    xml = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], capture_output=True,
                         text=True, check=True).stdout
    return [(float(a), float(b), float(c), float(d), w) for a, b, c, d, w in re.findall(
        r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>',
        xml)]


A4_WIDTH = 595.28  # pt
TEXT_RIGHT = A4_WIDTH - 15 / 25.4 * 72  # the right edge of the text: a 15 mm margin


@NEEDS_PRINTING
def test_a_narrow_table_keeps_its_width_and_a_wide_one_fits_the_page(tmp_path):
    """Tables were stretched to the page's width; now only a table whose content needs it
    takes the width, and one of 13 columns (as the wagers table: 10 of figures, as wide as
    theirs, beside 3 of names and rule keys) fits the page without making Chromium print the
    page smaller (the body at 10 pt, its cells at 8 pt at least)."""
    narrow = sections.Table("n", "Narrow", [("a", "NARROWHEADZ", "text"), ("b", "b", "int")],
                            [["NARROWCELLZ", 5]])
    figures = [("exact return", "pct4", -0.227666), ("simulated return", "pct4", -0.182922),
               ("SE", "pct4", 0.011199), ("95% CI low", "pct4", -0.096137),
               ("95% CI high", "pct4", -0.052238), ("z (of the house edge) ~", "z", 0.78),
               ("SD per bet", "num", 22.3343), ("SD per bet (exact)", "num", 17.1379),
               ("SD per round", "num", 38.6711), ("bets", "int", 600_000)]
    cols = [("v", "variant", "text"), ("c", "changes", "text"), ("s", "strategy", "text"),
            *[(f"x{i}", label, kind) for i, (label, kind, _) in enumerate(figures)]]
    wide = sections.Table("w", "Wide", cols, [
        ["dbj-original-and-busted", 'dealer_blackjack_takes="original"', "insurance-taker",
         *[v for _, _, v in figures]] for _ in range(4)])
    page, pdf = tmp_path / "print.html", tmp_path / "print.pdf"
    page.write_text(render.to_html("Title", [sections.Section("s", "S", [
        "Filler words here " * 40, narrow, wide])], printed="2026-12-05"), encoding="utf-8")
    res = chromium.print_pdf(page, pdf)
    assert pdf.is_file(), res.stderr[-2000:]
    words = _words(pdf)
    assert max(w[2] for w in words if w[4] == "NARROWCELLZ") < A4_WIDTH / 3
    assert max(w[2] for w in words) <= TEXT_RIGHT + 1
    filler = [w[3] - w[1] for w in words if w[4] == "Filler"]
    cells = [w[3] - w[1] for w in words if w[4] == "-22.7666%"]
    assert min(filler) > 10.5  # (a word's box: its size and a little more, 11.1 for 10 pt)
    assert min(cells) / min(filler) > 0.79, (min(cells), min(filler))


def test_a_path_in_the_home_folder_is_shown_from_tilde(monkeypatch):
    # The same review: the manifest named /root/.cache/bjsim/..., a user's home folder, in a
    # report sent to others. The HTML and Markdown show it from ~, a command as a shell reads it
    monkeypatch.setenv("HOME", "/home/alice")
    t = sections.Table("manifest", "M", [("item", "item", "text"), ("value", "value", "text")],
                       [["strategy basic (/home/alice/.cache/bjsim/basic-1.toml) SHA-256", "ab"],
                        ["bjsim's folder", "/home/alice"], ["other", "/home/alicex/y"]])
    command = "bjsim report --rules '/home/alice/my table.toml' -o /home/alice/out"
    secs = [sections.Section("s", "S", [t, sections.Code(command)])]
    html, md = render.to_html("T", secs, printed="2026-12-05"), render.to_markdown("T", secs)
    for page in (html, md):
        assert "/home/alice/" not in page and "/home/alice<" not in page
        assert "~/.cache/bjsim/basic-1.toml" in page and "/home/alicex/y" in page
    assert "<td>~</td>" in html
    shown = "bjsim report --rules ~/'my table.toml' -o ~/out"
    assert shown in md
    words = subprocess.run(["bash", "-c", f"printf '%s\\n' {shown}"], capture_output=True,
                           text=True, check=True, env={"HOME": "/home/alice"}).stdout
    assert words.splitlines()[3:] == ["/home/alice/my table.toml", "-o", "/home/alice/out"]
    # the CSV (the machine's file) keeps it: the same rows
    assert t.rows[1] == ["bjsim's folder", "/home/alice"]
    monkeypatch.setenv("HOME", "/")  # (root's home: nothing to hide, nothing changed)
    assert "/home/alice/out" in render.to_markdown("T", secs)


def test_a_charts_alt_text_says_what_it_shows_not_its_caption():
    # The same review: each chart's alt repeated its caption, which follows it
    data = {"running": {"rounds": [100_000, 200_000], "house_edge": [0.0070, 0.0066],
                        "half_width": [0.0053, 0.0037]},
            "wagers": [{"wager": "total", "exact": -0.00519}],
            "charts": {"running_house_edge": {"file": "charts/r.png", "width": 900,
                                              "height": 500}}}
    chart = sections._chart(data, "running_house_edge", "The running house edge.")
    assert chart.alt == ("Line chart: the simulated house edge, 0.700% after 100,000 rounds, "
                         "0.660% after 200,000 (± 0.370%), against the exact 0.519%.")
    page = render.to_html("T", [sections.Section("s", "S", [chart])])
    assert f'alt="{chart.alt}"' in page and f'alt="{chart.caption}"' not in page
    bare = sections.Chart("distribution", "A caption.", "charts/d.png", 900, 450)
    assert 'alt="Chart: distribution."' in render.to_html("T", [sections.Section("s", "S",
                                                                                [bare])])


def test_a_printed_reader_can_read_the_rule_effects_names_and_each_tables_parts():
    # A printed-report reader's review: the rule-effects chart's variant names printed at about
    # 6 pt; a wide table was split on screen too, and its later parts were "(continued)", read
    # on paper as more rows; a lead-in line sat at a page's foot, its command on the next; the
    # value 3,50,100,500,5000, which could not break, squeezed the keys beside it mid-word.
    from simulator.assessment import charts, render

    text_width_in, figure_in = 175 / 25.4, charts.SIZES["rule_effects"][0] / charts.DPI
    assert charts.EFFECT_LABEL_PT * text_width_in / figure_in >= 8
    rows = [{"variant": f"v{i}", "exact": 0.001 * i} for i in range(23)]
    w, h = charts.size("rule_effects", {"variants": {"rows": rows}})
    assert w == charts.SIZES["rule_effects"][0] and h >= 23 * charts.EFFECT_ROW_PX
    assert "p:has(+ pre) { break-after: avoid; }" in render.CSS
    assert render._breakable("3,50,100,500,5000") == "3,<wbr>50,<wbr>100,<wbr>500,<wbr>5000"
    for figure in ("100,000 rounds; 1,000,000", "1,000,000"):  # (not a figure's separators)
        assert render._breakable(figure) == figure


def test_a_cell_with_no_figure_is_heard_as_none():
    # An accessibility audit: 64 cells were a bare "-", which a screen reader at its usual
    # punctuation level says nothing for; the dash is seen, "none" heard (not printed)
    cell = render._cell("td", None, "pct3")
    assert cell == f'<td class="n">{render.NONE}</td>'
    assert render.NONE == '<span aria-hidden="true">-</span><span class="sr">none</span>'
    assert ".sr { display: none; }" in render.CSS.split("@media print")[1]
    assert render._cell("th", "x", "text") == '<th scope="row">x</th>'


def test_the_cut_card_mark_is_heard_as_words():
    # An accessibility audit: the footnote mark "~" (a z holding the cut-card effect), in a
    # column head and at the start of its note, was silent in a screen reader
    t = sections.Table("wagers", "Wagers", [("a", "wager", "text"), ("z", "z ~", "z")],
                       [["main", 1.5]])
    page = render.to_html("Title", [sections.Section("s", "S", ["~ z tests the simulation.", t])])
    assert ('z <span aria-hidden="true">~</span><span class="sr">(see the note on the marked z '
            'below the table)</span></th>') in page
    assert ('<p><span aria-hidden="true">~</span><span class="sr">Note on the marked z:</span> '
            "z tests the simulation.</p>") in page


@NEEDS_PRINTING
def test_a_chart_on_a_phone_is_shown_large_enough_to_read_and_opens_whole(tmp_path):
    """A review: on a phone a 900 px chart was scaled to the screen's width, its
    words about a third of their size. On a narrow screen it keeps 600 px and scrolls in its
    box; on any screen it opens whole (a link to its file); printed, neither. Measured by
    Chromium's layout at a 500 px window (a script added to a copy of the page)."""
    chart = sections.Chart("c", "A chart", file="charts/c.png", width=900, height=500)
    html = render.to_html("Title", [sections.Section("s", "S", [chart])])
    assert '<a href="charts/c.png"><img src="charts/c.png"' in html
    printed = render.to_html("Title", [sections.Section("s", "S", [chart])],
                             printed="2026-12-05")
    assert '<a href="charts/c.png">' not in printed
    probe = ("<script>window.onload=()=>{const i=document.querySelector('img'),"
             "f=document.querySelector('figure');document.body.setAttribute('data-m',"
             "i.getBoundingClientRect().width+' '+f.getBoundingClientRect().width)}</script>")
    page = tmp_path / "phone.html"
    page.write_text(html.replace("</body>", probe + "</body>"), encoding="utf-8")
    (tmp_path / "charts").mkdir()
    _png(tmp_path / "charts" / "c.png", 900, 500)
    widths = {}
    for window in (500, 1400):  # (500: headless Chromium's narrowest window)
        res = chromium.run(page, "--dump-dom", f"--window-size={window},900",
                           "--virtual-time-budget=2000")
        seen = re.search(r'data-m="([\d.]+) ([\d.]+)"', res.stdout)
        assert seen, res.stderr[-2000:]
        widths[window] = (float(seen.group(1)), float(seen.group(2)))
    img, box = widths[500]
    # (its border's 2 px beside): legible, scrolling in a box the screen's width; on a wide
    # screen at its own size
    assert 600 <= img <= 602 and box < 500 and 900 <= widths[1400][0] <= 902, widths
