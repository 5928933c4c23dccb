"""The report's sections as one HTML page (readable offline: inline style, no scripts, charts as
files beside it) and as Markdown."""

from __future__ import annotations

import html
import re

from simulator.assessment.sections import Chart, Code, Section, Table, fmt, home_shown
from simulator.exact.compare import CUT_CARD_MARK
from simulator.report import md_text

FONT = '-apple-system, "Segoe UI", Helvetica, Arial, sans-serif'  # (the page foot's too)
# Printed (report.pdf, A4): body 10 pt, tables 8.5 pt (8 pt from `MANY_COLUMNS` columns: a
# wider table prints in parts, `Table.breaks`), commands 8.5 pt; margins 20 mm left, for
# hole punching, and 15 mm right. A table takes the page's width only where its content needs it.
CSS = """
body { font: 15px/1.45 """ + FONT + """; color: #1a1a1a;
       max-width: 1100px; margin: 2em auto; padding: 0 1.2em; }
h1 { font-size: 1.7em; border-bottom: 2px solid #08519c; padding-bottom: .2em; }
h2 { font-size: 1.3em; margin-top: 1.8em; color: #08519c; }
table { border-collapse: collapse; margin: .8em 0 1.2em; font-size: 13px; }
caption { text-align: left; font-weight: 600; padding: .3em 0; }
th, td { border: 1px solid #c8c8c8; padding: .25em .5em; vertical-align: top; }
th { background: #eef3f8; text-align: left; }
tbody th { background: none; font-weight: normal; }
td.n, tbody th.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
pre { background: #f4f4f4; padding: .6em; overflow-x: auto; white-space: pre; }
figure { margin: 1em 0; } figcaption { font-size: 13px; color: #444; }
img { max-width: 100%; height: auto; border: 1px solid #ddd; }
nav ol { columns: 2; } .missing { color: #a33; } p.head { overflow-wrap: anywhere; }
.sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%);
      white-space: nowrap; }
@media (max-width: 40em) { nav ol { columns: 1; } figure { overflow-x: auto; }
                           figure img { max-width: none; width: 600px; } }
.wide { overflow-x: auto; position: relative; } code .w { white-space: nowrap; }
.wide caption { position: sticky; left: 0; max-width: calc(100vw - 4em); }
.wide tbody th { position: sticky; left: 0; background: #fff; }
#t-manifest tbody th { width: 40%; }
.print { display: none; }
@page { size: A4; margin: 15mm 15mm 17mm 20mm; }
@media print { body { max-width: none; margin: 0; padding: 0; font-size: 10pt; }
               h2 { break-after: avoid; } caption { break-after: avoid; break-inside: avoid; }
               tr, figure { break-inside: avoid; }
               p:has(+ figure), p:has(+ pre) { break-after: avoid; }
               thead { display: table-header-group; break-after: avoid; }
               tbody tr:nth-child(-n+3) { break-before: avoid; }
               pre { orphans: 3; widows: 3; font-size: 8.5pt; overflow: visible; }
               table { font-size: 8.5pt; } table.many { font-size: 8pt; }
               th, td { padding: .15em .2em; } thead th.n { width: 1px; }
               caption small { font-size: 1em; font-weight: normal; }
               figcaption { font-size: 9pt; } .wide { overflow: visible; } .sr { display: none; }
               .screen { display: none; } .wide.print { display: block; } }
"""

# The printed report's margins (report.pdf): its title, the date it was printed, page x of y.
PRINT_CSS = """
@page {{ @bottom-left {{ content: "{title}"; font: 7.5pt {font}; color: #333; width: 68%;
                        white-space: nowrap; }}
        @bottom-right {{ content: "printed {date}, page " counter(page) " of " counter(pages);
                         font: 7.5pt {font}; color: #333; width: 32%; white-space: nowrap; }} }}
"""

NUMERIC = ("int", "pct", "spct", "spp", "pp", "num", "prob", "odds", "z", "freq", "ruin")


def _is_num(kind: str) -> bool:
    return kind.removeprefix("se:").startswith(NUMERIC)


def _css_string(text: str) -> str:
    """``text`` inside a CSS string's quotes."""
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")


FOOT_CHARS = 100  # the longest title the page foot holds on one line, beside the page number


NAME_CHARS = 24  # the fewest characters of the game's name a shortened foot keeps


def _foot(title: str, game: str | None = None) -> str:
    """The title as the printed page's foot gives it: whole up to `FOOT_CHARS`, so that the
    foot stays one line (a margin box does not clip). Longer, the game's name (``game``, as the
    title holds it) is cut at a word and marked, never the changes and choices after it, so
    that a single page still says the rules were changed: ``Mathematical assessment of Sky
    City Auckland main floor…, with 1 rule changed (2 boxes)``. Without the game in the title,
    cut at a clause (a bracketed tail, then a part after a comma) and marked, never inside a
    bracket."""
    if len(title) <= FOOT_CHARS:
        return title
    if game and game in title:
        head, tail = title.split(game, 1)
        room = FOOT_CHARS - len(head) - len(tail) - 1
        if room < NAME_CHARS:  # (many changes named: the words before the name go first)
            head, room = "", FOOT_CHARS - len(tail) - 1
        name = game[: max(room, NAME_CHARS) + 1].rsplit(" ", 1)[0] if len(game) > room else game
        return head + (name.rstrip(",;: ") + "\u2026" if name != game else name) + tail
    cut = title
    while len(cut) > FOOT_CHARS - 1:
        if cut.endswith(")") and " (" in cut:
            cut = cut[: cut.rindex(" (")]
        elif ", " in cut:
            cut = cut[: cut.rindex(", ")]
        else:
            break
    if len(cut) > FOOT_CHARS - 1:  # one clause too long: at a word
        cut = cut[: FOOT_CHARS - 1].rsplit(" ", 1)[0]
    while cut.count("(") > cut.count(")"):  # before any bracket left open
        cut = cut[: cut.rindex("(")]
    return cut.rstrip(",;: ") + "\u2026"


NUM = ' class="n"'  # a column of figures: cells right aligned, its header as narrow as it can be
MANY_COLUMNS = 13  # a table of this many columns or more prints in a smaller type (`CSS`'s .many)


def _html_table(t: Table, printing: bool = False) -> str:
    """``t`` as `_tables` gives it; on report.html a table too wide for the printed page (of
    more than one `Table.parts`) twice: whole on a screen, in parts when the browser prints it
    (class ``print``, with no ids: the screen's table holds them)."""
    if printing or len(t.parts()) == 1:
        return _tables(t, printing)
    parted = re.sub(r' id="t-[^"]*"', "", _tables(t, printing=True))
    return (_tables(t).replace('class="wide"', 'class="wide screen"', 1)
            + parted.replace('class="wide"', 'class="wide print"', 1))


def _tables(t: Table, printing: bool = False) -> str:
    """``t`` as one HTML table, or, ``printing``, as one for each of its `Table.parts` (the
    first named by the table's id, the others ``-2``, ``-3``, ...; each caption "part n of m",
    from the part's first column: a screen scrolls a wide table, a page cannot). Every table
    of the report leads with its rows' label (a wager, a rule, a count, a penetration): the
    cells naming a row (its first, or ``row_keys``' columns: a rule's key, a wager and its
    number of bets) are its headers, ``<th scope="row">``; each part repeats the first."""
    e = html.escape
    # printed, the CSV's name (a link would name the folder it was printed in)
    csv = (f"csv/{e(t.name)}.csv" if printing else  # (the link named by its file: one of many)
           f'<a href="csv/{e(t.name)}.csv">{e(t.name)}.csv</a>')
    tables = []
    parts = t.parts() if printing else [t.shown()]
    heads = set(t.row_keys) or {parts[0][0][0][0]}  # (the columns naming a row)
    for n, (columns, rows) in enumerate(parts, 1):
        head = "".join(f'<th scope="col"{NUM if _is_num(k) else ""}>{_marked(e(label))}</th>'
                       for _, label, k in columns)
        body = []
        for row in rows:  # (the cells naming the row: its headers, for a screen reader)
            cells = "".join(_cell("th" if key in heads else "td", v, k)
                            for v, (key, _, k) in zip(row, columns, strict=True))
            body.append(f"<tr>{cells}</tr>")
        many = ' class="many"' if len(columns) >= MANY_COLUMNS else ""
        tables.append(f'<table id="t-{e(t.name)}{f"-{n}" if n > 1 else ""}"{many}><caption>'
                      f'{e(t.title)}{_part(n, parts)} <small>({csv})</small>'
                      f"</caption><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody>"
                      "</table>")
    return f'<div class="wide">{"".join(tables)}</div>'


def _marked(label: str) -> str:
    """A column head marked `CUT_CARD_MARK` (a z holding the cut-card effect): the mark seen,
    and heard as words (a screen reader at its usual punctuation passes over a tilde)."""
    if not label.endswith(f" {CUT_CARD_MARK}"):
        return label
    return (label[: -len(CUT_CARD_MARK)] + f'<span aria-hidden="true">{CUT_CARD_MARK}</span>'
            '<span class="sr">(see the note on the marked z below the table)</span>')


def _part(n: int, parts: list) -> str:
    """A part's words after its table's title: none for a table in one part, else "(part 2 of
    3: from SD per round)", the label of its first column after the rows' own."""
    if len(parts) == 1:
        return ""
    columns = parts[n - 1][0]
    return (f" (part {n} of {len(parts)}"
            + (f": from {columns[1][1]})" if len(columns) > 1 else ")"))


def _cell(tag: str, value, kind: str) -> str:
    """One cell of a table's body; a figure right aligned (class ``n``), a row header
    (``th``) marked as the header of its row."""
    e = html.escape
    scope = ' scope="row"' if tag == "th" else ""
    text = fmt(value, kind)
    if text == "-":  # (a screen reader at its usual punctuation says nothing for a dash)
        return f'<{tag}{scope}{NUM if _is_num(kind) else ""}>{NONE}</{tag}>'
    if _is_num(kind):
        return f'<{tag}{scope} class="n">{e(text)}</{tag}>'
    return f"<{tag}{scope}>{_breakable(e(_indented(text)))}</{tag}>"


# A cell with no figure: a dash seen, "none" heard (the text under the table says why)
NONE = '<span aria-hidden="true">-</span><span class="sr">none</span>'


def _breakable(text: str) -> str:
    """``text`` (HTML) with a line break allowed after each underscore of a name, after the
    ``=`` of a setting (``dealer_blackjack_takes="all"``, ``penetration=0.85``) and, in a cell
    that is a list of figures (``3,50,100,500,5000``, which had held its column wide and
    squeezed the keys beside it mid-word; not a figure with thousands separators), after each
    comma: a column of rule keys no wider than their longest part, a table of 13 columns no
    wider than the printed page. A break is taken only where a line is too long."""
    text = re.sub(r"(?<=\w[_=])(?=[\w&])", "<wbr>", text)
    if re.fullmatch(r"\d+(,\d+)+", text) and not re.fullmatch(r"\d{1,3}(,\d{3})+", text):
        text = text.replace(",", ",<wbr>")
    return text


def _indented(text: str) -> str:
    """A row label's leading spaces (a sub-row's indent) kept: no-break spaces, which neither
    HTML nor a Markdown table collapses."""
    body = text.lstrip(" ")
    return "\u00a0" * 2 * (len(text) - len(body)) + body


def _code(text: str) -> str:
    """Commands, each word kept whole (``--penetrations`` broke after its hyphens), each command
    longer than `CODE_CHARS` broken at its options' boundaries with a shell line continuation
    (`shell_lines`): the block does not wrap, so every line pasted into a shell runs as
    printed."""
    text = "\n".join(shell_lines(line) for line in text.split("\n"))
    return re.sub(r"\S+", lambda m: f'<span class="w">{html.escape(m.group())}</span>', text)


CODE_CHARS = 88  # the longest line of a command block, to fit the printed page (A4, 8.5 pt type)
# a shell word: unquoted characters and quoted strings, as a shell reads them
SHELL_WORD = re.compile(r"""(?:[^\s'"\\]|\\.|'[^']*'|"(?:\\.|[^"\\])*")+""")


def shell_lines(command: str, width: int = CODE_CHARS) -> str:
    """``command`` as it is where it fits ``width`` characters; else broken between options (a
    word starting with ``-`` begins a new group with the values after it), each line but the
    last ending with `` \\``, a shell line continuation, and the next indented: ``bjsim report
    --rounds 1000 \\`` then ``    -o out``. A group longer than a line stays whole."""
    if len(command) <= width:
        return command
    words = SHELL_WORD.findall(command)
    if " ".join(words) != command.strip():  # (not plain words: kept as it is)
        return command
    groups: list[list[str]] = []
    for w in words:  # (an option starts a group; its values, and the command's words, join one)
        if not groups or w.startswith("-"):
            groups.append([w])
        else:
            groups[-1].append(w)
    lines: list[str] = []
    line = ""
    for g in (" ".join(g) for g in groups):
        indent = "    " if lines else ""
        if line and len(f"{indent}{line} {g} \\") > width:
            lines.append(line)
            line = g
        else:
            line = f"{line} {g}" if line else g
    lines.append(line)
    return " \\\n".join(lines[:1] + ["    " + x for x in lines[1:]])


def _alt(chart: Chart) -> str:
    """A chart's text for a reader who cannot see it: what it shows in figures, not its caption
    again (which follows it); short, where none is given."""
    return chart.alt or f"Chart: {chart.name.replace('_', ' ')}."


def _html_block(b, printing: bool = False) -> str:
    e = html.escape
    if isinstance(b, Table):
        return "" if b.csv_alone else _html_table(b, printing)
    if isinstance(b, Code):
        return f"<pre tabindex=\"0\"><code>{_code(b.text)}</code></pre>"  # (scrolls: by keys too)
    if isinstance(b, Chart):
        if b.file is None:
            return f'<p class="missing">Chart not drawn ({e(b.caption)}): {e(b.missing or "")}</p>'
        caption = e(b.caption) if printing else re.sub(  # (its figures' csv a link, as a
            r"csv/([\w-]+)\.csv", r'<a href="csv/\1.csv">csv/\1.csv</a>', e(b.caption))  # table's)
        img = (f'<img src="{e(b.file)}" width="{b.width}" height="{b.height}" '
               f'alt="{e(_alt(b))}">')
        if not printing:  # (on a screen the chart opens whole: a phone shows it small)
            img = f'<a href="{e(b.file)}">{img}</a>'
        return f"<figure>{img}<figcaption>{caption}</figcaption></figure>"
    text = e(str(b))
    if text.startswith(f"{CUT_CARD_MARK} "):  # (a screen reader passes over "~" in silence)
        text = (f'<span aria-hidden="true">{CUT_CARD_MARK}</span><span class="sr">Note on '
                f"the marked z:</span>{text[len(CUT_CARD_MARK):]}")
    return f"<p>{text}</p>"


def to_html(title: str, sections: list[Section], printed: str | None = None,
            game: str | None = None, head: str = "") -> str:
    """The page (each path in the user's home folder shown from ``~``, `home_shown`); ``head``:
    a line under the title (`sections.head_line`: when the report was
    written, by which code); ``printed`` (a date): the page report.pdf is printed from, with its
    title (shortened in its ``game``'s name, `_foot`), that date and page numbers in the margins
    and each CSV named rather than linked."""
    e = html.escape
    printing = printed is not None
    css = CSS + (PRINT_CSS.format(title=_css_string(_foot(title, game)).replace("<", "\\3C "),
                                  date=_css_string(printed), font=FONT) if printing else "")
    nav = "".join(f'<li><a href="#{s.id}">{e(s.title)}</a></li>' for s in sections)
    parts = [f'<section id="{s.id}" aria-labelledby="h-{s.id}"><h2 id="h-{s.id}">'
             f"{e(s.title)}</h2>"  # (a region each, named by its heading)
             + "\n".join(_html_block(b, printing) for b in s.blocks) + "</section>"
             for s in sections]
    page = ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{e(title)}</title><style>{css}</style></head>\n<body><main>\n"
            f"<h1>{e(title)}</h1>\n" + (f'<p class="head">{e(head)}</p>\n' if head else "")
            + f'<nav aria-label="Contents"><ol>{nav}</ol></nav>\n' + "\n".join(parts)
            + "\n</main></body></html>\n")
    return home_shown(page)




def _md_cell(text: str) -> str:
    return md_text(_indented(text), cell=True).replace("|", "\\|")


def _md_block(b) -> str:
    e = md_text
    if isinstance(b, Table) and b.csv_alone:
        return ""
    if isinstance(b, Table):
        columns, shown = b.shown()
        head = "| " + " | ".join(_md_cell(label) for _, label, _ in columns) + " |"
        align = "|" + "|".join("---:" if _is_num(k) else "---" for _, _, k in columns) + "|"
        rows = ["| " + " | ".join(_md_cell(fmt(v, k)) for v, (_, _, k) in
                                  zip(r, columns, strict=True)) + " |" for r in shown]
        return "\n".join([f"**{e(b.title)}** ([CSV](csv/{b.name}.csv))", "", head, align,
                          *rows])
    if isinstance(b, Code):
        fence = "`" * max(3, 1 + max(map(len, re.findall("`+", b.text)), default=0))
        return f"{fence}sh\n{b.text}\n{fence}"  # (longer than any run of ` in it: one block)
    if isinstance(b, Chart):
        if b.file is None:
            return f"*Chart not drawn ({e(b.caption)}): {e(b.missing or '')}*"
        return f"![{e(_alt(b))}]({b.file})\n\n*{e(b.caption)}*"
    return e(str(b))


def _slug(heading: str) -> str:
    """The anchor a Markdown viewer (GitHub's rule) gives a heading."""
    return re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")


def to_markdown(title: str, sections: list[Section], head: str = "") -> str:
    """The report as Markdown, its text escaped (`md_text`) but for its commands; ``head``: a
    line under the title, as `to_html`'s; home paths as there (`home_shown`)."""
    e = md_text
    out = [f"# {e(title)}", ""] + ([e(head), ""] if head else [])
    out += [f"{i}. [{e(s.title)}](#{_slug(s.title)})" for i, s in enumerate(sections, 1)] + [""]
    for s in sections:
        out += [f"## {e(s.title)}", ""]
        for text in map(_md_block, s.blocks):
            out += [text, ""] if text else []  # (a chart's CSV alone: none)
    return home_shown("\n".join(out))
