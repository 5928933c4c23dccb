"""The report's sections as one HTML page (readable offline: inline style, no scripts, charts as
files beside it) and as Markdown."""

from __future__ import annotations

import html

from simulator.assessment.sections import Chart, Code, Section, Table, fmt

CSS = """
body { font: 15px/1.45 -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; color: #1a1a1a;
       max-width: 1100px; margin: 2em auto; padding: 0 1.2em; }
h1 { font-size: 1.7em; border-bottom: 2px solid #08519c; padding-bottom: .2em; }
h2 { font-size: 1.3em; margin-top: 1.8em; color: #08519c; }
table { border-collapse: collapse; margin: .8em 0 1.2em; font-size: 13px; }
caption { text-align: left; font-weight: 600; padding: .3em 0; }
th, td { border: 1px solid #c8c8c8; padding: .25em .5em; vertical-align: top; }
th { background: #eef3f8; text-align: left; }
td.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
pre { background: #f4f4f4; padding: .6em; overflow-x: auto; white-space: pre-wrap; }
figure { margin: 1em 0; } figcaption { font-size: 13px; color: #444; }
img { max-width: 100%; height: auto; border: 1px solid #ddd; }
nav ol { columns: 2; } .missing { color: #a33; }
@page { size: A4; margin: 15mm; }
@media print { body { max-width: none; margin: 0; } h2 { page-break-after: avoid; }
               table, figure { page-break-inside: avoid; } }
"""

NUMERIC = ("int", "pct", "spct", "num", "prob", "odds", "z", "freq")


def _is_num(kind: str) -> bool:
    return kind.startswith(NUMERIC)


def _html_table(t: Table) -> str:
    e = html.escape
    columns, rows = t.shown()
    head = "".join(f"<th>{e(label)}</th>" for _, label, _ in columns)
    body = []
    for row in rows:
        cells = "".join(
            f'<td class="n">{e(fmt(v, k))}</td>' if _is_num(k) else f"<td>{e(fmt(v, k))}</td>"
            for v, (_, _, k) in zip(row, columns, strict=True))
        body.append(f"<tr>{cells}</tr>")
    return (f'<table id="t-{e(t.name)}"><caption>{e(t.title)} '
            f'<small>(<a href="csv/{e(t.name)}.csv">CSV</a>)</small></caption>'
            f"<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>")


def _html_block(b) -> str:
    e = html.escape
    if isinstance(b, Table):
        return _html_table(b)
    if isinstance(b, Code):
        return f"<pre><code>{e(b.text)}</code></pre>"
    if isinstance(b, Chart):
        if b.file is None:
            return f'<p class="missing">Chart not drawn ({e(b.caption)}): {e(b.missing or "")}</p>'
        return (f'<figure><img src="{e(b.file)}" width="{b.width}" height="{b.height}" '
                f'alt="{e(b.caption)}"><figcaption>{e(b.caption)}</figcaption></figure>')
    return f"<p>{e(str(b))}</p>"


def to_html(title: str, sections: list[Section]) -> str:
    e = html.escape
    nav = "".join(f'<li><a href="#{s.id}">{e(s.title)}</a></li>' for s in sections)
    parts = [f'<section id="{s.id}"><h2>{e(s.title)}</h2>'
             + "\n".join(_html_block(b) for b in s.blocks) + "</section>" for s in sections]
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{e(title)}</title><style>{CSS}</style></head>\n<body>\n"
            f"<h1>{e(title)}</h1>\n<nav><ol>{nav}</ol></nav>\n" + "\n".join(parts)
            + "\n</body></html>\n")


def _md_cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _md_block(b) -> str:
    if isinstance(b, Table):
        columns, shown = b.shown()
        head = "| " + " | ".join(_md_cell(label) for _, label, _ in columns) + " |"
        align = "|" + "|".join("---:" if _is_num(k) else "---" for _, _, k in columns) + "|"
        rows = ["| " + " | ".join(_md_cell(fmt(v, k)) for v, (_, _, k) in
                                  zip(r, columns, strict=True)) + " |" for r in shown]
        return "\n".join([f"**{b.title}** ([CSV](csv/{b.name}.csv))", "", head, align, *rows])
    if isinstance(b, Code):
        return f"```sh\n{b.text}\n```"
    if isinstance(b, Chart):
        if b.file is None:
            return f"*Chart not drawn ({b.caption}): {b.missing}*"
        return f"![{b.caption}]({b.file})\n\n*{b.caption}*"
    return str(b)


def to_markdown(title: str, sections: list[Section]) -> str:
    out = [f"# {title}", ""]
    for s in sections:
        out += [f"## {s.title}", ""]
        for b in s.blocks:
            out += [_md_block(b), ""]
    return "\n".join(out)
