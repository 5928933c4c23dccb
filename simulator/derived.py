"""Basic strategies derived by the exact analyzer, and exact figures, cached on disk.

Every command plays by default the basic strategy of its rules: the shipped ``basic`` where it
fits (`nz_chart_fits`), else the one the exact analyzer derives (`DERIVED_BASIC`). Derived charts
and exact figures are computed once and kept in a user cache folder (`cache_dir`), keyed by a
SHA-256 of what they depend on: docs/compare.md, "Strategies".
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from simulator import __version__
from simulator.engine import stack_tables
from simulator.exact.cache import (
    UNSEEN,
    analyzer_hash,
    cache_dir,
    one_at_a_time,
    rejected,
    sealed,
    unsealed,
    write_atomic,
)
from simulator.processes import map_spawned, processes_for
from simulator.rules import rules_dict, short_change, validate
from simulator.strategy import dumps_strategy, load_strategy, loads_strategy, tables_hash

DERIVED_BASIC = "basic (derived for these rules)"  # a derived strategy's name in every output
BASELINE_BASIC = "basic (derived for the baseline's rules)"  # compare --same-strategy's variants
# The rule keys that change what the basic strategy should be: its charts, or whether it takes
# insurance and even money (not the cut card, the boxes, or the side bet's pays).
CHART_KEYS = ("decks", "hole_card", "double_on", "double_after_split", "max_hands",
              "resplit_aces", "hit_split_aces", "dealer_hits_soft_17", "dealer_blackjack_takes",
              "surrender", "blackjack_pays", "insurance_pays")


# ... and those a sevens row chosen for the main wager plus a Super Sevens bet depends on too.
SIDE_BET_KEYS = ("super_sevens_pays", "super_sevens_bet")
# The rest, which the best play does not depend on (a test requires every key in one of the three).
NOT_CHART_KEYS = ("penetration", "shuffle", "dealer_draws_when_no_live_box", "boxes",
                  "super_sevens")


def chart_change(rules, keys=CHART_KEYS) -> str:
    """The ``keys`` (the chart keys) in which ``rules`` differ from the NZ rules, as
    ``key=value`` words, each value as a rule file writes it (``double_on="10-11"``, as the
    ``Changed:`` line shows it; "" where none differs); a key of no effect under the other rules
    (`rules.no_effect`) is no reason for another chart."""
    from simulator.rules import Rules, no_effect, rule_change

    nz, here = rules_dict(Rules()), rules_dict(rules)
    return ", ".join(rule_change(k, here[k]) for k in keys
                     if here[k] != nz[k] and not no_effect(rules, k))


def generated_name(rules, with_super_sevens: bool = False, insurance: bool = False) -> str:
    """The name `bjsim strategy generate` gives the strategy it derives for ``rules`` unless told
    another: the shipped strategy it is under the NZ rules (``basic``, ``basic-super-sevens``
    with ``with_super_sevens``, ``insurance-taker`` with ``insurance``; with both
    ``insurance-taker-super-sevens``, no shipped one), and under others that
    name with the keys it was derived for that differ from them, each in its short words
    (`rules.short_change`), in brackets that keep them together in a list of names: ``basic (2
    decks, double any 2, H17)``. So no other rules' chart goes by a shipped strategy's name, and
    the name fits a table's column."""
    from simulator.exact.analyze import base_name

    base = base_name(with_super_sevens, insurance)
    changed = short_change(rules, CHART_KEYS + (SIDE_BET_KEYS if with_super_sevens else ()))
    return f"{base} ({', '.join(changed)})" if changed else base


def same_chart(a, b) -> bool:
    """Whether strategies ``a`` and ``b`` play the same charts (hard, soft, pairs, sevens) and
    take insurance and even money alike."""
    import numpy as np

    from simulator.strategy import CHARTS

    return (all(np.array_equal(getattr(a, t), getattr(b, t)) for t in CHARTS)
            and (a.insurance, a.even_money) == (b.insurance, b.even_money))


def nz_chart_fits(rules, theirs=None) -> bool:
    """Whether the shipped ``basic`` (the NZ rules' chart) is the basic strategy of ``rules``:
    no chart key differs from the NZ rules, or ``theirs`` (the chart derived for them) is the
    same chart."""
    return not chart_change(rules) or theirs is not None and same_chart(
        theirs, load_strategy("basic"))


def rules_basic(rules, theirs=None):
    """The basic strategy every command plays by default under ``rules``: the shipped ``basic``
    where `nz_chart_fits` (or no chart was derived: None), else ``theirs`` (the chart derived
    for them) named `DERIVED_BASIC`."""
    import dataclasses

    if theirs is None or nz_chart_fits(rules, theirs):
        return load_strategy("basic")
    return dataclasses.replace(theirs, name=DERIVED_BASIC)


def derived_words(rules) -> str:
    """What every output says beside the strategy derived for ``rules`` (``strategy_note``)."""
    return (f"the exact analyzer's for {chart_change(rules)}; the shipped basic is the NZ rules' "
            "chart")


def nz_chart_words(rules, theirs=None) -> str | None:
    """What every output says beside the shipped ``basic`` played under ``rules``: None where no
    chart key differs or the chart derived for them (``theirs``, if derived) is the NZ one;
    else that it is the NZ rules' chart, and the derived one differs (or, not derived yet, may)."""
    changed = chart_change(rules)
    if not changed or theirs is not None and nz_chart_fits(rules, theirs):
        return None
    if theirs is None:
        return f"basic is the NZ rules' chart; these rules ({changed}) may call for another"
    return f"basic is the NZ rules' chart; the one derived for these rules ({changed}) differs"


def strategy_note(rules, name: str, theirs=None) -> str | None:
    """The words beside strategy ``name`` played under ``rules`` (``run.strategy_note``): the
    derived one's rules (`derived_words`), or for the shipped ``basic`` `nz_chart_words` by
    ``theirs`` (the chart derived for ``rules``, where the command derived it), else by the
    cached chart; else None. The rules' own basic (`rules_basic` of ``theirs``) is so named and
    noted alike whatever the cache holds."""
    if name == DERIVED_BASIC:
        return derived_words(rules)
    if name != "basic":
        return None
    if theirs is None and chart_change(rules):
        theirs = cached_basic(rules)
    return nz_chart_words(rules, theirs)


def rules_key(rules) -> str:
    """16 hex digits of SHA-256 over the bjsim version, the analyzer's source and every rule-set
    key the exact analyzer reads (all but `UNSEEN`)."""
    seen = {k: v for k, v in rules_dict(rules).items() if k not in UNSEEN}
    text = json.dumps({"bjsim": __version__, "analyzer": analyzer_hash(), "rules": seen},
                      sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def basic_path(rules) -> Path:
    """Where the basic strategy derived for ``rules`` is cached (it may not exist yet)."""
    return cache_dir() / f"basic-{rules_key(rules)}.toml"


def kept_basic(rules) -> Path | None:
    """``basic_path(rules)`` where it holds the derived chart (`cached_basic`: it matches its
    checksum and loads), else None (not derived, not kept, or a file not to be used)."""
    return basic_path(rules) if cached_basic(rules) is not None else None


def cached_basic(rules):
    """The basic strategy derived for ``rules`` as its cache file holds it, or None (not derived
    yet, or a file that does not match its checksum or does not load: derived again)."""
    path = basic_path(rules)
    try:
        data = unsealed(path, path.read_bytes())
    except OSError:  # (not derived yet)
        return None
    try:
        return None if data is None else loads_strategy(data.decode(), str(path), path.stem)
    except ValueError:  # (UnicodeDecodeError too)
        rejected(path, "does not load")
        return None


def basic_for(rules) -> tuple[object, Path | None]:
    """The basic strategy derived for ``rules`` (`simulator.exact.analyze`) and its cache file
    (None if the cache folder cannot be written). Its exact figures are cached on the way."""
    rules = validate(rules, "rules")  # (as `simulator.exact.analyze` checks them)
    path, kept = basic_path(rules), cached_basic(rules)
    if kept is not None:
        return kept, path
    with one_at_a_time(path):  # (another process deriving it: its file, when it has done)
        kept = cached_basic(rules)
        return (kept, path) if kept is not None else _derive(rules, path)


def _derive(rules, path):
    from simulator.exact import analyze

    res = analyze(rules)
    strat = res["strategy"]
    figures = {"house_edge": float(res["house_edge"]),
               "super_sevens_ev": None if res["super_sevens"] is None
               else float(res["super_sevens"]["ev"])}
    header = (f"# The basic strategy bjsim compare derived for these rules (exact analyzer,\n"
              f"# docs/exact.md); cache key {rules_key(rules)}, bjsim {__version__}.\n"
              f"# Rules (all but {', '.join(UNSEEN)}): "
              f"{json.dumps({k: v for k, v in rules_dict(rules).items() if k not in UNSEEN})}\n\n")
    ok = write_atomic(path, sealed(header + dumps_strategy(strat)))
    if ok:
        _write_exact(rules, [strat] * rules.boxes, figures)
    return strat, path if ok else None


def basic_for_all(rules_list, workers: int | None = None, say=None, done=None) -> dict:
    """``{rules_key: basic_for(rules)}`` of every rule set of ``rules_list``; those not yet cached
    derived side by side on up to ``workers`` processes (default: every CPU), each about 0.3 GB.
    ``say(rules_to_derive, processes)`` is called before the derivations start, if any, and
    ``done(k, n)`` as each is finished."""
    todo = {}
    for rules in rules_list:
        key = rules_key(rules)
        if key not in todo and cached_basic(rules) is None:  # (a damaged file: again)
            todo[key] = rules
    n = processes_for(len(todo), workers)
    if say is not None and todo:
        say(list(todo.values()), n)
    if todo:
        from simulator.exact.player import compile_here

        compile_here()
    made = dict(zip(todo, map_spawned(basic_for, todo.values(), n, done), strict=True))
    for rules in rules_list:
        key = rules_key(rules)
        if key not in made:
            made[key] = basic_for(rules)
    return made


def _exact_path(rules, strategies) -> Path:
    tables = stack_tables(rules, list(strategies))
    ins = "".join("1" if s.insurance else "0" for s in strategies)
    key = hashlib.sha256(f"{rules_key(rules)}{tables_hash(tables)}{ins}".encode()).hexdigest()
    return cache_dir() / f"exact-{key[:16]}.json"


def _write_exact(rules, strategies, figures: dict) -> None:
    write_atomic(_exact_path(rules, strategies), sealed(json.dumps(figures) + "\n"))


def _cached_exact(path: Path) -> dict | None:
    """The exact figures the file ``path`` holds, or None (not computed yet, or a file that
    does not match its checksum or does not load: computed again)."""
    try:
        data = unsealed(path, path.read_bytes())
    except OSError:  # (not computed yet)
        return None
    if data is None:
        return None
    try:
        doc = json.loads(data)
    except ValueError:  # (UnicodeDecodeError too)
        doc = None
    keys = {"house_edge", "super_sevens_ev"}
    if not isinstance(doc, dict) or set(doc) != keys:
        rejected(path, "does not load")
        return None
    return doc


def exact_for(rules, strategies, say=None) -> dict:
    """``{"house_edge", "super_sevens_ev"}`` (exact, full shoe every round; the mean over boxes)
    for ``strategies`` as `engine.run` takes them (one Strategy, or a list of one, for every
    box; or one a box), from the cache or `simulator.exact.compare.theory`; ``say()`` is called
    before figures not in the cache are computed. ``rules`` checked as `basic_for`'s."""
    rules = validate(rules, "rules")  # (before its cache key is made of them)
    strategies = list(strategies) if isinstance(strategies, (list, tuple)) else [strategies]
    stack_tables(rules, strategies)  # (each a Strategy, one or one a box: else a ValueError)
    if len(strategies) == 1 and rules.boxes > 1:
        strategies = strategies * rules.boxes
    if len(strategies) > 1:  # each box valued alone: the mean of its strategy's one-box figures
        one = rules.replace(boxes=1)
        from simulator.exact.compare import box_mean

        return box_mean([exact_for(one, [s], say) for s in strategies])
    path = _exact_path(rules, strategies)
    kept = _cached_exact(path)
    if kept is not None:
        return kept
    from simulator.exact.compare import theory

    if say is not None:
        say()
    th = theory(rules, strategies)
    figures = {"house_edge": float(th["house_edge"]), "super_sevens_ev": th["super_sevens"]}
    _write_exact(rules, strategies, figures)
    return figures
