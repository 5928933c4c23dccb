"""docs/api.md against the code: every signature it documents, ``name(param, ...)`` in a code
span, names the real function's parameters, in order, with the defaults it shows
(`inspect.signature`). The page says its names and signatures are fixed; this keeps it so."""

import importlib
import inspect
import pkgutil
import re
from pathlib import Path

import pytest

import simulator

API = (Path(__file__).resolve().parent.parent / "docs" / "api.md").read_text()

# Spans in the form of a signature that document no function of bjsim: the protocols and
# callbacks a caller writes, and numpy's seeding
NOT_OURS = {
    "job",  # a job: any picklable callable, job(i) -> (i, n_rounds, payload)
    "progress",  # engine.run's callback
    "on_chunk",  # engine.advance's and run.simulate's callback
    "done",  # processes.map_spawned's callback
    "SeedSequence",  # numpy's, as chunk_state calls it
}
IDENT = re.compile(r"[A-Za-z_]\w*")
CALL = re.compile(r"(\.?[A-Za-z_][\w.]*)\(")


def _module(name: str):
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def _scan(text: str, start: int = 0):
    """Each ``(index, character, depth)`` of ``text`` from ``start``: ``depth`` the brackets open
    after the character, None inside quotes (the quote marks included)."""
    depth, quote = 0, None
    for i in range(start, len(text)):
        c = text[i]
        if quote or c in "\"'":
            quote = None if c == quote else (quote or c)
            yield i, c, None
            continue
        depth += (c in "([{") - (c in ")]}")
        yield i, c, depth


def _closing(text: str, start: int) -> int:
    """The index of the parenthesis closing the one at ``start`` (quotes skipped)."""
    for i, c, depth in _scan(text, start):
        if depth == 0 and c in ")]}":
            return i
    raise ValueError(f"unclosed parenthesis in {text!r}")


def _split(params: str) -> list[str]:
    """``params`` split at the commas outside brackets and quotes."""
    out, cur = [], ""
    for _, c, depth in _scan(params):
        if c == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += c
    return [p for p in [*out, cur.strip()] if p]


def _params(text: str) -> list[tuple[str, str | None]] | None:
    """The documented parameters, ``(name, default text or None)``, ``("*", None)`` and
    ``("...", None)`` as written; None where the span is a call (a value in it, as in
    ``load_rules("nz1994-8deck")``), not a signature."""
    out = []
    for p in _split(text):
        name, eq, default = p.partition("=")
        name = name.split(":")[0].strip()  # (an annotation: `overrides: list[str]`)
        if name in ("*", "...") and not eq:
            out.append((name, None))
        elif IDENT.fullmatch(name):
            out.append((name, default.strip() if eq else None))
        else:
            return None
    return out


def _spans():
    """Each documented signature: (its section's modules, the list item's text, its name, its
    parameters, where it is)."""
    section, item, lineno, spans = [], "", 0, []

    def flush():
        for m in re.finditer(r"`([^`]+)`", item):
            span = " ".join(m.group(1).split())
            at = 0
            while (call := CALL.match(span, at)) is not None:
                end = _closing(span, call.end() - 1)
                params = _params(span[call.end():end])
                if params is not None:
                    spans.append((section, item, call.group(1), params, f"docs/api.md:{lineno}"))
                # a record it returns: `-> Runs(runs, asked, strategy)`
                ret = re.match(r"\s*->\s*", span[end + 1:])
                if not ret:
                    break
                at = end + 1 + ret.end()

    for n, line in enumerate(API.splitlines(), 1):
        if line.startswith("## "):
            flush()
            heading = line[3:].split(" (")[0]
            section = [p if p.startswith("simulator") else f"simulator.{p}"
                       for p in heading.split(" / ")]
            item, lineno = "", n
        elif line.startswith("- ") or not line.strip():
            flush()
            item, lineno = line, n
        elif section:
            item += "\n" + line
    flush()
    return spans


def _defined() -> dict:
    """Each name a module of bjsim defines: {name: [the modules]}."""
    out: dict = {}
    for info in pkgutil.walk_packages(simulator.__path__, "simulator."):
        if info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        for name, obj in vars(module).items():
            if getattr(obj, "__module__", None) == info.name:
                out.setdefault(name, []).append(module)
    return out


DEFINED = _defined()


def _lookup(ns, dotted: str):
    obj = ns
    for part in dotted.split("."):
        if not hasattr(obj, part):
            return None
        obj = getattr(obj, part)
    return obj


def _resolve(section: list[str], item: str, name: str):
    """The object ``name`` documents: a dotted name from this package (or a module of the
    section's package: `figures.variant_effects`); a bare one from the list item's module
    (`- compare: ...`), the section's, those the item names (`tables`, `distributed.connect`),
    or a method of a class the item names (`RunState`'s `add_into`, `Ramp`'s `.at`)."""
    packages = [m for m in map(_module, section) if m is not None]
    words = re.findall(r"`([\w.]+)", item)
    candidates = []
    lead = re.match(r"- `([\w.]+)`:", item)
    for word in ([lead.group(1)] if lead else []) + [None] + words:
        if word is None:
            candidates += packages
            continue
        for prefix in [p.__name__ for p in packages if hasattr(p, "__path__")] + ["simulator"]:
            parts = word.split(".")
            for k in range(len(parts), 0, -1):  # (the module part of `distributed.connect`)
                m = _module(f"{prefix}.{'.'.join(parts[:k])}")
                if m is not None:
                    candidates.append(m)
                    break
    if not name.startswith("."):
        for prefix in [p.__name__ for p in packages if hasattr(p, "__path__")] + ["simulator"]:
            parts = name.split(".")
            for k in range(len(parts) - 1, 0, -1):
                m = _module(f"{prefix}.{'.'.join(parts[:k])}")
                if m is not None and (obj := _lookup(m, ".".join(parts[k:]))) is not None:
                    return obj
        for ns in candidates:
            if (obj := _lookup(ns, name)) is not None and not inspect.ismodule(obj):
                return obj
        head, _, rest = name.partition(".")  # a class of another module: `Rules.to_params`
        if rest and len(owners := DEFINED.get(head, [])) == 1:
            return _lookup(owners[0], name)
    # a method of a class the item names (the one it is about, `- RoundResult`: `.to_dict()`,
    # then the nearest one before it) or of a subclass (`RunState`'s that carry another payload:
    # `read_checkpoint`)
    before = item[:item.find(name)] if name in item else item
    about = re.findall(r"^- `([A-Z]\w*)", item)
    classes = [c for w in about + list(reversed(re.findall(r"`([A-Z]\w*)", before))) + words
               for ns in candidates if inspect.isclass(c := getattr(ns, w, None))]
    for cls in [*classes, *(sub for c in classes for sub in c.__subclasses__())]:
        if (obj := getattr(cls, name.lstrip("."), None)) is not None:
            return obj
    return None


def _check(fn, params: list[tuple[str, str | None]], namespace: dict) -> list[str]:
    """What ``params`` (documented) says that ``fn``'s signature does not."""
    real = list(inspect.signature(fn).parameters.values())
    if real and real[0].name in ("self", "cls") and not inspect.isclass(fn):
        real = real[1:]
    by_name = {p.name: p for p in real}
    names = [n for n, _ in params if n not in ("*", "...")]
    wrong = []
    missing = [n for n in names if n not in by_name]
    if missing:
        wrong.append(f"no parameter {', '.join(missing)}")
    order = [p.name for p in real if p.name in names]
    if not missing and order != names:
        wrong.append(f"parameters in another order: {order}")
    if params and params[0][0] != "...":  # the documented ones up to the first `...`: the first
        lead = [n for n, _ in params[:next((i for i, (n, _) in enumerate(params)
                                            if n == "..."), len(params))] if n != "*"]
        if [p.name for p in real[:len(lead)]] != lead:
            wrong.append(f"the first parameters are {[p.name for p in real[:len(lead)]]}")
    if "..." not in (n for n, _ in params):  # the rest, left out, each have a default
        left = [p.name for p in real if p.name not in names and p.default is p.empty
                and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
        if left:
            wrong.append(f"leaves out {', '.join(left)}, which have no default")
    star = [n for n, _ in params].index("*") if ("*", None) in params else None
    for i, (n, default) in enumerate(params):
        p = by_name.get(n)
        if p is None:
            continue
        if star is not None and (i > star) != (p.kind is p.KEYWORD_ONLY):
            wrong.append(f"{n} is {'not ' if i > star else ''}keyword-only")
        if default is None:
            continue
        if not default:  # `rounds=`: given by name
            if p.kind is p.POSITIONAL_ONLY:
                wrong.append(f"{n} is positional-only")
            continue
        if p.default is p.empty:
            wrong.append(f"{n} has no default")
            continue
        try:
            value = eval(default, namespace)
        except Exception:  # (`method="exact"|"a1"`: the values allowed, in words)
            continue
        if value != p.default:
            wrong.append(f"{n} defaults to {p.default!r}, not {default}")
    return wrong


SPANS = _spans()


def test_the_page_documents_the_signatures_it_is_read_for():
    """The reading finds the page's signatures (a change of its layout would leave them unread)."""
    names = {name for _, _, name, _, _ in SPANS}
    assert len(SPANS) > 100
    assert {"build_games", "build", "machine_for", "plan_warnings", "add_into",
            "strategy_slots", "counter.counter_for", "iter_chunks", ".at", "Bets"} <= names


@pytest.mark.parametrize("section, item, name, params, where", SPANS,
                         ids=[f"{s[4]}:{s[2]}" for s in SPANS])
def test_each_documented_signature_is_the_codes(section, item, name, params, where):
    if name.lstrip(".").split(".")[0] in NOT_OURS:
        return
    obj = _resolve(section, item, name)
    assert obj is not None, f"{where}: {name} is documented, and is no function of bjsim's"
    if inspect.isclass(obj) and {n for n, _ in params} <= {c.__name__ for c in obj.__mro__}:
        return  # `RuleError(ValueError)`: a class and its base
    shown = f"{name}({', '.join(n + ('' if d is None else '=' + d) for n, d in params)})"
    namespace = vars(importlib.import_module(getattr(obj, "__module__", None) or "simulator"))
    wrong = _check(obj, params, dict(namespace))
    assert not wrong, (f"{where}: {shown} documents {obj.__module__}.{obj.__qualname__}"
                       f"{inspect.signature(obj)}: {'; '.join(wrong)}")
