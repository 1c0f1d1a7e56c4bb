"""``warroom cost DRILL``: what a drill's trace costs by role, model and plan step, against the flat loop."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from warroom.cli.common import DrillParam, cleaned, drills_setting, format_option
from warroom.core.text import clean, clean_line, no_negative_zero, plural, usd, usd_price

if TYPE_CHECKING:
    from warroom.core.library import LoadedDrill


def _pct(x: float | None) -> str:
    from warroom.core.text import round_half_up

    return "-" if x is None else f"{round_half_up(x) + 0.0:.0f}%"  # + 0.0: a cut of -0.3% is 0%, not -0%


def _factor(x: float | None) -> str:
    from warroom.core.text import round_half_up

    return "-" if x is None else f"{round_half_up(x, 1):.1f}x"


def _table(title: str, rows: list[Any]) -> list[str]:
    """A cost table (:func:`~warroom.cli.common.text_table`): a header and one line per
    :class:`~warroom.core.play._cost.CostLine`, indented two spaces."""
    from warroom.cli.common import table_lines, text_table

    cells = [(clean_line(r.name), f"{r.calls:,}", f"{r.input_tokens:,}", f"{r.output_tokens:,}", usd(r.usd))
             for r in rows]
    table = text_table((title, "calls", "input tok", "output tok", "USD"), cells, right={1, 2, 3, 4})
    return table_lines(table, indent=2)


def _calls(n: int) -> str:
    return plural(n, "call")


def _saving_lines(tc: Any) -> list[str]:
    """The saving against the flat loop: how many times cheaper and the cut, or that there is none."""
    flat = tc.flat_loop
    if tc.saving_factor is None or tc.saving_percent is None:
        return []
    if usd(flat.usd) == usd(tc.total.usd) or _pct(tc.saving_percent) in ("0%", "-0%"):
        same = "the same as" if usd(flat.usd) == usd(tc.total.usd) else "about the same as"
        return [
            f"  no saving: the planner-executor trace costs {same} the flat loop ({usd(tc.total.usd)} against "
            f"{usd(flat.usd)})"
        ]
    if tc.saving_percent > 0:
        return [
            f"  saving: {_factor(tc.saving_factor)} cheaper, a {_pct(tc.saving_percent)} cut "
            f"({usd(flat.usd)} -> {usd(tc.total.usd)})"
        ]
    return [
        f"  no saving: the planner-executor trace costs {_factor(1 / tc.saving_factor)} the flat loop "
        f"({usd(tc.total.usd)} against {usd(flat.usd)})"
    ]


def _sides_text(tc: Any) -> str:
    """The planner-executor side of the comparison: the planning calls, then the steps' work, each by the model it
    ran on (``1 call on big (2,000 in, 500 out) = $0.0225, plus the steps' work, 8 calls on small ...``)."""

    def by_model(lines: Any) -> str:
        return ", and ".join(
            f"{_calls(c.calls)} on {clean_line(c.name)} ({c.input_tokens:,} in, {c.output_tokens:,} out) = {usd(c.usd)}"
            for c in lines
        )

    parts = []
    if tc.planning:
        parts.append(f"planning, {by_model(tc.planning)}")
    if tc.work:
        parts.append(f"the steps' work, {by_model(tc.work)}")
    return ", plus ".join(parts)


def _escalation_lines(tc: Any, answers: bool) -> list[str]:
    """What a false escalation costs; with ``answers`` (the author's view) also what only a fault has: the cascade
    and the re-plan after a correct escalation (for an all-clear drill, which has neither, it says so). Without
    ``answers`` nothing from the answer key: the same lines for a fault drill and an all-clear drill."""
    if not answers:
        return [
            "What a false escalation costs (authors: --answers adds the figures from the answer key)",
            _false_escalation_line(tc),
        ]
    if tc.all_clear:
        return [
            "What a false escalation costs (an all-clear drill: there is no fault to miss)",
            _false_escalation_line(tc),
        ]
    return [
        "What a missed or a false escalation costs",
        f"  the cascade steps' calls (wasted when the fault is missed): {_calls(tc.cascade.calls)}, "
        f"{usd(tc.cascade.usd)}",
        f"  the re-plan after a correct escalation: {_calls(tc.replan.calls)}, {usd(tc.replan.usd)}",
        _false_escalation_line(tc),
    ] + _spend_lines(tc)


def _false_escalation_line(tc: Any) -> str:
    """What one false escalation costs: a planner re-plan call; when the drill has no tokens for it (no planner call
    in the trace, no ``models.replan_usage``: a chat imported without a planner), why it costs nothing and what to
    give."""
    from warroom.core.play import NO_REPLAN_TOKENS, NO_REPLAN_USAGE

    line = f"  one false escalation (a planner re-plan call): {usd(tc.false_escalation.usd)}"
    if tc.false_escalation_usage != NO_REPLAN_USAGE:
        return line
    return f"{line}, {NO_REPLAN_TOKENS} (give it the tokens of one re-plan call to charge them)"


def _spend_lines(tc: Any) -> list[str]:
    """Format 2's spend damage: what a missed runaway loop wastes (the calls whose cost is the damage) and how much
    of it an escalation on time saves; nothing for a drill whose damage is not spend."""
    if not tc.spend.calls:
        return []
    late = tc.spend_after_deadline
    return [
        f"  the spend counted as damage (wasted when the fault is missed): {_calls(tc.spend.calls)}, "
        f"{usd(tc.spend.usd)}; {late.calls:,} of them, {usd(late.usd)}, after the deadline (saved by an "
        "escalation on time)",
    ]


def cost_report_lines(tc: Any, answers: bool = False) -> list[str]:
    """The text ``warroom cost`` prints for a :class:`~warroom.core.play.TraceCost`, one string per line; the
    figures from the answer key (the cascade, the re-plan, whether it is an all-clear drill) only with ``answers``.

    Drill text in it (model names, plan step ids) is cleaned: control characters are shown as ``\\xNN``. The
    tables are :func:`~warroom.cli.common.text_table` s (a bold header on a terminal).
    """

    def prices(p: tuple[float, float]) -> str:
        return f"{usd_price(p[0])}/{usd_price(p[1])} per million tokens"

    planner_model, executor_model = clean_line(tc.planner_model), clean_line(tc.executor_model)
    out = [
        f"Cost of the trace of {clean_line(tc.drill_id)}: planner {planner_model} at {prices(tc.planner_prices)}, "
        f"executor {executor_model} at {prices(tc.executor_prices)}",
        "",
    ]
    if not tc.total.calls:  # no call has token usage: three empty tables would say nothing
        out += ["  no model calls with token usage: nothing to add up", ""]
    else:
        out += _table("by role", list(tc.by_role)) + [""]
        out += _table("by model", list(tc.by_model)) + [""]
        if {a.name for a in tc.by_agent} - {r.name for r in tc.by_role}:  # format 2 agents: who made each call
            out += _table("by agent", list(tc.by_agent)) + [""]
        out += _table("by plan step", list(tc.by_step)) + [""]
    out.append(f"  total: {_calls(tc.total.calls)}, {tc.total.tokens:,} tokens, {usd(tc.total.usd)}")
    if tc.estimated_calls:
        out.append(f"  estimated: the token counts of {tc.estimated_calls:,} of the {_calls(tc.total.calls)} "
                   "(`usage.estimated`: an imported trace's, from the text's length), so every figure here is an "
                   "estimate")
    out.append("")
    flat = tc.flat_loop
    flat_model = clean_line(tc.flat_loop_model or tc.planner_model)
    out.append(
        f"Flat loop (counterfactual): every call but the planner's planning calls, whoever made it, run on the "
        f"planner's model, {flat_model}, re-reasoning at every step; tokens: {tc.flat_loop_usage}"
    )
    if flat.calls:
        out.append(
            f"  flat loop: {plural(flat.calls, 'step')} on {flat_model} "
            f"({flat.input_tokens:,} in, {flat.output_tokens:,} out) = {usd(flat.usd)}"
        )
        out.append(f"  planner-executor: {_sides_text(tc)}: {usd(tc.total.usd)} in all")
    else:
        out.append("  no calls besides the planning calls with token usage: nothing to compare")
    out += _saving_lines(tc)
    out.append("")
    out += _escalation_lines(tc, answers)
    return cleaned(out)


@click.command("cost")
@click.argument("drill", required=False, type=DrillParam())
@click.option("--example", is_flag=True, help="Show the seed worked example (a bundled example drill) instead.")
@click.option(
    "--answers",
    is_flag=True,
    help="Also show the figures from the answer key (the cascade's calls, the re-plan, whether the drill is an "
    "all-clear control), which a trainee must not see before the debrief.",
)
@format_option("Output: tables, or one JSON document.")
@drills_setting
def cost(drill: LoadedDrill | None, example: bool, answers: bool, fmt: str) -> None:
    """Show what DRILL's trace costs: by role, by model, by plan step, and against the flat loop.

    DRILL is a drill file or a drill id (from --drills folders or the bundled library). A call costs input
    tokens x input price + output tokens x output price (USD per million tokens). The flat loop is the
    counterfactual where every call but the planning calls, whoever made it, runs on the planner's model,
    re-reasoning at every step; the trace prices each call by the model it ran on. With
    --example, shows the seed worked example: 8 steps on a $5/$25 model ($0.128) against one planning call
    ($0.035) plus 8 steps on a $1/$5 model ($0.0156): $0.0506, 2.5x cheaper, a 60% cut.

    Without --answers nothing from the answer key is shown (what the trace shows, and what one false escalation
    costs); --answers adds the cascade's calls, the re-plan after a correct escalation and, in JSON, the keys
    all_clear, cascade and replan.

    A drill whose id differs from its file name (which `warroom validate` reports as a problem) is costed all the
    same, with a `path:line:col: warning: ...` line on stderr: the figures do not depend on the id.

    Exit status: 0 on success, 1 when the drill does not load (path:line:col: message), 2 on usage errors.
    """
    from warroom.cli.common import DrillNotLoaded
    from warroom.core.author import seed_example_path
    from warroom.core.library import DrillLibrary
    from warroom.core.model import without_answer_keys
    from warroom.core.play import trace_cost

    if example == (drill is not None):
        raise click.UsageError("give either a DRILL (file or id) or --example")
    if drill is None:  # then --example was given (checked above)
        path = seed_example_path()
        loaded, problems = DrillLibrary.load_or_problems(path)
        if loaded is None:
            raise DrillNotLoaded(path, problems)
    else:
        path, loaded = drill
        _warn_across_files(drill)
    tc = trace_cost(loaded)
    if fmt == "json":
        shown = tc.to_dict() if answers else without_answer_keys(tc.to_dict())
        click.echo(json.dumps(no_negative_zero({"path": str(path), **shown}), indent=2))
    else:
        for line in cost_report_lines(tc, answers):
            click.echo(line)



def _warn_across_files(drill: LoadedDrill) -> None:
    """Write the rules across files that ``drill`` breaks (:func:`~warroom.core.library.cross_file_problems`: its id
    differs from its file name) to stderr as ``path:line:col: warning: message`` lines."""
    from warroom.core.library import cross_file_problems

    for p in cross_file_problems([drill]).get(Path(drill[0]), []):
        click.echo(clean(replace(p, severity="warning")), err=True)
