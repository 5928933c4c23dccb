"""Checkpoints: what a run has finished, on disk, so that ``--checkpoint FILE --resume`` carries on
where an interrupted run stopped and gives exactly the uninterrupted result. A small JSON file:
``identity`` (everything the result depends on, the code that plays it too), ``state``
(`engine.RunState`: the finished chunks' summed tally and the few past it), ``command`` (the
command line's options of the run, which a resume takes where they are not given again) and
``sha256`` (of the rest); written atomically, at most every ``BJSIM_CHECKPOINT_EVERY`` seconds
(default 5) and at the end. docs/design.md "Checkpoints" has the format and the checks a resume
makes."""

from __future__ import annotations

import ast
import dataclasses
import hashlib
import json
import os
import re
import shlex
import time
from types import SimpleNamespace

try:
    import fcntl
except ImportError:  # (not on Windows: no lock, two runs of one checkpoint not refused)
    fcntl = None

import numpy as np

from simulator import __version__, atomic, engine, source
from simulator import layout as L
from simulator.strategy import tables_hash
from simulator.tally import max_per_round

FORMAT = "bjsim-checkpoint"
FORMAT_VERSION = 2  # 2: with the sha256 checksum
WRITE_EVERY_SECONDS = 5.0
CODE = "source_sha256"  # an identity's key: the code that plays the run (`source.sha256`)


class CheckpointError(ValueError):
    """A checkpoint that cannot be read, or belongs to a different run."""


def identity(rules, tables, seed: int, chunk_rounds: int, rounds: int,
             precision: float | None = None) -> dict:
    """Everything the result of a run depends on (see the module docstring): the code that plays
    it too (``source_sha256``, `source.sha256`)."""
    return {
        "bjsim": __version__,
        CODE: source.sha256(),
        "rules": _rules(rules),
        "strategies_sha256": tables_hash(tables),
        "seed": int(seed),
        "chunk_rounds": int(chunk_rounds),
        "rounds": int(rounds),
        "precision": None if precision is None else float(precision),
    }


def _rules(rules) -> dict:
    """The rules as an identity holds them (JSON: lists, not tuples)."""
    return {k: list(v) if isinstance(v, tuple) else v for k, v in dataclasses.asdict(rules).items()}


def _kind(ident: dict) -> str:
    """The command whose run an identity is: compare's says so, count's has its plan."""
    return ident.get("kind") or ("count" if "counting" in ident else "simulate")


def _code_differs(saved: dict, current: dict) -> str | None:
    """How the code that wrote a checkpoint (its identity ``saved``) differs from the code of
    the run ``current`` (``source_sha256``, `source.sha256`), in words; None if it is the same.
    A checkpoint without it (of a bjsim before it was kept) cannot be shown to be of this code."""
    there, here = saved.get(CODE), current.get(CODE)
    if there == here:
        return None
    was = (f"is {_cut(there, 70)} there" if there is not None else
           "is not recorded there (a checkpoint of an earlier bjsim)")
    return (f"it was written by other code: bjsim's source SHA-256 {was}, {here} here: resume "
            "it with the code that wrote it, or start the run again without --resume (and "
            "another --checkpoint file)")


def code_problem(path) -> str | None:
    """Why ``path`` cannot be resumed by this code: it was written by other code (its identity's
    ``source_sha256``, or none), or None. `CheckpointError` for a file that is not a
    checkpoint. A resume's check after the command's (`kind_problem`), before options are read
    from it: the same refusal as `resume`'s."""
    saved = load(path).get("identity")
    if not isinstance(saved, dict):
        raise CheckpointError(f"checkpoint {path}: damaged identity")
    diff = _code_differs(saved, {CODE: source.sha256()})
    return None if diff is None else f"--resume: {path} is a checkpoint of a different run: {diff}"


def _differs(saved: dict, current: dict) -> str | None:
    """The first difference between two identities, in words; None if equal: the command, the
    code, the run's settings, a comparison's games, the rules (which also change the strategy
    tables' shape, boxes, and a comparison's default pair_rounds), the other settings, the
    tables."""
    if _kind(saved) != _kind(current):
        return (f"it is a checkpoint of bjsim {_kind(saved)}, not of bjsim {_kind(current)}")
    code = _code_differs(saved, current)
    if code is not None:
        return code
    # precision before rounds: with --precision given or left out, rounds is its cap (the
    # default --max-rounds), not a length the user gave
    common = ("bjsim", "seed", "chunk_rounds", "precision", "rounds")
    more = sorted((set(saved) | set(current)) - set(common)
                  - {"rules", "strategies_sha256", CODE, "labels"})
    # the games, then their rules, before the settings a rule changes by default (pair_rounds)
    games = ["games"] if "games" in more else []
    for key in (*common, *games, "rules", *(k for k in more if k != "games")):
        if key == "rules":
            problem = _rule_problem(saved.get("rules", {}), current.get("rules", {}))
            if problem:
                return problem
            continue
        a, b = saved.get(key), current.get(key)
        if key == "games" and a is not None and a != b:  # (a compare checkpoint's labels)
            return (f"the games compared are {', '.join(map(str, a))} there, "
                    f"{', '.join(map(str, b or []))} here")
        if a != b and not (key == "games" and a is None):  # (one written before they were kept)
            name = {"bjsim": "bjsim version", "counting": "the counting plan's",
                    "rounds": "rounds (or --max-rounds)",
                    "super_sevens_exact": "the 7-7 play of the exact Super Sevens sums",
                    "labels": "of what the outputs name,"}.get(
                key, key)
            if key not in saved:  # (a key kept since the checkpoint was written)
                return (f"{name} is not recorded there (a checkpoint of an earlier bjsim), "
                        f"{_cut(b)} here: start the run again")
            if isinstance(a, dict) and isinstance(b, dict):  # the first field that differs
                field = next(k for k in sorted(set(a) | set(b), key=lambda k: (k != "name", k))
                             if a.get(k) != b.get(k))  # (a plan's name first: another plan)
                if field not in a:  # (kept since the checkpoint was written)
                    return (f"{name} {field} is not recorded there (a checkpoint of an earlier "
                            f"bjsim), {_cut(b.get(field))} here: start the run again")
                name, a, b = f"{name} {field}", a.get(field), b.get(field)
                if isinstance(a, dict) and isinstance(b, dict):  # a plan's index plays: the one
                    play = next(k for k in (*a, *b) if a.get(k) != b.get(k))  # that differs
                    name = name.replace("index_plays", "index plays' count" if play == "count"
                                        else f"index play {play}")
                    a, b = (json.dumps(v.get(play, "none")) for v in (a, b))
                elif field == "index_plays":  # plays on one side only
                    name = name.replace("index_plays", "number of index plays")
                    a, b = (("0" if v is None else f"{len(v) - 1} (for the count {v['count']})")
                            for v in (a, b))
                elif key == "counting":
                    a, b = _plan_value(a), _plan_value(b)
            if key == "precision":  # (none: a run of fixed --rounds, not Python's None)
                a, b = ("none (a run of a fixed number of rounds)" if v is None else v
                        for v in (a, b))
            return f"{name} is {_cut(a)} there, {_cut(b)} here"
    if saved.get("strategies_sha256") != current.get("strategies_sha256"):
        plays = ", or a counter's index plays" if _kind(current) == "count" else ""
        return (f"strategy tables differ (--strategy{plays}; with no --strategy, under rules "
                "that change the chart, the rules' own basic strategy is played: --strategy "
                "basic plays the NZ chart)")
    for field in ("the rule set's name", "each box's strategy name"):  # (after the tables: a
        if "labels" not in saved or "labels" not in current:  # new chart is said as such)
            break
        a, b = (ident["labels"].get(field) for ident in (saved, current))
        if a != b:
            back = ("remove the name key again" if a == "none" else
                    "give the file its name back")  # (a rule file with no name then)
            a, b = (", ".join(map(str, v)) if isinstance(v, list) else
                    "no name" if v == "none" else v for v in (a, b))
            return (f"{field}, which the outputs give (the file's name key, else its file's "
                    f"name), is {_cut(a)} there, {_cut(b)} here: {back}, or start the run "
                    "again")
    return None


def _as_toml(value) -> str:
    """A rule's value as a rule file writes it (true, not True)."""
    if value is None:
        return "(none)"
    return json.dumps(value) if isinstance(value, (bool, str, list)) else str(value)


def _plan_value(text):
    """A counting plan's field as an identity keeps it (its repr) in the plan file's terms: a
    ramp's or a count's fields as ``key = value`` (lists as TOML writes them)."""
    try:
        call = ast.parse(str(text), mode="eval").body
        fields = {k.arg: ast.literal_eval(k.value) for k in call.keywords}
    except (SyntaxError, ValueError, AttributeError, TypeError):
        return text
    return ", ".join(f"{k} = {json.dumps(v)}" for k, v in fields.items()
                     if k not in ("description", "source")) or text


def _cut(value, most: int = 120) -> str:
    """``value`` as text on one line (its line breaks as "; "), cut to ``most`` characters."""
    text = "; ".join(str(value).splitlines())
    return text if len(text) <= most else text[: most - 3] + "..."


def checksum(doc: dict) -> str:
    """SHA-256 (hex) of the canonical JSON of ``doc`` without its ``sha256`` key."""
    content = {k: v for k, v in doc.items() if k != "sha256"}
    text = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=True,
                      allow_nan=False)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def _state_doc(state) -> dict:
    """``state`` (`engine.RunState`) as a checkpoint keeps it, with its rounds and whether it
    is finished."""
    return {
        "state": {
            "prefix_end": int(state.prefix_end),
            "prefix": [int(x) for x in state.prefix],
            "extra": {str(i): [int(x) for x in t] for i, t in sorted(state.extra.items())},
            "stop_chunk": state.stop_chunk,
        },
        "rounds_done": state.rounds_done,
        "finished": bool(state.finished),
        "written": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }


def save(path, ident: dict, state, command: dict | None = None, before_rename=None,
         exclusive: bool = False) -> None:
    """Write ``state`` (`engine.RunState`) with ``ident`` to ``path`` atomically; ``command``
    (``{"name": ..., "options": {...}}``, from the command line) is kept beside them;
    ``before_rename`` and ``exclusive``: `atomic.write`'s."""
    doc = {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "identity": ident,
        "tally_names": list(L.TALLY_NAMES),
        "count_names": list(L.COUNT_NAMES),
        **_state_doc(state),
    }
    if command is not None:
        doc["command"] = command
    _write(path, doc, before_rename, exclusive)


def save_part(path, base: dict, part: str, ident: dict, state, before_rename=None) -> None:
    """Write ``state`` of the run ``ident`` as the section ``part`` of the checkpoint ``base``
    (the document as read: its own run's identity and state kept as they are) to ``path``
    atomically: bjsim count's control run (``"control"``) beside the counter's run."""
    doc = {k: v for k, v in base.items() if k != "sha256"}
    doc[part] = {"identity": ident, **_state_doc(state)}
    _write(path, doc, before_rename)


def _write(path, doc: dict, before_rename=None, exclusive: bool = False) -> None:
    doc["sha256"] = checksum(doc)
    atomic.write(os.path.realpath(path), json.dumps(doc, indent=1) + "\n", mode=atomic.USER_MODE,
                 durable=True, before_rename=before_rename,  # (a link's file: the link kept)
                 exclusive=exclusive)


# how every checkpoint `_write` makes begins, whitespace aside: a file that does, or is cut
# short in it (from the first letters of its format's value on: '{"f' could open another
# program's file), but is no JSON, is one damaged (`begins_as_one`)
OPENING = '{"format":"' + FORMAT + '"'
LEAST_OPENING = len('{"format":"bj')


def begins_as_one(text: str) -> bool:
    """Does ``text`` begin as every checkpoint does (`OPENING`), or is it the start of that
    opening, cut short in it from ``{"format":"bj`` on?"""
    head = re.sub(r"\s+", "", text[: 4 * len(OPENING)])  # (no whitespace in the opening's strings)
    return head.startswith(OPENING) or (len(head) >= LEAST_OPENING and OPENING.startswith(head))


def load(path) -> dict:
    """Read a checkpoint file; `CheckpointError` (one line) if it is not one."""
    text = ""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        doc = json.loads(text)
    except OSError as err:
        raise CheckpointError(f"checkpoint {path}: cannot read: {err.strerror or err}") from None
    except (ValueError, RecursionError) as err:  # UnicodeDecodeError is a ValueError
        if isinstance(err, json.JSONDecodeError) and begins_as_one(text):
            cut = not text.rstrip().endswith("}")
            raise CheckpointError(
                f"checkpoint {path}: a damaged bjsim checkpoint: "
                + ("cut short" if cut else "not JSON")
                + f" (line {err.lineno}, column {err.colno}): remove it and start the run "
                "again") from None
        if isinstance(err, json.JSONDecodeError):
            why = f"not JSON (line {err.lineno}, column {err.colno})"
        elif isinstance(err, UnicodeError):
            why = "not UTF-8 text"
        else:
            why = "too deeply nested" if isinstance(err, RecursionError) else _one_line(err)
        raise CheckpointError(f"checkpoint {path}: not a bjsim checkpoint: {why}") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise CheckpointError(f"checkpoint {path}: not a bjsim checkpoint")
    if doc.get("version") != FORMAT_VERSION:
        raise CheckpointError(
            f"checkpoint {path}: checkpoint format version {_shown(doc.get('version'))}: "
            f"allowed {FORMAT_VERSION}"
        )
    try:
        ok = doc.get("sha256") == checksum(doc)
    except (ValueError, TypeError, RecursionError):  # NaN or another value JSON cannot hold
        ok = False
    if not ok:
        raise CheckpointError(
            f"checkpoint {path}: its content does not match its sha256 checksum (edited or "
            "damaged): remove it and start the run again"
        )
    counter = isinstance(doc.get("identity"), dict) and "counting" in doc["identity"]
    if doc.get("tally_names") != list(L.TALLY_NAMES) or counter and doc.get(
            "count_names") != list(L.COUNT_NAMES):
        raise CheckpointError(f"checkpoint {path}: its tally layout differs from this bjsim's "
                              "(written by another version): remove it and start the run again")
    return doc


def carried_on(path) -> bool:
    """Will a resume of the checkpoint ``path`` write it: a run (or count's control run) not
    finished? False for one that cannot be read (the resume says why)."""
    try:
        doc = load(path)
    except CheckpointError:
        return False
    control = doc.get("control")  # (count's: written once the counter's run has finished)
    return not doc.get("finished") or "counting" in (doc.get("identity") or {}) and not (
        isinstance(control, dict) and control.get("finished"))


def resume(path, ident: dict, state, part: str | None = None) -> dict:
    """Load ``path`` into ``state`` (`engine.RunState`) after checking that it is a checkpoint of
    the run ``ident``; else `CheckpointError` naming what differs. With ``part`` (`save_part`),
    the run is that section's: none there (a checkpoint written before it was) leaves ``state``
    as it was, to start. Returns the document read."""
    whole = doc = load(path)
    if part is not None:
        doc = whole.get(part)
        if doc is None:
            return whole
        if not isinstance(doc, dict):
            raise CheckpointError(f"checkpoint {path}: damaged {part} run")
    try:
        saved = doc.get("identity", {})
        if _kind(saved) != _kind(ident):
            raise CheckpointError(other_command(path, _kind(saved), _kind(ident)))
        diff = _differs(saved, ident)
    except (AttributeError, TypeError):
        raise CheckpointError(f"checkpoint {path}: damaged identity") from None
    if diff is not None:
        what = ("is a checkpoint of a different run" if part is None else
                f"holds a {part} run of a different game")
        raise CheckpointError(f"--resume: {path} {what}: {diff}")
    try:
        s = doc["state"]
        prefix_end, stop = _whole(s["prefix_end"]), s.get("stop_chunk")
        stop = None if stop is None else _whole(stop)
        chunks = _chunks(s["extra"])
        if state.payload == "tally":
            extra = {i: _tally(t) for i, t in chunks.items()}
            prefix = _tally(s["prefix"], bits=None)
            _check_state(state, prefix_end, prefix, extra, stop, ident["rules"])
        else:  # a state with a payload of its own reads and checks it (bjsim compare)
            prefix, extra = state.read_checkpoint(prefix_end, s["prefix"], chunks, stop)
    except (KeyError, TypeError, ValueError, AttributeError, OverflowError) as err:
        raise CheckpointError(f"checkpoint {path}: damaged state: {_one_line(err)}") from None
    state.restore(prefix_end, prefix, extra, stop)
    return whole


def saved_options(path, name: str) -> dict:
    """The options of bjsim ``name`` kept in the checkpoint ``path`` (`save`'s ``command``): {}
    for a checkpoint of another command or one written without them. `CheckpointError` for a
    file that is not a checkpoint."""
    command = load(path).get("command")
    if not isinstance(command, dict) or command.get("name") != name:
        return {}
    options = command.get("options")
    if not isinstance(options, dict):
        raise CheckpointError(f"checkpoint {path}: damaged options")
    return options


def kind_problem(path, kind: str) -> str | None:
    """Why ``path`` cannot be resumed by bjsim ``kind``: it is a checkpoint of another command
    (its identity says which), or None. `CheckpointError` for a file that is not a checkpoint.
    The first check of a resume, before options are read from it."""
    saved = load(path).get("identity")
    if not isinstance(saved, dict):
        raise CheckpointError(f"checkpoint {path}: damaged identity")
    return None if _kind(saved) == kind else other_command(path, _kind(saved), kind)


def other_command(path, saved: str, current: str) -> str:
    """The refusal of a checkpoint of bjsim ``saved`` given to bjsim ``current``."""
    return (f"--resume: {path} is a checkpoint of bjsim {saved}, not of bjsim {current}: "
            f"resume it with bjsim {saved} --resume {shlex.quote(str(path))}")


def rules_differ(path, kind: str, rules) -> str | None:
    """A resumed run's early refusal, before its strategies are made (the default one may take
    seconds to derive): why ``path`` is not a checkpoint of bjsim ``kind`` under ``rules``, or
    None (`resume` checks the rest). `CheckpointError` for a file that is not a checkpoint."""
    saved = load(path).get("identity", {})
    try:
        if _kind(saved) != kind:
            return other_command(path, _kind(saved), kind)
        diff = _differs({"rules": saved.get("rules", {})}, {"rules": _rules(rules)})
    except (AttributeError, TypeError):
        raise CheckpointError(f"checkpoint {path}: damaged identity") from None
    return None if diff is None else f"--resume: {path} is a checkpoint of a different run: {diff}"


def _one_line(err) -> str:
    return " ".join(str(err).split())[:200] or type(err).__name__


def _shown(value) -> str:
    return " ".join(repr(value).split())[:60]


def _chunks(extra) -> dict:
    """A checkpoint's finished chunks past the prefix (``state.extra``: ``{"12": payload}``,
    as `_state_doc` writes them) by their numbers; ValueError naming a key that is not one."""
    if not isinstance(extra, dict):
        raise ValueError(f"extra: {_shown(extra)}: allowed an object of finished chunks by "
                         "their numbers ({\"12\": [...]})")
    for key in extra:
        if not (key.isascii() and key.isdigit() and str(int(key)) == key):
            raise ValueError(f"extra: {_shown(key)} is not a chunk number: allowed a chunk's "
                             "index, a whole number 0 or more (\"12\")")
    return {int(key): t for key, t in extra.items()}


def _whole(x) -> int:
    if isinstance(x, bool) or not isinstance(x, int):
        raise ValueError(f"{_shown(x)} is not a whole number")
    return x


def _tally(values, bits: int | None = 64) -> np.ndarray:
    """A chunk's tally (int64), or with ``bits=None`` a run total (Python integers)."""
    if not isinstance(values, list) or len(values) != L.N_TALLY:
        raise ValueError(f"a tally is a list of {L.N_TALLY} whole numbers")
    for x in values:
        _whole(x)
        if bits is not None and not -(2 ** (bits - 1)) <= x < 2 ** (bits - 1):
            raise ValueError(f"tally value {_shown(x)} does not fit {bits} bits")
    if bits is None:
        return np.array(values, dtype=object)
    return np.array(values, np.int64)


def check_past_prefix(i: int, prefix_end: int, n: int) -> None:
    """A ValueError unless finished chunk ``i`` can be past a prefix of ``prefix_end`` chunks of
    ``n``."""
    if not prefix_end < i < n:
        prefix = f"chunks 0-{prefix_end - 1}" if prefix_end else "no chunk"
        raise ValueError(f"finished chunk {i}: " + (
            f"allowed {prefix_end + 1}-{n - 1}" if prefix_end + 1 < n else
            f"none can be past the prefix ({prefix}) in a run of chunks 0-{n - 1}"))


def _check_state(state, prefix_end, prefix, extra, stop, rules: dict) -> None:
    """That a checkpoint's state could come from the run of ``state`` (`engine.RunState`) under
    ``rules`` (the run's identity's rules)."""
    n = state.n_chunks
    if not 0 <= prefix_end <= n:
        raise ValueError(f"prefix_end = {prefix_end}: allowed 0-{n}")
    if stop is not None:
        hw = engine.half_width(prefix)
        if state.precision is None or stop != prefix_end - 1 or extra or hw is None \
                or hw > state.precision:
            raise ValueError(f"stop_chunk = {stop}: the precision target was not met there")
    for i in extra:
        check_past_prefix(i, prefix_end, n)
    rounds = min(prefix_end * state.chunk_rounds, state.rounds)  # (every chunk but the last full)
    if int(prefix[L.T_ROUNDS]) != rounds:
        which = f"chunks 0-{prefix_end - 1}" if prefix_end else "no chunk (none finished)"
        raise ValueError(f"the tally of {which} holds {int(prefix[L.T_ROUNDS])} rounds: "
                         f"{'they played' if prefix_end else 'it is'} {rounds}")
    for i, t in extra.items():
        want = engine.chunk_size(i, state.rounds, state.chunk_rounds)
        if int(t[L.T_ROUNDS]) != want:
            raise ValueError(f"chunk {i}'s tally holds {int(t[L.T_ROUNDS])} rounds: it played "
                             f"{want}")
    for t in (prefix, *extra.values()):
        bad = tally_problem(t, rules)
        if bad:
            raise ValueError(bad)


SIGNED = {"main_sum", "total_sum", "round_total_sum", "ins_sum", "ss_sum", "ss_round_sum",
          "round_main_sum", "round_ins_sum"}
SIGNED |= {f"strategy{k + 1}_{f}" for k in range(7) for f in L.BY_STRATEGY if f in SIGNED}


def _rule_problem(rs: dict, rc: dict) -> str | None:
    """The first rule that differs between a checkpoint's rules ``rs`` and this run's ``rc``
    (a comparison's keyed ``i:label.key``: named as the game's), or None."""
    for key in sorted(set(rs) | set(rc)):
        if rs.get(key) != rc.get(key):
            game, _, name = key.rpartition(".") if ":" in key else ("", "", key)
            where = f"game '{game.partition(':')[2]}': " if game else ""
            return (f"{where}rule '{name}' is {_as_toml(rs.get(key))} there, "
                    f"{_as_toml(rc.get(key))} here")
    return None


def tally_problem(t, rules: dict) -> str | None:
    """What makes ``t`` impossible as the tally of a run under ``rules`` (a dict of rule keys): a
    negative count, box-rounds not ``boxes`` per round, a field beyond what its rounds can add
    up to (`tally.max_per_round`), ...; or None."""
    boxes = rules["boxes"]
    rounds, box_rounds = int(t[L.T_ROUNDS]), int(t[L.T_BOX_ROUNDS])
    most = max_per_round(SimpleNamespace(**rules))
    for name, x in zip(L.TALLY_NAMES, t, strict=True):
        if name not in SIGNED and x < 0:
            return f"tally '{name}' = {int(x)}: a count or a sum of squares is never negative"
        if abs(int(x)) > most[name] * rounds:
            return f"tally '{name}' = {int(x)}: more than {rounds} rounds can add up to"
    if box_rounds != rounds * boxes:
        return f"tally 'box_rounds' = {box_rounds}: the run's {rounds} rounds of {boxes} box(es) " \
               f"make {rounds * boxes}"
    by = [int(t[L.T_BY + k * L.N_BY + L.BY_BOX_ROUNDS]) for k in range(7)]
    if sum(by) != box_rounds:
        return f"tally 'strategyK_box_rounds' = {by}: they add up to box_rounds = {box_rounds}"
    if not rounds and t.any():
        return "a tally of no rounds holds other counts"
    return None


def _every_from_environment() -> float:
    """``BJSIM_CHECKPOINT_EVERY`` in seconds (unset or empty: `WRITE_EVERY_SECONDS`); a
    `CheckpointError` for anything but a number, 0 or more."""
    text = os.environ.get("BJSIM_CHECKPOINT_EVERY", "").strip()
    if not text:
        return WRITE_EVERY_SECONDS
    try:
        every = float(text)
    except ValueError:
        every = float("nan")
    if not 0 <= every < float("inf"):
        raise CheckpointError(f"BJSIM_CHECKPOINT_EVERY={_shown(text)[1:-1]}: allowed a number "
                              f"of seconds, 0 or more (unset: {WRITE_EVERY_SECONDS:g})")
    return every


def _same_file(fd: int, path) -> bool:
    """Is the open file ``fd`` the one at ``path`` now (not one since replaced)?"""
    try:
        a, b = os.fstat(fd), os.stat(os.path.realpath(path))
    except OSError:
        return False
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


class Writer:
    """Write a run's checkpoint at most every ``every`` seconds (`maybe`), or now (`write`)."""

    def __init__(self, path, ident: dict, every: float | None = None,
                 command: dict | None = None, part: str | None = None):
        self.path = path
        self.ident = ident
        self.command = command
        self.part = part  # a section of the file (`save_part`), written into ``base``
        self.base: dict | None = None  # the file as read, with ``part``
        if every is None:
            every = _every_from_environment()
        self.every = float(every)
        self.last = time.monotonic()
        self.writes = 0
        self.held = None  # the descriptor of the file locked (`hold`)
        self.fresh = False  # the file is this run's own, not one resumed (`run.open_checkpoint`)
        self.started = time.time()  # (a temporary file made since: another run's, not left over)

    def hold(self) -> bool:
        """Lock the checkpoint file now at ``path`` (``flock``, released when this process
        ends), the earlier one let go; False where another run holds it. A file locked as the
        run writing it put a new one in its place (its lock then let go) is not the checkpoint:
        the new one is tried."""
        for _ in range(100):
            try:
                fd = os.open(os.path.realpath(self.path), os.O_RDONLY)
            except OSError:
                return True
            try:
                if fcntl is not None:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(fd)
                return False
            if _same_file(fd, self.path):
                break
            os.close(fd)
        else:  # (replaced a hundred times as it was locked: a run writes it)
            return False
        if self.held is not None:
            os.close(self.held)
        self.held = fd
        return True

    def release(self) -> None:
        """Let the checkpoint file go (`hold`): the run has written its last."""
        if self.held is not None:
            os.close(self.held)
            self.held = None

    def remove(self) -> None:
        """Remove the file written (where ``path`` is a link: the file it points to, the link
        kept as it was) and let it go."""
        try:
            os.unlink(os.path.realpath(self.path))
        except FileNotFoundError:
            pass
        self.release()

    def maybe(self, state) -> bool:
        """Write if ``every`` seconds have passed since the last write; True if it wrote."""
        if time.monotonic() - self.last < self.every:
            return False
        self.write(state)
        return True

    def write(self, state) -> None:
        """Write the checkpoint now, its new file locked before it takes the old one's place
        (`_lock_new`): locked after the rename, a run resuming it in between got in, and both
        wrote it. A run's own new file is made only where none is (FileExistsError: another
        run started on the same path at the same time, both past its check that none was)."""
        new: list = []  # (the new file's descriptor, locked: `_lock_new`)
        try:
            if self.part is None:
                save(self.path, self.ident, state, self.command, lambda t: self._lock_new(t, new),
                     exclusive=self.fresh and not self.writes)
            else:
                save_part(self.path, self.base, self.part, self.ident, state,
                          lambda t: self._lock_new(t, new))
        except BaseException:
            for fd in new:  # (not written: the old file stays held)
                os.close(fd)
            raise
        if new:  # the old file let go only now, the new one in its place (before: unheld)
            if self.held is not None:
                os.close(self.held)
            self.held = new[0]
        if not self.writes:  # (no other run writes it: a temporary file is a leftover)
            self._remove_leftovers()
        self.last = time.monotonic()
        self.writes += 1

    @staticmethod
    def _lock_new(tmp: str, new: list) -> None:
        """Lock the written file ``tmp`` (new: no other run holds it), its descriptor added to
        ``new``; the old file stays held until the new one has taken its place."""
        fd = os.open(tmp, os.O_RDONLY)
        try:
            if fcntl is not None:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:  # (a file system without locks: as `hold` where it cannot open)
            os.close(fd)
            return
        new.append(fd)

    def _remove_leftovers(self) -> None:
        """Remove the temporary files an earlier write of this checkpoint left (a run killed
        with ``kill -9`` as it saved: `atomic.leftovers`), once this run holds the file."""
        for tmp in atomic.leftovers(os.path.realpath(self.path)):
            try:
                # (newer: a run writing it now; a file's time is the kernel's coarse clock,
                if os.stat(tmp).st_mtime < self.started - 2:  # some ms behind time.time())
                    os.unlink(tmp)
            except OSError:  # (gone already, or a folder that cannot be written: kept)
                pass
