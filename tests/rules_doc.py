"""Write the rule-key table of docs/rules-format.md from the declarations (`rules.keys_markdown`),
after a key's declaration changes; `test_rules.py` checks the docs hold it:

    python tests/rules_doc.py       # or: make rules-doc
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "rules-format.md"
MARK = "<!-- generated from simulator/rules.py DECLARATIONS"


def rewritten(text: str, table: str) -> str:
    """``text`` with the table after the ``MARK`` comment (its lines up to the first that is not
    a table row) replaced by ``table``."""
    lines = text.split("\n")
    start = next(i for i, ln in enumerate(lines) if ln.startswith(MARK))
    first = next(i for i in range(start, len(lines)) if lines[i].startswith("|"))
    end = next((i for i in range(first, len(lines)) if not lines[i].startswith("|")), len(lines))
    return "\n".join([*lines[:first], table.rstrip("\n"), *lines[end:]])


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    from simulator.rules import keys_markdown

    DOC.write_text(rewritten(DOC.read_text(encoding="utf-8"), keys_markdown()), encoding="utf-8")
    print(f"{DOC.relative_to(ROOT)}: the key table written from the declarations")
