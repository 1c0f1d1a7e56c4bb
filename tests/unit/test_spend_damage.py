"""Spend as damage (issue 34, item 3): a format-2 drill may count the cost of model calls as its damage
(``answer_key.damage.spend``: each call at its model's prices, every repetition, from the first call on) with a
budget deadline (``deadline: {budget: X}``: the drill time the damage first passes X). The scores below are worked
by hand from docs/scoring.md on tests/fixtures/shapes/shape-spend-loop.yaml: 39 retries (e07, 3 s apart from
12 s) of a call of 20,000 input and 200 output tokens at $3/$15 per million tokens, $0.063 each, $2.457 in all;
the 16th retry (57 s) takes the spend past $1.00."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from locations import TESTS

from warroom.cli import main
from warroom.core.load import DrillLoadError, load_drill, load_drill_text
from warroom.core.model import Action, ActionKind, damage_per_event
from warroom.core.play import Replay, trace_cost
from warroom.core.scoring import score

SPEND = TESTS / "fixtures" / "shapes" / "shape-spend-loop.yaml"
CALL = (20_000 * 3 + 200 * 15) / 1e6  # $0.063


def _escalate(t: float) -> list[Action]:
    return [Action(t=t, kind=ActionKind.ESCALATE, step="s2", cites=("e06",))]


def test_the_budget_deadline_is_the_time_the_spend_passes_it_and_each_retry_costs_its_call() -> None:
    drill = load_drill(SPEND)
    assert drill.answer_key.deadline == 57.0  # 16 x $0.063 = $1.008 > $1.00 at 12 + 15 x 3 s
    assert damage_per_event(drill) == {"e07": pytest.approx(CALL)}
    replay = Replay(drill)
    assert replay.full_damage == pytest.approx(39 * CALL)
    replay.advance_to(30)  # retries at 12, 15, ... 30: seven of them
    assert replay.damage == pytest.approx(7 * CALL)


@pytest.mark.parametrize(
    ("actions", "total", "outcome", "damage_calls"),
    [
        (_escalate(10), 100, "contained", 0),  # at the evidence, before the first retry: everything saved
        # just before the budget is passed: 15 retries ($0.945) spent; speed 25 x (1 - 44/47) = 1.6 -> 2,
        # damage avoided 25 x (1 - 0.945/2.457) = 15.4 -> 15
        (_escalate(54), 67, "contained", 15),
        # after the budget: contained late (20), 17 retries spent (12..60 s): 25 x (1 - 17/39) = 14.1 -> 14
        (_escalate(60), 34, "contained_late", 17),
        ([], 0, "missed", 39),
    ],
)
def test_spend_damage_scores_as_worked_by_hand(actions, total, outcome, damage_calls) -> None:  # type: ignore[no-untyped-def]
    card = score(load_drill(SPEND), actions)
    assert (card.total, card.outcome.value) == (total, outcome), card.lines
    assert card.damage == pytest.approx(damage_calls * CALL)
    assert card.full_damage == pytest.approx(39 * CALL)


def _edited(old: str, new: str) -> str:
    text = SPEND.read_text(encoding="utf-8")
    assert old in text
    return text.replace(old, new)


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("spend: [e07]", "spend: [e08]", "spend event `e08` is a tool_result without `usage`"),
        ("spend: [e07]", "spend: [e7]", "spend event `e7` is not a trace event"),
        ("spend: [e07]", "spend: [e07, e07]", "spend event `e07` is listed twice"),
        ("deadline: {budget: 1.00}", "deadline: {budget: 3.00}", "the damage never passes the budget (3)"),
        ("unit: USD spent on identical retries", "unit: retries", "damage that counts `spend` is money"),
        ("    spend: [e07]\n", "", "the damage needs `entries`"),
        ("schema_version: 2", "schema_version: 1", "`spend` damage is format 2"),
        ("schema_version: 2", "schema_version: 1", "a budget deadline (`{budget: ...}`) is format 2"),
        ("deadline: {budget: 1.00}", "deadline: {budgt: 1.00}", "did you mean `budget`? allowed keys: after, budget"),
        ("deadline: {budget: 1.00}", "deadline: {budget: 1.00, event: e06}", "or `{budget: AMOUNT}` (when the damage "
         "passes it), not both"),
    ],
)
def test_spend_and_budget_mistakes_are_refused_with_what_to_do(old: str, new: str, message: str) -> None:
    with pytest.raises(DrillLoadError) as err:
        load_drill_text(_edited(old, new), "x.yaml")
    assert message in str(err.value), str(err.value)


def test_spend_may_come_with_damage_entries_in_usd() -> None:
    drill = load_drill_text(_edited(
        "    spend: [e07]\n", "    spend: [e07]\n    entries: [{event: e09, amount: 40, note: the hold fee}]\n"))
    assert Replay(drill).full_damage == pytest.approx(39 * CALL + 40)


def test_warroom_cost_answers_says_what_a_missed_loop_wastes_and_only_with_answers() -> None:
    tc = trace_cost(load_drill(SPEND))
    assert (tc.spend.calls, round(tc.spend.usd, 6)) == (39, round(39 * CALL, 6))
    assert (tc.spend_after_deadline.calls, round(tc.spend_after_deadline.usd, 6)) == (23, round(23 * CALL, 6))
    runner = CliRunner()
    shown = runner.invoke(main, ["cost", "--answers", str(SPEND)]).output
    assert ("the spend counted as damage (wasted when the fault is missed): 39 calls, $2.46; 23 of them, $1.45, "
            "after the deadline") in shown
    assert "spend counted" not in runner.invoke(main, ["cost", str(SPEND)]).output
    doc = json.loads(runner.invoke(main, ["cost", "--answers", "--format", "json", str(SPEND)]).output)
    assert (doc["spend"]["calls"], doc["spend"]["after_deadline"]["calls"]) == (39, 23)
    assert "spend" not in json.loads(runner.invoke(main, ["cost", "--format", "json", str(SPEND)]).output)


def test_a_drill_without_spend_costs_and_scores_as_before() -> None:
    from warroom.core.library import bundled_drills_dir

    drill = load_drill(bundled_drills_dir() / "duplicate-charge-refunds.yaml")
    assert trace_cost(drill).spend.calls == 0
    assert "spend counted" not in CliRunner().invoke(main, ["cost", "--answers", "duplicate-charge-refunds"]).output


def test_the_review_marks_a_spend_call_with_its_cost_and_the_panel_adds_up_every_repetition() -> None:
    from warroom.store.review import build_review_rows
    from warroom.tui.screens._reviewpanels import _spend_full

    drill = load_drill(SPEND)
    rows = {r.event.id: r for r in build_review_rows(drill, [Action(t=20, kind=ActionKind.QUIT)]).rows
            if r.kind == "event"}
    assert "damage $0.063 spent on identical retries" in rows["e07"].key
    assert _spend_full(drill) == pytest.approx(39 * CALL)
