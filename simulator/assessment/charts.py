"""The report's charts as PNG files (matplotlib, the optional ``plot`` extra), drawn from the
figures dict alone: the running house edge with its 95% band, the distribution of the net result
per round (and per Super Sevens bet), and the rule-variant effects with their intervals (a
variant the rule set already plays marked "in this table" at 0).

Every chart has a fixed size (`SIZES`): the CSS pixels the page shows it in, its PNG drawn at
`SCALE` times as many pixels (1800 x 1000 for 900 x 500: about 260 dpi printed across an A4
page's text, sharp on paper and on a high-density screen), so a test can check the file's header.
"""

from __future__ import annotations

from pathlib import Path

from simulator.assessment.sections import same_game_names
from simulator.plotting import pyplot

DPI = 100  # (its fonts and lines as at 100 dpi: the chart looks as it does at SCALE 1)
SCALE = 2  # PNG pixels per CSS pixel of the page
SIZES = {  # name: (width, height) in CSS pixels
    "running_house_edge": (900, 500),
    "distribution": (900, 450),
    "rule_effects": (900, 560),
}
LEGEND_PX = 84  # the rule-effects chart's legend: a strip this high at the bottom (a line each)
IN_TABLE = "in this table"  # the rule-effects chart's mark of a variant the rule set plays
# an exact change of scope cut-card (decks, or penetration or shuffle beside a rule, under a cut
# card): drawn apart, as `bjsim compare --plot` draws the table's ~, not as a full exact value
CUT_CARD_EXACT = ("exact, full shoe (exact scope cut-card: the simulated change also holds the "
                  "cut-card effect)")


def available() -> bool:
    """Whether matplotlib can be imported."""
    try:
        pyplot()
    except ImportError:
        return False
    return True


def _figure(name: str, data: dict):
    plt = pyplot()
    w, h = size(name, data)
    return plt, plt.figure(figsize=(w / DPI, h / DPI), dpi=DPI)


EFFECT_LABEL_PT = 11  # the rule-effects chart's variant names: about 8.4 pt printed (its 9 in
# figure shown across the A4 page's 6.9 in of text)
EFFECT_ROW_PX = 24  # and the height a variant takes, that they do not overlap


def size(name: str, data: dict) -> tuple[int, int]:
    """A chart's size on the page, CSS pixels (`SIZES`); the rule-effects chart taller where
    its variants need it (`EFFECT_ROW_PX` each, their names at `EFFECT_LABEL_PT`)."""
    w, h = SIZES[name]
    if name == "rule_effects":  # (a game given twice is drawn once)
        drawn = len(data["variants"]["rows"]) - len(same_game_names(data["variants"]["rows"])[1])
        h = max(h, EFFECT_ROW_PX * drawn + 130 + LEGEND_PX)
    return w, h


def _save(plt, fig, path: Path) -> None:
    fig.savefig(path, dpi=DPI * SCALE)  # no bbox_inches="tight": the size stays SIZES'
    plt.close(fig)


def running_house_edge(data: dict, path: Path) -> None:
    r = data["running"]
    exact = -next(w["exact"] for w in data["wagers"] if w["wager"] == "total")
    x = r["rounds"]
    y = [100 * v for v in r["house_edge"]]
    hw = [0.0 if v is None else 100 * v for v in r["half_width"]]
    plt, fig = _figure("running_house_edge", data)
    ax = fig.add_subplot()
    low, high = ([a - b for a, b in zip(y, hw, strict=True)],
                 [a + b for a, b in zip(y, hw, strict=True)])
    ax.fill_between(x, low, high, color="#9ecae1", alpha=0.6, label="95% confidence band",
                    step=None)
    for edge in (low, high):  # (its edges drawn: the light fill alone is under 3:1 on white)
        ax.plot(x, edge, color="#4a7fb0", lw=0.8)
    ax.plot(x, y, color="#08519c", lw=1.5, marker="." if len(x) < 30 else None,
            label="simulated house edge")
    ax.axhline(100 * exact, color="#d62728", ls="--", lw=1.2,
               label=f"exact (full shoe every round): {100 * exact:.4f}%")
    if len(x) > 1 and x[-1] / x[0] >= 20:
        ax.set_xscale("log")
    from matplotlib.ticker import StrMethodFormatter

    # plain rounds with thousands separators, never a "1e6" offset or 10^6 ticks
    ax.xaxis.set_major_formatter(StrMethodFormatter("{x:,.0f}"))
    ax.set_xlabel("rounds played")
    ax.set_ylabel("house edge, % of the initial wager")
    ax.set_title("Running house edge after each chunk, with its 95% confidence band")
    ax.grid(alpha=0.3)
    ax.legend(loc="upper right")
    fig.tight_layout()
    _save(plt, fig, path)


def distribution(data: dict, path: Path) -> None:
    d = data["distribution"]
    plt, fig = _figure("distribution", data)
    ss = d.get("super_sevens")
    axes = fig.subplots(1, 2 if ss else 1, squeeze=False)[0]
    m = d["main"]
    n = max(m["rounds"], 1)
    ax = axes[0]
    ax.bar(m["values"], [c / n for c in m["counts"]], width=0.4, color="#3182bd")
    ax.set_yscale("log")
    ax.set_xlabel("net result of a round, initial wagers (main game + insurance)")
    ax.set_ylabel("probability")
    ax.set_title(f"Main game: {m['rounds']:,} rounds sampled", fontsize=10)
    ax.grid(alpha=0.3, axis="y")
    if ss:
        ax = axes[1]
        bets = max(ss["bets"], 1)
        labels = [f"({k})\n{v:+d}" for k, v in zip(ss["lines"], ss["values"], strict=True)]
        ax.bar(range(len(labels)), [c / bets for c in ss["counts"]], color="#e6550d")
        ax.set_xticks(range(len(labels)), labels)
        ax.set_yscale("log")
        ax.set_xlabel("Super Sevens line and net result, stakes")
        ax.set_title(f"Super Sevens: {ss['bets']:,} bets (the run's tally)", fontsize=10)
        ax.grid(alpha=0.3, axis="y")
    fig.suptitle("Distribution of the net result")
    fig.tight_layout()
    _save(plt, fig, path)


def rule_effects(data: dict, path: Path) -> None:
    names, twins = same_game_names(data["variants"]["rows"])  # (a game given twice: drawn once)
    rows = [r | {"variant": names.get(r["variant"], r["variant"])}
            for r in data["variants"]["rows"] if r["variant"] not in twins]
    plt, fig = _figure("rule_effects", data)
    from matplotlib.patheffects import withStroke as stroke

    ax = fig.add_subplot()
    ys = list(range(len(rows)))[::-1]
    diffs = [100 * r["difference"] for r in rows]
    errs = [0 if r["ci95_low"] is None else 100 * (r["difference"] - r["ci95_low"])
            for r in rows]  # (none where the table withholds it)
    withheld = any(r["ci95_low"] is None for r in rows)
    handles = [ax.barh(ys, diffs, xerr=errs, color="#807dba", ecolor="#3f007d", capsize=3,
            label="simulated change, 95% interval" + (" (where given)" if withheld else ""))]
    for cut, marker, ms, label in ((False, "D", 6, "exact"), (True, "1", 9, CUT_CARD_EXACT)):
        ex = [(y, 100 * r["exact"]) for y, r in zip(ys, rows, strict=True)
              if r.get("exact") is not None and not r.get("in_rule_set")
              and (r.get("exact_scope") == "cut-card") == cut]
        if ex:  # (the marks of compare --plot's: a tri marker where the scope is cut-card)
            handles += ax.plot([e for _, e in ex], [y for y, _ in ex], marker, color="#d62728",
                               ms=ms, mew=1.5 if cut else 1, label=label,
                               mec="#d62728" if cut else "black",  # seen on a bar: a black edge
                               path_effects=[stroke(linewidth=3.5, foreground="black")] if cut
                               else [])  # (the tri's, as a diamond's: red on the bar is 1.3:1)
    # a variant the rule set already plays changes nothing: a 0 of its own, marked and named
    kept = [y for y, r in zip(ys, rows, strict=True) if r.get("in_rule_set")]
    if kept:
        handles += ax.plot([0] * len(kept), kept, "o", mfc="white", mec="#3f007d", mew=1.5,
                           ms=8, zorder=3, label=f"{IN_TABLE}: no change here (0)")
    ax.set_yticks(ys, [r["variant"] + (f" ({IN_TABLE})" if r.get("in_rule_set") else "")
                       for r in rows], fontsize=EFFECT_LABEL_PT)
    ax.axvline(0, color="black", lw=0.8)
    ax.set_xlabel("change in house edge, percentage points")
    ax.set_title("Effect of each rule variant on the house edge")
    ax.grid(alpha=0.3, axis="x")
    # Below the axes, in a strip kept for it: inside, it covered a bar.
    fig.legend(handles=handles, loc="lower center", ncol=1, fontsize=10, frameon=False)
    fig.tight_layout(rect=(0, LEGEND_PX / size("rule_effects", data)[1], 1, 1))
    _save(plt, fig, path)


def draw(data: dict, folder: Path) -> dict:
    """Draw every chart the data allows into ``folder``; {name: {file, width, height}} of the
    charts drawn (their size on the page, CSS pixels: the PNG's is `SCALE` times it), or
    {name: {missing: why}}."""
    if not available():
        why = ("matplotlib is not installed (pip install 'bjsim[plot]'; in a checkout: pip "
               "install -e '.[plot]'): no charts drawn")
        out = {name: {"missing": why} for name in SIZES}
        if not data["variants"]["rows"]:  # no chart to draw there anyway: say why
            out["rule_effects"] = {"missing": data["variants"]["reason"]}
        return out
    folder.mkdir(parents=True, exist_ok=True)
    todo = {"running_house_edge": running_house_edge, "distribution": distribution}
    out = {}
    if data["variants"]["rows"]:
        todo["rule_effects"] = rule_effects
    else:
        out["rule_effects"] = {"missing": data["variants"]["reason"]}
    for name, func in todo.items():
        path = folder / f"{name}.png"
        func(data, path)
        w, h = size(name, data)
        out[name] = {"file": f"{folder.name}/{path.name}", "width": w, "height": h}
    return out
