"""Variants of a rule set for ``bjsim compare``: ``--vary``, ``--variant``, ``--vary-strategy``.

A variant is a baseline with some rule keys changed, or with another strategy. A variant file
(``configs/variants/*.toml``) names its baseline and its changes; ``--variant`` also takes a
plain rule file, the variant then that whole rule set. Format: docs/compare.md, "Variant files".
"""

from __future__ import annotations

import os
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from simulator.rules import (
    DEFAULT_RULES_PATH,
    KIND,
    RuleError,
    besides,
    checked_name,
    checked_text,
    dict_problems,
    did_you_mean,
    load_rule_file,
    origins_of,
    parse_overrides,
    read_text,
    rule_change,
    rule_set,
    rules_dict,
    rules_from_dict,
    shipped_rule_file,
    shipped_rule_sets,
    shown,
    shown_rule_file,
    toml_error_line,
    unknown_key,
    validate,
    wrong_kind,
)
from simulator.strategy import STRATEGY_DIR, load_strategy, looks_like_path, shown_names
from simulator.streams import inert

VARIANTS_DIR = DEFAULT_RULES_PATH.parent / "variants"
VARIANT_KEYS = ("name", "description", "baseline", "strategy")
VARIANT_TEXT = {"description": "a string", "baseline": "the path of a rule file (beside this one)",
                "strategy": "a shipped strategy's name or the path of a strategy file (beside "
                "this one)"}


@dataclass(frozen=True)
class Variant:
    """One variant as asked for: ``rules`` (the baseline's with ``changes`` applied) and, for a
    strategy variant, ``strategy`` (a shipped name or file; None: the default strategy);
    ``sets``: the rule keys it sets, whether or not they differ from the baseline's."""

    label: str
    rules: object
    changes: tuple[str, ...]
    source: str
    strategy: str | None = None
    description: str = ""
    sets: tuple[str, ...] = ()
    shown: str = ""  # the name the outputs show ``strategy`` by (`strategy.shown_names`)




def changes_of(base, rules) -> tuple[str, ...]:
    """``key=value`` for every key in which ``rules`` differs from ``base``."""
    a, b = rules_dict(base), rules_dict(rules)
    return tuple(rule_change(k, b[k]) for k in b if a[k] != b[k])


def split_vary(text: str) -> list[str]:
    """``"decks=8,penetration=0.8"`` -> ``["decks=8", "penetration=0.8"]``; a comma starts a new
    item only before ``KEY=`` (``super_sevens_pays=3,50,100,500,5000`` stays whole)."""
    return [p.strip() for p in re.split(r",(?=\s*[A-Za-z_][A-Za-z0-9_]*\s*=)", text) if p.strip()]


def vary_values(text: str) -> dict:
    """The keys and values of ``--vary KEY=VALUE[,KEY=VALUE...]``, each typed and checked
    (`simulator.rules.parse_overrides`)."""
    if not isinstance(text, str):  # (the API: None is refused in words, not a TypeError)
        raise RuleError(f"--vary {text!r:.40}: not text: give KEY=VALUE[,KEY=VALUE...], e.g. "
                        "decks=8")
    items = split_vary(text)
    if not items:
        raise RuleError(f"--vary '{text}': give KEY=VALUE[,KEY=VALUE...], e.g. decks=8")
    lists = [i for i in items if KIND.get(i.split("=", 1)[0].strip()) == "pays"]  # (their own
    # commas: an item left out of one is named by its key, as --set names it)
    if text.strip().startswith(",") or any(
            i.endswith(",") and (i is not items[-1] or i not in lists)  # (between two items)
            or ",," in i.replace(" ", "") and i not in lists for i in items):
        raise RuleError(f"--vary '{text}': an empty item between commas: give "
                        "KEY=VALUE[,KEY=VALUE...], e.g. decks=8,penetration=0.8")
    keys = [item.split("=", 1)[0].strip() for item in items]
    twice = next((k for i, k in enumerate(keys) if k in keys[:i]), None)
    if twice is not None:
        raise RuleError(f"--vary '{text}': sets '{twice}' twice: allowed once a variant")
    return parse_overrides(items, source=f"--vary {text}")


def vary_label(text: str) -> str:
    """The label of ``--vary`` ``text``: its items in the rule set's key order, each value as a
    variant's changes write it, so that every spelling of one variant has one label:
    ``"penetration=.8, decks=08"`` -> ``"decks=8,penetration=0.8"``."""
    return _label(vary_values(text))


def _label(values: dict) -> str:
    return ",".join(rule_change(k, values[k]) for k in KIND if k in values)


def from_vary(base, text: str, origins: dict | None = None) -> Variant:
    """The variant of ``--vary KEY=VALUE[,KEY=VALUE...]``, labelled by `vary_label`;
    ``origins``: where each key of ``base`` was set (`rules.origins_of`), named in a combination
    that cannot happen with a key ``text`` sets."""
    rule_set(base, "base")  # (an AttributeError for a dict)
    values = vary_values(text)  # (read once: its label and its rules)
    rules = validate(base.replace(**values), f"--vary {text}", besides(origins, values))
    return Variant(_label(values), rules, changes_of(base, rules), "--vary", sets=tuple(values))


def from_strategy(base, name: str, shown: str | None = None) -> Variant:
    """The variant of ``--vary-strategy NAME|FILE``: the baseline's rules, another strategy,
    labelled by the name the outputs show it by (``shown``, else `strategy.shown_names`': a
    file's ``name``, by default its file name; a file named as a shipped strategy, by its path:
    it may be another chart)."""
    rule_set(base, "base")
    if not isinstance(name, (str, os.PathLike)):  # (a Strategy had raised pathlib's TypeError:
        # the variant keeps a name or path, which each game loads)
        from simulator.strategy import StrategyError, list_strategies

        raise StrategyError(f"name: not a strategy's name or path ({type(name).__name__}): "
                            f"allowed a shipped strategy ({', '.join(list_strategies())}) or the "
                            "path of a strategy file")
    label = shown or shown_names([name], [load_strategy(name)])[0][0]
    return Variant(f"strategy={label}", base, (f"strategy={label}",), "--vary-strategy", name,
                   shown=label)


def _path(path) -> Path:
    """``--variant``'s ``path`` as a Path; "" (which a Path reads as the folder ".") refused."""
    if str(path) == "":
        raise RuleError("--variant: an empty path: name a variant file (or a shipped one)")
    return Path(path)


def _read_toml(path: Path) -> dict:
    src = str(path)
    stems = [f.stem for f in shipped()]
    near = (f"did you mean 'variants/{path.stem}', the shipped variant? " if path.stem in stems
            and not path.exists() else "")
    text = read_text(path, "variant", source=src,
                     allowed=f"{near}allowed a shipped variant as variants/NAME "
                     f"({', '.join(stems)}) or the path of a variant or rule file")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise RuleError(f"{src}: {toml_error_line(err, text)}") from None


def is_variant_file(data: dict) -> bool:
    return "variant" in data or "changes" in data


def read_variant_file(path, problems: list | None = None, data: dict | None = None) -> dict:
    """The checked ``[variant]`` table of a variant file with its ``changes`` (a dict) and its
    ``baseline`` resolved to a path; None-valued ``baseline`` means the NZ rule set; a
    ``strategy`` path read beside the file (as written: ``strategy_written``). A problem
    raises `RuleError`, or with ``problems`` is added to it (the changes' unknown keys left out)
    where the rest can still be read. ``data``: the file's table, where it was read already."""
    path = _path(path)
    data = _read_toml(path) if data is None else data
    src = str(path)

    def bad(message: str) -> None:
        if problems is None:
            raise RuleError(message)
        problems.append(message)

    for key in data:
        if key not in ("variant", "changes"):
            bad(f"{src}: key '{key}' is not allowed at the top of a variant file: "
                + (did_you_mean(key, ("variant", "changes")) or "allowed [variant] and [changes]"))
    head = data.get("variant", {})
    changes = data.get("changes", {})
    if not isinstance(head, dict) or not isinstance(changes, dict):
        raise RuleError(f"{src}: [variant] and [changes] must be tables")
    for key, value in head.items():
        if key not in VARIANT_KEYS:
            bad(f"{src}: unknown key 'variant.{key}': "  # (as every loader says it)
                + (did_you_mean(key, VARIANT_KEYS, "variant")
                   or "allowed " + ", ".join(f"variant.{k}" for k in VARIANT_KEYS)))
        elif key == "name":
            try:
                checked_name(value, src, "variant.name")
            except RuleError as err:
                bad(f"{err} (it names the variant's row)")
        elif not isinstance(value, str):
            bad(f"{src}: key 'variant.{key}' = {shown(value)} is not a string: allowed "
                + VARIANT_TEXT[key])
        elif key in ("baseline", "strategy") and not value.strip():  # ("": the folder)
            bad(f"{src}: key 'variant.{key}' = {shown(value)} is empty: allowed "
                + VARIANT_TEXT[key])
        else:
            try:
                checked_text(value, src, f"variant.{key}")
            except RuleError as err:
                bad(str(err))
    for key in changes:
        if key not in KIND:
            bad(str(unknown_key(key, src, where=" in [changes] (not a rule-set key)")))
    if not changes and "strategy" not in head:
        bad(f"{src}: [changes] is empty: allowed at least one rule-set key in it, or "
            "variant.strategy" if "changes" in data else
            f"{src}: no [changes] and no variant.strategy: allowed a [changes] table of "
            "rule-set keys, or variant.strategy, or both (a variant changes something)")
    out = {k: v for k, v in head.items() if k in VARIANT_KEYS and isinstance(v, str)
           and (v.strip() or k not in ("baseline", "strategy"))}
    out["changes"] = {k: v for k, v in changes.items() if k in KIND}
    out["baseline"] = (path.parent / out["baseline"]).resolve() if "baseline" in out else None
    if "strategy" in out and looks_like_path(out["strategy"], path.parent):  # beside this one
        out["strategy_written"] = out["strategy"]  # (as the file writes it, for its errors)
        out["strategy"] = str(path.parent / out["strategy"])
    out.setdefault("name", inert(path.stem))
    return out


def _not_a_rule_file(path: Path) -> str:
    return ("a folder, not a rule file: allowed the path of a rule file" if path.is_dir()
            else "no such rule file: allowed the path of a rule file, relative to the variant "
            "file's folder")


def baseline_problem(path, baseline) -> str | None:
    """Why the rule file ``baseline`` that variant file ``path`` names cannot be its baseline
    (it is itself a variant file, or does not load), in a line naming ``path``; else None."""
    try:
        load_rule_file(baseline)
        return None
    except RuleError as err:
        try:  # (one that does not read as TOML is no variant file either)
            variant = is_variant_file(_read_toml(Path(baseline)))
        except RuleError:
            variant = False
        why = (f"{baseline} is a variant file, not a rule file: allowed the path of a rule file"
               if variant else f"{baseline} does not load as a rule file: {err}")
    return f"{path}: key 'variant.baseline': {why}"


def check_variant_file(path, data: dict | None = None
                       ) -> tuple[list[str], Path | None, Variant | None, tuple[str, ...] | None]:
    """Every problem of a variant file, one line each (empty: it loads), for ``bjsim rules
    check``: its own keys', then its changes' over its baseline (`rules.dict_problems`), then
    its strategy's; a file that cannot be read, or a baseline that cannot, has its one line.
    With them the baseline it names, problems or not (None: the NZ rule set, where it names
    none as text), where there is no problem the `Variant` over it, and its changes over the
    baseline (``key=value`` as `Variant.changes`, a good file's those) where the baseline and
    the ``[changes]`` table could be read, else None. ``data``: the file's table, where it was
    read already; the file is read and parsed once, its baseline once."""
    problems: list[str] = []
    try:
        v = read_variant_file(path, problems, data)
        if v["baseline"] is not None and not v["baseline"].is_file():
            raise RuleError(f"{path}: key 'variant.baseline' names {v['baseline']}: "
                            f"{_not_a_rule_file(v['baseline'])}")
        base = _baseline_rules(path, v["baseline"])
    except (RuleError, RecursionError) as err:
        return problems + [str(err) if isinstance(err, RuleError) else
                           f"{path}: nested too deeply to be a variant file"
                           ], _named_baseline(path, data), None, None
    named = shown_rule_file(None if v["baseline"] is None else from_folder(v["baseline"]))
    problems += dict_problems(v["changes"], f"{path} [changes]", rules_dict(base),
                              origins_of(named))
    problem = _strategy_problem(path, v)
    if problem is not None:
        problems.append(problem)
    if not problems:
        variant = _variant(base, path, v)
        return problems, v["baseline"], variant, variant.changes
    return problems, v["baseline"], None, _written_changes(base, v)


def _named_baseline(path, data: dict | None) -> Path | None:
    """The baseline a variant file's table ``data`` names as text, resolved from its folder as
    `read_variant_file` does, where that could not read the file (None: none named so)."""
    head = data.get("variant") if isinstance(data, dict) else None
    baseline = head.get("baseline") if isinstance(head, dict) else None
    return (_path(path).parent / baseline).resolve() if isinstance(baseline, str) else None


def _written_changes(base, v: dict) -> tuple[str, ...] | None:
    """The changes of a variant file with problems over its baseline ``base``: ``key=value``
    for each rule-set key of its ``[changes]`` whose value is not the baseline's, good or not,
    in the order of `changes_of`, then the strategy it names; None where a value is nested too
    deeply to be written."""
    old = rules_dict(base)
    try:
        out = tuple(rule_change(k, v["changes"][k]) for k in old if k in v["changes"]
                    and not (v["changes"][k] == old[k]
                             and isinstance(v["changes"][k], bool) == isinstance(old[k], bool)))
    except RecursionError:
        return None
    return out + ((f"strategy={v['strategy']}",) if v.get("strategy") else ())


def _baseline_rules(path, baseline):
    """The rules of the ``baseline`` variant file ``path`` names (None: the NZ rule set); one
    that does not load raises `baseline_problem`'s line."""
    try:
        return load_rule_file(baseline)[0]
    except RuleError as err:
        if baseline is None:
            raise
        raise RuleError(baseline_problem(path, baseline) or str(err)) from None


def baseline_of(path) -> Path | None:
    """The baseline rule file a variant file names (None for a plain rule file or none named)."""
    data = _read_toml(_path(path))
    if not is_variant_file(data):
        return None
    return read_variant_file(path, data=data)["baseline"]


def misspelt_header(data: dict) -> str | None:
    """A table of ``data`` (a file given to --variant with no ``[variant]`` or ``[changes]``,
    read as a whole rule file) whose name is no rule-file key and is close to ``variant`` or
    ``changes`` (`rules.did_you_mean`): ``[chnages]``, a variant file's header misspelt, said
    as such rather than as an unknown rule key with every rule key listed; else None."""
    return next((k for k, v in data.items() if isinstance(v, dict) and k not in KIND
                 and k != "meta" and did_you_mean(k, ("variant", "changes"))), None)


def from_file(base, path, origins: dict | None = None) -> Variant:
    """The variant of ``--variant FILE``: a variant file's changes applied to ``base``, or a
    whole rule file; ``origins``: where each key of ``base`` was set (`rules.origins_of`),
    named in a combination that cannot happen with a key the changes set."""
    rule_set(base, "base")
    path = _path(path)
    data = _read_toml(path)
    if not is_variant_file(data):
        # (neither a variant file nor a rule file, which --variant takes too: said as given to
        # --variant, "a strategy file, not a variant file", not as given to --rules)
        if wrong_kind(data, path, "rule") and (other := wrong_kind(data, path, "variant")):
            raise RuleError(other)
        misspelt = misspelt_header(data)
        if misspelt is not None:
            raise RuleError(f"{path}: unknown key '{misspelt}': "
                            + did_you_mean(misspelt, ("variant", "changes")))
        rules, meta = load_rule_file(path)
        return Variant(meta.get("name") or inert(path.stem), rules, changes_of(base, rules),
                       str(path), description=meta.get("description", ""), sets=tuple(KIND))
    v = read_variant_file(path, data=data)
    variant = _variant(base, path, v, origins)
    problem = _strategy_problem(path, v)
    if problem is not None:
        raise RuleError(problem)
    return variant


def _strategy_problem(path, v: dict) -> str | None:
    """Why the strategy variant file ``path`` names (its table ``v``) does not load, in a line
    naming the file and its key, the value as the file writes it (`rules.shown`); else None."""
    if not v.get("strategy"):
        return None
    try:
        load_strategy(v["strategy"])
    except ValueError as err:  # (StrategyError)
        return (f"{path}: key 'variant.strategy' = "
                f"{shown(v.get('strategy_written', v['strategy']))}: {err}")
    return None


def _variant(base, path, v: dict, origins: dict | None = None) -> Variant:
    """The variant of a variant file's table ``v`` (`read_variant_file`) over ``base``, whose
    keys were set where ``origins`` says (`from_file`); a shipped file named as `shipped_name`."""
    rules, _ = rules_from_dict({**rules_dict(base), **v["changes"]},
                               f"{shipped_name(path)} [changes]", besides(origins, v["changes"]))
    changes = changes_of(base, rules)
    if v.get("strategy"):
        changes += (f"strategy={v['strategy']}",)
    return Variant(v["name"], rules, changes, str(path), v.get("strategy"),
                   v.get("description", ""), tuple(v["changes"]))


def from_files(base, files, whole=(), origins: dict | None = None
               ) -> tuple[list[Variant], list[str]]:
    """`from_file` of each of ``files`` over ``base``, in order, and a line for each left out: a
    file of ``whole`` (the shipped set asked for as a whole: ``--all-variants``, the report's
    default) whose changes cannot apply to ``base`` (with it, a combination that cannot happen
    at a table: resplit-aces where ``max_hands = 2``) is left out, the line naming it and why.
    Any other file's problem raises, as a file the user named must apply, a combination with a
    key of ``base`` naming where that key was set (``origins``, `from_file`)."""
    rule_set(base, "base")  # (not left out with each file of ``whole``)
    if not isinstance(files, (list, tuple)):  # (one path would be read letter by letter)
        raise RuleError(f"files = {files!r:.40}: allowed a list of the paths of variant or "
                        "rule files (--variant's)")
    whole = {str(f) for f in whole}
    out, left = [], []
    for f in files:
        try:
            out.append(from_file(base, f, None if str(f) in whole else origins))
        except RuleError as err:
            if str(f) not in whole:
                raise
            left.append(left_out_line(f, err))
    return out, left


def shipped_name(path) -> str:
    """A variant file as the shipped ones are named (``variants/h17``, as ``--variant`` takes it
    from any folder); a file elsewhere, by ``path``."""
    return f"variants/{Path(path).stem}" if Path(path).parent == VARIANTS_DIR else str(path)


def left_out_line(path, err: RuleError) -> str:
    """The line of a shipped variant file ``path`` left out for ``err``, its changes' problem
    over the baseline, without the file (named first) or the values its own keys allow."""
    why = str(err).removeprefix(f"{shipped_name(path)} [changes]: ").split(": allowed ")[0]
    return f"{shipped_name(path)} is left out: its changes cannot apply to this baseline: {why}"


def baselines_set_aside(rules_path, files, used: str, shown=None) -> list[str]:
    """A line for each baseline other than ``rules_path`` (None: the NZ rule set) that variant
    files ``files`` name, set aside: their changes are applied to ``rules_path`` (``used``: its
    words). It names ``used``, the baseline named and the file (or how many): as typed
    (``shown``, one for each of ``files``), else a shipped one by its shipped name."""
    given = Path(shipped_rule_file(rules_path or DEFAULT_RULES_PATH)).resolve()
    aside: dict = {}
    names = (list(shown) if shown and len(shown) == len(files) else
             [shipped_name(f) for f in files])
    for f, name in zip(files, names, strict=True):
        named = baseline_of(f)
        if named is not None and Path(shipped_rule_file(named)).resolve() != given:
            aside.setdefault(shown_rule_file(str(named)), []).append(name)
    return [f"{used} is the baseline, not {named}, which "
            f"{by[0] + ' names' if len(by) == 1 else f'{len(by)} variant files name'}"
            for named, by in aside.items()]


def twice(vary, files, strategies, shown=None, strategy_option: str = "--vary-strategy",
          what: str = "variant") -> str | None:
    """The first variant asked for twice (the same ``--vary`` label, variant file or strategy:
    a shipped one by name or by its file), as an error's words (``allowed each {what} once``);
    None if none is. ``shown``: each of ``files`` as the user typed it (``variants/h17``, which
    ``files`` holds as the shipped file's absolute path), else a shipped file by its shipped
    name (`shipped_name`) and any other as given. ``strategy_option``: the option that gave
    ``strategies`` (``bjsim report``'s ``--choice``)."""
    def strategy_file(s):
        shipped = STRATEGY_DIR / f"{s}.toml"
        return os.path.realpath(s if os.path.isfile(s) else shipped if shipped.is_file() else s)

    seen: dict = {}
    shown = list(shown or ())
    shown += [shipped_name(f) for f in files[len(shown):]]
    asked = ([("--vary", v, vary_label(v)) for v in vary]
             + [("--variant", s, os.path.realpath(f)) for f, s in zip(files, shown, strict=True)]
             + [(strategy_option, s, strategy_file(s)) for s in strategies])
    for opt, text, key in asked:
        if (opt, key) in seen:
            first = seen[(opt, key)]
            same = f"'{text}'" if first == text else f"'{text}' (the same as '{first}')"
            return f"{opt} {same} is asked for twice: allowed each {what} once"
        seen[(opt, key)] = text
    return None


def same_label(baseline: str, asked) -> str | None:
    """The first game whose label is the baseline's (``baseline``) or an earlier variant's,
    as an error's words (a row of the table, csv and json is known by its label); None."""
    seen = {baseline: "the baseline"}
    for v in asked:
        if v.label in seen:
            return (f"{v.source} '{v.label}' has the label of {seen[v.label]}: allowed each "
                    "game its own (variant.name in a variant file, [meta] name in a rule file, "
                    "name in a strategy file)")
        seen[v.label] = f"{v.source} '{v.label}'"
    return None


def shipped() -> list[Path]:
    """The variant files of ``configs/variants/``, sorted by name."""
    return sorted(VARIANTS_DIR.glob("*.toml"))


def no_such_rule_or_variant_file(path) -> str:
    """The line for a missing file given to ``bjsim rules check``: what it takes, the shipped rule
    sets by name and the shipped variants as ``variants/NAME``; for a pattern (which the shell
    passes as it is where no file matches it), the folder it was expanded in and the shipped
    variants' folder in place of their names."""
    rule_sets = ", ".join(shipped_rule_sets())
    if os.path.islink(path):  # (a link that leads nowhere: to itself, or to no file)
        try:
            os.stat(path)
        except OSError as err:
            return f"{path}: cannot read the rule file: {err.strerror or err}"
    if any(c in str(path) for c in "*?["):
        return (f"{path}: no such rule or variant file: a pattern is expanded by the shell, in "
                f"the folder it runs in ({Path.cwd()}), and passed as it is where no file "
                f"matches it; allowed a path, a shipped rule set by name ({rule_sets}) or a "
                f"shipped variant as variants/NAME (the files of {VARIANTS_DIR})")
    names = ", ".join(f.stem for f in shipped())
    return (f"{path}: no such rule or variant file: allowed a path, a shipped rule set by name "
            f"({rule_sets}) or a shipped variant as variants/NAME ({names})")


def baseline_file(rules_path, files, start=None) -> str | None:
    """The baseline rule file of a comparison: ``--rules`` if given, else the one the variant
    files name (they must agree; by its path from the folder ``start``, default this one, where
    it is under it, else by its absolute path), else None (the NZ rule set)."""
    if rules_path is not None:
        return rules_path
    named = {}
    for f in files:
        b = baseline_of(f)
        if b is not None:
            named.setdefault(str(b), f)
    if len(named) > 1:
        (a, fa), (b, fb) = list(named.items())[:2]
        raise RuleError(f"--variant: {fa} names the baseline {a} and {fb} names {b}: give "
                        "--rules to choose one")
    found = next(iter(named), None)
    if found is None:
        return None
    if not Path(shipped_rule_file(found)).is_file():
        raise RuleError(f"{named[found]}: key 'variant.baseline' names {found}: "
                        f"{_not_a_rule_file(Path(shipped_rule_file(found)))}")
    problem = baseline_problem(named[found], shipped_rule_file(found))
    if problem is not None:
        raise RuleError(problem)
    return from_folder(found, start)


def from_folder(path, start=None) -> str:
    """The file ``path`` (absolute) by its path from the folder ``start`` (default this one)
    where it is under it, else as it is."""
    rel = os.path.relpath(path, start)
    return str(path) if rel.startswith("..") else rel
