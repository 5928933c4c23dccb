"""Input files given where they do not go: a folder named as a file, one kind of bjsim file
(rule, strategy, variant, plan, count, index) given as another, and an unknown key, each said in
one line as the rule file's loader says it (`rules.read_text`, `rules.wrong_kind`,
`rules.did_you_mean`)."""

from pathlib import Path

import pytest
from click.testing import CliRunner

from simulator import counting, index_plays, plans, rules, strategy, variants
from simulator.cli import cli

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = {  # a file of each kind
    "rule": ROOT / "configs" / "nz1994.toml",
    "strategy": ROOT / "strategies" / "basic.toml",
    "variant": ROOT / "configs" / "variants" / "h17.toml",
    "plan": ROOT / "strategies" / "plans" / "hi-lo-1-12.toml",
    "count": ROOT / "strategies" / "counts" / "hi-lo.toml",
    "index": ROOT / "strategies" / "indices" / "hi-lo-nz.toml",
}
LOADERS = {  # the loader of each kind a user gives by option or plan key
    "rule": rules.load_rule_file,
    "strategy": strategy.load_strategy,
    "plan": plans.load_plan,
    "count": counting.load_count,
    "index": index_plays.load_indices,
}
GOES = {  # where each kind's line says it goes
    "rule": "give it to --rules (`bjsim simulate --rules ",
    "strategy": "give it to --strategy (`bjsim simulate --strategy ",
    "variant": "give it to --variant (`bjsim compare --variant ",
    "plan": "give it to --plan (`bjsim count --plan ",
    "count": "give it to --count (`bjsim strategy indices --count ",
    "index": "name it in a plan's indices key (`indices = \"",
}


def error_of(load, *args) -> str:
    with pytest.raises(ValueError) as err:
        load(*args)
    text = str(err.value)
    assert "\n" not in text
    return text


def run(*args):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def last_error_line(result) -> str:
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    return [ln for ln in result.stderr.splitlines() if ln.strip()][-1]


# ---------------------------------------------------------------------------------------------
# A folder named as a file


@pytest.mark.parametrize("args, said", [
    (["replay", "--strategy", str(SHIPPED["rule"]), "--cards", "F"],
     f"give it to --rules (`bjsim replay --rules {SHIPPED['rule']}`)"),
    (["replay", "--rules", str(SHIPPED["strategy"]), "--cards", "F"],
     f"give it to --strategy (`bjsim replay --strategy {SHIPPED['strategy']}`)"),
    (["exact", "--rules", str(SHIPPED["strategy"])],
     f"give it to --strategy (`bjsim exact --strategy {SHIPPED['strategy']}`)"),
    (["strategy", "indices", "--rules", str(SHIPPED["strategy"]), "-o", "unused"],
     f"give it to --strategy (`bjsim simulate --strategy {SHIPPED['strategy']}`)"),
    (["strategy", "generate", "--rules", str(SHIPPED["strategy"]), "-o", "unused"],
     f"give it to --strategy (`bjsim simulate --strategy {SHIPPED['strategy']}`)"),
    (["strategy", "show", str(SHIPPED["rule"])],
     f"give it to --rules (`bjsim simulate --rules {SHIPPED['rule']}`)"),
    # a count file: exact takes one by --count with --removal; elsewhere strategy indices does
    (["exact", "--removal", "--strategy", str(SHIPPED["count"])],
     f"give it to --count (`bjsim exact --removal --count {SHIPPED['count']}`) or name it in a "
     "plan's count key"),
    # under --removal the rule and strategy hints keep the mode, as the count one does (they
    # said `bjsim exact --strategy ...`, `bjsim exact --rules ...`)
    (["exact", "--removal", "--count", str(SHIPPED["strategy"])],
     f"give it to --strategy (`bjsim exact --removal --strategy {SHIPPED['strategy']}`)"),
    (["exact", "--removal", "--strategy", str(SHIPPED["rule"])],
     f"give it to --rules (`bjsim exact --removal --rules {SHIPPED['rule']}`)"),
    (["exact", "--rules", str(SHIPPED["strategy"]), "--removal"],
     f"give it to --strategy (`bjsim exact --removal --strategy {SHIPPED['strategy']}`)"),
    (["strategy", "show", str(SHIPPED["count"])],
     f"give it to --count (`bjsim strategy indices --count {SHIPPED['count']}`) or name it in "
     "a plan's count key"),
    (["simulate", "--strategy", str(SHIPPED["count"])],
     f"give it to --count (`bjsim strategy indices --count {SHIPPED['count']}`) or name it in "
     "a plan's count key"),
    # compare takes --strategy (a strategy file as --rules said `bjsim simulate --strategy`);
    # a strategy file as --variant is a variant of the strategy alone: --vary-strategy (it was
    # "not a rule file: give it to --strategy (`bjsim simulate ...`)")
    (["compare", "--rules", str(SHIPPED["strategy"]), "--vary", "decks=8"],
     f"a strategy file, not a rule file: give it to --strategy (`bjsim compare --strategy "
     f"{SHIPPED['strategy']}`)"),
    (["compare", "--variant", str(SHIPPED["strategy"])],
     f"a strategy file, not a variant file: give it to --vary-strategy (`bjsim compare "
     f"--vary-strategy {SHIPPED['strategy']}`)"),
])
def test_a_file_of_the_wrong_kind_is_told_the_command_in_use_where_it_takes_the_option(
        args, said, tmp_path, monkeypatch):
    # replay --strategy r1.toml (a rule file) said "give it to --rules (`bjsim simulate --rules
    # r1.toml`)": the example names the command in use where it takes that option, else simulate
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    line = result.stderr.strip().splitlines()[-1]
    assert line.startswith("Error: ") and line.endswith(said), line
    assert not (tmp_path / "unused").exists()
    # the library's line, outside a command, names simulate
    assert error_of(LOADERS["strategy"], SHIPPED["rule"]).endswith(
        f"(`bjsim simulate --rules {SHIPPED['rule']}`)")


@pytest.mark.parametrize("args, said", [
    (["simulate", "--rules", "adir"], "Error: --rules adir: a folder, not a rule file: allowed "),
    (["simulate", "--strategy", "adir"],
     "Error: --strategy adir: a folder, not a strategy file: allowed a shipped strategy by name "
     "(basic, "),
    (["strategy", "show", "adir"], "Error: adir: a folder, not a strategy file: allowed "),
    (["exact", "--strategy", "adir"],
     "Error: --strategy adir: a folder, not a strategy file: allowed "),
    (["count", "--plan", "adir"],
     "Error: --plan adir: a folder, not a plan file: allowed a shipped plan by name (hi-lo-1-12, "),
    (["strategy", "indices", "--count", "adir"],
     "Error: --count adir: a folder, not a count file: allowed a shipped count system by name "
     "(hi-lo, "),
    (["exact", "--removal", "--count", "adir"], "Error: --count adir: a folder, not a count "),
    (["compare", "--variant", "adir"],
     "Error: --variant adir: a folder, not a variant file: allowed a shipped variant as "
     "variants/NAME (bj-6-5, "),
    (["report", "--variant", "adir", "-o", "out"],
     "Error: --variant adir: a folder, not a variant file: allowed "),
    (["report", "--count", "adir", "-o", "out"], "Error: --count adir: a folder, not a plan "),
], ids=lambda a: " ".join(a) if isinstance(a, list) else "")
def test_a_folder_named_as_an_input_file_is_said_to_be_a_folder(args, said, tmp_path,
                                                                monkeypatch):
    # --strategy adir said "unknown strategy 'adir'" (./adir: "a folder, not a strategy file"),
    # --plan "unknown counting plan", --count "unknown count system", and --variant click's
    # "Invalid value for '--variant': File 'adir' is a directory."; an option's folder then
    # said "adir: a folder, ..." without the option (a command's argument has none to name)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "adir").mkdir()
    assert last_error_line(run(*args)).startswith(said)
    assert not (tmp_path / "out").exists()


def test_a_folder_of_a_shipped_name_is_not_read_for_it(tmp_path, monkeypatch):
    # a shipped name is the shipped file, whatever the working directory holds
    monkeypatch.chdir(tmp_path)
    (tmp_path / "basic").mkdir()
    (tmp_path / "hi-lo").mkdir()
    assert strategy.load_strategy("basic").name == "basic"
    assert counting.load_count("hi-lo").name == "hi-lo"


def test_a_folder_named_as_a_plans_count_is_said_to_be_a_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "cdir").mkdir()
    assert error_of(plans.plan_from_dict, {"count": "cdir", "bet": {"base": 1}}, "p.toml") == (
        "p.toml: key 'count': cdir: a folder, not a count file: allowed a shipped count system "
        f"by name ({', '.join(counting.list_counts())}) or the path of a count file")


# ---------------------------------------------------------------------------------------------
# One kind of file given as another


@pytest.mark.parametrize("kind", LOADERS)
@pytest.mark.parametrize("other", SHIPPED)
def test_each_kind_of_file_given_as_another_says_what_it_is_and_where_it_goes(kind, other):
    # a plan loader given a strategy file said "unknown key 'source': allowed name, ...", a
    # rule file "unknown key 'decks'"; a count loader given a strategy, "unknown key 'insurance'"
    if other == kind:
        return
    path = SHIPPED[other]
    said = error_of(LOADERS[kind], path)
    a = "an" if kind == "index" else "a"
    assert said.startswith(f"{path}: {'an' if other == 'index' else 'a'} {other} file"), said
    goes = GOES[other] if (kind, other) != ("plan", "count") else (
        "name it in a plan's count key (`count = \"")  # (`bjsim count` has no --count)
    assert f", not {a} {kind} file: {goes}{path}" in said, said


@pytest.mark.parametrize("args, said", [
    (["count", "--plan", str(SHIPPED["strategy"])],
     f"Error: {SHIPPED['strategy']}: a strategy file, not a plan file: give it to --strategy "
     f"(`bjsim count --strategy {SHIPPED['strategy']}`)"),
    (["count", "--plan", str(SHIPPED["rule"])],
     f"Error: {SHIPPED['rule']}: a rule file, not a plan file: give it to --rules (`bjsim "
     f"count --rules {SHIPPED['rule']}`)"),
    (["strategy", "indices", "--count", str(SHIPPED["strategy"])],
     f"Error: {SHIPPED['strategy']}: a strategy file, not a count file: give it to --strategy "
     f"(`bjsim simulate --strategy {SHIPPED['strategy']}`)"),
    (["simulate", "--strategy", str(SHIPPED["plan"])],
     f"Error: {SHIPPED['plan']}: a plan file (a counter's bets by count), not a strategy file: "
     f"give it to --plan (`bjsim count --plan {SHIPPED['plan']}`)"),
    # a review: a count file as a plan led with "give it to --count", which `bjsim count` has not
    (["count", "--plan", str(SHIPPED["count"])],
     f"Error: {SHIPPED['count']}: a count file (a count system's tags), not a plan file: name it "
     f"in a plan's count key (`count = \"{SHIPPED['count']}\"`), or give it to --count of `bjsim "
     f"strategy indices --count {SHIPPED['count']}`"),
], ids=["plan-strategy", "plan-rule", "count-strategy", "strategy-plan", "plan-count"])
def test_the_command_line_names_a_file_given_to_the_wrong_option(args, said):
    assert last_error_line(run(*args)) == said


def test_a_file_of_its_kind_with_a_stray_key_has_the_key_named():
    # one key of another kind does not make a plan, count or index file another kind's
    assert "unknown key 'decks'" in error_of(
        plans.plan_from_dict, {"count": "hi-lo", "bet": {"base": 1}, "decks": 6}, "p.toml")
    assert "unknown key 'hard'" in error_of(
        counting.count_from_dict, {"tags": [1] * 10, "hard": "x", "irc_constant": 0}, "c.toml")


def test_a_plan_in_a_plans_count_key_is_named_as_a_plan(tmp_path):
    said = error_of(plans.plan_from_dict, {"count": str(SHIPPED["plan"]), "bet": {"base": 1}},
                    "p.toml")
    assert said.startswith(f"p.toml: key 'count': {SHIPPED['plan']}: a plan file (a counter's "
                           "bets by count), not a count file: give it to --plan")


def test_the_keys_that_tell_a_kind_are_its_own():
    # one declaration of each kind's keys (its module's); the telling ones none other has
    keys = {"rule": (*rules.KEYS, "meta"), "strategy": strategy.FILE_KEYS,
            "variant": ("variant", "changes"), "plan": plans.KEYS, "count": counting.KEYS,
            "index": index_plays.FILE_KEYS}
    assert set(rules.TELLING_KEYS) == set(keys)
    for kind, telling in rules.TELLING_KEYS.items():
        assert telling and set(telling) <= set(keys[kind]), kind
        others = {k for other, ks in keys.items() if other != kind for k in ks}
        assert not set(telling) & others, (kind, set(telling) & others)


# ---------------------------------------------------------------------------------------------
# An unknown key: the closest known one suggested


def test_an_unknown_key_suggests_the_closest_in_every_kind_of_file(tmp_path):
    # plan, count, index and variant files said only what was allowed, where rule and strategy
    # files say "did you mean"
    good_plan = {"count": "hi-lo", "bet": {"base": 1}}
    assert error_of(plans.plan_from_dict, {**good_plan, "cout": "x"}, "p.toml") == (
        "p.toml: unknown key 'cout': did you mean 'count'?")
    assert error_of(plans.plan_from_dict, {**good_plan, "wong": {"enter": 1, "levae": 0}},
                    "p.toml") == "p.toml: unknown key 'wong.levae': did you mean 'wong.leave'?"
    assert error_of(counting.count_from_dict, {"tag": [1] * 10}, "c.toml") == (
        "c.toml: unknown key 'tag': did you mean 'tags'?")
    index = tmp_path / "i.toml"
    index.write_text('nme = "x"\ncount = "hi-lo"\n')
    assert error_of(index_plays.load_indices, index) == (
        f"{index}: unknown key 'nme': did you mean 'name'?")
    index.write_text('count = "hi-lo"\n[[play]]\nchart = "hard"\nrow = "16"\nup = "10"\n'
                     'below = "H"\nat_or_above = "S"\nindx = 0\n')
    assert error_of(index_plays.load_indices, index) == (
        f"{index}: play 1: unknown key 'indx': did you mean 'index'?")
    variant = tmp_path / "v.toml"
    variant.write_text('[variant]\nnme = "x"\n[changes]\ndecks = 2\n')
    assert error_of(variants.read_variant_file, variant) == (
        f"{variant}: unknown key 'variant.nme': did you mean 'variant.name'?")
    variant.write_text('[variant]\nname = "x"\n[change]\ndecks = 2\n')
    assert error_of(variants.read_variant_file, variant).startswith(
        f"{variant}: key 'change' is not allowed at the top of a variant file: did you mean "
        "'changes'?")


def test_an_unknown_key_like_none_says_what_is_allowed():
    good_plan = {"count": "hi-lo", "bet": {"base": 1}}
    assert error_of(plans.plan_from_dict, {**good_plan, "zzz": 1}, "p.toml") == (
        "p.toml: unknown key 'zzz': allowed " + ", ".join(plans.KEYS))
    assert error_of(counting.count_from_dict, {"tags": [1] * 10, "zzz": 1}, "c.toml") == (
        "c.toml: unknown key 'zzz': allowed " + ", ".join(counting.KEYS))


# ---------------------------------------------------------------------------------------------
# A name: one rule for every kind of file


def _named(kind: str, name: str) -> tuple[str, str]:
    """A file of ``kind`` whose name is ``name`` (TOML), and the key that names it."""
    if kind in ("rule", "strategy", "index"):  # (the shipped file, its first name replaced)
        text = SHIPPED[kind].read_text().replace(f'name = "{SHIPPED[kind].stem}"',
                                                 f"name = {name}", 1)
        return text, "meta.name" if kind == "rule" else "name"
    return {"plan": f'name = {name}\ncount = "hi-lo"\n[bet]\nbase = 1\n',
            "count": f"name = {name}\ntags = [-1, 1, 1, 1, 1, 1, 0, 0, 0, -1]\n"}[kind], "name"


@pytest.mark.parametrize("kind", LOADERS)
@pytest.mark.parametrize("name, why", [
    ('""', "is empty"), ('"  "', "is empty"),
    (r'"a,b \"q\"\nnl"', "holds a character that is not printable"),
    (r'"tab\there"', "holds a character that is not printable"), ("5", "is not a string")])
def test_a_name_empty_or_of_two_lines_is_refused_in_every_kind_of_file(tmp_path, kind, name,
                                                                       why):
    # A review: an empty name was refused in an index file alone; a plan's, count's, strategy's
    # and rule file's was taken (the header then read "Plan:       (count hi-lo" and "count , the
    # decks left"), and a plan's name with a line break split the text header in two lines.
    text, key = _named(kind, name)
    path = tmp_path / f"{kind}.toml"
    path.write_text(text)
    said = error_of(LOADERS[kind], str(path))
    assert f"key '{key}' = " in said and f" {why}" in said, said
    assert said.endswith(f"allowed {rules.NAME_ALLOWED}"), said


@pytest.mark.parametrize("kind", LOADERS)
def test_a_name_of_printable_text_is_taken_in_every_kind_of_file(tmp_path, kind):
    text, _ = _named(kind, '"my file, \\"mine\\""')
    path = tmp_path / f"{kind}.toml"
    path.write_text(text)
    LOADERS[kind](str(path))


def test_a_variant_name_follows_the_same_rule(tmp_path):
    path = tmp_path / "v.toml"
    path.write_text('[variant]\nname = "a\\nb"\n[changes]\ndecks = 8\n')
    problems = []
    variants.read_variant_file(path, problems)
    assert problems == [f"{path}: key 'variant.name' = \"a\\nb\" {rules.UNPRINTABLE}: allowed "
                        f"{rules.NAME_ALLOWED} (it names the variant's row)"]


@pytest.mark.parametrize("load, name, close", [
    (plans.load_plan, "hi-lo-flt", "hi-lo-flat"),
    (counting.load_count, "zne", "zen"),
    (counting.load_count, "hilo", "hi-lo"),
    (index_plays.load_indices, "hi-lo-n", "hi-lo-nz"),
    (rules.load_rule_file, "nz1995", "nz1994"),
])
def test_a_misspelt_shipped_name_suggests_the_closest_in_every_kind(load, name, close):
    # A review: only a strategy (bassic) was told "did you mean 'basic'?"; a plan, count, index
    # set or rule set name was not
    assert f"'{name}': did you mean '{close}'? allowed " in error_of(load, name) or \
        f"{name}: no such rule file: did you mean '{close}'? allowed " in error_of(load, name)


def test_a_plans_misspelt_count_indices_and_deck_estimation_are_told_the_closest():
    said = error_of(plans.plan_from_dict, {"count": "hilo", "bet": {"base": 1}}, "p.toml")
    assert "unknown count system 'hilo': did you mean 'hi-lo'? allowed" in said
    said = error_of(plans.plan_from_dict, {"count": "hi-lo", "indices": "hi-lo-n",
                                           "bet": {"base": 1}}, "p.toml")
    assert "key 'indices' = \"hi-lo-n\": did you mean 'hi-lo-nz'? allowed" in said
    # choices quoted and a case hint, as a rule file's (it said "allowed exact, half, whole")
    said = error_of(plans.plan_from_dict, {"count": "hi-lo", "deck_estimation": "Half",
                                           "bet": {"base": 1}}, "p.toml")
    assert said == ('p.toml: key \'deck_estimation\' = "Half" is not a choice: allowed "exact", '
                    '"half", "whole" (lower case: did you mean "half"?)')
