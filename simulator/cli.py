"""The ``bjsim`` command line: simulate, replay, rules, strategies, exact, compare, report, count.

Results go to stdout (or ``--output``), progress and errors to stderr. A user's mistake (a bad rule
file, ``--set`` key or value, strategy, card file, option) ends with one line naming what is wrong
and what is allowed, and exit code 2; never a traceback.
"""

from __future__ import annotations

import atexit
import contextlib
import csv
import dataclasses
import decimal
import errno
import functools
import io
import itertools
import json
import math
import os
import re
import shlex
import signal
import sys
import tempfile
import threading
from pathlib import Path

import click

from simulator import DEFAULT_CHUNK_ROUNDS, __version__, atomic, stops
from simulator.source import provenance

DEFAULT_SEED = 1994  # the Gazette's year: every run is reproducible unless --seed says otherwise
DEFAULT_ROUNDS = 10_000_000
DEFAULT_RULES_SHOWN = "configs/nz1994.toml"  # as rules.shown_rule_file(None)
_STOPPED_BY = [signal.SIGINT]  # the last stop signal seen: SIGINT (Ctrl-C) or SIGTERM
CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


class _Option(click.Option):
    """An option whose default given as text shows as written: [default: 1,000,000], where
    click writes [default: (1,000,000)]."""

    def get_help_extra(self, ctx):
        extra = super().get_help_extra(ctx)
        if isinstance(self.show_default, str):
            extra["default"] = self.show_default
        return extra


_option = functools.partial(click.option, cls=_Option)  # (every option of bjsim's)


def _interrupted() -> int:
    """The exit code of a command a stop signal ended: 128 + the signal, 130 for Ctrl-C, 143 for
    SIGTERM (129 SIGHUP, 152 SIGXCPU: `stops.STOP_SIGNALS`)."""
    return 128 + int(_STOPPED_BY[0])


def _nothing_to_report(ctx, compiling: bool = False, failure: str | None = None) -> None:
    """A run stopped before any chunk finished: ``bjsim: interrupted before any chunk
    finished`` (``while compiling`` where it was, as stderr said; ``while starting`` where the
    kernel loaded from the cache) alone (not the run's lines of 0 rounds), no report (none is
    written over an earlier one), exit 130. The cluster's ``failure`` instead: one ``Error:``
    line, exit `RUNNER_FAILED`."""
    from simulator.jit import compile_said

    if failure is not None:
        _echo(f"Error: {failure}: no chunk finished: nothing to report", err=True)
        ctx.exit(RUNNER_FAILED)

    when = ("while compiling, " if compile_said() else "while starting, ") if compiling else ""
    _echo(f"bjsim: interrupted {when}before any chunk finished: nothing to report",
               err=True)
    ctx.exit(_interrupted())


RUNNER_FAILED = 1  # a run its Dask cluster failed (not a user's mistake, as OutputError's)


def _echo(message=None, **kwargs) -> None:
    """``click.echo``; a line on stderr as `streams.inert` leaves it (a file's name holding an
    escape sequence, in a warning or a progress note, shown as written)."""
    if kwargs.get("err") and isinstance(message, str):
        from simulator.streams import inert

        message = inert(message)
    click.echo(message, **kwargs)


class _Inert:
    """An error whose line shows a character that would act on a terminal as its escape (a
    file's name holding an escape sequence: `streams.inert`)."""

    def format_message(self) -> str:
        from simulator.streams import inert

        return inert(super().format_message())


class BjsimError(_Inert, click.ClickException):
    """A user's mistake: one line on stderr, exit code 2."""

    exit_code = 2


@contextlib.contextmanager
def _usage_error_as_one_line(args=(), takes_rounds: bool = False):
    """A click usage error (a bad option value, an unknown option or command, a missing
    argument) as one line on stderr, ``Error: ...``, exit code 2, like every other user error: no
    usage block above it (``--help`` shows that). A bare group still shows its help. A stray
    word among the command's ``args`` is said with what it likely was (`_stray_hint`)."""
    try:
        yield
    except click.exceptions.NoArgsIsHelpError:
        raise
    except click.UsageError as err:
        message = err.format_message()
        if message.startswith("Got unexpected extra argument"):
            message += _stray_hint(list(args), takes_rounds)
        raise BjsimError(message) from None


KEY_VALUE_OPTIONS = ("--set", "--vary")  # options whose value is one KEY=VALUE word


ROUND_OPTIONS = ("-n", "--rounds", "--max-rounds", "--variant-rounds", "--count-rounds",
                 "--sample-rounds", "--chunk-rounds")  # options whose value is a round count


def _stray_hint(args: list[str], takes_rounds: bool = False) -> str:
    """What a word click found no place for likely was (a newcomer's review: `--set decks 8`
    said only "Got unexpected extra argument (8)"): a --set or --vary value split at a space
    (around its =, or with none), a second KEY=VALUE after one --set, a round count split at a
    space, or (``takes_rounds``: a command with --rounds) rounds given with no option; "" for
    any other word."""
    for i, word in enumerate(args):
        if i == 0 or word.startswith("-"):
            continue
        before = args[i - 1]
        if before.startswith("-"):
            continue  # (an option's own value)
        option = args[i - 2] if i >= 2 else ""
        pieces = list(itertools.takewhile(lambda w: not w.startswith("-"), args[i - 1:]))
        if option in KEY_VALUE_OPTIONS and ("=" not in before or before.endswith("=")
                                            or word.startswith("=")):
            joined = "".join(pieces) if "=" in "".join(pieces) else f"{before}={word}"
            return f": {option} takes KEY=VALUE as one word: {option} {joined}"
        if option in KEY_VALUE_OPTIONS and "=" in word:
            return (f": {option} takes one KEY=VALUE: repeat it for each, {option} "
                    f"{before.rstrip(',')} {option} {word}")
        if option in ROUND_OPTIONS and before[-1:].isdigit() and word[:1].isdigit():
            return (f": {option}'s value is one word: {option} {''.join(pieces)} (10_000_000 "
                    "groups digits)")
        return ""
    first = next((w for w in args if not w.startswith("-")), None)
    if takes_rounds and first is not None and args.index(first) == 0 and first[:1].isdigit():
        return f": the rounds are given by an option: --rounds {first}"
    return ""


WRITTEN = ("output", "plot_path", "checkpoint_path", "optimal_plan")  # files a command writes


# The commands whose --count takes a count system's file, as a count file given elsewhere is told
# to go to them (`rules.example_commands`): exact's only with --removal
COUNT_TAKERS = {"strategy indices": "strategy indices", "exact": "exact --removal"}


class OneLineCommand(click.Command):
    """A click command whose usage errors are one line (`_usage_error_as_one_line`), and whose
    written files (`WRITTEN`) are distinct."""

    def invoke(self, ctx):
        from simulator.rules import example_commands

        try:
            with example_commands(self._examples(ctx, ctx.meta.get(TYPED) or ())):
                return super().invoke(ctx)
        except click.ClickException as err:
            if RESUMED in ctx.meta and not getattr(err, "resume_words", False):
                err.message, err.resume_words = _resume_words(ctx, err.message), True
            raise

    def _examples(self, ctx, args=()) -> dict:
        """The command in use (``replay``, ``strategy indices``) for the kinds of file it takes
        by --rules, --strategy, --variant and a count system's --count (`COUNT_TAKERS`), which a
        file of the wrong kind is told to go to, and under ``vary-strategy`` where it takes
        --vary-strategy, which a strategy file given to --variant is told
        (`rules.example_commands`). In the mode that takes --count (``exact --removal``, its
        flag among the command line's ``args``), every kind's example keeps the mode."""
        words, c = [], ctx
        while c is not None and c.parent is not None:
            words.append(c.info_name)
            c = c.parent
        command = " ".join(reversed(words or [ctx.info_name]))
        counting = COUNT_TAKERS.get(command)
        args = list(args)
        args = args[: args.index("--")] if "--" in args else args
        shown = (counting if counting is not None
                 and all(flag in args for flag in counting[len(command):].split()) else command)
        return {kind: shown for kind, option in (("rule", "--rules"), ("strategy", "--strategy"),
                                                 ("variant", "--variant"),
                                                 ("vary-strategy", "--vary-strategy"))
                if any(option in p.opts for p in self.params)} | (
            {"count": counting} if counting is not None else {})

    def parse_args(self, ctx, args):
        ctx.meta[TYPED] = list(args)  # (an option named as typed: `typed_option`)
        return super().parse_args(ctx, args)

    def make_context(self, info_name, args, parent=None, **extra):
        from simulator.rules import example_commands

        _refuse_repeated(self, args)
        examples = self._examples(click.Context(self, info_name=info_name, parent=parent), args)
        rounds = any("--rounds" in p.opts for p in self.params)
        with _usage_error_as_one_line(list(args), rounds), example_commands(examples):  # (a
            # copy: click consumes the list it parses)
            ctx = super().make_context(info_name, args, parent=parent, **extra)
        if not ctx.resilient_parsing:
            _resume_file(ctx)
            _refuse_checkpoint_folder(ctx)
            _fill_from_checkpoint(ctx)
        _refuse_same_file(ctx)
        return ctx


TYPED = "bjsim.typed"  # ctx.meta: the command's arguments as given
KEPT = "bjsim.kept"  # ctx.meta: the options filled from the checkpoint (--resume)


def _stderr_is_terminal() -> bool:
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):  # (replaced, or closed)
        return False


def interrupted_line() -> str:
    """``bjsim: interrupted``, on a line of its own after a terminal's ``^C`` (a log file gets
    no blank line before it)."""
    return ("\n" if _stderr_is_terminal() else "") + "bjsim: interrupted"


def typed_option(ctx, param) -> str:
    """``param`` as the user wrote it (``-o`` or ``--output``, the last given: the one click
    keeps), else by its long form (given by the environment, or filled from a checkpoint)."""
    args = (ctx.meta.get(TYPED) or []) if ctx is not None else []
    args = args[: args.index("--")] if "--" in args else args
    named = None
    for arg in args:
        for opt in [*param.opts, *param.secondary_opts]:  # (--no-super-sevens too)
            if arg == opt or arg.startswith(opt + "=" if opt.startswith("--") else opt):
                named = opt
    return named or _long_name(param)


# Options a checkpoint does not keep: where and in what format the result is shown (a file
# written, -f, -q), what plays the chunks. Every other option of a command with --checkpoint is
# part of what it plays or of what its result holds (simulate's --exact, compare's --no-exact,
# count's --optimal-bets and --kelly-fraction: a resume gives the uninterrupted run's figures),
# kept (`_run_command`).
NOT_KEPT = frozenset({"checkpoint_path", "resume", "output", "fmt", "quiet", "workers",
                      "scheduler", "plot_path", "list_only", "optimal_plan"})


def _run_command(ctx) -> dict:
    """What a checkpoint keeps of the command line: the command's name and the value of each of
    its options but `NOT_KEPT` (a file as `_kept_file` names it, and in ``typed`` as given), so
    that ``--resume`` needs only the file (`_fill_from_checkpoint`)."""
    options, typed = {}, {}
    for param in ctx.command.params:
        if isinstance(param, click.Option) and param.name not in NOT_KEPT:
            value = given_value(ctx, param.name)
            if value is None:
                value = ctx.params.get(param.name)
            if isinstance(value, (tuple, list)):
                kept = [_kept_file(v, param.name) for v in value]
            else:
                kept = _kept_file(value, param.name)
            value = _as_named(ctx, value)
            options[param.name] = list(value) if isinstance(value, tuple) else value
            if kept != options[param.name]:
                options[param.name], typed[param.name] = kept, options[param.name]
    # the folder it was started in (kept by a resume): a resume reads a plan's relative count
    # and indices paths from it
    return {"name": ctx.command.name, "options": options, "typed": typed,
            "cwd": ctx.meta.get(STARTED) or os.getcwd()}


STRATEGY_OPTIONS = ("strategy_names", "strategy_name", "choices", "vary_strategies")


def _kept_file(given, name: str = ""):
    """A file an option names as a checkpoint keeps it, so that a resume finds it from any
    folder: a shipped rule or variant file by its name under ``configs/``, any other file by its
    absolute path (a strategy: a shipped one by its name, as given)."""
    from simulator.rules import DEFAULT_RULES_PATH, shipped_rule_file, shown_rule_file
    from simulator.strategy import looks_like_path

    if not isinstance(given, str):
        return given
    if name in STRATEGY_OPTIONS:
        return os.path.abspath(given) if looks_like_path(given) and os.path.isfile(given) else given
    found = shipped_rule_file(given)
    if not os.path.isfile(found):
        return given  # (the command has refused it)
    if Path(found).resolve().is_relative_to(DEFAULT_RULES_PATH.parent.resolve()):
        return shown_rule_file(found)
    return os.path.abspath(found)


def resume_option(help_text: str):
    """``--resume [FILE]``: a flag beside ``--checkpoint FILE``, or the file itself."""
    return _option(
        "--resume", "resume", is_flag=False, flag_value="", default=None, metavar="[FILE]",
        help=f"{help_text} --resume FILE is --checkpoint FILE --resume.")


def _resume_file(ctx) -> None:
    """``--resume FILE`` as ``--checkpoint FILE --resume``; ``resume`` a bool from here on."""
    if "resume" not in ctx.params:
        return
    path, ctx.params["resume"] = ctx.params["resume"], ctx.params["resume"] is not None
    if not path:
        return
    given = ctx.params.get("checkpoint_path")
    if given is not None and os.path.realpath(given) != os.path.realpath(path):
        raise BjsimError(f"--resume {path} and --checkpoint {given}: two files: allowed one (the "
                         "checkpoint of the run to carry on)")
    ctx.params["checkpoint_path"] = path
    ctx.meta[CHECKPOINT_NAMED] = typed_option(ctx, _param(ctx, "resume"))


CHECKPOINT_NAMED = "bjsim.checkpoint_named"  # ctx.meta: --resume, where it named the file


def checkpoint_option(ctx) -> str:
    """The option that named the checkpoint file, as typed: ``--resume`` where ``--resume FILE``
    named it, else ``--checkpoint`` (or its abbreviation)."""
    return ctx.meta.get(CHECKPOINT_NAMED) or typed_option(ctx, _param(ctx, "checkpoint_path"))


def _param(ctx, name: str):
    """The command's option whose parameter is ``name``."""
    return next(p for p in ctx.command.params if p.name == name)


def _refuse_checkpoint_folder(ctx) -> None:
    """A folder named as the checkpoint refused as every command refuses an output that is a
    folder (`write_problem`'s words, the option as typed: ``--checkpoint run: cannot write: it
    is a folder``; a run carried on, ``--resume run: a folder, not a checkpoint``), before it is
    read."""
    path = ctx.params.get("checkpoint_path")
    if not path or not os.path.isdir(path):
        return  # (another path: `_check_checkpoint` and `checkpoint_problem` say what is wrong)
    option = checkpoint_option(ctx)
    if ctx.params.get("resume"):  # (a run carried on: its file read, not written first)
        raise BjsimError(f"{option} {path}: a folder, not a checkpoint: allowed the path of an "
                         "existing checkpoint file (the run to carry on)")
    raise BjsimError(f"{option} {path}: {output_problem(path)}")


def _fill_from_checkpoint(ctx) -> None:
    """``--resume``: each option the command line leaves out is the one kept in the checkpoint
    (`_run_command`), read as if given again; an option given is kept, and the run's identity
    refuses it if it changes the run. A checkpoint of another command is refused first, before
    anything else is read or checked (its options fill nothing: compare would ask for a
    variant), then one written by other code (its options may mean another run here); one of a
    bjsim that kept no options fills nothing."""
    from simulator.checkpoint import (
        CheckpointError,
        code_problem,
        kind_problem,
        load,
        saved_options,
    )

    path = ctx.params.get("checkpoint_path")
    if not ctx.params.get("resume") or not path or not os.path.isfile(path):
        return  # (the command says what is wrong)
    try:
        problem = kind_problem(path, ctx.command.name) or code_problem(path)
        saved = saved_options(path, ctx.command.name)
    except CheckpointError as err:
        raise BjsimError(str(err)) from None
    if problem is not None:
        raise BjsimError(problem)
    command = load(path).get("command") or {}
    typed = command.get("typed") or {}
    if isinstance(command.get("cwd"), str):  # (a checkpoint of an earlier bjsim keeps none)
        ctx.meta[STARTED] = command["cwd"]
    filled, replaced = ctx.meta.setdefault(RESUMED, ([], []))
    given_keys = _keys_given(ctx)
    for param in ctx.command.params:
        if param.name not in saved or param.name in NOT_KEPT:
            continue
        value = saved[param.name]
        if not _given(ctx, param.name) and param.name in OWN_OPTION_KEYS and (
                param.name in given_keys):
            continue  # (its key given here by --set: that replaces it, as --boxes again would)
        if not _given(ctx, param.name) and param.name == "overrides" and isinstance(value, list):
            value = [v for v in value if not (isinstance(v, str) and _set_key(v) in given_keys
                                              and _set_key(v) in OWN_OPTION_KEYS)]
        if _given(ctx, param.name):
            now = given_value(ctx, param.name) or ctx.params[param.name]
            now = list(now) if isinstance(now, tuple) else now
            if not _same_files(now, value):
                replaced.append(_long_name(param, now))  # (given again, not as kept: refused if it
                # differs)
            continue
        _refuse_kept_file_gone(path, param, value)
        if param.name in typed and _same_files(typed[param.name], value):
            value = typed[param.name]  # as given, where it names the same files from here
        elif param.name in typed:  # (read where kept, named as given)
            _name_as(ctx, value, typed[param.name])
        try:
            ctx.params[param.name] = param.process_value(ctx, value)
        except click.BadParameter as err:
            raise BjsimError(f"checkpoint {path}: an option kept there: "
                             f"{err.format_message()}") from None
        ctx.meta.setdefault(KEPT, set()).add(param.name)
        if ctx.params[param.name] != param.get_default(ctx) and value not in (None, False, []):
            filled.append(_long_name(param, ctx.params[param.name]))  # (kept there, not the
            # default)


def _refuse_kept_file_gone(path, param, value) -> None:
    """A file an option of the checkpoint ``path`` names (``value``: kept by its absolute path,
    `_kept_file`) that is no longer there, refused saying it is the checkpoint's and that the
    option given again on the resume names its new place; where it was said as the option's
    own refusal (``no such strategy file``), as if the user had typed that path."""
    option = _long_name(param)
    for kept in value if isinstance(value, list) else [value]:
        if isinstance(kept, str) and os.path.isabs(kept) and not os.path.exists(kept):
            raise BjsimError(
                f"checkpoint {path}: {option} {kept}, as the run was started (kept there): no "
                f"such file now: give its new place on the resume, {option} NEWPATH (the same "
                "file: the run's identity checks what it holds)")


OWN_OPTION_KEYS = ("boxes", "super_sevens")  # rule keys with an option of their own, as --set


def _set_key(item: str) -> str:
    """The rule key of a ``--set KEY=VALUE`` item, as `_refuse_set_twice` reads it."""
    return item.split("=", 1)[0].strip()


def _keys_given(ctx) -> set:
    """The rule keys of `OWN_OPTION_KEYS` given on the command line by one form or the other
    (``--set boxes=7`` or ``--boxes 7``): on ``--resume`` the checkpoint's setting of such a key
    in the other form is replaced by it, not set twice (`_refuse_set_twice`)."""
    keys = {k for k in OWN_OPTION_KEYS if k in ctx.params and _given(ctx, k)}
    if "overrides" in ctx.params and _given(ctx, "overrides"):
        keys |= {_set_key(v) for v in ctx.params["overrides"] or ()}
    return keys


def _long_name(param, value=None) -> str:
    """An option named by its long form (``--rounds``, not ``-n``), as a message names it; a
    flag's off form (``--no-super-sevens``) where its ``value`` is False."""
    opts = param.secondary_opts if value is False and param.secondary_opts else param.opts
    return next((o for o in opts if o.startswith("--")), opts[0])


RESUMED = "bjsim.resumed"  # ctx.meta: (options filled from the checkpoint, options given again)
NAMED = "bjsim.named"  # ctx.meta: {a file kept by its absolute path: the name it was given}
STARTED = "bjsim.started"  # ctx.meta: the folder a resumed run was started in, as kept there


def _name_as(ctx, kept, typed) -> None:
    """Name each file of ``kept`` (a value kept in a checkpoint) that it keeps by its absolute
    path as ``typed`` has it (as given) in this command's outputs (`_as_named`). (A shipped one,
    kept as ``configs/...``, is named so from any folder.)"""
    if isinstance(kept, list) and isinstance(typed, list) and len(kept) == len(typed):
        pairs = zip(kept, typed, strict=True)
    else:
        pairs = [(kept, typed)]
    ctx.meta.setdefault(NAMED, {}).update(
        (k, t) for k, t in pairs
        if isinstance(k, str) and isinstance(t, str) and os.path.isabs(k) and k != t)


def _as_named(ctx, value):
    """A file option's value (or each of a tuple or list) as the run names it: as given,
    except a file that ``--resume`` from another folder read where the checkpoint keeps it
    (its absolute path): the name the run was started with, as every output of the run
    uninterrupted names it."""
    named = ctx.meta.get(NAMED, {})
    if isinstance(value, (tuple, list)):
        return type(value)(named.get(v, v) if isinstance(v, str) else v for v in value)
    return named.get(value, value) if isinstance(value, str) else value


def _started_in(ctx) -> str | None:
    """The folder a run resumed from another folder was started in, as a file it named by a
    relative path tells it (`_name_as`: its absolute path ends with the name given); None where
    none tells it (not resumed from another folder, or every file named by its absolute path)."""
    for kept, typed in ctx.meta.get(NAMED, {}).items():
        parts, tail = Path(kept).parts, Path(os.path.normpath(typed)).parts
        if not os.path.isabs(typed) and ".." not in tail and parts[-len(tail):] == tail:
            return str(Path(*parts[:-len(tail)]))
    return None


def _same_files(typed, kept) -> bool:
    """Do the values as given (``typed``) name the files kept, read from this folder?"""
    if isinstance(typed, list) != isinstance(kept, list) or (
            isinstance(typed, list) and len(typed) != len(kept)):
        return False  # (one a list, the other not: a value kept as None, say)
    pairs = zip(typed, kept, strict=True) if isinstance(typed, list) else [(typed, kept)]
    return all(a == b or isinstance(a, str) and isinstance(b, str) and os.path.isfile(a)
               and os.path.isfile(b) and os.path.samefile(a, b) for a, b in pairs)


def _resume_words(ctx, message: str) -> str:
    """A refusal during ``--resume``, with the options behind it that the user did not type as
    the checkpoint has them: given again (they replace the kept ones whole), or kept there."""
    filled, replaced = ctx.meta.get(RESUMED, ([], []))
    words = []
    if replaced and message.startswith("--resume:"):
        words.append(f"given here in place of the checkpoint's: {', '.join(replaced)}")
    kept = [o for o in filled if re.search(rf"(?<![\w-]){o}(?![\w-])", message)]
    if kept:
        words.append(f"{', '.join(kept)}: the checkpoint's")
    return message + (f" ({'; '.join(words)})" if words else "")


# Options of one value that would drop a file given before them, and what to do instead.
ONCE = {"strategy_name": "one strategy plays every box here; boxes of several strategies: "
                         "bjsim simulate or compare",
        "rules_path": "one rule set; change its keys with --set, or compare rule sets with "
                      "bjsim compare --variant FILE",
        "cards_path": "one shoe's cards; put them in one file",
        "plan_name": "one counting plan; play another in a run of its own",
        "count_plan": "one counting plan; play another in a report of its own",
        "count_name": "one count system; derive another's index plays in a run of their own",
        "output": "one file the results are written to",
        "out_dir": "one folder the report is written to",
        "checkpoint_path": "one checkpoint file",
        "resume": "one run to carry on",
        "plot_path": "one plot file",
        "penetrations": "one list: every penetration in it, as 0.6,0.75,0.9"}


def _refuse_repeated(command, args) -> None:
    """Refuse ``--strategy`` given twice where it takes one strategy (exact, count, report), and
    an option naming one file (`ONCE`: ``--rules``, ``--cards``, ``--plan``, ``-o``, ...) or a
    list (``--penetrations``) given twice: click would keep the last silently, where simulate
    and compare take one strategy a box (``exact --strategy basic --strategy mimic-dealer``
    evaluated mimic-dealer alone; ``--rules two.toml --rules nz1994`` played nz1994; ``replay
    --cards a --cards b`` played b).
    Options of a number or a choice keep the last, as click does."""
    args = list(args)
    args = args[: args.index("--")] if "--" in args else args
    for param in command.params:
        if param.name not in ONCE or param.multiple:
            continue
        n = sum(a == o or a.startswith(o + "=") or len(o) == 2 and a.startswith(o)
                for a in args for o in param.opts)  # (-oFILE: -o FILE)
        if n > 1:
            raise BjsimError(f"{'/'.join(param.opts)} given {n} times: allowed once "
                             f"({ONCE[param.name]})")


def _refuse_same_file(ctx) -> None:
    """Refuse two options naming the same file to write (-o the --checkpoint: the report would
    overwrite the checkpoint), a file to write other than -o's that is standard output (the
    report would be overwritten), and a file to write that the command reads (-o the --rules
    file, a strategy, a plan's count file or the cards; the NZ rules and the shipped basic where
    --rules or --strategy is left out: the run could not be repeated)."""
    seen = {}
    for param in ctx.command.params:
        path = ctx.params.get(param.name) if param.name in WRITTEN else None
        if path is None:
            continue
        option = (checkpoint_option(ctx) if param.name == "checkpoint_path"  # (--resume FILE)
                  else typed_option(ctx, param))
        key = os.path.realpath(path)
        if key in seen:
            raise BjsimError(f"{seen[key][0]} and {option}: both name {path}: allowed a different "
                             "file for each")
        if param.name != "output" and path != "-" and _is_stdout(key):
            raise BjsimError(f"{option} {path}: it is the command's standard output: allowed a "
                             "file (the report goes to stdout, or to -o's file)")
        seen[key] = option, path
    written = {key: named for key, named in seen.items() if os.path.isfile(key)}
    if not written:
        return
    for param in ctx.command.params:
        value = ctx.params.get(param.name)
        if param.name in WRITTEN:
            continue
        given = value not in (None, ()) and (ctx.get_parameter_source(param.name) not in (
            click.core.ParameterSource.DEFAULT, click.core.ParameterSource.DEFAULT_MAP)
            or param.name in ctx.meta.get(KEPT, ()))  # (the checkpoint's: said so after)
        if value in (None, ()):  # (the file read by default: the NZ rules, the shipped basic)
            value = _default_read(param.name)
        kind = "shown" if (ctx.command.name, param.name) == ("show", "name") else param.name
        for x in () if value is None else value if isinstance(value, (tuple, list)) else (value,):
            for path in _files_read(kind, x, ctx.meta.get(STARTED)):
                hit = next((w for w in written if os.path.samefile(path, w)), None)
                if hit is not None:
                    name = (param.metavar if isinstance(param, click.Argument) and param.metavar
                            else param.opts[0] if param.opts else param.name.upper())
                    raise BjsimError(f"{' '.join(written[hit])}: {name} reads it"
                                     + ("" if given else " (left out: its default)")
                                     + ": allowed a file that is not one of the command's "
                                     "inputs")


def _default_read(name: str):
    """The value of a file an option left out reads: the NZ rule set, the shipped basic strategy
    (the default under the NZ rules' chart keys; a derived one is kept in the cache); else
    None."""
    from simulator.rules import DEFAULT_RULES_PATH

    return {"rules_path": str(DEFAULT_RULES_PATH), "strategy_name": "basic",
            "strategy_names": ("basic",)}.get(name)


def _is_stdout(path: str) -> bool:
    """Whether ``path`` is the file standard output writes to (``/dev/stdout``, or the file
    stdout was sent to)."""
    try:
        return os.path.samestat(os.stat(path), os.fstat(sys.stdout.fileno()))
    except (OSError, ValueError, AttributeError):
        return False


def _files_read(name: str, value, started: str | None = None) -> list:
    """The existing files an option's ``value`` makes the command read: a strategy or plan by
    its file (a shipped name reads the shipped file; a plan's count and index files read from
    ``started``, the folder a resumed run began in, as `plans.load_plan`), a variant file and
    the baseline it names; else the value itself where it is a file."""
    from simulator import plans, strategy, variants

    if not isinstance(value, (str, os.PathLike)) or str(value) == "-":
        return []
    try:
        if name in ("strategy_names", "strategy_name", "choices", "vary_strategies", "shown"):
            value = strategy.strategy_path(value)
        elif name == "count_name":  # (a count system by its shipped name, or a file)
            from simulator.counting import COUNT_DIR, CountError, list_counts
            from simulator.rules import file_named

            value = file_named(value, "count", list_counts(), COUNT_DIR, CountError,
                               "count system")
        elif name in ("plan_name", "count_plan"):  # (its count and index files, shipped too)
            return [str(f) for _, f in plans.plan_files(value, started) if os.path.isfile(f)]
        out = [value]
        if name == "variant_files" and os.path.isfile(value):
            out.append(variants.baseline_of(value))
    except Exception:  # noqa: BLE001 (a bad name or file: the command says so itself)
        out = [value]
    return [str(f) for f in out if f is not None and os.path.isfile(f)]


class OneLineGroup(OneLineCommand, click.Group):
    """A click group whose usage errors, and its commands' and subgroups', are one line."""

    command_class = OneLineCommand
    group_class = type  # subgroups made with @group.group() are OneLineGroups too

    def resolve_command(self, ctx, args):
        with _usage_error_as_one_line():
            return super().resolve_command(ctx, args)


class MainGroup(OneLineGroup):
    """The ``bjsim`` group: Ctrl-C at any moment of a command (reading options, importing,
    compiling, playing, writing) ends it with one line on stderr and exit code 130; SIGTERM does the
    same with 143, and SIGHUP and SIGXCPU (`stops.STOP_SIGNALS`) with theirs. A run that had started
    has already printed its partial report (`simulator.run.simulate`) and saved its checkpoint."""

    group_class = OneLineGroup

    def main(self, *args, **kwargs):
        """click's ``main``; a stop signal between the steps wrapped below (where click would
        say ``Aborted!`` and exit 1) ends the command at once, as they do."""

        def stop(signum, frame):
            _STOPPED_BY[0] = signum
            _echo(interrupted_line(), err=True)
            sys.exit(_interrupted())

        _STOPPED_BY[0] = signal.SIGINT  # (a command run in this process before may have set it)
        try:
            previous = {sig: signal.signal(sig, stop) for sig in stops.STOP_SIGNALS}
        except ValueError:  # not the main thread
            previous = {}
        try:
            with stops.commanding():  # (from the options read to the command's end: one)
                return super().main(*args, **kwargs)
        except OSError as err:  # stdout itself failing (a full disk) where no command says so
            if isinstance(err, BrokenPipeError) or not _writing_stdout(err):
                raise
            _echo(f"Error: stdout: cannot write: {err.strerror or err}", err=True)
            sys.exit(OutputError.exit_code)
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)

    def make_context(self, info_name, args, parent=None, **extra):
        with _closed_pipe_ends(), _interrupt_exits():
            try:
                return super().make_context(info_name, args, parent=parent, **extra)
            except BjsimError as err:  # a command's option before any command
                if err.message.startswith("No such option"):
                    err.message += (" Options go after the command, e.g. bjsim simulate "
                                    "--rounds 1M (bjsim --help lists the commands).")
                raise

    def invoke(self, ctx):
        with _closed_pipe_ends(), _interrupt_exits():
            return super().invoke(ctx)


CLOSED_PIPE = 128 + signal.SIGPIPE  # 141: the exit code of a program SIGPIPE ends (yes | head)


@contextlib.contextmanager
def _closed_pipe_ends():
    """A closed pipe on stdout or stderr (``bjsim strategy list | head -1``: EPIPE) ends the
    command quietly with exit code `CLOSED_PIPE`, as SIGPIPE ends a program that does not catch
    it (Python ignores it): no line (click exited 1, in silence), no traceback, and no
    "Exception ignored" at exit from flushing the closed pipe (it is sent to /dev/null). Other
    unwritable stdout (a full disk) stays one line, exit 1 (`MainGroup.main`)."""
    try:
        yield
    except OSError as err:
        fd = _written_fd(err) if err.errno == errno.EPIPE else None
        if fd not in (1, 2):
            raise
        try:  # (what is still buffered for it goes nowhere, not into an error at exit)
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, fd)
            os.close(devnull)
        except OSError:
            pass
        raise click.exceptions.Exit(CLOSED_PIPE) from None


def _writing_stdout(err: OSError) -> bool:
    """Whether ``err`` was raised writing to stdout (`click.echo`'s ``file``: descriptor 1)."""
    return _written_fd(err) == 1


def _written_fd(err: OSError) -> int | None:
    """The descriptor ``err`` was raised writing to, as `click.echo`'s ``file``, the innermost
    frame's that has one (None: another error, or a stream with no descriptor)."""
    tb, stream = err.__traceback__, None
    while tb is not None:
        stream = tb.tb_frame.f_locals.get("file", stream)
        tb = tb.tb_next
    try:
        return None if stream is None else stream.fileno()
    except (OSError, ValueError, AttributeError):
        return None


@contextlib.contextmanager
def _interrupt_exits():
    """KeyboardInterrupt (Ctrl-C, or SIGTERM made one) as ``bjsim: interrupted`` on stderr and
    exit code 130 (143); so is any error that follows the signal. One that lands in a callback
    from compiled code (numba's, while it compiles) is swallowed there: the signal is sent again
    a moment later, until it lands where it stops the command. A second signal while the
    command stops (waiting for the chunks in play, writing the partial report) is held: it
    would lose what the first one kept (Ctrl-\\ still quits at once)."""
    seen = []
    raised = []  # the signal that is stopping the command, once raised where it landed

    def on_signal(signum, frame):  # SIGTERM (a scheduler's stop) as Ctrl-C: nothing is lost
        seen.append(signum)
        if raised and not stops.sent_again():  # (one sent again: the first, handed on)
            if len(raised) == 1:
                raised.append(signum)
                from simulator.chunks import stop_keeps

                new_line = "\n" if _stderr_is_terminal() else ""  # (past the ^C; a log: none)
                _echo(new_line + ("bjsim: already stopping: the finished chunks are being "
                                       "kept and reported (Ctrl-\\ quits at once, losing them)"
                                       if stop_keeps() else
                                       "bjsim: already stopping: nothing is kept, no report is "
                                       "written (Ctrl-\\ quits at once)"), err=True)
            return
        raised.append(signum)
        _STOPPED_BY[0] = signum
        stops.raising(signum)
        signal.default_int_handler(signum, frame)

    def unraisable(info):
        if issubclass(info.exc_type, KeyboardInterrupt):
            raised.clear()  # swallowed in a callback: the signal sent again must land
            stops.swallowed()
            again = threading.Timer(0.05, os.kill, (os.getpid(), _STOPPED_BY[0]))
            again.daemon = True
            again.start()
        else:
            hook(info)

    try:
        previous = {sig: signal.signal(sig, on_signal) for sig in stops.STOP_SIGNALS}
    except ValueError:  # not the main thread: Python's own handlers stay
        previous = {}
    hook, sys.unraisablehook = sys.unraisablehook, unraisable
    try:
        with stops.commanding():
            yield
    except KeyboardInterrupt:
        _echo(interrupted_line(), err=True)
        raise click.exceptions.Exit(_interrupted()) from None
    except (click.exceptions.Exit, click.ClickException):
        raise
    except Exception:
        if not seen:
            raise
        _echo(interrupted_line(), err=True)
        raise click.exceptions.Exit(_interrupted()) from None
    finally:
        sys.unraisablehook = hook
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _one_line(err: Exception, limit: int = 600) -> str:
    text = str(err).strip() or type(err).__name__
    line = "; ".join(part.strip() for part in text.splitlines() if part.strip())
    return line if len(line) <= limit else line[: limit - 3] + "..."


def user_errors(func):
    """Turn the ValueErrors of rule sets, strategies, cards and the engine into `BjsimError`."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        try:
            return func(*args, **kwargs)
        except ValueError as err:  # RuleError, StrategyError, CardError and the engine's checks
            if os.environ.get("BJSIM_TRACEBACK"):
                raise
            raise BjsimError(_one_line(err)) from None

    return wrapper


# ---------------------------------------------------------------------------------------------
# Parameter types


MAX_ROUNDS = 10**15  # far more than any run plays (10^15 rounds: years on a cluster)


class FiniteRange(click.FloatRange):
    """``click.FloatRange`` refusing ``nan`` and the infinities (which its bounds let through),
    its range written short (``0<x<=1e+12``, not ``1000000000000.0``)."""

    def _describe_range(self) -> str:  # (click's hook for the range in its messages)
        lo = None if self.min is None else f"{self.min:g}{'<' if self.min_open else '<='}"
        hi = None if self.max is None else f"{'<' if self.max_open else '<='}{self.max:g}"
        if lo is None:
            return f"x{hi}"
        if hi is None:
            return f"x{'>' if self.min_open else '>='}{self.min:g}"
        return f"{lo}x{hi}"

    def convert(self, value, param, ctx):
        try:  # (digits other than 0-9, which float reads: none)
            rv = float(value) if not isinstance(value, str) or value.isascii() else math.nan
        except (TypeError, ValueError):
            rv = math.nan
        if not math.isfinite(rv):
            self.fail(f"{value!r} is not a number in the range {self._describe_range()}.", param,
                      ctx)
        return super().convert(rv, param, ctx)


class WholeRange(click.IntRange):
    """``click.IntRange`` read as ``-n`` reads a number (``2``, ``2.0``, ``1e3``, ``1_000``:
    exactly, no float), whose refusal of a value that is not a whole number says the range."""

    FORM = re.compile(r"[+-]?(\d+(_\d+)*(\.\d*)?|\.\d+)([eE][+-]?\d+)?", re.ASCII)

    def convert(self, value, param, ctx):
        if not isinstance(value, int):
            text = str(value).strip()
            try:  # (an exponent beyond Decimal's own limit: InvalidOperation too)
                number = decimal.Decimal(text.replace("_", "") if self.FORM.fullmatch(text)
                                         else "NaN")
                whole = number.is_finite() and number == number.to_integral_value()
            except decimal.InvalidOperation:
                whole = False
            if not whole:
                self.fail(f"{value!r} is not a whole number in the range "
                          f"{self._describe_range()}.", param, ctx)
            if number.adjusted() > 30:  # (beyond any range here: not written out in full)
                self.fail(f"{value!r} is too {'large' if number > 0 else 'small'}: allowed "
                          f"{self._describe_range()}.", param, ctx)
            value = int(number)
        return super().convert(value, param, ctx)


class CountType(click.ParamType):
    """A whole number of rounds from 1 to `MAX_ROUNDS`, written as ``10000000``, ``10_000_000``,
    ``10,000,000``, ``1e7``, ``1.5e6``, ``10M``, ``500k``, ``2G`` or ``1T`` (the progress bar's
    own units); parsed exactly (no float)."""

    name = "N"
    SUFFIX = {"k": 3, "m": 6, "g": 9, "b": 9, "t": 12}
    FORM = re.compile(r"(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?", re.IGNORECASE)

    def convert(self, value, param, ctx):
        n = value if isinstance(value, int) else self.parse(str(value), param, ctx)
        shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
        if n < 1:
            self.fail(f"{shown} must be at least 1 (a whole number of rounds)", param, ctx)
        if n > MAX_ROUNDS:
            self.fail(f"{shown} is more than the most allowed, {MAX_ROUNDS:,} (10^15) rounds",
                      param, ctx)
        return n

    def parse(self, value: str, param, ctx) -> int:
        """The whole number ``value`` writes, or MAX_ROUNDS + 1 for any larger one."""
        text = value.strip()
        if not text.isascii():  # (full-width or other digits: Python's int reads them)
            self.fail(f"{value!r} is not a whole number: write its digits as 0-9, e.g. "
                      "10000000, 10_000_000, 1e7 or 10M", param, ctx)
        head = re.split(r"[.eE]", text.lstrip("+-"), maxsplit=1)[0].rstrip("kKmMgGbBtT")
        if ("," in text and not re.fullmatch(r"\d{1,3}(,\d{3})+", head)
                or re.search(r"(?<!\d)_|_(?!\d)", text) or "," in text[len(head):]):
            self.fail(f"{value!r}: commas and underscores group digits, by thousands for commas: "
                      "write e.g. 10,000,000 or 10_000_000", param, ctx)
        text = text.replace("_", "").replace(",", "")
        shift = 0
        if text and text[-1].lower() in self.SUFFIX:
            shift, text = self.SUFFIX[text[-1].lower()], text[:-1]
        if text.startswith("-") and self.FORM.fullmatch(text[1:]) and any(
                c.isdigit() for c in text):
            self.fail(f"{value!r} must be at least 1 (a whole number of rounds)", param, ctx)
        m = self.FORM.fullmatch(text)
        if not m or not (m.group(1) or m.group(2)):
            self.fail(f"{value!r} is not a whole number: write e.g. 10000000, 10_000_000, 1e7 "
                      "or 10M", param, ctx)
        whole, frac, exp = m.group(1), m.group(2) or "", m.group(3) or "0"
        digits = (whole + frac).lstrip("0")
        if not digits:
            return 0
        if len(exp.lstrip("+-")) > 6:  # beyond any count in either direction
            exp = ("-" if exp.startswith("-") else "") + "9" * 7
        power = int(exp) + shift - len(frac)  # the value is int(digits) * 10**power
        stripped = digits.rstrip("0")
        power += len(digits) - len(stripped)
        if power < 0:
            self.fail(f"{value!r} is not a whole number of rounds", param, ctx)
        if len(stripped) + power > len(str(MAX_ROUNDS)):
            return MAX_ROUNDS + 1
        return int(stripped) * 10**power


COUNT = CountType()
BANKROLL = {"default": None, "metavar": "UNITS"}  # count's and report's --bankroll (`_bankroll`)


def _bankroll(text: str | None, plan) -> float | None:
    """--bankroll as a number of units, refused in the plan's one sentence (`check_bankroll`)."""
    from simulator.plans import PlanError, check_bankroll
    from simulator.rules import _q

    if text is None:
        return None
    try:
        if not text.isascii():  # (full-width or other digits: float reads them)
            raise ValueError
        value, typed = float(text), _q(text.strip())  # (as typed: 2e12, not 2000000000000.0)
    except ValueError:
        value, typed = text, None
    try:
        return check_bankroll(value, plan.table_min, "--bankroll", typed)
    except PlanError as e:
        raise BjsimError(str(e)) from None


class AnyCaseChoice(click.Choice):
    """A choice given in any case (``t`` is ``T``) whose error names the choices as the help
    writes them, ``shown``: click's case-insensitive choice listed them lowercased (``'a'``,
    ``'t'``)."""

    def __init__(self, choices, shown: str):
        super().__init__(choices, case_sensitive=False)
        self.shown = shown

    def get_invalid_choice_message(self, value, ctx) -> str:
        return f"{value!r} is not one of {self.shown}."


class SeedType(click.ParamType):
    """A random seed: a whole number, 0 or more (the root of the run's ``SeedSequence``), of any
    size up to the digits Python reads as a number (`sys.get_int_max_str_digits`, 4300)."""

    name = "N"

    def convert(self, value, param, ctx):
        text = str(value).strip()
        try:
            n = value if isinstance(value, int) else int(text) if text.isascii() else -1
        except ValueError:
            n = -1
        if isinstance(n, bool) or n < 0:
            most = sys.get_int_max_str_digits()
            if most and text.isdigit() and len(text) > most:
                self.fail(f"'{text[:20]}...' ({len(text)} digits) is not a seed: allowed a whole "
                          f"number, 0 or more, of at most {most} digits, e.g. 1994", param, ctx)
            self.fail(f"{value!r} is not a seed: allowed a whole number, 0 or more, e.g. 1994",
                      param, ctx)
        return n


SEED = SeedType()


class Typed(float):
    """A number that keeps its text as typed (``typed``), for a message that quotes it."""

    def __new__(cls, text: str):
        out = super().__new__(cls, text)
        out.typed = text.strip()
        return out

    def __reduce__(self):  # (pickled as the number and its text)
        return Typed, (self.typed,)


class PenetrationsType(click.ParamType):
    """Penetrations separated by commas, e.g. ``0.60,0.70,0.80,0.90`` (each checked against the
    rule set's limits when the rules are loaded, and named there as typed: `Typed`)."""

    name = "P,P,..."

    def convert(self, value, param, ctx):
        if isinstance(value, tuple):
            return value
        out = []
        if not str(value).strip():
            self.fail("an empty value: write fractions of the shoe separated by commas, e.g. "
                      "0.60,0.70,0.80,0.90", param, ctx)
        for part in str(value).split(","):
            if not part.strip():  # ("0.6, 0.7": the shell splits the list at the space)
                self.fail(f"{str(value)!r} has an empty value between or after its commas: write "
                          "the penetrations with no spaces, e.g. 0.60,0.70,0.80,0.90 (a space "
                          "after a comma ends the option's value), or quote them", param, ctx)
            try:
                p = Typed(part)
            except ValueError:
                self.fail(f"{part.strip()!r} is not a number: write fractions of the shoe "
                          "separated by commas, e.g. 0.60,0.70,0.80,0.90", param, ctx)
            if p in out:
                self.fail(f"{part.strip()} is given twice: allowed each penetration once",
                          param, ctx)
            out.append(p)
        return tuple(out)


def output_problem(path: str, folder: bool = False) -> str | None:
    """Why ``path`` cannot be written (a file, or with ``folder`` a folder made if missing), or
    None. Nothing is created: the folder it goes in must exist (a folder's nearest existing
    ancestor) and be writable, and what is there already must be of the right kind and
    writable."""
    if not path:
        return "an empty path: name a " + ("folder" if folder else "file")
    target = os.path.abspath(path)
    if os.path.exists(target):
        kind = atomic.target_problem(target, folder)
        if kind is not None:
            return kind
        if not os.access(target, os.W_OK) or folder and not os.access(target, os.X_OK):
            return f"cannot write: {_denied(target)}"
        return None
    if not folder and path.endswith(("/", os.sep)):  # (a folder's path: its file not named)
        return (f"cannot write: a path ending in {path[-1]} names a folder (no folder "
                f"{target}): name a file")
    parent = os.path.dirname(target)
    if folder:
        while not os.path.exists(parent) and os.path.dirname(parent) != parent:
            parent = os.path.dirname(parent)
    if not os.path.exists(parent):
        return f"cannot write: no folder {parent}"
    if not os.path.isdir(parent):
        return f"cannot write: {parent} is not a folder"
    if not os.access(parent, os.W_OK | os.X_OK):
        return f"cannot write in {parent}: {_denied(parent)}"
    try:
        longest = os.pathconf(parent, "PC_NAME_MAX")
    except (OSError, ValueError, AttributeError):
        longest = 255
    for name in os.path.relpath(target, parent).split(os.sep):  # the names to be made
        if len(os.fsencode(name)) > longest:
            return (f"cannot write: a name of {len(os.fsencode(name))} bytes ({name[:20]}...): "
                    f"allowed at most {longest} in {parent}")
    return None


def _denied(path: str) -> str:
    """Why `os.access` found ``path`` not writable, in `REFUSED`'s words: ``a read-only file
    system`` where it is on one (os.access's EROFS, which a bool does not say), else
    ``permission denied``."""
    try:
        read_only = bool(os.statvfs(path).f_flag & os.ST_RDONLY)
    except (OSError, AttributeError):  # (no statvfs on Windows)
        read_only = False
    return REFUSED[errno.EROFS if read_only else errno.EACCES]


# A test file (or folder) refused, in plain words; another error: `_refused`'s own words
REFUSED = {errno.EACCES: "permission denied", errno.EPERM: "permission denied",
           errno.EROFS: "a read-only file system", errno.ENOSPC: "no space left on its disk",
           errno.EDQUOT: "its disk quota is used up"}


def _refused(err: OSError) -> str:
    """Why the system refused to make a test file or folder (``err``), in plain words: where
    the folder exists, ``No such file or directory`` is the system's way of saying that nothing
    is made there (``/proc``), not that a folder is missing."""
    plain = REFUSED.get(err.errno)
    if plain is not None:
        return plain
    return f"the system lets nothing be made there (trying: {err.strerror or err})"


def folder_probe(path: str) -> str | None:
    """Why the folder ``path`` cannot be written, found by doing it: the folder (and any missing
    above it) is made and a temporary file written in it, then both removed again; None if it
    worked, else ``cannot write in FOLDER: why`` (FOLDER the one where something could not be
    made). `output_problem` reads permissions, which a root user passes where the system still
    refuses (``/proc/x``); this is for a command that would otherwise find out after its run."""
    made, target = [], os.path.abspath(path)
    while not os.path.isdir(target):
        made.append(target)
        target = os.path.dirname(target)
    try:
        for folder in reversed(made):
            os.mkdir(folder)
        with tempfile.NamedTemporaryFile(dir=path, prefix=".bjsim-probe-"):
            pass
    except OSError as err:
        where = os.path.dirname(err.filename) if err.filename in made else os.path.abspath(path)
        return f"cannot write in {where}: {_refused(err)}"
    finally:
        for folder in made:
            with contextlib.suppress(OSError):
                os.rmdir(folder)
    return None


def file_probe(path: str) -> str | None:
    """Why the file ``path`` cannot be written, or None: `output_problem`, then `folder_probe`
    of the folder it goes in (a temporary file made there and removed, which a root user's
    permissions do not pass where the system refuses: ``/proc/x``). The file itself is neither
    created nor truncated."""
    return output_problem(path) or folder_probe(os.path.dirname(os.path.abspath(path)))


def write_problem(path: str, folder: bool = False) -> str | None:
    """Why ``path``, a file a command writes (with ``folder``, a folder: made if missing), cannot
    be written, or None: the one check of every command's ``-o``, ``--plot`` and
    ``--checkpoint`` (`file_probe`; a folder by `output_problem` and `folder_probe`), before any
    round is played. Named as the refusal says it: `refuse_unwritable`."""
    if folder:
        return output_problem(path, True) or folder_probe(path)
    return file_probe(path)


def refuse_unwritable(option: str, path: str, folder: bool = False) -> None:
    """`BjsimError` ``OPTION PATH: why`` (``-o /proc/x: cannot write in /proc: ...``) unless
    ``path`` can be written (`write_problem`)."""
    problem = write_problem(path, folder)
    if problem is not None:
        raise BjsimError(f"{option} {path}: {problem}" if path else f"{option}: {problem}")


def refuse_an_option(ctx, param, option: str, path: str) -> None:
    """Refuse a file to write named like an option (``-o --quiet``, ``--checkpoint -q``: the
    value forgotten, the next option taken for it, a file so called written and the option
    lost), but where it is joined to its option (``--output=--quiet``, ``-o--quiet``: no option
    taken); ``./-q`` names such a file too."""
    if not looks_like_option(path) or param is None:
        return
    joined = {f"{o}={path}" if o.startswith("--") else f"{o}{path}" for o in param.opts}
    if not joined & set(ctx.meta.get(TYPED) or () if ctx is not None else ()):
        raise BjsimError(f"{option} {path}: an option, not a file name: give the file after "
                         f"{option} (./{path} for a file so called)")


class WrittenPath(click.Path):
    """A file a command writes that is not its output (--checkpoint): `refuse_an_option`, and
    not ``-`` (stdout, where the result goes)."""

    def convert(self, value, param, ctx):
        option, path = typed_option(ctx, param), os.fspath(value)
        if path == "-":
            raise BjsimError(f"{option} -: a file is written here, not stdout (the result's): "
                             "name a file (./- for one called '-')")
        refuse_an_option(ctx, param, option, path)
        return super().convert(value, param, ctx)


class OutputPath(click.ParamType):
    """A file (or with ``folder`` a folder) a command writes, checked when the options are read,
    before any round is played (`refuse_unwritable`, the option named as typed); ``formats()``:
    the suffixes allowed, or None for any."""

    name = "path"

    def __init__(self, folder: bool = False, formats=None):
        self.folder = folder
        self.formats = formats

    def convert(self, value, param, ctx):
        path = os.fspath(value)
        if path == "-" and not self.folder and param is not None and param.name == "output":
            return None  # stdout, as --cards - reads stdin
        option = typed_option(ctx, param) if param is not None else "the output"
        refuse_an_option(ctx, param, option, path)
        if path == "-" and self.folder:
            raise BjsimError(f"{option} -: a folder is written here, not stdout: name a folder "
                             "(./- for one called '-')")
        suffix = os.path.splitext(path)[1].lower().lstrip(".")
        allowed = self.formats() if self.formats is not None else None
        if path and allowed is not None and suffix not in allowed:
            # no suffix is refused too: matplotlib would write FILE.png, a name never checked
            what = f"format '{suffix}' is not one" if suffix else "no suffix naming a format"
            raise BjsimError(f"{option} {path}: {what} matplotlib writes: allowed "
                             + ", ".join(f".{f}" for f in sorted(allowed)))
        if path and allowed is not None and suffix == "pgf":
            _refuse_pgf_without_tex(option, path)
        refuse_unwritable(option, path, self.folder)  # (the folder made and removed again)
        return path


def _plot_formats():
    """The file suffixes matplotlib can save a figure as, or None without matplotlib (then
    `compare_report.require_matplotlib` says what to install)."""
    try:
        from matplotlib.backend_bases import FigureCanvasBase
    except ImportError:
        return None
    return set(FigureCanvasBase.get_supported_filetypes())


def _refuse_pgf_without_tex(option: str, path: str) -> None:
    """A .pgf plot needs the LaTeX program matplotlib runs for it: refused before any round is
    played where it is not found (the run had been played, then the plot failed)."""
    import shutil

    import matplotlib

    tex = matplotlib.rcParams["pgf.texsystem"]
    if shutil.which(tex) is None:
        raise BjsimError(f"{option} {path}: matplotlib writes .pgf with {tex}, which is not "
                         f"found here: install it, or give another format (.pdf, .svg, .png)")


OUTPUT_FILE = OutputPath()


# ---------------------------------------------------------------------------------------------
# Shared options


def _a_name(ctx, param, value):
    """A ``--name``: not empty (outputs and reports label the file by it), on one line of
    printable text, as the file it goes into must hold it to load (`rules.checked_name`)."""
    from simulator.rules import NAME_ALLOWED, UNPRINTABLE

    if value is not None and not value.strip():
        raise click.BadParameter("an empty name: give one, or leave --name out for the default",
                                 ctx, param)
    if value is not None and not value.isprintable():
        raise click.BadParameter(f"{value!r}: {UNPRINTABLE}: allowed {NAME_ALLOWED}", ctx, param)
    return value


def _shipped(ctx, param, value):
    """A rule or variant file option's value: the file as given where it exists, else the
    shipped one it names (`rules.shipped_rule_file`), so that ``--rules nz1994-8deck`` and
    ``--rules configs/nz1994-8deck.toml`` work from any folder. The value as given is kept for
    the commands a report writes (`given_value`)."""
    from simulator import variants
    from simulator.rules import load_rule_file, shipped_rule_file

    if value is None:
        return None
    ctx.meta[f"bjsim.given.{param.name}"] = value
    if isinstance(value, (tuple, list)):
        files = tuple(shipped_rule_file(v) for v in value)
        for f in files:
            _named_if_missing(ctx, param, f, variants.baseline_of)
        return files
    path = shipped_rule_file(value)
    _named_if_missing(ctx, param, path, load_rule_file)
    return path


def _named_if_missing(ctx, param, path, load) -> None:
    """A file option's ``path`` that is no file (missing, a folder, a named pipe) refused by its
    loader ``load``'s own line after the option as typed (``--rules nosuch: no such rule file:
    ...``), as a shipped name's refusal is; nothing is read (/dev/stdin is read once, by the
    command)."""
    from simulator.rules import named_pipe

    if os.path.exists(path) and not os.path.isdir(path) and not named_pipe(path):
        return
    try:
        load(path)
    except ValueError as err:  # (RuleError, StrategyError, PlanError, CountError)
        option, said, read = typed_option(ctx, param), str(err), str(Path(path))
        if not str(path):  # an empty path: the option once, before the loader's words
            raise BjsimError(f"{option}: {said.removeprefix(_long_name(param) + ': ')}"
                             ) from None
        said = str(path) + said[len(read):] if said.startswith(read + ":") else said
        raise BjsimError(f"{option} {said}") from None  # (the path as typed: ./x, not x)


def _plan_or_count_named(ctx, param, value):
    """A counting plan's or a count system's option (--plan, --count; one or several): a name no
    shipped one has, and a path that is no file, refused naming the option first, as
    `_strategy_named` refuses a strategy's."""
    from simulator.counting import count_path, load_count
    from simulator.plans import load_plan, plan_path

    plan = param.name in ("plan_name", "count_plan")
    if param.name == "count_names" and "--removal" not in (ctx.meta.get(TYPED) or ()):
        return value  # (exact's --count without --removal: refused as such by the command)
    for name in (value,) if isinstance(value, str) else value or ():
        try:
            path = plan_path(name) if plan else count_path(name)
        except ValueError as err:
            option = typed_option(ctx, param)
            raise BjsimError(f"{option} {name}: {err}" if name else f"{option}: {err}") from None
        if not path.is_file():  # (a path as given: ``./x`` is ``x`` to a Path)
            _named_if_missing(ctx, param, name, load_plan if plan else load_count)
    return value


def _not_options(what: str, allowed: str):
    """A callback refusing a value of a KEY=VALUE option that is an option: ``--set -n 10`` or
    ``--vary --rounds 1e5`` took the option for the change and left ``10`` over, which click
    named alone. Any value that starts with ``-`` and holds no ``=`` (``-1`` too: not
    ``what``), and any ``--``; a change's value after its ``=`` (``penetration=-1``) untouched."""
    def check(ctx, param, value):
        for v in value or ():
            if v.startswith("--") or (v.startswith("-") and "=" not in v):
                kind = f"an option, not {what}" if looks_like_option(v) else f"not {what}"
                raise click.BadParameter(f"{v}: {kind}: allowed {allowed}", ctx, param)
        return value
    return check


def looks_like_option(text: str) -> bool:
    """``-q``, ``--quiet``: a dash or two, then a letter (``-5.csv``, ``-1``: not)."""
    return text.startswith("-") and text.lstrip("-")[:1].isalpha()


_set_values = _not_options("KEY=VALUE", "KEY=VALUE after each --set, e.g. --set decks=8")
_vary_values = _not_options("a change", "KEY=VALUE[,KEY=VALUE...] after each --vary, e.g. "
                            "--vary decks=8")


def given_value(ctx, name: str):
    """An option's value as the user gave it, before `_shipped` found the file it names."""
    return ctx.meta.get(f"bjsim.given.{name}")


BOXES_HELP = "Boxes played each round, 1-7 (the rule-set key 'boxes'; rule 13)."
SUPER_SEVENS_HELP = ("Bet Super Sevens (rule 14) on every box, or not. Default: the rule set's "
                     "'super_sevens'.")


def rules_options(func=None, *, boxes=BOXES_HELP, super_sevens=SUPER_SEVENS_HELP):
    """--rules, --set, --boxes (its help ``boxes``), --super-sevens/--no-super-sevens (its help
    ``super_sevens``)."""
    if func is None:
        return lambda f: rules_options(f, boxes=boxes, super_sevens=super_sevens)
    options = [
        _option(
            "--rules", "rules_path", type=click.Path(), default=None,
            metavar="FILE", callback=_shipped,
            help=f"Rule set (TOML, see docs/rules-format.md), or a shipped one by name (configs/: "
            f"nz1994-8deck, us-6deck-s17-das-peek, ...). Default: {DEFAULT_RULES_SHOWN}, the NZ "
            "Gazette 1994 game.",
        ),
        _option(
            "--set", "overrides", multiple=True, metavar="KEY=VALUE", callback=_set_values,
            help="Change one rule-set key, e.g. --set decks=8 --set dealer_hits_soft_17=true. "
            "Repeatable.",
        ),
        _option(
            "--boxes", type=WholeRange(1, 7), default=None, help=boxes,
        ),
        _option(
            "--super-sevens/--no-super-sevens", "super_sevens", default=None,
            help=super_sevens,
        ),
    ]
    for option in reversed(options):
        func = option(func)
    return func


RULES_BASIC = ("the rules' basic strategy: basic (the NZ chart) under the NZ rules' chart keys, "
               "else the one the exact analyzer derives for them (cached; stderr names its file)")


def _strategy_named(ctx, param, value):
    """A strategy option's value (--strategy, --vary-strategy, --choice; one or several): each
    that names no strategy (empty, or neither a shipped name nor a file: `strategy_path`)
    refused naming the option and the value as typed, as --cards and --vary name theirs (compare
    takes one by --strategy and by --vary-strategy: ``unknown strategy 'x'`` alone said neither).
    """
    from simulator.strategy import StrategyError, load_strategy, looks_like_path, strategy_path

    for name in (value,) if isinstance(value, str) else value or ():
        try:
            strategy_path(name)
        except StrategyError as err:
            option = typed_option(ctx, param)
            raise BjsimError(f"{option} {name}: {err}" if name else f"{option}: {err}") from None
        if looks_like_path(name):
            _named_if_missing(ctx, param, name, load_strategy)
    return value


def strategy_option(func=None, *, default=RULES_BASIC):
    def decorate(f):
        return _option(
            "--strategy", "strategy_names", multiple=True, metavar="NAME|FILE",
            callback=_strategy_named,
            help="Strategy: a shipped name (see `bjsim strategy list`) or a TOML file "
            "(docs/strategy-format.md). Give it once for every box, or once per box in box "
            f"order. Default: {default}.",
        )(f)

    return decorate if func is None else decorate(func)


def output_options(formats, default):
    def decorate(func):
        func = _option(
            "-o", "--output", type=OUTPUT_FILE, default=None,
            metavar="FILE", help="Write the result to FILE instead of stdout ('-': stdout).",
        )(func)
        func = _option(
            "-f", "--format", "fmt", type=click.Choice(formats), default=default,
            show_default=True, help="Output format.",
        )(func)
        return func

    return decorate


class OutputError(_Inert, click.ClickException):
    """The output could not be written (a full disk, a folder made read-only): one line on
    stderr, exit code 1 (not a user's mistake, so not 2)."""

    exit_code = 1


def _emit(text: str, output: str | None, what: str = "report") -> None:
    """``text`` to ``output`` (None: stdout). A file that cannot be written (it was checked
    before the run, so the disk or the folder changed since) sends the text to stdout instead,
    so that a long run's report is not lost; then exit code 1 (the error naming ``what`` the
    text is). A character that would act on a terminal (`streams.inert`: an escape sequence in a
    file's name) is written as its escape."""
    from simulator.streams import inert

    text = inert(text)
    if output is not None:
        try:
            if os.path.exists(output) and not os.path.isfile(output):
                with open(output, "w", encoding="utf-8",  # a device or a pipe: as it is
                          errors="backslashreplace") as f:
                    f.write(text)
            else:  # a temporary file renamed over it (a link's file: the link kept), so that a
                # failed write leaves the earlier file whole
                atomic.write(os.path.realpath(output), text, mode=atomic.USER_MODE)
            return
        except OSError as err:
            failed = f"{_typed_output()} {output}: cannot write: {err.strerror or err}"
    else:
        failed = None
    try:
        _echo(text, nl=False)
    except BrokenPipeError:
        raise
    except OSError as err:
        raise OutputError(f"stdout: cannot write: {err.strerror or err}"
                          + (f" (nor {failed})" if failed else "")) from None
    if failed:
        raise OutputError(f"{failed}: the {what} is on stdout instead")


def _typed_output(name: str = "output") -> str:
    """The running command's output option (parameter ``name``) as typed (``-o`` or
    ``--output``: `typed_option`)."""
    ctx = click.get_current_context(silent=True)
    param = next((p for p in ctx.command.params if p.name == name), None) if ctx else None
    return "--output" if param is None else typed_option(ctx, param)


def _emit_run(text: str, output: str | None) -> OutputError | None:
    """`_emit` of a run's report, an output that cannot be written returned rather than raised,
    so that the run's closing lines (interrupted, where its chunks are saved) and its exit code
    still follow: `_closing`."""
    try:
        _emit(text, output)
    except OutputError as err:
        return err
    return None


def _closing(ctx, messages, partial: bool, failed: OutputError | None,
             failure: str | None = None) -> None:
    """A run's closing lines on stderr, then the output's failure if any; exit 130 or 143 for a
    stopped run (its checkpoint to carry on), else 1 for the failure; `RUNNER_FAILED` for a
    run its cluster's ``failure`` stopped (its ``Error:`` line among ``messages``)."""
    for line in messages:
        _echo(line, err=True)
    if failure is not None:
        if failed is not None:
            failed.show()
        ctx.exit(RUNNER_FAILED)
    if failed is not None:
        failed.show()
        ctx.exit(_interrupted() if partial else failed.exit_code)
    if partial:
        ctx.exit(_interrupted())


def rules_dict(rules) -> dict:
    from simulator.rules import rules_dict as as_dict

    return as_dict(rules)


def _refuse_twice_in_report(ctx, variant_files, choices) -> None:
    """A variant file or a choice given twice, named as typed (``compare`` refuses the same; the
    report's rows and its manifest's commands need each once)."""
    from simulator import variants

    again = (variants.twice((), list(variant_files), (),
                            list(given_value(ctx, "variant_files") or ()))
             or variants.twice((), [], list(choices or ()), strategy_option="--choice",
                               what="choice"))
    if again is not None:
        raise BjsimError(f"report: {again}")


def _refuse_set_twice(overrides, boxes=None, super_sevens=None) -> None:
    """Refuse a key given twice: by two --set, or by --set and its own option (--boxes,
    --super-sevens)."""
    from simulator.rules import _q, written_item  # (an item as every message quotes it)

    own = {"boxes": ("--boxes", boxes), "super_sevens": ("--super-sevens", super_sevens)}
    first: dict = {}
    for item in overrides:
        key = item.split("=", 1)[0].strip()
        if key in first:
            raise BjsimError(f"--set {first[key]} and --set {written_item(item)}: both set "
                             f"'{_q(key)}': allowed one of them")
        first[key] = written_item(item)
        option, value = own.get(key, (None, None))
        if value is not None:
            given = option if key != "super_sevens" or value else "--no-super-sevens"
            raise BjsimError(f"--set {first[key]} and {given}: both set '{key}': allowed one "
                             "of them")


def _rule_origins(rules_path, overrides, boxes=None, super_sevens=None) -> dict:
    """Where each key of `_load_rules`'s rules was set (`rules.origins_of`): the rule file as
    outputs name it, --set, --boxes, --super-sevens; named in a combination of keys that cannot
    happen, as by ``--vary`` over a key of the rule file."""
    from simulator.rules import origins_of, shown_rule_file

    return origins_of(shown_rule_file(rules_path),
                      ("--set", [item.split("=", 1)[0].strip() for item in overrides]),
                      ("--boxes", ["boxes"] if boxes is not None else []),
                      ("--super-sevens", ["super_sevens"] if super_sevens is not None else []))


def _load_rules(rules_path, overrides, boxes=None, super_sevens=None):
    """Rules from the file, then --set, then --boxes and --super-sevens; the file's meta; and the
    changes made to the file (`rules.changes_written`: ``key=value``, the value as the user wrote
    it, leaving out a key set to the file's own value), which every output lists (simulate's
    ``Changed:``, ``run.overrides``) and names the rules by (`rules.modified_name`, each value
    as a rule file writes it: one game, one name)."""
    from simulator.rules import apply_overrides, changes_written, load_rule_file, shown_rule_file

    _refuse_set_twice(overrides, boxes, super_sevens)
    file_rules, meta = load_rule_file(rules_path)
    rules = apply_overrides(file_rules, list(overrides), source="--set",
                            base=shown_rule_file(rules_path))
    items = list(overrides)
    if boxes is not None:
        rules = apply_overrides(rules, [f"boxes={boxes}"], source="--boxes")
        items.append(f"boxes={boxes}")
    if super_sevens is not None:
        items.append(f"super_sevens={'true' if super_sevens else 'false'}")
        rules = apply_overrides(rules, items[-1:], source="--super-sevens")
    return rules, meta or {}, changes_written(file_rules, rules, items)


def _no_effect_warnings(rules, overrides, changes) -> None:
    """A warning line for each --set key of no effect under the other keys of ``rules``
    (`rules.no_effect`, as `bjsim rules show` marks it): taken, and changing no figure. A key
    set to the rule file's own value is no change (not in ``changes``, `_load_rules`'), and
    not warned of: it changes nothing whatever the other keys are."""
    from simulator.rules import no_effect, written_item

    changed = {c.split("=", 1)[0].strip() for c in changes}
    for item in overrides:
        key = item.split("=", 1)[0].strip()
        why = key in changed and no_effect(rules, key)
        if why:
            _echo(f"bjsim: warning: --set {written_item(item)} has no effect under these "
                       f"rules ({why}): every value of {key} gives the same figures", err=True)


def _rules_source(rules_path, file_meta, changes) -> dict:
    """What every output says of its rules: the file, its name (with the changes) and the
    changes (as `simulator.run`'s report of a simulation)."""
    from simulator.run import rules_source

    return rules_source(rules_path, file_meta.get("name"), changes)


def _nz_chart_note(rules, names, theirs=None) -> tuple[str, str] | None:
    """For a run playing the shipped ``basic`` (the NZ rules' chart) under rules that may call
    for another: the stderr note (which keys, and how to play theirs: the one compare derived
    and keeps, where it differs) and the words the report puts beside the strategy
    (``run.strategy_note``, `derived.strategy_note` by ``theirs``, the chart derived for
    ``rules``, else the cached one). None where no chart key differs, or the derived chart is
    the same."""
    from simulator import derived

    changed = derived.chart_change(rules) if "basic" in names else ""
    if not changed:
        return None
    cached = derived.cached_basic(rules)  # (None: not derived, not kept, or not to be used)
    theirs = theirs if theirs is not None else cached
    label = derived.strategy_note(rules, "basic", theirs)
    if label is None:
        return None
    if theirs is not None:
        path = derived.basic_path(rules)
        how = (f"--strategy {path} plays it" if cached is not None else "not kept in the "
               "cache: bjsim strategy generate with the same --rules/--set and -o FILE writes "
               "it, for --strategy FILE")
        return (f"bjsim: strategy basic is the NZ rules' chart, and the one derived for these "
                f"rules ({changed}) differs: {how}", label)
    return (f"bjsim: strategy basic is the NZ rules' chart; these rules ({changed}) may call for "
            "another: bjsim strategy generate with the same --rules/--set and -o FILE writes "
            "theirs, for --strategy FILE (exact and compare use theirs)", label)


def _chart_label(rules, names, quiet: bool, derive: bool = False) -> str | None:
    """`_nz_chart_note`'s note said on stderr (unless ``quiet``); its words for beside the
    strategy, or None. ``derive``: the rules' own chart derived first if not yet (a few seconds,
    where the command's own work takes as long), so that the note says whether it differs."""
    from simulator import derived
    from simulator.exact.cache import then_kept

    theirs = None
    if derive and "basic" in names and derived.chart_change(rules):
        if not quiet and derived.cached_basic(rules) is None:
            _echo("bjsim: deriving the basic strategy for these rules, to compare with "
                       f"basic (exact analyzer, a few seconds; {then_kept()})", err=True)
        theirs = derived.basic_for(rules)[0]
    note, label = _nz_chart_note(rules, names, theirs) or (None, None)
    if note is not None and not quiet:
        _echo(note, err=True)
    return label


def _basic_of(rules, quiet: bool) -> str:
    """The basic strategy of ``rules`` for a command that plays it by default and names it by a
    file (the report): ``basic`` (the NZ rules' chart) where no chart key differs from the NZ
    rules or the chart derived for them is the same, else the derived one's cache file
    (`derived.basic_for`; a temporary file where the cache folder cannot be written), said on
    stderr."""
    import tempfile

    from simulator.derived import rules_basic
    from simulator.strategy import dumps_strategy

    theirs, path = _derived_basic(rules, quiet)
    if rules_basic(rules, theirs).name == "basic":
        return "basic"
    kept = ""
    if path is None:  # no cache folder to keep it in: a file of its own for this run
        fd, path = tempfile.mkstemp(prefix="bjsim-basic-", suffix=".toml")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(dumps_strategy(theirs))
        TEMPORARY.append(path)
        kept = " (the cache folder cannot be written: a file for this run, removed at its end)"
    if not quiet:
        _echo(f"bjsim: the file of the strategy derived for these rules: {path}{kept}",
                   err=True)
    return str(path)


def _derived_basic(rules, quiet: bool) -> tuple:
    """``(strategy, cache file or None)`` of the basic strategy derived for ``rules``
    (`derived.basic_for`), said on stderr where it is not the NZ rules' chart; ``(None, None)``
    where no chart key differs from the NZ rules."""
    from simulator import derived

    changed = derived.chart_change(rules)
    if not changed:
        return None, None
    if not quiet and derived.cached_basic(rules) is None:  # (a cache file not used: stderr
        # says why as it is made again, `exact.cache.rejected`)
        from simulator.exact.cache import then_kept

        _echo("bjsim: deriving the basic strategy for these rules (exact analyzer, a few "
                   f"seconds; {then_kept()})", err=True)
    theirs, path = derived.basic_for(rules)
    if not quiet and not derived.nz_chart_fits(rules, theirs):
        where = path if path is not None else "not cached: the cache folder cannot be written"
        _echo(f"bjsim: playing the basic strategy derived for these rules ({changed}; "
                   f"{where}); the shipped basic is the NZ rules' chart: --strategy basic",
                   err=True)
    return theirs, path


TEMPORARY: list = []  # files of this process's run, removed at its end (`remove_temporary`)


@atexit.register
def remove_temporary() -> None:
    """Remove ``TEMPORARY``'s files (at exit; ``python -m simulator`` ends without atexit)."""
    while TEMPORARY:
        with contextlib.suppress(OSError):
            os.unlink(TEMPORARY.pop())


def _default_strategies(rules, quiet: bool, boxes: int) -> tuple[list, list, str | None]:
    """The rules' basic strategy for every box where none is given: (strategies, names, note).
    The derived one is named ``DERIVED_BASIC`` in every output, the same on every machine and
    run (its cache file, said on stderr, is not)."""
    from simulator.derived import rules_basic, strategy_note

    theirs, _ = _derived_basic(rules, quiet)
    strategy = rules_basic(rules, theirs)
    return ([strategy] * boxes, [strategy.name] * boxes,
            strategy_note(rules, strategy.name, theirs))


def _check_chunk_rounds(rules, chunk_rounds: int, runs: dict) -> None:
    """Refuse a --chunk-rounds whose tally could overflow under ``rules``, before any round.
    ``runs``: the rounds of each run that plays chunks of that size, by the option giving
    them (``{"--rounds": n}``): a chunk holds at most the most of them."""
    from simulator.engine import check_headroom

    option, rounds = max(runs.items(), key=lambda kv: kv[1])
    check_headroom(rules, chunk_rounds, "--chunk-rounds", rounds, option)


def _run_rounds(precision, rounds: int, max_rounds: int) -> dict:
    """The rounds a run plays at most, by the option giving them: --max-rounds with
    --precision, else --rounds."""
    return {"--max-rounds": max_rounds} if precision is not None else {"--rounds": rounds}


def _load_strategies(names, boxes: int):
    """One Strategy per box from the --strategy options (one for all, or one per box)."""
    from simulator.strategy import load_strategy

    names = list(names) or ["basic"]
    if len(names) not in (1, boxes):
        raise BjsimError(
            f"--strategy: given {len(names)} times for {boxes} box(es): allowed once (every box "
            + (f"plays it) or once per box ({boxes} times)" if boxes > 1 else "plays it)"))
    loaded = {}
    for name in names:
        if name not in loaded:
            loaded[name] = load_strategy(name)
    if len(names) == 1:
        names = names * boxes
    return [loaded[n] for n in names], names


def _shown_strategies(ctx, given, strategies) -> tuple[list[str], dict]:
    """The names every output shows ``strategies`` by, ``given`` as the user gave them, and the
    files behind them for the metadata (`strategy.shown_names`): a file by its own name, its
    path as the run was started with it (`_as_named`)."""
    from simulator.strategy import shown_names

    names, files = shown_names(given, strategies)
    return _as_named(ctx, names), {n: _as_named(ctx, f) for n, f in files.items()}


def _box_named(strategy, given: str):
    """``strategy`` (given as ``given``) named as replay's box lines show it: by its own name,
    but where that is a shipped strategy's and the file plays other charts (a chart derived
    for other rules and named ``basic``, as bjsim's cache files are) by its file, saying so:
    ``b.toml, not the shipped basic``."""
    import dataclasses

    from simulator.derived import same_chart
    from simulator.strategy import list_strategies, load_strategy, looks_like_path

    if not looks_like_path(given) or strategy.name not in list_strategies() or same_chart(
            strategy, load_strategy(strategy.name)):
        return strategy
    return dataclasses.replace(strategy, name=f"{given}, not the shipped {strategy.name}")


def _given(ctx, name: str) -> bool:
    """Was option ``name`` given (on the command line or by the environment), not defaulted?"""
    from click.core import ParameterSource

    return ctx.get_parameter_source(name) not in (
        None, ParameterSource.DEFAULT, ParameterSource.DEFAULT_MAP,
    )


def _check_checkpoint(ctx, path, resume: bool) -> None:
    """--checkpoint's file refused when the options are read, before any work (compare derives
    strategies first): one in the way without --resume, none with it, or one whose folder
    cannot be written, named by the option as typed (``--resume FILE`` too): a new one, or one
    resumed that the run will write (a finished one in a read-only folder is only read, and
    still gives its report)."""
    from simulator.checkpoint import carried_on
    from simulator.run import checkpoint_problem

    if resume and path is None:
        raise BjsimError("--resume: needs --checkpoint FILE (the run to carry on), or the file: "
                         "--resume FILE")
    if path is None:
        return
    option = checkpoint_option(ctx)
    problem = checkpoint_problem(path, resume, option)
    if problem is not None:
        raise BjsimError(problem)
    if not resume:
        refuse_unwritable(option, path)
    elif carried_on(path):  # (atomic writes: a file made in its folder, renamed over it)
        problem = folder_probe(os.path.dirname(os.path.realpath(path)))
        if problem is not None:
            raise BjsimError(f"{option} {path}: {problem}")


def _check_resumed_rules(path, resume: bool, kind: str, rules) -> None:
    """A checkpoint of another command or other rules refused before the default strategy is
    derived for these rules."""
    from simulator.checkpoint import rules_differ

    problem = rules_differ(path, kind, rules) if resume and path else None
    if problem is not None:
        raise BjsimError(problem)


def _check_run_options(ctx, precision, resume, checkpoint_path, scheduler,
                       least: int | None = None):
    """The option combinations `simulate` and `compare` refuse; the checked scheduler address.
    ``least``: the rounds from which a precision target is judged (`simulate`'s), which
    ``--max-rounds`` must reach."""

    if precision is None and _given(ctx, "max_rounds"):
        raise BjsimError("--max-rounds: only with --precision (--rounds sets a fixed run)")
    if precision is not None and least and ctx.params["max_rounds"] < least:
        raise BjsimError(f"--max-rounds {ctx.params['max_rounds']:,}: a precision target is judged "
                         f"from {least:,} rounds on: allowed at least {least:,} with --precision")
    if precision is not None and _given(ctx, "rounds"):
        raise BjsimError(
            "--rounds: not with --precision, which plays until the target is met: cap it with "
            "--max-rounds"
        )
    _check_checkpoint(ctx, checkpoint_path, resume)
    if scheduler is not None:
        from simulator import distributed

        distributed.require_dask()
        scheduler = distributed.check_address(scheduler)
        workers, cores = ctx.params.get("workers"), os.cpu_count() or 1
        if scheduler == "local" and workers and workers > cores:  # (an ops review: 64 on 2)
            _echo(f"bjsim: warning: --workers {workers} with --scheduler local starts "
                       f"{workers} worker processes on {cores} cores: each loads the engine "
                       "(about 200 MB), and they share the cores", err=True)
    return scheduler


# ---------------------------------------------------------------------------------------------
# The group


@click.group(name="bjsim", cls=MainGroup, context_settings=CONTEXT_SETTINGS)
@click.version_option(__version__, "--version", prog_name="bjsim", message="%(prog)s %(version)s")
def cli():
    """Monte Carlo house edge of blackjack as approved in the New Zealand Gazette 1994 No. 112.

    The main game, its Super Sevens side bet, and variants of the game: other rules, other
    strategies, a card counter.

    \b
    Example:
        bjsim simulate                                # 10 million rounds of the NZ game, seed 1994
        bjsim simulate --set decks=8 --rounds 1e8 --format json -o nz8.json
        bjsim compare --vary dealer_hits_soft_17=true # what H17 costs, paired
        bjsim report -o nz-report                     # the regulator's assessment
        bjsim count --plan hi-lo-1-12                 # what a card counter gains
        bjsim rules show
        bjsim replay --cards shoe.txt
    """


def main(argv=None):
    """Entry point of the ``bjsim`` script."""
    return cli.main(args=argv, prog_name="bjsim")


# ---------------------------------------------------------------------------------------------
# simulate


@cli.command()
@rules_options
@strategy_option
@_option(
    "-n", "--rounds", type=COUNT, default=DEFAULT_ROUNDS, show_default="10,000,000",
    help="Rounds to play, at most 10^15; 10_000_000, 1e7, 10M and 2G (suffixes k, M, G or B, "
    "T, of either case) are all accepted. With --resume: the checkpoint's (given, it must be "
    "the same: a run carried on plays what it began).",
)
@_option(
    "--seed", type=SEED, default=DEFAULT_SEED, show_default=True,
    help="Random seed. The same seed, rules, strategies and --chunk-rounds give the same result "
    "to the last digit, whatever --workers.",
)
@_option(
    "--chunk-rounds", type=COUNT, default=DEFAULT_CHUNK_ROUNDS, show_default="1,000,000",
    help="Rounds per chunk: each chunk starts from a fresh shuffle and its own random stream "
    "(part of what makes a result reproducible).",
)
@_option(
    "--workers", type=WholeRange(min=1), default=None,
    help="Threads playing chunks at once (with --scheduler local: worker processes; refused with "
    "--scheduler tcp://: the cluster's workers play them). Default: every CPU. Does "
    "not change the result.",
)
@_option(
    "--precision", type=FiniteRange(min=0, min_open=True, max=1), default=None,
    metavar="HALF_WIDTH",
    help="Play whole chunks until the 95% confidence half-width of the house edge is at most "
    "this (a fraction of the wager: 0.0005 = ±0.05%), capped by --max-rounds. The stop is "
    "decided on chunks 0..k in order, from 1,000 rounds on, so the same seed stops at the same "
    "chunk.",
)
@_option(
    "--max-rounds", type=COUNT, default=1_000_000_000, show_default="1,000,000,000",
    help="With --precision: the most rounds to play if the target is not met first.",
)
@_option(
    "--scheduler", default=None, metavar="local|tcp://HOST:PORT",
    help="Run the chunks on a Dask cluster: 'local' starts one on this machine, tcp://HOST:PORT "
    "uses a running scheduler. Same result as threads. Needs pip install 'bjsim[dask]'.",
)
@_option(
    "--checkpoint", "checkpoint_path", type=WrittenPath(), default=None,
    metavar="FILE",
    help="Record finished chunks in FILE (atomically, at most every 5 s and at the end or on "
    "Ctrl-C). Refuses an existing FILE unless --resume.",
)
@resume_option(
    "With --checkpoint: carry on the run recorded in FILE, to exactly the uninterrupted "
    "result. The options of the run left out (--rules, --set, --boxes, --super-sevens, "
    "--strategy, --rounds, --seed, --chunk-rounds, --precision, --max-rounds, --exact) are the "
    "ones kept in FILE; one given that changes what is played is refused, but --exact given "
    "for a run made without it is taken (the exact figures added to the result), and kept in "
    "FILE it cannot be dropped.",
)
@output_options(["table", "csv", "json"], "table")
@_option("-q", "--quiet", is_flag=True,
         help="No progress bar on stderr, nor the line of the time taken, nor the lines "
         "saying a strategy is derived and which file it is in (every format still says "
         "it is derived).")
@_option(
    "--exact", "with_exact", is_flag=True,
    help="Also print the exact (combinatorial) house edge and Super Sevens return beside the "
    "simulated ones, with the z-score of the difference (exact = full shoe every round: "
    "compare with shuffle=every-round). Adds a few seconds.",
)
@click.pass_context
@user_errors
def simulate(ctx, rules_path, overrides, boxes, super_sevens, strategy_names, rounds, seed,
             chunk_rounds, workers, precision, max_rounds, scheduler, checkpoint_path, resume, fmt,
             output, quiet, with_exact):
    """Play many rounds and report the house edge with its standard error.

    Reports the house edge (minus the player's mean net per initial wager, main game with
    insurance and even money), the main game, insurance and Super Sevens apart, each with its
    standard error and 95% confidence interval, and the frequencies of wins, busts, doubles, ...
    With boxes of different strategies, each strategy's house edge and Super Sevens edge too.
    Ctrl-C stops early and prints the finished chunks' result marked PARTIAL (exit code 130).

    \b
    Examples:
        bjsim simulate
        bjsim simulate --rounds 100M --seed 7 --format json -o run.json
        bjsim simulate --rules configs/nz1994-8deck.toml --set dealer_hits_soft_17=true
        bjsim simulate --boxes 3 --strategy basic --strategy mimic-dealer --strategy never-bust
        bjsim simulate --precision 0.0005 --max-rounds 1e9    # until ±0.05% (95%)
        bjsim simulate --rounds 1e10 --checkpoint run.ckpt    # Ctrl-C, then:
        bjsim simulate --resume run.ckpt                     # the same run carried on
        bjsim simulate --rounds 1e10 --scheduler tcp://10.0.0.5:8786
    """
    from simulator import engine, run, stops

    scheduler = _check_run_options(ctx, precision, resume, checkpoint_path, scheduler,
                                   engine.MIN_TARGET_ROUNDS)
    if scheduler not in (None, "local") and _given(ctx, "workers"):  # (taken, and not used)
        raise BjsimError(f"--workers: not with --scheduler {scheduler}: the cluster's workers play "
                         "the chunks, as many at once as their threads (dask worker --nthreads N)")

    rules, file_meta, changes = _load_rules(rules_path, overrides, boxes, super_sevens)
    _check_chunk_rounds(rules, chunk_rounds, _run_rounds(precision, rounds, max_rounds))
    _check_resumed_rules(checkpoint_path, resume, "simulate", rules)
    _no_effect_warnings(rules, overrides, changes)
    files = None
    if strategy_names:
        strategies, given = _load_strategies(strategy_names, rules.boxes)
        names, files = _shown_strategies(ctx, given, strategies)
        label = _chart_label(rules, names, quiet)  # (basic by its name or its file)
    else:
        strategies, names, label = _default_strategies(rules, quiet, rules.boxes)
    plan = run.Plan(
        rules, tuple(strategies), tuple(names), strategy_files=files or None,
        rounds=max_rounds if precision is not None else rounds, seed=seed,
        chunk_rounds=chunk_rounds, workers=workers, precision=precision, scheduler=scheduler,
        checkpoint=checkpoint_path, resume=resume, exact=with_exact,
        checkpoint_option=checkpoint_option(ctx), rules_file=_as_named(ctx, rules_path),
        rules_name=file_meta.get("name"),
        overrides=tuple(changes), strategy_note=label,
        command=_run_command(ctx),
    )
    try:
        result = run.simulate(plan, quiet=quiet, say=None if quiet or not with_exact else (
            lambda text: _echo(f"bjsim: {text}", err=True)))
        if result.nothing_played:
            _nothing_to_report(ctx, result.stopped_compiling, result.failure)
        with stops.held():  # a stop after the last chunk: the whole report all the same
            failed = _emit_run(run.render(result, fmt), output)
    except KeyboardInterrupt:  # after the chunks (Ctrl-C in them gives a partial result)
        saved = f": carry on with --resume --checkpoint {checkpoint_path}"
        kept = checkpoint_path is not None and os.path.isfile(checkpoint_path)  # (none: no hint)
        _echo("bjsim: interrupted before the report was written"
                   + (saved if kept else ""), err=True)
        ctx.exit(_interrupted())
    _closing(ctx, result.messages, result.partial or result.exact_stopped, failed,
             result.failure)


# ---------------------------------------------------------------------------------------------
# replay


@cli.command()
@_option(
    "--cards", "cards_path", required=True, type=click.Path(allow_dash=True),  # (a folder: ours)
    metavar="FILE",
    help="Card file: tokens like 7h Kd As 10c in dealing order, # comments ('-' reads stdin).",
)
@rules_options
@strategy_option
@_option(
    "--cut", type=WholeRange(min=1), default=None,
    help="Start no new round once this many cards are dealt, 1 or more (the first round always "
    "starts). Default: play until the cards run out; a round the cards run out in is not "
    "played, and a warning says so.",
)
@output_options(["text", "json"], "text")
@user_errors
def replay(cards_path, rules_path, overrides, boxes, super_sevens, strategy_names, cut, fmt,
           output):
    """Play a stacked shoe round by round and show every decision, with its rule.

    Uses the slow, readable reference game: each hit, stand, double, split, insurance and
    settlement is printed with the strategy cell or Gazette rule behind it.

    \b
    Example:
        printf '4c 6h Jd 7h 9d 7s Ah As 2d Td\\n' > shoe.txt
        bjsim replay --cards shoe.txt
        bjsim replay --cards shoe.txt --boxes 2 --format json
    """
    import numpy as np

    from simulator import cards as cards_mod
    from simulator import reference

    rules, file_meta, changes = _load_rules(rules_path, overrides, boxes, super_sevens)
    source = _rules_source(rules_path, file_meta, changes)
    given = _load_strategies(strategy_names, rules.boxes) if strategy_names else None
    # (a bad --strategy is refused before the cards are read)
    where = "<stdin>" if cards_path == "-" else cards_path
    if cards_path == "-":
        from simulator.rules import MAX_FILE, read_at_most

        if sys.stdin is None:  # (started with it closed: <&-)
            raise BjsimError("--cards -: standard input is closed: give the cards there, or a "
                             "card file")
        raw = getattr(sys.stdin, "buffer", None)  # (bytes, decoded as a file's are)
        text = read_at_most(raw or sys.stdin, MAX_FILE + 1)  # (as a file: `cat /dev/zero |`
        # had been read to no end)
        if len(text) > MAX_FILE:
            raise BjsimError(f"--cards -: standard input longer than {MAX_FILE >> 20} MiB, too "
                             "long for a card file")
        if isinstance(text, bytes):
            try:
                text = text.decode("utf-8-sig")
            except UnicodeDecodeError as err:
                line = text[: err.start].count(b"\n") + 1
                raise BjsimError(f"--cards <stdin>: line {line}: not valid UTF-8 text") from None
        stacked = cards_mod.parse_cards(text, source="--cards <stdin>")
    else:
        stacked = cards_mod.read_cards(cards_path, f"--cards {cards_path}".rstrip())
    from simulator.report import files_text, rules_title, strategy_text, with_note
    from simulator.rules import plural, unlike_nz_line
    from simulator.strategy import charts_sha256

    warnings = []  # (on stderr, and in the output: the text's head, json's warnings)
    codes, copies = np.unique(stacked, return_counts=True)
    if copies.size and copies.max() > rules.decks:  # played as given, but no shoe deals it
        many = ", ".join(f"{cards_mod.format_cards(codes[i:i + 1])} {copies[i]} times"
                         for i in np.flatnonzero(copies > rules.decks)[:5])
        warnings.append(f"the cards hold more of a card than {rules.decks} "
                        f"{plural(rules.decks, 'deck does', 'decks do')} ({many}): played as "
                        "given")
        _echo(f"bjsim: warning: {warnings[-1]}", err=True)

    files = {}
    if given is not None:
        strategies, names = given
        given_names = names
        names, files = _shown_strategies(click.get_current_context(), names, strategies)
        strategies = [_box_named(s, n) for s, n in zip(strategies, given_names, strict=True)]
        label = _chart_label(rules, names, False)
    else:
        strategies, names, label = _default_strategies(rules, False, rules.boxes)
    unused = _shoe_keys_set(overrides)
    if unused:
        warnings.append(f"replay deals the cards as given, in order: {unused} not apply here "
                        "(--cut stops play as a cut card would)")
        _echo(f"bjsim: warning: {warnings[-1]}", err=True)
    results = reference.play_stacked(stacked, rules, strategies, cut=cut)
    used = sum(len(r.cards) for r in results)
    if not results:
        raise BjsimError(
            f"--cards {where}: " + ("no cards, " if not len(stacked) else
            f"the cards ran out in round 1 (all {len(stacked)}: "
            f"{cards_mod.format_cards(stacked[:24])}{' ...' if len(stacked) > 24 else ''}), ")
            + f"so no round is complete: with {rules.boxes} box(es) a round takes two cards to "
            "each box and the dealer's up card, then the cards its hands and the dealer draw"
        )
    incomplete = None
    if used < min(len(stacked), len(stacked) if cut is None else cut):
        incomplete = {"round": len(results) + 1, "start": used,
                      "cards": cards_mod.format_cards(stacked[used:])}
        _echo(
            f"bjsim: warning: the cards ran out in round {incomplete['round']} (cards {used}-"
            f"{len(stacked) - 1}: {incomplete['cards']}): that round is not played", err=True,
        )
    run_meta = source | {"strategy": names, "strategy_note": label, "cards_file": where,
                         "cut": cut, "seed": None, "partial": incomplete is not None} | (
        {"strategy_files": files} if files else {})
    if fmt == "json":
        doc = {
            "bjsim": __version__,
            "source": provenance(),
            "rules": rules_dict(rules),
            "strategy": names,
            "strategy_sha256": [charts_sha256(s) for s in strategies],  # (as simulate's)
            "run": run_meta,
            "cards": len(stacked),
            "warnings": warnings,
            "rounds": [r.to_dict() for r in results],
            "incomplete_round": incomplete and incomplete | {
                "cards": incomplete["cards"].split()},  # (a list, as each round's)
        }
        text = json.dumps(doc, indent=2) + "\n"
    else:
        head = (f"bjsim {__version__} replay: rules {rules_title(source)}; strategy "
                f"{with_note(strategy_text(list(names)), label)}"
                + (f"; {files_text(files)}" if files else "") + f"; cards {where}")
        unlike = unlike_nz_line(rules_dict(rules), rules_title(source))  # (a file's keys too)
        if unlike:
            head += f"\n{unlike}"
        head += "".join(f"\nWARNING: {line}" for line in warnings)
        parts = [head] + [reference.format_round(r, i) for i, r in enumerate(results)]
        left = len(stacked) - used
        tail = (f"{len(results)} complete {plural(len(results), 'round', 'rounds')}, {used} "
                f"{plural(used, 'card', 'cards')} dealt of the {len(stacked)} given; {left} "
                f"{plural(left, 'card', 'cards')} left")  # (a review: "1 round from 13 cards"
        if cut is not None and cut <= used < len(stacked):  # read as the round's cards)
            tail += (f" (--cut {cut}: no round starts once {cut} "
                     f"{plural(cut, 'card has', 'cards have')} been dealt)")
        if incomplete:
            tail += (f"\nWARNING: the cards ran out in round {incomplete['round']} (cards "
                     f"{incomplete['start']}-{len(stacked) - 1}: {incomplete['cards']}): that "
                     "round is not played")
        parts.append(tail)
        text = "\n\n".join(p.rstrip("\n") for p in parts) + "\n"
    _emit(text, output)


# ---------------------------------------------------------------------------------------------
# rules


@cli.group(context_settings=CONTEXT_SETTINGS)
def rules():
    """Show and check rule sets.

    \b
    Example:
        bjsim rules show --set decks=8
        bjsim rules check my-casino.toml nz1994
    """


@rules.command("show")
@rules_options
@output_options(["table", "toml", "json"], "table")
@user_errors
def rules_show(rules_path, overrides, boxes, super_sevens, fmt, output):
    """Print a rule set key by key, with its Gazette rule number, in words.

    The toml format is a complete rule file (with the --set changes applied), ready to edit.

    \b
    Examples:
        bjsim rules show
        bjsim rules show --rules configs/us-6deck-s17-das-peek.toml
        bjsim rules show --set decks=8 --format toml -o nz8.toml
    """
    from simulator.rules import (
        describe,
        dumps_rules,
        modified_meta,
        origin,
        origin_legend,
        origin_note,
        shown_rule_file,
    )

    r, meta, changes = _load_rules(rules_path, overrides, boxes, super_sevens)
    shown = shown_rule_file(rules_path)
    meta = modified_meta(meta, changes, shown) or {}  # (named as the other commands name it)
    if fmt == "toml":
        text = dumps_rules(r, meta or None)
    elif fmt == "json":
        text = json.dumps({"meta": meta, "rules": rules_dict(r)}, indent=2) + "\n"
    else:
        rows = [(a, b, origin(r, b.split(" = ")[0]), c + origin_note(r, b.split(" = ")[0]))
                for a, b, c in describe(r)]
        head = ("rule", "setting", "from", "in words")
        widths = [max(len(row[i]) for row in rows + [head]) for i in range(3)]
        name = meta.get("name") or shown
        title = name if name.startswith(shown) else f"{name} ({shown})"
        lines = [f"Rule set: {title}", ""]
        lines += ["  ".join(f"{x:<{w}}" for x, w in zip(row[:3], widths, strict=True))
                  + "  " + row[3] for row in [head] + rows]
        lines += ["", f"from: {origin_legend()}"]
        text = "\n".join(lines) + "\n"
    _emit(text, output)


@rules.command("check")
@click.argument("files", nargs=-1, required=True, type=click.Path())
@_option("-f", "--format", "fmt", type=click.Choice(["text", "json"]), default="text",
         show_default=True, help="Output format: text ('ok' lines on stdout, problems on "
         "stderr) or json on stdout ({\"files\": [{\"file\", \"ok\", \"problems\", "
         "\"variant_of\", \"changes\"}]}).")
def rules_check(files, fmt):
    """Check rule files and variant files: 'ok' for each good one, else its problems.

    A bad file's problems are all listed, one line each: every key's wrong type or value and
    every unknown key in the file's order, then every combination the good keys cannot make
    together (a variant file's changes over its baseline). A shipped rule set may be named as
    --rules takes it (nz1994-8deck). A variant file (bjsim compare --variant) is checked against
    the baseline it names (else the NZ rule set): its changes, and the strategy it names. Exit
    code 2 if any file has a problem (a folder, or a missing file, is one), in either format.

    \b
    Examples:
        bjsim rules check my-casino.toml nz1994
        bjsim rules check configs/*.toml             # in bjsim's folder: every shipped one
        bjsim rules check configs/variants/*.toml    # in bjsim's folder
        bjsim rules check -f json my-casino.toml
    """
    from simulator import variants
    from simulator.rules import (
        RuleError,
        read_toml,
        rule_file_problems,
        shipped_rule_file,
        shown_rule_file,
    )

    bad, checked = 0, []
    for given in files:
        path, said, of, changes = shipped_rule_file(given), "", None, None
        try:
            if path and not os.path.exists(path):
                raise RuleError(variants.no_such_rule_or_variant_file(path))
            data = read_toml(path, "rule") if os.path.isfile(path) else None  # (read once)
            if data is not None and variants.is_variant_file(data):
                # (the baseline it names and its changes, as far as they could be read)
                problems, named, v, changes = variants.check_variant_file(path, data)
                of = shown_rule_file(None if named is None else str(named))
                if v is not None:
                    said = f"a variant of {of}: {', '.join(v.changes) or 'no change'}"
            else:
                problems = rule_file_problems(path, data)  # every one, a line each
        except ValueError as err:
            problems = [str(err)]  # a file that cannot be read
        bad += bool(problems)
        # (as typed where it is found so, else a shipped one as configs/...)
        shown = given if os.path.exists(given) or not path else shown_rule_file(path)
        if fmt == "json":
            checked.append({
                "file": shown, "ok": not problems, "problems": [_one_line(x) for x in problems],
                "variant_of": of, "changes": None if changes is None else list(changes)})
            continue
        for line in problems:
            _echo(f"Error: {_one_line(line)}", err=True)
        if not problems:
            _echo(f"{shown}: ok" + (f" ({said})" if said else ""))
    if fmt == "json":
        _emit(json.dumps({"files": checked}, indent=2) + "\n", None)
    if bad:
        raise click.exceptions.Exit(2)


# ---------------------------------------------------------------------------------------------
# strategy (formerly `strategies`, kept as a hidden alias)


@cli.group(context_settings=CONTEXT_SETTINGS)
def strategy():
    """List, show and generate strategies (the player's decision charts).

    \b
    Example:
        bjsim strategy list
        bjsim strategy show basic
        bjsim strategy generate --rules configs/nz1994.toml -o my-basic.toml
    """


@strategy.command("list")
@output_options(["table", "json", "csv"], "table")
@user_errors
def strategies_list(fmt, output):
    """List the shipped strategies with their descriptions.

    json is {"strategies": [{"name", "description", "strategy_sha256", "error"}]} (the hash of
    the charts as the other commands' outputs give it; "error" why a file does not load), csv
    a row each with those columns.

    \b
    Examples:
        bjsim strategy list
        bjsim strategy list -f json
    """
    from simulator.report import no_formula
    from simulator.strategy import charts_sha256, list_strategies, load_strategy

    rows = []
    for name in list_strategies():
        try:
            s = load_strategy(name)
            rows.append({"name": name, "description": s.description.strip(),
                         "strategy_sha256": charts_sha256(s), "error": None})
        except ValueError as err:
            rows.append({"name": name, "description": None, "strategy_sha256": None,
                         "error": _one_line(err)})
    if fmt == "json":
        text = json.dumps({"strategies": rows}, indent=2) + "\n"
    elif fmt == "csv":
        out = io.StringIO()
        w = csv.DictWriter(out, fieldnames=list(rows[0]) if rows else ["name"],
                           lineterminator="\n")
        w.writeheader()
        w.writerows({k: no_formula(v) for k, v in r.items()} for r in rows)
        text = out.getvalue()
    else:
        width = max((len(r["name"]) for r in rows), default=0)
        text = "".join(f"{r['name']:<{width}}  " + (
            (r["description"].splitlines() or [""])[0] if r["error"] is None
            else f"(does not load: {r['error']})").rstrip() + "\n" for r in rows)
    _emit(text, output, "list")


@strategy.command("show")
@click.argument("name", metavar="NAME|FILE")
@_option("-o", "--output", type=OUTPUT_FILE, default=None,
         metavar="FILE", help="Write the strategy file to FILE instead of stdout.")
@user_errors
def strategies_show(name, output):
    """Print a strategy's charts as a strategy file (hard, soft, pairs, sevens, flags).

    The output loads back as the same strategy: copy it, edit it, pass it to --strategy.

    \b
    Example:
        bjsim strategy show basic
        bjsim strategy show basic -o mine.toml
    """
    from simulator.strategy import dumps_strategy, load_strategy

    _emit(dumps_strategy(load_strategy(name)), output, "strategy")


@strategy.command("generate")
@rules_options
@_option("--with-super-sevens", is_flag=True,
         help="Sevens row (first decision on 7,7 with a Super Sevens bet up): the best play "
         "for the main wager plus the side bet (its size: the rule set's super_sevens_bet). "
         "Default: the pair table's 7,7 play, best for the main wager alone.")
@_option("--insurance", is_flag=True,
         help="Take insurance and even money always (the insurance-taker). Default: each "
         "where it gains from a full shoe (even money where a blackjack pays less than "
         "about 1.44 to 1, as 6 to 5; insurance where it pays more than about 2.24 to 1); "
         "never under the Gazette's pays.")
@_option("--name", default=None, metavar="NAME", callback=_a_name,
         help="The strategy's name. Default: basic (basic-super-sevens with "
         "--with-super-sevens, insurance-taker with --insurance, insurance-taker-super-sevens "
         "with both), and under rules other than "
         "the NZ ones that name with the keys it is derived for that differ from them, in "
         "short words (README): basic (2 decks, H17).")
@_option("-o", "--output", type=OUTPUT_FILE, default=None,
         metavar="FILE", help="Write the strategy file to FILE instead of stdout.")
@_option("-q", "--quiet", is_flag=True, help="No line on stderr while it derives.")
@user_errors
def strategy_generate(rules_path, overrides, boxes, super_sevens, with_super_sevens, insurance,
                      name, output, quiet):
    """Derive the basic strategy of a rule set exactly and write it as a strategy file.

    Every cell is the best total-dependent play by exact card-removal analysis of the full
    shoe (docs/exact.md). The shipped basic.toml is this command's output for the NZ rules.

    \b
    Examples:
        bjsim strategy generate --rules configs/nz1994.toml -o my-basic.toml
        bjsim strategy generate --rules configs/nz1994.toml --with-super-sevens -o bss.toml
        bjsim strategy generate --rules configs/nz1994.toml --insurance -o ins.toml
        bjsim strategy generate --rules configs/us-6deck-s17-das-peek.toml
    """
    from simulator import derived
    from simulator.exact import basic_strategy
    from simulator.exact.analyze import strategy_from_tables
    from simulator.strategy import dumps_strategy

    rules, _, changes = _load_rules(rules_path, overrides, boxes, super_sevens)
    if with_super_sevens and not rules.super_sevens:
        raise BjsimError("--with-super-sevens: the rule set has no Super Sevens (super_sevens = "
                         "false): allowed with a rule set that has it")
    _not_derived_from(changes, derived.CHART_KEYS + (
        *derived.SIDE_BET_KEYS, "super_sevens") * with_super_sevens, "strategy")
    if not quiet and (with_super_sevens or derived.cached_basic(rules) is None):
        _echo("bjsim: deriving the basic strategy by card removal (some seconds)", err=True)
    named = name or derived.generated_name(rules, with_super_sevens, insurance)
    if with_super_sevens:
        strat = basic_strategy(rules, with_super_sevens=True, name=named, insurance=insurance)
    else:  # the chart every command derives and plays, kept on disk (`simulator.derived`)
        strat = strategy_from_tables(rules, derived.basic_for(rules)[0], False, named, insurance)
    command = " ".join(["bjsim strategy generate", _rules_words(rules_path, overrides, boxes,
                                                                super_sevens),
                        "--with-super-sevens" if with_super_sevens else "",
                        "--insurance" if insurance else "", f"--name {name}" if name else ""])
    header = (f"# Generated by `{' '.join(command.split())}`: regenerate it, do not edit by "
              "hand.\n# Every cell is derived by exact analysis (docs/exact.md).\n\n")
    _emit(header + dumps_strategy(strat), output, "strategy")


def _not_derived_from(changes, keys, what: str, named=()) -> None:
    """A warning for each rule change (``changes``, `_load_rules`') the derived ``what`` does
    not depend on (``keys`` are those it does): taken, and written in the file's header only,
    and its default name where the change is one of ``named`` (--set's, in an index set's
    default name) (--boxes 5 and --no-super-sevens had been taken silently, a review)."""
    for change in changes:
        key = change.split("=", 1)[0].strip()
        if key not in keys:
            where = "header and default name" if key in named else "header"
            _echo(f"bjsim: warning: {change} changes no play of the {what} (its best plays "
                       f"do not depend on {key}): it is written in the file's {where} only",
                       err=True)


def _rules_words(rules_path, overrides, boxes, super_sevens) -> str:
    """The rules options as given (``rules_options``), as a command line writes them."""
    from simulator.rules import shown_rule_file

    return " ".join([f"--rules {shown_rule_file(rules_path)}" if rules_path else "",
                     *(f"--set {o}" for o in overrides),
                     f"--boxes {boxes}" if boxes is not None else "",
                     {True: "--super-sevens", False: "--no-super-sevens"}.get(super_sevens, "")])


@strategy.command("indices")
@rules_options
@_option("--count", "count_name", default="hi-lo", show_default=True, metavar="NAME|FILE",
         callback=_plan_or_count_named,
         help="A balanced count system: a shipped one (strategies/counts/) or a file.")
@_option("--decks-left", type=FiniteRange(0.5, 8), default=None, metavar="D",
         help="The depth the plays are valued at, in decks left. Default: half the shoe.")
@_option("--name", default=None, metavar="NAME", callback=_a_name,
         help="The index set's name. Default: COUNT-RULES, e.g. hi-lo-nz1994, and each "
                   "--set KEY=VALUE after it (hi-lo-nz1994-decks-2).")
@_option("-o", "--output", type=OUTPUT_FILE, default=None,
         metavar="FILE", help="Write the index file to FILE instead of stdout.")
@_option("-q", "--quiet", is_flag=True, help="No line on stderr while it derives.")
@user_errors
def strategy_indices(rules_path, overrides, boxes, super_sevens, count_name, decks_left, name,
                     output, quiet):
    """Derive index plays for a count system exactly and write them as an index file.

    Each play (the Illustrious 18: insurance, 16 v 10, 15 v 10, ...) is valued on shoes depleted
    to each true count from -10 to +10 (times the count's level: -20 to +20 for Zen, say), the
    count at the decision, the up card and the hand seen, as bjsim count plays it
    (docs/counting.md); its index is the true count where the better action changes, to the
    nearest whole count (+1, not 0, for a change between 0 and +0.5: at a true count of exactly
    0 the better play there). A play whose better action does not change there (or as far as a
    shallow shoe holds its cards) is left out, and said so; one better at every count is
    written with index -99. The shipped strategies/indices/hi-lo-nz.toml is this command's
    output for the NZ rules. Takes about 2 s on two cores once compiled (3 s of CPU); the plays
    are valued side by side on every CPU.

    \b
    Examples:
        bjsim strategy indices -o my-hi-lo.toml --name hi-lo-nz
        bjsim strategy indices --count zen --rules configs/us-6deck-s17-das-peek.toml
    """
    from simulator import derived
    from simulator.counting import load_count
    from simulator.exact.indices import derive_indices, dumps_indices, scan_top
    from simulator.index_plays import is_shipped_file, name_refused
    from simulator.rules import plural

    rules, meta, changes = _load_rules(rules_path, overrides, boxes, super_sevens)
    _not_derived_from(changes, derived.CHART_KEYS, "index set",
                      () if name else {o.split("=", 1)[0].strip() for o in overrides})
    system = load_count(count_name)
    depth = rules.decks / 2 if decks_left is None else decks_left
    if depth > rules.decks:
        raise BjsimError(f"--decks-left {depth:g}: allowed at most the shoe's {rules.decks} "
                         + plural(rules.decks, "deck", "decks"))
    if not quiet and system.balanced:  # (an unbalanced count is refused in one line)
        _echo("bjsim: valuing the index plays by card removal on shoes depleted to each true "
                   "count (some seconds)", err=True)
    try:
        plays = derive_indices(rules, system, decks_left=depth)
    except ValueError as err:
        if system.balanced:
            raise
        raise BjsimError(f"--count {count_name}: {err}") from None  # (the option named)
    missing = [p["name"] for p in plays if p["index"] is None]
    if missing and not quiet:
        top = scan_top(system.tags)
        _echo(f"bjsim: not written (the better action does not change at a true count from "
                   f"-{top} to +{top}, as far as a shoe of {depth:g} "
                   f"{plural(depth, 'deck', 'decks')} holds the play's cards): "
                   f"{', '.join(missing)}", err=True)
    command = " ".join(["bjsim strategy indices", _rules_words(rules_path, overrides, boxes,
                                                               super_sevens),
                        f"--count {count_name}" if count_name != "hi-lo" else "",
                        f"--decks-left {decks_left:g}" if decks_left is not None else "",
                        f"--name {name}" if name else ""])  # (the options given)
    name_given = name is not None
    name = name or "-".join([system.name, meta.get("name") or "rules",
                             *(o.replace("=", "-") for o in overrides)])
    text = dumps_indices(plays, name, rules, system, depth, " ".join(command.split()))
    refused = name_refused(text, name, given=name_given, own_file=output is not None
                           and is_shipped_file(output, name))
    if refused:
        raise BjsimError(refused)
    _emit(text, output, "index file")


# the old group name: every `bjsim strategies ...` command still works
cli.add_command(OneLineGroup(name="strategies", commands=strategy.commands, hidden=True,
                            context_settings=CONTEXT_SETTINGS,
                            help="Old name of `bjsim strategy`: the same commands.\n\n"
                            "\b\nExample:\n    bjsim strategies list"))


# ---------------------------------------------------------------------------------------------
# exact


UP_CHOICES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "T")  # (index + 1: the card)
UP_SHOWN = "A, 2-10 or T"


def _exact_hands(rules, strat, source: dict, ups: list[int], fmt: str, quiet: bool,
                 label: str | None = None) -> str:
    """`bjsim exact --hands` in ``fmt``: `exact.hands.hand_values`, cached; the chart named
    ``label`` (default: its own name)."""
    from simulator import derived
    from simulator.exact import hands
    from simulator.exact.cache import load_hands, save_hands, then_kept
    from simulator.exact.compare import valued_charts

    theirs = None if strat is not None else derived.basic_for(rules)[0]
    chart = strat if strat is not None else derived.rules_basic(rules, theirs)
    kept = {up: load_hands(rules, chart, up) for up in (ups or hands.UP_ORDER)}
    todo = [up for up, rows in kept.items() if rows is None]
    if todo:
        if not quiet:
            _echo(f"bjsim: exact analysis by card removal: every play of every two-card "
                       f"hand valued against {len(todo)} up card{'s' if len(todo) > 1 else ''} "
                       f"(about a second of CPU an up card, on every core; {then_kept()})",
                       err=True)
        made = hands.hand_values(rules, chart, todo)
        for up in todo:
            kept[up] = [r for r in made if r["up"] == up]
            save_hands(rules, chart, up, kept[up])
    rows = [r for up in hands.UP_ORDER if up in kept for r in kept[up]]
    name = label or chart.name
    note = (derived.strategy_note(rules, name, theirs) if strat is None else  # (as exact's)
            _chart_label(rules, [name], quiet, derive=True))
    run_meta = source | {"strategy": name, "strategy_note": note, "seed": None, "partial": False}
    charts = valued_charts(chart)  # (as exact's: the chart valued)
    if fmt == "json":
        doc = hands.hands_json(rows, {"bjsim": __version__, "source": provenance(),
                                      "rules": rules_dict(rules), "strategy_sha256": charts,
                                      "run": run_meta}, rules)
        return json.dumps(doc, indent=2, allow_nan=False) + "\n"
    if fmt == "csv":
        from simulator.report import csv_frame

        return csv_frame(hands.hands_frame(rows, run_meta, rules, charts)).to_csv(
            index=False, lineterminator="\n")  # (full precision)
    return hands.hands_table(rows, source["rules_name"], name if note is None else
                             f"{name} ({note})", rules)


def _exact_removal(rules, strat, label, files: dict, source: dict, count_names, optimal: bool,
                   fmt: str, quiet: bool) -> str:
    """`bjsim exact --removal` in ``fmt``: `exact.removal.effects_of_removal`, cached, and the
    correlations of the counts ``count_names`` (default: every shipped one)."""
    from simulator import derived
    from simulator.counting import list_counts, load_count
    from simulator.exact import removal
    from simulator.exact.cache import load_removal, save_removal, then_kept
    from simulator.exact.compare import OPTIMAL_NAME, csv_run, per_box_note, valued_charts

    systems, given = [], []
    for c in count_names or list_counts():
        s = load_count(c)
        if all((s.name, s.tags) != (t.name, t.tags) for t in systems):  # (once each)
            systems.append(s)
            given.append(str(c))
    names = [s.name for s in systems]  # a name two counts share: each shown by its file, as given
    systems = [dataclasses.replace(s, name=g) if names.count(s.name) > 1 else s
               for s, g in zip(systems, given, strict=True)]
    if optimal:
        chart, name, note = None, OPTIMAL_NAME, None
    elif strat is None:  # the rules' basic strategy, named as `bjsim exact` names it
        theirs = derived.basic_for(rules)[0]
        chart = derived.rules_basic(rules, theirs)
        name, note = chart.name, derived.strategy_note(rules, chart.name, theirs)
    else:
        chart, name = strat, label
        note = _chart_label(rules, [label], quiet, derive=True)
    effects = load_removal(rules, chart, optimal)
    if effects is None:
        if not quiet:
            _echo("bjsim: effects of removal: the game valued from the full shoe and from "
                       "it less one card of each value (about 10 s of CPU, --optimal about 35 "
                       f"s, on every core; {then_kept()})", err=True)
        effects = removal.effects_of_removal(rules, chart, optimal)
        save_removal(rules, chart, effects, optimal)
    boxes_note = per_box_note(rules.boxes)  # (as `bjsim exact` says it)
    effects = effects | {"per_box_note": boxes_note, "sevens_depleted": (
        None if effects["sevens_plays"] is None else
        removal.sevens_depleted(rules, effects["sevens_plays"]))}
    shown = name if note is None else f"{name} ({note})"
    run_meta = source | {"strategy": name, "strategy_note": note, "play": effects["play"],
                         "seed": None, "partial": False} | (
        {"strategy_files": files} if files else {}) | (
        {"boxes": rules.boxes, "per_box_note": boxes_note} if boxes_note else {})
    charts = valued_charts(chart)  # (as exact's: None with --optimal, no chart)
    if fmt == "json":
        doc = {"bjsim": __version__, "source": provenance(), "rules": rules_dict(rules),
               "strategy_sha256": charts, "run": run_meta,
               "removal": removal.removal_json(effects, systems, shown)}
        return json.dumps(doc, indent=2, allow_nan=False) + "\n"
    if fmt == "csv":
        import pandas as pd

        from simulator.report import csv_cell, csv_text

        frame = pd.DataFrame([(a, b, c, csv_cell(v) if v is None else
                               v if isinstance(v, (str, int)) else float(v))
                              for a, b, c, v in removal.removal_rows(effects, systems)],
                             columns=["section", "item", "per", "value"], dtype=object)
        return csv_text(frame, {"run": csv_run(run_meta), "rules": rules_dict(rules)} | (
            {"strategy_sha256": charts} if charts else {}))  # (as exact's csv)
    if files:
        from simulator.report import files_text

        shown += f"; {files_text(files)}"
    return removal.removal_table(effects, systems, source["rules_name"], shown)


def _shoe_keys_set(overrides) -> str:
    """The shoe's keys (penetration, shuffle) a --set changes, as "penetration does" or
    "penetration and shuffle do", or "" for none: for the commands they do not apply to."""
    keys = [k for k in ("penetration", "shuffle")
            if any(o.split("=")[0].strip() == k for o in overrides)]
    return f"{' and '.join(keys)} {'do' if len(keys) > 1 else 'does'}" if keys else ""


@cli.command()
@rules_options
@_option("--strategy", "strategy_name", default=None, metavar="NAME|FILE",
         callback=_strategy_named,
         help="Strategy to evaluate: a shipped name or a TOML file. Default: the basic "
         "strategy derived for the rule set (as `bjsim strategy generate`).")
@_option("--optimal", is_flag=True,
         help="Value composition-dependent optimal play instead of a chart: each decision the "
         "best for the cards held and the up card, as published combinatorial analyzers "
         "headline the house edge (no insurance, even money where it gains). Not with "
         "--strategy or --hands.")
@_option("--hands", "by_hand", is_flag=True,
         help="Instead: the value of each first play (stand, hit, double, split, surrender) "
         "of every two-card hand against each up card, every later decision at its best "
         "(as the published tables), the best play and its margin, and the play the "
         "strategy's chart takes there with its cost.")
@_option("--up", "ups", multiple=True, type=AnyCaseChoice(UP_CHOICES, UP_SHOWN),
         metavar="CARD", help=f"With --hands: only this dealer up card ({UP_SHOWN}; "
         "repeatable).")
@_option("--removal", is_flag=True,
         help="Instead: the effect of removal of each card value (the change of the main "
         "game's, insurance's and Super Sevens' return when one card is taken out of the full "
         "shoe, the play held fixed) and each count's betting, insurance and Super Sevens "
         "correlations. Not with --hands.")
@_option("--count", "count_names", multiple=True, metavar="NAME|FILE",
         callback=_plan_or_count_named,
         help="With --removal: a count system to correlate, a shipped one "
         "(strategies/counts/) or a file (repeatable). Default: every shipped count.")
@output_options(["table", "csv", "json"], "table")
@_option("-q", "--quiet", is_flag=True, help="No line on stderr while it computes.")
@user_errors
def exact(rules_path, overrides, boxes, super_sevens, strategy_name, optimal, by_hand, ups,
          removal, count_names, fmt, output, quiet):
    """Theoretical (combinatorial) figures of a rule set and strategy, no simulation.

    The house edge (main game and insurance), the Super Sevens house edge line by line, and the
    7-7 question: with a Super Sevens bet up, the combined EV of main wager and side bet for each
    7-7 play (split, stand, hit, double) and dealer card, for side bets 0.5, 1 and 2 times the
    main wager, and how far the Super Sevens house edge moves between the plays. Every round is
    valued from a full shoe (the every-round shuffle). The play valued is a strategy's chart
    (default: the rules' basic strategy), or with --optimal composition-dependent optimal play;
    every format says which. Method: docs/exact.md.

    \b
    Examples:
        bjsim exact
        bjsim exact --optimal                       # what published calculators headline
        bjsim exact --strategy basic-super-sevens
        bjsim exact --set decks=8 --format json -o nz8-exact.json
        bjsim exact --hands --up 10 --up A          # each play's value, hand by hand
        bjsim exact --removal --count hi-lo --count my-count.toml
    """
    from simulator.exact.cache import load_figures, then_kept
    from simulator.exact.compare import (
        exact_csv,
        exact_figures,
        exact_json,
        exact_table,
        valued_charts,
    )
    from simulator.strategy import load_strategy

    if ups and not by_hand:
        raise BjsimError("--up: only with --hands (the up cards of its table)")
    if count_names and not removal:
        raise BjsimError("--count: only with --removal (the counts it correlates with the "
                         "effects of removal)")
    if removal and by_hand:
        raise BjsimError("--removal: not with --hands: each is a table of its own; ask for one")
    if optimal and (strategy_name or by_hand):
        raise BjsimError(f"--optimal: not with {'--strategy' if strategy_name else '--hands'}: "
                         "optimal play follows no chart" + (
                             "" if strategy_name else " (--hands gives each hand's best play)"))
    rules, meta, changes = _load_rules(rules_path, overrides, boxes, super_sevens)
    source = _rules_source(rules_path, meta, changes)
    strat = load_strategy(strategy_name) if strategy_name else None  # None: derive basic
    # a file by its own name, as simulate names it (`strategy.shown_names`: an edited copy of
    # basic, which says "basic", by its path)
    label, files = None, {}
    if strat is not None:
        (label,), files = _shown_strategies(click.get_current_context(), [strategy_name], [strat])
    unused = _shoe_keys_set(overrides)
    if unused:
        dealt = ("deals to the cut card" if rules.shuffle == "cut-card" else
                 "shuffles every round, as these figures assume")
        _echo(f"bjsim: warning: exact values every round from a full shoe: {unused} not "
                   f"change its figures (bjsim simulate under these rules {dealt})", err=True)
    if removal:
        _emit(_exact_removal(rules, strat, label, files, source, count_names, optimal, fmt,
                             quiet), output)
        return
    if by_hand:
        cards = [min(UP_CHOICES.index(u.upper()) + 1, 10) for u in ups]  # (T: 10)
        _emit(_exact_hands(rules, strat, source | ({"strategy_files": files} if files else {}),
                           cards, fmt, quiet, label), output)
        return
    # (kept: nothing to wait for; a damaged file is computed again, so it is read here, a few
    # milliseconds)
    if not quiet and load_figures(rules, strat, optimal) is None:
        what = ("composition-dependent optimal play" if optimal else
                "the basic strategy derived, then" if strat is None else f"strategy {label}")
        _echo(f"bjsim: exact analysis by card removal: {what} valued (some seconds, "
                   f"{then_kept()})", err=True)
    fig, theirs = exact_figures(rules, strat, optimal)
    if optimal:  # no chart: the figures name the play
        name, note = fig["strategy"], None
    elif strat is None:  # named as every command names the rules' basic strategy, with its note
        from simulator.derived import rules_basic, strategy_note

        name = rules_basic(rules, theirs).name
        note = strategy_note(rules, name, theirs)
    else:  # the shipped basic under rules that may call for another chart: said, as simulate
        name, note = label, _chart_label(rules, [label], quiet, derive=True)
    fig = fig | {"strategy": name if note is None else f"{name} ({note})"}
    run_meta = source | {"strategy": name, "strategy_note": note, "play": fig["play"],
                         "seed": None, "partial": False} | (
        {"strategy_files": files} if files else {})
    charts = valued_charts(theirs)
    if fmt == "json":
        doc = exact_json(fig, {"version": __version__, "rules": rules_dict(rules),
                               "run": run_meta, "strategy_sha256": charts})
        text = json.dumps(doc, indent=2, allow_nan=False) + "\n"
    elif fmt == "csv":
        text = exact_csv(fig, rules_dict(rules), run_meta, charts)
    else:  # the table names the strategy's file after it, as simulate's table (json and csv:
        # run.strategy_files)
        from simulator.report import code_line, files_text

        shown = fig["strategy"] + (f"; {files_text(files)}" if files else "")
        text = exact_table(fig | {"strategy": shown}, source["rules_name"], rules_dict(rules))
        text += code_line({"strategy_sha256": charts}) + "\n"  # (the code and the charts)
    _emit(text, output)


# ---------------------------------------------------------------------------------------------
# compare


@cli.command()
@rules_options
@strategy_option(default="the baseline rules' basic strategy: the shipped basic (the NZ "
                 "chart) where it is theirs, else the one the exact analyzer derives (cached)")
@_option("--vary", "vary", multiple=True, metavar="KEY=VALUE[,KEY=VALUE...]",
         callback=_vary_values, help="A variant: the baseline with these keys changed, e.g. --vary "
         "dealer_hits_soft_17=true or --vary decks=8,penetration=0.8. Repeatable: each "
         "occurrence is one variant.")
@_option("--variant", "variant_files", multiple=True, type=click.Path(),  # (a folder: ours)
         metavar="FILE", callback=_shipped,
         help="A variant from a file: a variant file naming its baseline and changes "
         "(configs/variants/, docs/compare.md; a shipped one also by name, e.g. "
         "variants/h17) or a whole rule file. Repeatable.")
@_option("--vary-strategy", "vary_strategies", multiple=True, metavar="NAME|FILE",
         callback=_strategy_named,
         help="A variant with the baseline's rules and another strategy (its price), e.g. "
         "mimic-dealer. Repeatable.")
@_option("--all-variants", is_flag=True,
         help="Every variant in configs/variants/ (the rule-effect table); one that cannot "
         "apply to the baseline (resplit-aces with --set max_hands=2) is left out, saying so.")
@_option("--same-strategy", is_flag=True,
         help="Play every rule variant with the baseline's strategy. Default: where the "
         "baseline plays basic, each plays its own rules' basic strategy (the shipped basic "
         "where the NZ chart is theirs, else the one the exact analyzer derives, cached); "
         "with --strategy other than basic, the baseline's.")
@_option("-n", "--rounds", type=COUNT, default=DEFAULT_ROUNDS, show_default="10,000,000",
         help="Rounds each game plays.")
@_option("--seed", type=SEED, default=DEFAULT_SEED, show_default=True,
         help="Random seed (shared by every game).")
@_option("--chunk-rounds", type=COUNT, default=100_000, show_default="100,000",
         help="Rounds per chunk: every game's chunk i runs in one job (the unit of "
         "progress, checkpoints and the precision stop).")
@_option("--pair-rounds", type=COUNT, default=None,
         show_default="the shortest multiple of 16 that holds a shoe of every game: 48 for "
         "the NZ game, more where a game's shoe lasts longer (64 with 8 decks)",
         help="Rounds per paired block: every game plays block j of a chunk from the same "
         "fresh shuffle. Smaller pairs more rounds (smaller standard errors of the "
         "differences) and costs about 1.2 us a block and game beyond its rounds; under a "
         "cut card a block shorter than a shoe never reaches the cut card, and a block cuts "
         "its last shoe short (docs/compare.md). At most --chunk-rounds and --rounds "
         "(--max-rounds with --precision).")
@_option("--workers", type=WholeRange(min=1), default=None,
         help="Threads (with --scheduler local: worker processes; with --scheduler tcp://: "
         "the cluster's workers play the chunks), and processes deriving the basic strategies "
         "not yet cached. Default: every CPU.")
@_option("--precision", type=FiniteRange(min=0, min_open=True, max=1), default=None,
         metavar="HALF_WIDTH",
         help="Play whole chunks until every variant's house-edge difference (the whole "
         "game's) has a 95% half-width of at most this (a fraction: 0.0005 = ±0.05 "
         "percentage points), "
         "capped by --max-rounds; checked from 30 paired blocks and 1,000 rounds on (a "
         "--max-rounds short of 30 blocks is refused, naming the rounds they take).")
@_option("--max-rounds", type=COUNT, default=1_000_000_000, show_default="1,000,000,000",
         help="With --precision: the most rounds per game.")
@_option("--scheduler", default=None, metavar="local|tcp://HOST:PORT",
         help="Run the chunks on a Dask cluster (pip install 'bjsim[dask]').")
@_option("--checkpoint", "checkpoint_path", type=WrittenPath(), default=None,
         metavar="FILE", help="Record finished chunks in FILE; refuses an existing FILE "
         "unless --resume.")
@resume_option("With --checkpoint: carry on the comparison there. The options of what it "
               "plays left out (baseline, variants, strategies, rounds, seed, chunk and pair "
               "sizes, precision, max rounds), and --no-exact, are the ones kept in FILE; one "
               "given that changes what it plays is refused, but --no-exact given for a "
               "comparison made without it is taken (the exact differences left out of the "
               "result), and kept in FILE it cannot be dropped.")
@_option("--no-exact", "no_exact", is_flag=True,
         help="Leave out the exact differences (computed once per game, a few seconds, "
         "cached).")
@_option("--plot", "plot_path", type=OutputPath(formats=_plot_formats), default=None,
         metavar="FILE.png", help="Also draw the differences with their 95% intervals and "
         "the exact values, as PNG, PDF, SVG, ... by FILE's suffix (needs pip install "
         "'bjsim[plot]').")
@output_options(["table", "csv", "json", "markdown"], "table")
@_option("-q", "--quiet", is_flag=True,
         help="No progress on stderr, nor the lines saying a strategy is derived.")
@click.pass_context
@user_errors
def compare(ctx, rules_path, overrides, boxes, super_sevens, strategy_names, vary, variant_files,
            vary_strategies, all_variants, same_strategy, rounds, seed, chunk_rounds, pair_rounds,
            workers, precision, max_rounds, scheduler, checkpoint_path, resume, no_exact,
            plot_path, fmt, output, quiet):
    """What a rule or a playing choice is worth: house-edge differences from paired runs.

    Every variant plays the same shuffled shoes as the baseline (common random numbers), so each
    difference comes with the standard error and 95% interval of the paired difference, the
    variance reduction against independent runs, and the exact difference with its z-score where
    the exact analyzer covers it. A table of several strategies (--strategy once per box) is
    also reported strategy by strategy, and paired so with a variant that keeps them
    (--same-strategy). Method and pairing: docs/compare.md.

    \b
    Examples:
        bjsim compare --vary dealer_hits_soft_17=true
        bjsim compare --vary decks=8 --vary decks=8,penetration=0.85 --rounds 1e8
        bjsim compare --vary-strategy mimic-dealer --vary-strategy never-bust
        bjsim compare --variant configs/variants/h17.toml --same-strategy -f json
        bjsim compare --all-variants --precision 0.0005 -f markdown --plot effects.png
        bjsim compare --boxes 3 --strategy basic --strategy mimic-dealer --strategy basic \\
            --vary dealer_hits_soft_17=true --same-strategy    # what H17 costs each
    """
    from simulator import compare as cmp
    from simulator import compare_report, engine, stops, variants
    from simulator.rules import shown_rule_file
    from simulator.strategy import load_strategy

    scheduler = _check_run_options(ctx, precision, resume, checkpoint_path, scheduler,
                                   engine.MIN_TARGET_ROUNDS)
    # (a block larger than a chunk or the run had been played as the chunk, the report saying
    # blocks of --pair-rounds: the smaller limit named)
    ((option, most),) = _run_rounds(precision, rounds, max_rounds).items()
    limit = min((chunk_rounds, "--chunk-rounds", "the chunk"), (most, option, "the rounds"))
    if pair_rounds is not None and pair_rounds > limit[0]:
        raise BjsimError(f"--pair-rounds {pair_rounds:,} is larger than {limit[1]} "
                         f"{limit[0]:,}: allowed at most {limit[2]}")
    if plot_path is not None:
        compare_report.require_matplotlib()  # before the run, not after it
    files = list(variant_files) + ([str(p) for p in variants.shipped()] if all_variants else [])
    if not (vary or files or vary_strategies):
        raise BjsimError("compare: no variant: give --vary KEY=VALUE, --variant FILE, "
                         "--vary-strategy NAME or --all-variants")
    again = variants.twice(vary, files, vary_strategies,  # (each file named as typed)
                           list(given_value(ctx, "variant_files") or ()))
    if again is not None:
        raise BjsimError(f"compare: {again}" + (" (--all-variants asks for every shipped one)"
                                               if all_variants and "--variant " in again else ""))
    base_file = variants.baseline_file(rules_path, files)
    shipped = files[len(variant_files):]  # (--all-variants)
    notes = []  # (said on stderr, and in the output's notes)
    if rules_path is not None:  # baselines the variant files name, set aside
        used = f"--rules {shown_rule_file(_as_named(ctx, rules_path))}"
        notes += variants.baselines_set_aside(  # the user's, named as typed
            rules_path, variant_files, used, list(given_value(ctx, "variant_files") or ()))
        if not quiet:  # (the shipped ones, made to apply to any baseline: not a note)
            for line in variants.baselines_set_aside(rules_path, shipped, used):
                _echo(f"bjsim: warning: {line}", err=True)
    rules, file_meta, changes = _load_rules(base_file, overrides, boxes, super_sevens)
    origins = _rule_origins(base_file, overrides, boxes, super_sevens)  # (named in a clash)
    base_strats, strats, given = None, [], []
    if strategy_names:
        strats, given = _load_strategies(strategy_names, rules.boxes)
    from_files, left = variants.from_files(rules, files, whole=shipped, origins=origins)
    notes += [f"--all-variants: {line}" for line in left]
    asked = ([variants.from_vary(rules, v, origins) for v in vary]
             + [dataclasses.replace(v, source=_as_named(ctx, v.source)) for v in from_files])
    # the baseline's and --vary-strategy's named together: one name, one chart
    names, strategy_files = _shown_strategies(
        ctx, [*given, *vary_strategies], [*strats, *map(load_strategy, vary_strategies)])
    if strategy_names:
        base_strats = strats, names[:len(given)]
    asked += [variants.from_strategy(rules, s, n)
              for s, n in zip(vary_strategies, names[len(given):], strict=True)]
    for line in notes:  # (once every variant asked for is read: a mistake is said alone)
        _echo(f"bjsim: warning: {line}", err=True)
    _no_effect_warnings(rules, overrides, changes)
    log = None if quiet else (lambda text: _echo(f"bjsim: {text}", err=True))
    label = file_meta.get("name") or (os.path.splitext(os.path.basename(base_file))[0]
                                      if base_file else "nz1994")
    clash = variants.same_label(label, asked)
    if clash is not None:
        raise BjsimError(f"compare: {clash}")
    shown = shown_rule_file(_as_named(ctx, base_file))
    started = _started_in(ctx)
    if rules_path is None and shown == base_file and started is not None:  # (not a shipped one)
        shown = variants.baseline_file(None, files, started)  # the variant files' baseline, as
        # the run named it where it was started
    source = shown + "".join(f" --set {o}" for o in changes)
    games = cmp.build_games(rules, label, source, base_strats, asked, same_strategy, log, workers,
                            base_changes=changes)  # (labelled "nz1994 (modified: ...)")
    # (the variants --all-variants asked for: named as shipped ones, not as a --variant given)
    whole = {_as_named(ctx, v.source): "--all-variants: the shipped variant "
             + variants.shipped_name(v.source) for v in from_files[len(variant_files):]}
    for game in games[1:]:  # (a shipped variant may be a baseline's own rules: not refused)
        if cmp.identical(games[0], game):
            asked_as = (game.source if game.source.startswith("--") else
                        whole.get(game.source, f"--variant {game.source}"))
            _echo(f"bjsim: warning: {asked_as} '{game.label}' is the baseline's game (its "
                       "rules and strategy are the baseline's): its difference is 0", err=True)
    nz_chart = base_strats and _chart_label(rules, base_strats[1], quiet)  # --strategy basic
    if nz_chart:  # under rules that may call for another chart: said, as simulate says it
        games = (dataclasses.replace(games[0], strategy_note=nz_chart), *games[1:])
    for game in games:
        _check_chunk_rounds(game.rules, chunk_rounds, _run_rounds(precision, rounds, max_rounds))
    try:  # (the probe of a shoe's length: a first run compiles the kernel here)
        shoe_rounds = cmp.check_blocks(games, chunk_rounds, pair_rounds, precision,
                                       *_run_rounds(precision, rounds, max_rounds).values())
    except KeyboardInterrupt:
        _nothing_to_report(ctx, compiling=True)
    if pair_rounds is None and chunk_rounds < shoe_rounds and log is not None:
        log(f"blocks of {chunk_rounds:,} rounds (--chunk-rounds), shorter than the "
            f"{shoe_rounds} that hold a shoe of every game: each block's shoe is cut short "
            "(docs/compare.md)")
    exact = None
    if not no_exact:
        if log is not None:
            log("exact figures of each game (cached after the first time)")
        exact = cmp.exact_figures(games)
    plan = cmp.Plan(games, rounds=max_rounds if precision is not None else rounds, seed=seed,
                    chunk_rounds=chunk_rounds, pair_rounds=pair_rounds, workers=workers,
                    precision=precision, scheduler=scheduler, checkpoint=checkpoint_path,
                    resume=resume, exact=not no_exact, command=_run_command(ctx),
                    checkpoint_option=checkpoint_option(ctx))
    result = cmp.compare(plan, quiet=quiet, exact=exact)
    if result.nothing_played:
        _nothing_to_report(ctx, result.stopped_compiling, result.failure)
    result.meta["notes"] = notes
    if strategy_files:  # (where a reader finds each strategy read from a file)
        result.meta["run"]["strategy_files"] = strategy_files
    with stops.held():  # a stop after the last chunk: the whole report all the same
        failed = _emit_run(compare_report.render(result.stats, result.meta, fmt), output)
        if plot_path is not None:
            from simulator.report import stopped_how

            try:
                compare_report.plot(result.stats, plot_path,
                                    result.partial and stopped_how(result.meta))
            except ValueError as err:  # (after the run: as an output not written, exit 1)
                if failed is not None:
                    failed.show()
                failed = OutputError(str(err))
    _closing(ctx, result.messages, result.partial, failed, result.failure)


# ---------------------------------------------------------------------------------------------
# report


@cli.command()
@rules_options
@_option("--strategy", "strategy_name", default=None, metavar="NAME|FILE",
         callback=_strategy_named,
         help="The strategy assessed (every box plays it): a shipped name or a TOML file. "
         "Default: the basic strategy of the rules: the shipped basic for the NZ rules' "
         "chart, else the one derived for them (exact analyzer, a few seconds once, then "
         "cached), as compare's baseline plays.")
@_option("--choice", "choices", multiple=True, metavar="NAME|FILE", callback=_strategy_named,
         help="A strategy set against --strategy under 'the player's choices'; "
         "repeatable, each once. Default: every shipped strategy.")
@_option("--variant", "variant_files", multiple=True, metavar="FILE",
         type=click.Path(), callback=_shipped,  # (a folder: ours)
         help="A rule variant compared with the rule set (bjsim compare --variant FILE); "
         "repeatable, each once. Default: every file in configs/variants/ (one that cannot "
         "apply to the rules left out, saying so).")
@_option("--no-variants", is_flag=True, help="Leave out the rule-variant comparison (not "
         "with --variant or --variant-rounds).")
@_option("--variant-rounds", type=COUNT, default=10_000_000, show_default="10,000,000",
         help="Rounds each game of the rule-variant comparison plays (the 24 shipped "
         "games at 10 million each: about 20 s on two cores).")
@_option(
    "-n", "--rounds", type=COUNT, default=DEFAULT_ROUNDS, show_default="10,000,000",
    help="Rounds of the main run and of each choice's run.",
)
@_option(
    "--precision", type=FiniteRange(min=0, min_open=True, max=1), default=None,
    metavar="HALF_WIDTH",
    help="Play the main run until the 95% half-width of the house edge is at most this (0.0005 "
    "= ±0.05%), capped by --max-rounds; each choice then plays as many rounds.",
)
@_option("--max-rounds", type=COUNT, default=1_000_000_000, show_default="1,000,000,000",
         help="With --precision: the most rounds to play.")
@_option("--seed", type=SEED, default=DEFAULT_SEED, show_default=True,
         help="Random seed of every run (and of the distribution sample).")
@_option("--chunk-rounds", type=COUNT, default=100_000, show_default="100,000",
         help="Rounds per chunk: the running house-edge chart has a point per chunk. Part "
         "of what makes the figures reproducible, as simulate's option, whose default is "
         "1,000,000: bjsim simulate gives the report's figures with this --chunk-rounds "
         "(the report's manifest names it).")
@_option("--sample-rounds", type=COUNT, default=1_000_000, show_default="1,000,000",
         help="Rounds dealt apart to draw the distribution of the net result per round "
         "(at most the rounds played).")
@_option("--workers", type=WholeRange(min=1), default=None,
         help="Threads playing chunks at once, and processes for the exact analyses of the "
         "strategies and the variants' basic strategies not yet cached. Default: every CPU. "
         "Does not change a figure.")
@_option("--count", "count_plan", default=None, metavar="PLAN|FILE",
         callback=_plan_or_count_named,
         help="Add a card-counting section: this counting plan (bjsim count --list) "
         "played with the report's rules, strategy and seed (the plan's own strategy where it "
         "names one and --strategy is not given, as bjsim count plays it).")
@_option("--count-rounds", type=COUNT, default=1_000_000, show_default="1,000,000",
         help="With --count: rounds the counting run (and each penetration) deals.")
@_option("--count-penetrations", type=PenetrationsType(), default=None,
         metavar="P,P,...",
         help="With --count: also a penetration sweep, e.g. 0.60,0.70,0.80,0.90 (bjsim "
         "count --penetrations).")
@_option("--bankroll", **BANKROLL,
         help="With --count: bankroll for the risk of ruin, in the plan's units (those of its "
         "bets and table_min; at least one table_min bet), at each penetration of a sweep "
         "too. Default: the plan's 'bankroll' (bjsim count --bankroll).")
@_option("--rounds-per-hour", "rounds_per_hour", type=WholeRange(min=1, max=1000), default=None,
         metavar="N",
         help="With --count: also the counter's win, SD and N0 an hour at N rounds dealt an "
         "hour, 1-1000 (bjsim count --rounds-per-hour).")
@_option("-o", "--output", "out_dir", required=True, metavar="DIR",
         type=OutputPath(folder=True),
         help="The folder to write (made if missing). An earlier report in it is "
         "replaced whole once the new one is made; until then it stays as it was. Files "
         "of your own in it stay.")
@_option("-q", "--quiet", is_flag=True,
         help="No progress bars, nor the lines saying a strategy is derived and which file "
         "it is in (the manifest names it; the line per step stays on stderr).")
@click.pass_context
@user_errors
def report(ctx, rules_path, overrides, boxes, super_sevens, strategy_name, choices,
           variant_files, no_variants, variant_rounds, rounds, precision, max_rounds, seed,
           chunk_rounds, sample_rounds, workers, count_plan, count_rounds, count_penetrations,
           bankroll, rounds_per_hour, out_dir, quiet):
    """Write a mathematical assessment of a rule set, as a regulator asks for it, to a folder.

    report.html (readable offline, charts beside it in charts/), report.md, report.pdf (printed
    by headless Chromium where it is installed), report.json (every figure) and csv/ (every
    table): the rules key by key with their Gazette rule; each wager's exact return and how it is
    derived, beside the simulated return with its 95% interval and z-score; the Super Sevens pay
    table; SDs, hit frequencies and the volatility index; the Super Sevens return under each
    7-7 play; the player's choices; the rule-variant effects; with --count, a card counter's
    advantage, the tables by count and the penetration sweep; a reproducibility manifest.
    About 30 seconds for the NZ rules once the variants' basic strategies are derived and cached
    (the first time adds about a minute).

    \b
    Examples:
        bjsim report -o nz-report
        bjsim report --rules configs/nz1994-8deck.toml --rounds 100M -o nz8
        bjsim report --set dealer_hits_soft_17=true --choice mimic-dealer -o h17
        bjsim report --variant configs/variants/h17.toml --variant-rounds 50M -o nz-h17
        bjsim report --precision 0.0005 --no-variants -o nz-precise
        bjsim report --count hi-lo-1-12 --count-penetrations 0.6,0.75,0.9 -o nz-counting
        bjsim report --count hi-lo-flat --bankroll 500 -o nz-counting
    """
    import time

    from simulator import engine
    from simulator.assessment import Spec, compute, write_report
    from simulator.assessment.output import Written
    from simulator.rules import in_rule_order

    _check_run_options(ctx, precision, False, None, None, engine.MIN_TARGET_ROUNDS)
    if no_variants and variant_files:
        raise BjsimError("--no-variants: not with --variant FILE")
    if no_variants and _given(ctx, "variant_rounds"):
        raise BjsimError("--variant-rounds: not with --no-variants, which plays no rule variant")
    _refuse_twice_in_report(ctx, variant_files, choices)
    rules, file_meta, sets = _load_rules(rules_path, overrides, boxes, super_sevens)
    _check_chunk_rounds(rules, chunk_rounds, {"--rounds": rounds}  # (the choices' runs)
                        | _run_rounds(precision, rounds, max_rounds)
                        | ({} if no_variants else {"--variant-rounds": variant_rounds})
                        | ({} if count_plan is None else {"--count-rounds": count_rounds}))
    given = [f"--{name.replace('_', '-')}" for name in ("count_rounds", "count_penetrations",
                                                         "bankroll", "rounds_per_hour")
             if _given(ctx, name)]
    if count_plan is None and given:  # (the options given, not the others)
        raise BjsimError(f"{', '.join(given)}: only with --count PLAN")
    notes = []  # (said on stderr once the options are checked; the report's note says them)
    if not no_variants:  # a variant file that cannot apply: refused, or (a shipped one of the
        from simulator.assessment.figures import variant_notes  # default set) left out, before
        # any run, in the words of the variant table's note
        _, _, notes = variant_notes(rules, rules_path, tuple(variant_files) or None,
                                    _rule_origins(rules_path, overrides, boxes, super_sevens))
    if count_plan is not None:  # a plan the rules cannot play is refused before any run
        from simulator import count_runs
        from simulator.plans import load_plan, played_strategy

        alone = "the report without --count (its other sections use it)"
        _refuse_stake(overrides, "the counting section (--count, bjsim count)", alone, rules,
                      rules_path, alone)
        plan = load_plan(count_plan)
        bankroll = _bankroll(bankroll, plan)
        count_runs.check(rules, plan, count_penetrations, ("--count", "--count-penetrations"),
                         given=count_plan)
    for line in notes:
        _echo(f"bjsim: warning: {line}", err=True)
    _no_effect_warnings(rules, overrides, sets)
    given = strategy_name is not None
    if not given:
        strategy_name = _basic_of(rules, quiet)
    else:  # (named as the report names it: basic by its name or its file)
        from simulator.strategy import load_strategy

        shown, _ = _shown_strategies(ctx, [strategy_name], [load_strategy(strategy_name)])
        _chart_label(rules, shown, quiet, derive=True)
    if count_plan is not None:  # (the main run's penetration and the sweep's: the report's)
        from simulator.assessment.figures import counting_warnings
        from simulator.strategy import load_strategy

        chart = played_strategy(plan) if plan.strategy is not None and not given else \
            strategy_name
        for line in counting_warnings(rules, plan, count_penetrations, load_strategy(chart)):
            _echo(f"bjsim: warning: {line}", err=True)
    spec = Spec(rules, strategy=strategy_name, strategy_given=given, rules_file=rules_path,
                rules_name=file_meta.get("name"), overrides=tuple(in_rule_order(sets)),
                rounds=max_rounds if precision is not None else rounds, precision=precision,
                seed=seed, chunk_rounds=chunk_rounds, workers=workers,
                sample_rounds=sample_rounds, choices=tuple(choices) if choices else None,
                variants=() if no_variants else (tuple(variant_files) or None),
                variant_rounds=variant_rounds, out_dir=out_dir, count_plan=count_plan,
                count_rounds=count_rounds, count_penetrations=count_penetrations,
                count_bankroll=bankroll, count_rounds_per_hour=rounds_per_hour,
                rules_given=given_value(ctx, "rules_path"),
                variants_given=tuple(given_value(ctx, "variant_files") or ()) or None,
                rules_description=file_meta.get("description"))
    start = time.perf_counter()

    def say(msg: str) -> None:
        _echo(f"bjsim report [{time.perf_counter() - start:6.1f} s] {msg}", err=True)

    from simulator.chunks import nothing_kept

    try:
        with nothing_kept():  # (a stop's lines say nothing is kept: no report is written)
            data = compute(spec, say, quiet=quiet)
    except KeyboardInterrupt:
        _echo("bjsim report: interrupted: no report written", err=True)
        ctx.exit(_interrupted())
    new = [p for p in (Path(out_dir), *Path(out_dir).resolve().parents) if not p.exists()]
    try:
        with nothing_kept():  # (a second Ctrl-C as it writes: its line says nothing is kept)
            written = write_report(data, out_dir, say)
    except Written:
        _echo(f"bjsim report: interrupted as the report was put in place: {out_dir} holds "
                   "it whole", err=True)
        ctx.exit(_interrupted())
    except (KeyboardInterrupt, OSError) as err:
        for folder in new:  # (made for this report, deepest first: gone again, if empty)
            with contextlib.suppress(OSError):
                folder.rmdir()
        if isinstance(err, OSError):  # (the disk filled since the probe: not the user's doing)
            raise OutputError(f"{_typed_output('out_dir')} {out_dir}: cannot write: "
                              f"{err.strerror or err}: {out_dir} is as it was") from None
        _echo(f"bjsim report: interrupted while writing: {out_dir} is as it was",
                   err=True)
        ctx.exit(_interrupted())
    say(f"wrote {len(written)} files to {out_dir}: open {os.path.join(out_dir, 'report.html')}")

# ---------------------------------------------------------------------------------------------
# count


PLAN_STAKE = ("the plan's [super_sevens] ramp sets the counter's Super Sevens stake by count "
              "(units)")


def _refuse_stake(overrides, user: str, instead: str, rules=None, rules_path=None,
                  or_else: str = "", file=None) -> None:
    """Refuse a rule-set ``super_sevens_bet`` that ``user`` (a command playing a counting plan)
    would not use, the plan's ramp setting the stake (`PLAN_STAKE`): ``--set super_sevens_bet``
    at any value where the side bet is played (allowed ``instead``; ``rules`` None: taken as
    played), and, given ``rules`` (loaded from ``rules_path``), a rule
    file's at another value than its default where the side bet is played (allowed the default,
    or ``or_else``; with the side bet off the key has no effect), its value as the file
    (``file``, else ``rules_path``) writes it (``2``, ``2.0``)."""
    from simulator.rules import (
        DECLARED,
        DEFAULT_RULES_PATH,
        _fmt,
        _number,
        read_toml,
        shown_rule_file,
    )

    if (rules is None or rules.super_sevens) and any(
            s.split("=")[0].strip() == "super_sevens_bet" for s in overrides):
        raise BjsimError(f"--set super_sevens_bet: {user} does not use it: {PLAN_STAKE}: "
                         f"allowed {instead}")
    default = DECLARED["super_sevens_bet"].default
    if rules is not None and rules.super_sevens and rules.super_sevens_bet != default:
        written = read_toml(Path(file or rules_path or DEFAULT_RULES_PATH), "rule").get(
            "super_sevens_bet", rules.super_sevens_bet)
        raise BjsimError(f"--rules {shown_rule_file(rules_path)}: key 'super_sevens_bet' = "
                         f"{_fmt(written)}: {user} does not use it: "
                         f"{PLAN_STAKE}: allowed a rule file with super_sevens_bet = "
                         f"{_number(default)} (its default) or without it, or the side bet off"
                         " (super_sevens = false, --no-super-sevens)"
                         + (f", or {or_else}" if or_else else ""))


def _count_warnings(plan, games, strategy) -> list[str]:
    """A counting plan's odd steps and wonging and its Super Sevens bets where the house has the
    edge or passes up the player's (`counting_report.count_warnings`), a warning line each,
    played as written; returned for the output's ``run.warnings``."""
    from simulator.counting_report import count_warnings

    lines = count_warnings(plan, games, strategy)
    for line in lines:
        _echo(f"bjsim: warning: {line}", err=True)
    return lines


def _count_list(fmt: str = "table") -> str:
    """The shipped counting plans, count systems and index sets with their descriptions, in
    ``fmt``: ``table`` one a line, ``markdown`` three tables, ``json`` ``{"plans": [...],
    "counts": [...], "indices": [...]}``, ``csv`` one row each (``kind, name, description,
    error``; kind ``plan``, ``count`` or ``indices``)."""
    from simulator.counting import list_counts, load_count
    from simulator.index_plays import list_indices, load_indices
    from simulator.plans import list_plans, load_plan
    from simulator.report import md_text

    def entries(names, load):
        out = []
        for name in names:
            try:
                out.append({"name": name, "description": load(name).description, "error": None})
            except ValueError as err:
                out.append({"name": name, "description": None, "error": _one_line(err)})
        return out

    kinds = {"plans": ("Counting plans (strategies/plans/, --plan NAME):",
                       entries(list_plans(), load_plan)),
             "counts": ("Count systems (strategies/counts/, a plan's 'count'):",
                        entries(list_counts(), load_count)),
             "indices": ("Index sets (strategies/indices/, a plan's 'indices'):",
                         entries(list_indices(), load_indices))}
    kind = {"plans": "plan", "counts": "count", "indices": "indices"}  # (csv's kind)
    if fmt == "json":
        return json.dumps({k: v for k, (_, v) in kinds.items()}, indent=2) + "\n"
    if fmt == "csv":
        from simulator.report import no_formula

        out = io.StringIO()
        w = csv.DictWriter(out, fieldnames=["kind", "name", "description", "error"],
                           lineterminator="\n")
        w.writeheader()
        w.writerows({"kind": kind[k]} | {c: no_formula(x) for c, x in e.items()}
                    for k, (_, v) in kinds.items() for e in v)
        return out.getvalue()
    blocks = []
    for title, v in kinds.values():
        rows = [[e["name"], e["description"] if e["error"] is None
                 else f"(does not load: {e['error']})"] for e in v]
        if fmt == "markdown":
            cells = [(name, md_text(d, cell=True).replace("|", "\\|")) for name, d in rows]
            blocks.append([title, "", "| name | description |", "|---|---|",
                           *(f"| `{name}` | {d} |" for name, d in cells)])
        else:
            width = max((len(name) for name, _ in rows), default=0)
            blocks.append([title, *(f"  {name:<{width}}  {d}".rstrip() for name, d in rows)])
    return "\n\n".join("\n".join(b) for b in blocks) + "\n"


@cli.command()
@_option("--plan", "plan_name", default="hi-lo-1-12", show_default=True,
         metavar="NAME|FILE", callback=_plan_or_count_named,
         help="The counting plan: a shipped name (see --list) or a TOML file "
         "(docs/counting.md): count, deck estimation, index plays, bets by count.")
@rules_options(boxes="The most boxes the table has, 1-7 (the rule-set key 'boxes'; rule 13): "
               "the plan's [boxes] decides how many the counter plays, up to it.",
               super_sevens="The table offers Super Sevens (rule 14), or not: the plan's "
               "[super_sevens] decides what the counter bets on it (a plan that bets it needs "
               "it offered). Default: the rule set's 'super_sevens'.")
@_option("--strategy", "strategy_name", default=None, metavar="NAME|FILE",
         callback=_strategy_named,
         help="The chart the counter plays where no index play applies (every box). "
         f"Default: the plan's own where it names one (its strategy key: sevens-super-sevens "
         f"plays basic-super-sevens), else {RULES_BASIC}.")
@_option("-n", "--rounds", type=COUNT, default=DEFAULT_ROUNDS, show_default="10,000,000",
         help="Rounds dealt (watched or played), at each penetration.")
@_option("--seed", type=SEED, default=DEFAULT_SEED, show_default=True,
         help="Random seed (the same for every penetration of a sweep).")
@_option("--chunk-rounds", type=COUNT, default=DEFAULT_CHUNK_ROUNDS,
         show_default="1,000,000",
         help="Rounds per chunk (with the seed, what makes a result reproducible). Each "
         "chunk starts from a fresh shoe, a wonging counter sitting out: small chunks "
         "change what it plays.")
@_option("--workers", type=WholeRange(min=1), default=None,
         help="Threads playing chunks at once. Default: every CPU. Does not change the "
         "result.")
@_option("--bankroll", **BANKROLL,
         help="Bankroll for the risk of ruin, in the plan's units (those of its bets and "
         "table_min; at least one table_min bet), at each penetration of a sweep too. "
         "Default: the plan's 'bankroll'.")
@_option("--rounds-per-hour", "rounds_per_hour", type=WholeRange(min=1, max=1000), default=None,
         metavar="N",
         help="Also give the counter's win, SD and N0 an hour at the table at N rounds dealt "
         "an hour (played or sat out), 1-1000, e.g. 100; at each penetration of a sweep too. "
         "Changes no round played.")
@_option("--penetrations", type=PenetrationsType(), default=None, metavar="P,P,...",
         help="A penetration sweep: one run per value (same seed), and a table of the "
         "counter's advantage, SD, SCORE, N0, (with a bankroll) risk of ruin and (where "
         "it bets Super Sevens) its stake and return on the side bet by penetration, e.g. "
         "0.60,0.70,0.80,0.90.")
@_option("--optimal-bets", is_flag=True,
         help="After the run, a section of the optimal (Kelly) main bet at each count, "
         "bankroll x fraction x advantage x boxes a round / variance of a round's net at one "
         "unit a box, in whole units within the plan's table "
         "limits, the ramp they make and what it would have won over the same rounds; needs "
         "a bankroll (--bankroll or the plan's), e.g. --optimal-bets --bankroll 1000.")
@_option("--kelly-fraction", "kelly_fraction", default=None, metavar="F",
         help="With --optimal-bets: the fraction of the Kelly bet, above 0, at most 1, e.g. "
         "0.5 for half Kelly. Default: 1 (full Kelly).")
@_option("--optimal-plan", "optimal_plan", type=OUTPUT_FILE, default=None, metavar="FILE",
         help="With --optimal-bets: also write the plan played with its [bet] replaced by the "
         "optimal one to FILE (TOML, for --plan): not a file the run reads or writes, nor -; "
         "e.g. --optimal-plan optimal.toml.")
@_option("--checkpoint", "checkpoint_path", type=WrittenPath(), default=None,
         metavar="FILE",
         help="Record finished chunks in FILE (as simulate's), the control run's too; "
         "refuses an existing FILE unless --resume. A single run only: not with "
         "--penetrations, even one value.")
@resume_option("With --checkpoint: carry on the run recorded in FILE. The options of the "
               "run left out (--plan, rules, --strategy, --rounds, --seed, --chunk-rounds, "
               "--bankroll, --optimal-bets, --kelly-fraction) are the ones kept in FILE; one "
               "given that changes the run is refused, but --optimal-bets and --kelly-fraction "
               "given are taken (the optimal bets added to the result, at that fraction), and "
               "--optimal-bets kept in FILE cannot be dropped.")
@_option("--list", "list_only", is_flag=True,
         help="List the shipped counting plans, count systems and index sets (in "
         "--format), and stop. Takes no option but --format, --output and --quiet.")
@output_options(["table", "json", "csv", "markdown"], "table")
@_option("-q", "--quiet", is_flag=True,
         help="No progress bar on stderr, nor the line of the time taken, nor the lines "
         "saying a strategy is derived and which file it is in (every format still says "
         "it is derived).")
@click.pass_context
@user_errors
def count(ctx, plan_name, rules_path, overrides, boxes, super_sevens, strategy_name, rounds,
          seed, chunk_rounds, workers, bankroll, rounds_per_hour, penetrations, optimal_bets,
          kelly_fraction, optimal_plan, checkpoint_path, resume, list_only, fmt, output, quiet):
    """What a card counter gains: play a counting plan and report its advantage.

    The counter keeps the plan's count, plays its index plays, bets by count (main wager and
    Super Sevens), wongs and spreads to more boxes as the plan says: the plan's [boxes] decides
    the boxes played, and --boxes only the most the table has. Reports the advantage per
    unit of initial main bet and per unit wagered on the main game with 95% intervals, the SD
    and win per 100 rounds, SCORE, N0 and the risk of ruin, the frequency of each count and
    the advantage at it, and the Super Sevens return by count (against its exact value at each
    count for a sevens count; for another count, overall only), with the counter's own Super
    Sevens win also valued at the exact return of the shoe each stake was made at. Method:
    docs/counting.md. Ctrl-C stops early and prints the finished chunks' result marked PARTIAL
    (exit code 130).

    \b
    Examples:
        bjsim count                                  # Hi-Lo, 1-12 spread, NZ game
        bjsim count --plan hi-lo-flat --rounds 1e6   # the control: basic strategy
        bjsim count --plan sevens-super-sevens       # its own basic-super-sevens
        bjsim count --penetrations 0.60,0.70,0.80,0.90 -f markdown
        bjsim count --plan my-plan.toml --bankroll 500 -f json -o counter.json
        bjsim count --rounds-per-hour 100          # win, SD and N0 an hour too
        bjsim count --optimal-bets --bankroll 1000 --optimal-plan optimal.toml
        bjsim count --rounds 1e9 --checkpoint count.ckpt   # Ctrl-C, then:
        bjsim count --resume count.ckpt                    # the same run carried on
        bjsim count --list
    """
    from simulator import count_runs, stops
    from simulator.plans import load_plan, played_strategy, plays_own
    from simulator.strategy import load_strategy

    if list_only:
        others = [typed_option(ctx, p) for p in ctx.command.params
                  if p.name not in ("list_only", "fmt", "output", "quiet")
                  and _given(ctx, p.name)]
        if others:
            raise BjsimError(f"--list: lists the shipped plans, counts and index sets and plays "
                             f"nothing, so {', '.join(others)} would be ignored: allowed with it "
                             f"only --format, --output and --quiet")
        _emit(_count_list(fmt), output)
        return
    _check_checkpoint(ctx, checkpoint_path, resume)
    plan = load_plan(plan_name, folder=ctx.meta.get(STARTED))  # (its paths: as first read;
    # a name no plan has, or no file: refused naming --plan by `_plan_or_count_named`)
    plan = dataclasses.replace(plan, source=_as_named(ctx, plan.source))
    bankroll = _bankroll(bankroll, plan)
    optimal = (_optimal_options(ctx, plan, bankroll, penetrations, kelly_fraction, optimal_plan)
               if optimal_bets else _no_optimal(ctx))
    if penetrations is not None and any(s.split("=")[0].strip() == "penetration"
                                        for s in overrides):
        raise BjsimError("--penetrations: not with --set penetration=P: each run of the sweep "
                         "plays its own penetration: allowed one of the two")
    rules, file_meta, sets = _load_rules(rules_path, overrides, boxes, super_sevens)
    _refuse_stake(overrides, "bjsim count", "the stake by count in the plan's [super_sevens], not "
                  "by --set, or the side bet off (--no-super-sevens)", rules,
                  _as_named(ctx, rules_path), file=rules_path)
    games = count_runs.check(rules, plan, penetrations, given=plan_name)
    _check_chunk_rounds(rules, chunk_rounds, {"--rounds": rounds})
    _check_resumed_rules(checkpoint_path, resume, "count", rules)
    _no_effect_warnings(rules, overrides, sets)
    if rules.shuffle == "every-round" and not quiet:
        _echo("bjsim: the rule set shuffles every round, so the count never builds: "
                   "every round is bet as at a fresh shoe and the counter cannot gain by its "
                   "bets (a control)", err=True)
    note = count_runs.indices_note(rules, plan)
    if note is not None and not quiet:
        _echo(f"bjsim: {note}", err=True)
    note = count_runs.boxes_note(rules, plan)
    if note is not None and not quiet:
        _echo(f"bjsim: {note}", err=True)
    files = None
    whose = None  # (beside the chart's name: whose it is where the plan names one)
    if plan.strategy is not None:
        whose = ("the plan's own" if plays_own(plan, strategy_name) else
                 f"--strategy's, in place of the plan's own {plan.strategy}")
    if strategy_name is None and plan.strategy is not None:  # (its own chart: as --strategy)
        strategy_name = played_strategy(plan)
    if strategy_name is None:
        (strategy,), (name,), label = _default_strategies(rules, quiet, 1)
    else:
        strategy = load_strategy(strategy_name)
        (name,), files = _shown_strategies(ctx, [strategy_name], [strategy])
        label = _chart_label(rules, [name], quiet)
    label = "; ".join(x for x in (whose, label) if x) or None
    warnings = _count_warnings(plan, [r for _, r in games], strategy)
    if optimal and optimal["path"]:  # (what the written plan's replay needs, from any folder)
        optimal |= _replay(rules_path, file_meta, sets, strategy_name, seed, chunk_rounds,
                           rounds)
    runs = count_runs.play(
        games, plan, strategy, name, strategy_files=files or None, rounds=rounds, seed=seed,
        chunk_rounds=chunk_rounds, workers=workers, rules_file=_as_named(ctx, rules_path),
        rules_name=file_meta.get("name"), overrides=sets, quiet=quiet,
        say=None if quiet else (lambda text: _echo(f"bjsim: {text}", err=True)),
        checkpoint=checkpoint_path, resume=resume, strategy_note=label,
        command=_run_command(ctx), checkpoint_option=checkpoint_option(ctx))
    if runs.nothing_played:
        _nothing_to_report(ctx, runs.stopped_compiling)
        # (not a report of 0 rounds over -o's file)
    with stops.held():  # a stop after the last chunk: the whole report all the same
        failed = _count_report(runs, plan, bankroll, penetrations, rules,
                               _as_named(ctx, rules_path), file_meta, sets, fmt, output,
                               optimal, rounds_per_hour, warnings)
    written = failed is None or not failed.message.startswith("--optimal-plan")
    if optimal and optimal["path"] and written and not quiet:
        _echo(f"bjsim: the optimal plan is in {optimal['path']}; to play it on this "
                   f"run's rounds: {replay_command(optimal, shlex.quote(optimal['path']))}"
                   + _replay_partial(runs.runs[0][2].meta["run"]), err=True)
    _closing(ctx, runs.messages, runs.partial, failed)


def _replay(rules_path, file_meta, sets, strategy_name, seed, chunk_rounds, rounds) -> dict:
    """What replays a run with the optimal plan (`_optimal_plan`): ``replay_words``, the run in
    words (the rules as named once with their overrides once, the strategy, seed, chunk size and
    rounds), and ``replay_args``, its options for ``bjsim count`` (files as a checkpoint keeps
    them, `_kept_file`: read from any folder), the plan's left to the caller."""
    from simulator.rules import shown_rule_file

    rules_file = _kept_file(rules_path) if rules_path else shown_rule_file(None)
    strategy = None if strategy_name is None else _kept_file(strategy_name, "strategy_name")
    name = file_meta.get("name") or rules_file
    if os.path.isabs(rules_file):  # (a file of the user's: where it is, beside its name)
        name = rules_file if name == rules_file else f"{name} ({rules_file})"
    chart = strategy or "the rules' basic strategy (the default)"
    words = (f"rules {name}" + (f" with {', '.join(sets)}" if sets else "")
             + f", strategy {chart}, seed {seed}, chunks of {chunk_rounds:,} rounds, "
             f"{rounds:,} rounds")
    args = ["--rules", rules_file, *(x for s in sets for x in ("--set", s)),
            *(["--strategy", strategy] if strategy else []), "--seed", str(seed),
            "--chunk-rounds", str(chunk_rounds), "--rounds", str(rounds)]
    return {"replay_words": words, "replay_args": args, "strategy": strategy}


def replay_command(optimal: dict, plan: str) -> str:
    """The command that plays the optimal plan ``plan`` on the run's rounds (`_replay`)."""
    return " ".join(["bjsim count --plan", plan, *map(shlex.quote, optimal["replay_args"])])


def _replay_partial(run: dict) -> str:
    """Where the counter's run was stopped short: that the replay plays every round asked."""
    if not run.get("partial") or run.get("control_interrupted"):
        return ""
    return (f" (this run was stopped after {run['rounds_played']:,} of its {run['rounds']:,} "
            "rounds: the replay plays them all, so its figures are not this run's)")


def _no_optimal(ctx) -> None:
    """``--kelly-fraction`` and ``--optimal-plan`` refused without ``--optimal-bets``."""
    for name in ("kelly_fraction", "optimal_plan"):
        if _given(ctx, name):
            option = typed_option(ctx, _param(ctx, name))
            raise BjsimError(f"{option}: only with --optimal-bets (the optimal main bets by "
                             "count, whose Kelly fraction it is or whose plan it writes): "
                             "allowed with --optimal-bets")


def _optimal_options(ctx, plan, bankroll, penetrations, fraction, path) -> dict:
    """``--optimal-bets``' options checked before any round is played: a bankroll (the Kelly
    bet's), a plan betting no Super Sevens (their stakes would come from the same bankroll),
    ``--kelly-fraction`` above 0 and at most 1, no sweep, and an ``--optimal-plan``
    that is a file, not ``-`` (already checked writable, and refused where it is a file the run
    reads or another option writes, as ``-o`` is: `WRITTEN`, `_refuse_same_file`).
    ``{"fraction", "path"}``."""
    from simulator.rules import _q

    if penetrations is not None:
        raise BjsimError("--optimal-bets: not with --penetrations: the optimal bets are of one "
                         "run: allowed with a single run (--set penetration=P for another)")
    if any(plan.super_sevens.values()):
        raise BjsimError(f"--optimal-bets: not with a plan that bets Super Sevens (the plan "
                         f"{plan.name} does, by its [super_sevens]): its stakes come from the same "
                         "bankroll, and the optimal main bets here are of a counter betting the "
                         "main wager only: allowed a plan whose [super_sevens] bets nothing at "
                         "every count, or that has no [super_sevens] table")
    if bankroll is None and plan.bankroll is None:
        raise BjsimError(f"--optimal-bets: needs a bankroll (the Kelly bet is bankroll x "
                         "fraction x advantage x boxes a round / variance), and the plan "
                         f"{plan.name} has none: allowed with --bankroll UNITS, or a plan with "
                         "a bankroll key")
    value = 1.0
    if fraction is not None:
        try:  # (digits other than 0-9, which float reads: none)
            value = float(fraction) if str(fraction).isascii() else math.nan
        except ValueError:
            value = math.nan
        if not 0 < value <= 1:  # (nan: never)
            raise BjsimError(f"--kelly-fraction {_q(fraction)}: allowed a number above 0, at "
                             "most 1 (1 full Kelly, 0.5 half Kelly)")
    if path == "-":  # (a file that is the run's input or -o's: `_refuse_same_file`, as -o's)
        raise BjsimError(f"{typed_option(ctx, _param(ctx, 'optimal_plan'))} -: the plan is "
                         "written to a file, not stdout (the report's): allowed a file name "
                         "(./- for one called '-')")
    if path is not None and os.path.exists(path) and not os.path.isfile(path):
        raise BjsimError(f"{typed_option(ctx, _param(ctx, 'optimal_plan'))} {path}: not a "
                         "regular file (a device, a pipe, the terminal), which the plan would "
                         "replace: allowed a file")
    return {"fraction": value, "path": path}


def _optimal_plan(path, plan, o: dict, meta: dict, optimal: dict) -> OutputError | None:
    """The plan played with its ``[bet]`` the optimal one (``o``: `counting_report.
    optimal_bets`), its name and description saying from which run and the command that
    replays it (``optimal``: `_replay`'s), its ``tuned_penetration`` the run's, written to
    ``path``; an OutputError where it cannot be (a full disk, a folder made read-only since the
    check)."""
    from simulator.plans import Ramp, plan_toml

    rules = meta.get("rules", {})  # (the bets are the run's penetration's: tuned there)
    plan = dataclasses.replace(plan, tuned_penetration=rules.get("penetration") if rules.get(
        "shuffle") == "cut-card" else None)
    what = ("with optimal (Kelly) main bets" if o["no_edge_note"] is None else
            "at the table minimum at every count: no count had an edge in the run (the smoothed "
            "advantage not above 0 at any), so Kelly bets nothing")
    text = plan_toml(
        plan, Ramp(o["bet"]["base"], tuple((c, u) for c, u in o["bet"]["steps"])),
        f"{plan.name}-optimal" if o["no_edge_note"] is None else f"{plan.name}-table-min",
        f"{plan.name} {what}, derived by bjsim count --optimal-bets from its run: "
        f"{optimal['replay_words']}, bankroll {o['bankroll']:,g} units, Kelly fraction "
        f"{o['kelly_fraction']:g}; wonging and boxes as the plan's. To play it on the run's "
        f"rounds: {replay_command(optimal, '<this file>')}" + _replay_partial(meta.get("run", {})),
        o["bankroll"], optimal.get("strategy", True))  # (the chart its bets were derived under)
    try:
        atomic.write(os.path.realpath(path), text, mode=atomic.USER_MODE)
    except OSError as err:
        return OutputError(f"--optimal-plan {path}: cannot write: {err.strerror or err}")
    return None


def _count_report(runs, plan, bankroll, penetrations, rules, rules_path, file_meta, sets, fmt,
                  output, optimal=None, rounds_per_hour=None, warnings=()) -> OutputError | None:
    """`bjsim count`'s report of ``runs`` written to ``output`` (`_emit_run`); with ``optimal``
    (`_optimal_options`) its section of optimal bets, and the optimal plan written;
    ``rounds_per_hour``: the figures an hour too (`counting_report.per_hour`); ``warnings``: the
    plan's, as stderr gave them (`_count_warnings`), in ``run.warnings``."""
    from simulator import count_runs, counting_report

    figs = count_runs.figures(runs, plan, bankroll, rounds_per_hour)
    meta = runs.runs[0][2].meta | {"plan": counting_report.plan_dict(plan), "timing": runs.timing}
    # (stderr says it too, not with -q: every format keeps it)
    meta["run"] = meta["run"] | {"indices_note": count_runs.indices_note(rules, plan),
                                 "boxes_note": count_runs.boxes_note(rules, plan),
                                 "warnings": list(warnings)}
    failed = None  # (the optimal plan's file, where it cannot be written)
    if penetrations is None:
        if runs.stopped:  # the counter's run whole, its control cut short
            meta["run"] = meta["run"] | {"partial": True, "control_interrupted": True}
        if optimal is not None:  # (its bankroll: --bankroll's, else the plan's)
            o = counting_report.optimal_bets(runs.runs[0][2].counting, plan,
                                             figs[0][1]["bankroll"], optimal["fraction"])
            figs[0] = (figs[0][0], figs[0][1] | {"optimal_bets": o})
            if optimal["path"] is not None:
                failed = _optimal_plan(optimal["path"], plan, o, meta, optimal)
        text = counting_report.render(figs[0][1], fmt, meta)
    else:
        meta["run"] = meta["run"] | _rules_source(rules_path, file_meta, sets) | {
            "penetrations": list(penetrations), "partial": runs.partial,
            # the penetration whose run Ctrl-C cut short (its row holds fewer rounds), if any
            "cut_short": next((pen for pen, _, r in runs.runs if r.partial), None)}
        # each run its own penetration (its sweep row's; the list: run.penetrations)
        meta["rules"] = meta["rules"] | {"penetration": None}
        text = counting_report.render_sweep(counting_report.sweep_rows(figs), fmt, meta)
    return _emit_run(text, output) or failed


if __name__ == "__main__":  # pragma: no cover
    main()
