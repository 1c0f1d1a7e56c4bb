"""The parts of threat projection (warroom.core.projection) on small results: each fault template's change and the
evidence it creates, where it applies and where not, the output's JSON form kept, the damage rules, the drill
clock's stretching and the estimated difficulty."""

from __future__ import annotations

import json
import random

import pytest

from warroom.core.model import value_at
from warroom.core.projection import (
    DEFAULT_UNIT,
    TEMPLATES,
    ProjectionError,
    damage_rules,
    estimate,
    is_write_like,
    parse_damage,
)
from warroom.core.projection._output import path_text, read_output
from warroom.core.projection._templates import _near_miss
from warroom.core.projection._timing import deadline_for, reading_window, shift_from
from warroom.core.projection._view import RunText, result_views

ORDER = {"order_id": "#W2890441", "items": [{"item_id": "2366567022", "price": 54.04},
                                            {"item_id": "6805564527", "price": 158.41}],
         "fulfillments": [{"tracking_id": ["933268174920"]}], "status": "delivered"}


def trace(result: object, *, tool: str = "get_order_details", args: dict | None = None,
          later: list[dict] | None = None) -> list[dict]:
    """A small trace: a user message, the call and its result (as JSON text), then ``later`` events."""
    return [
        {"id": "e1", "t": 0.0, "kind": "human_message", "content": "Return the lamp from order #W2890441."},
        {"id": "e2", "t": 1.0, "step": "s1", "kind": "executor_message", "content": "Looking it up."},
        {"id": "c1", "t": 2.0, "step": "s1", "kind": "tool_call", "tool": tool,
         "arguments": args if args is not None else {"order_id": "#W2890441"}},
        {"id": "r1", "t": 3.0, "step": "s1", "kind": "tool_result", "call": "c1", "output": json.dumps(result)},
        *(later or []),
    ]


def change(name: str, events: list[dict]):
    view = result_views(events)[0]
    place = TEMPLATES[name].place(view)
    assert place is not None, f"{name} should apply"
    return view, TEMPLATES[name].change(view, place, random.Random(7))


def test_every_template_names_a_kind_shapes_evidence_and_a_habit():
    assert list(TEMPLATES) == ["pagination-truncated", "error-flag-ignored", "stale-data", "wrong-record",
                               "partial-write", "unit-confusion", "timeout-as-empty", "rate-limit-swallowed"]
    for name, template in TEMPLATES.items():
        assert template.kind.value == name.replace("-", "_")  # each makes the fault kind of its name
        assert template.shapes and template.evidence and template.habit.endswith(".")


def test_pagination_adds_a_total_larger_than_the_list_and_a_cursor_beside_it():
    view, made = change("pagination-truncated", trace(ORDER))
    assert made.field == "items" and made.evidence_path == "items_total_count"
    total = made.value["items_total_count"]
    assert total > len(ORDER["items"]) and made.value["items"] == ORDER["items"]
    assert list(made.value)[:3] == ["order_id", "items", "items_total_count"]  # beside the list
    assert json.loads(__import__("base64").b64decode(made.value["items_next_cursor"])) == {"offset": 2, "limit": 2}
    assert value_at(view.form.dump(made.value), made.evidence_path) == (True, total)


def test_pagination_of_a_top_level_list_becomes_a_page_and_leaves_paged_results_alone():
    _, made = change("pagination-truncated", trace([{"id": "a1"}, {"id": "a2"}], tool="list_accounts", args={}))
    assert made.value["data"] == [{"id": "a1"}, {"id": "a2"}] and made.value["has_more"] is True
    assert made.value["total_count"] > 2 and made.evidence_path == "total_count"
    paged = {"items": [{"id": 1}], "next_cursor": None, "total": 1}
    assert TEMPLATES["pagination-truncated"].place(result_views(trace(paged))[0]) is None


def test_error_flag_puts_partial_and_an_error_inside_a_success():
    view, made = change("error-flag-ignored", trace(ORDER, tool="get_invoice", args={"invoice": "x"}))
    found, message = value_at(view.form.dump(made.value), made.evidence_path)
    assert found and "could not be loaded" in message
    assert made.value.get("partial") is True or ".warnings[0]" in made.evidence_path


def test_stale_data_says_where_the_result_comes_from_and_how_old_it_is():
    later = [{"id": "x", "t": 9.0, "step": "s2", "kind": "log", "source": "ops", "content": "run of 2026-03-20"}]
    _, made = change("stale-data", trace(ORDER, later=later))
    assert made.value["source"] == "replica-cache" and made.value["cache_age_s"] >= 9 * 86400
    assert made.value["as_of"] < "2026-03-20"  # older than the latest date of the run
    assert TEMPLATES["stale-data"].place(result_views(trace(ORDER, tool="cancel_order"))[0]) is None  # a write


def test_wrong_record_returns_a_neighbouring_id_and_never_one_the_trace_has():
    _, made = change("wrong-record", trace(ORDER))
    assert made.value["order_id"] == "#W2890414" and made.evidence_path == "order_id"
    assert "asked for #W2890441" in made.note
    assert _near_miss("#W2378156") == "#W2378165" and _near_miss("1111") == "1114" and _near_miss("ab1") is None


def test_partial_write_needs_a_batch_and_drops_the_failed_id_from_the_answer():
    answer = {"order_id": "#W1", "status": "return requested", "return_items": ["2366567022", "6805564527"]}
    args = {"order_id": "#W1", "item_ids": ["2366567022", "6805564527"]}
    _, made = change("partial-write", trace(answer, tool="return_delivered_order_items", args=args))
    failed = made.value["write_errors"][0]["id"]
    assert made.value["matched_count"] == 2 and made.value["modified_count"] == 1
    assert made.value["return_items"] == [i for i in args["item_ids"] if i != failed]
    single = trace(answer, tool="return_delivered_order_items", args={"order_id": "#W1"})
    assert TEMPLATES["partial-write"].place(result_views(single)[0]) is None
    assert TEMPLATES["partial-write"].place(result_views(trace(answer, args=args))[0]) is None  # not a write


def test_unit_confusion_names_another_currency_than_the_run_speaks_of():
    later = [{"id": "m", "t": 9.0, "step": "s2", "kind": "executor_message", "content": "Refund $212.45."}]
    _, made = change("unit-confusion", trace(ORDER, later=later))
    assert made.value["currency"] == "EUR" and made.evidence_path == "currency"
    assert list(made.value).index("currency") == list(made.value).index("items") + 1
    _, euro = change("unit-confusion", trace({**ORDER, "currency": "EUR"}))
    assert euro.value["currency"] == "CAD"
    assert TEMPLATES["unit-confusion"].place(result_views(trace({"status": "ok"}))[0]) is None


def test_timeout_and_rate_limit_empty_only_what_the_agent_did_not_use():
    returned = [{"id": "c2", "t": 9.0, "step": "s2", "kind": "tool_call", "tool": "return_items",
                 "arguments": {"item_ids": ["6805564527"]}}]
    view, made = change("timeout-as-empty", trace(ORDER, later=returned))  # the items were used: not them
    assert made.field == "fulfillments" and made.value["fulfillments"] == [] and made.value["items"] == ORDER["items"]
    assert value_at(view.form.dump(made.value), made.evidence_path)[0]
    used = [*returned, {"id": "c3", "t": 9.5, "step": "s2", "kind": "tool_call", "tool": "track",
                        "arguments": {"tracking": "933268174920"}}]
    # the agent later used a tracking number only this result gave: emptying it would change what follows
    place = TEMPLATES["timeout-as-empty"].place(result_views(trace(ORDER, later=used))[0])
    assert place is None or place.parts != ("fulfillments",)
    _, limited = change("rate-limit-swallowed", trace(ORDER, later=returned))
    status_path = limited.evidence_path
    assert status_path.endswith(".status") and value_at(json.dumps(limited.value), status_path) == (True, 429)


def test_a_value_the_user_gave_before_the_agent_used_it_is_not_needed_from_the_result():
    events = trace(ORDER, later=[{"id": "c2", "t": 9.0, "step": "s2", "kind": "tool_call", "tool": "cancel",
                                  "arguments": {"order_id": "#W2890441"}}])
    run = RunText(events)
    assert not run.needed_later(3, ["#W2890441"], "")  # the user's message named it first
    assert run.needed_later(3, ["2366567022"], "") is False  # never used later
    used = [*events, {"id": "c3", "t": 10.0, "step": "s2", "kind": "tool_call", "tool": "ret",
                      "arguments": {"item": "2366567022"}}]
    assert RunText(used).needed_later(3, ["2366567022"], "")
    assert not RunText(used).needed_later(3, ["2366567022"], "still says 2366567022")


def test_the_output_is_written_back_in_the_form_the_source_wrote_it():
    for text in ('{"a": 1, "b": [1, 2]}', '{"a":1,"b":[1,2]}', '{\n  "a": 1\n}', '{"name": "Zürich"}',
                 '{"name": "Z\\u00fcrich"}'):
        value, form = read_output({"output": text})
        assert form.dump(value) == text
    assert read_output({"output": {"a": 1}})[1].text is False
    assert read_output({"output": "plain text"}) is None and read_output({"output": "[1, 2"}) is None
    assert path_text(("a", 2, "b")) == "a[2].b" and path_text(("switch type",)) is None and path_text(()) is None


def test_damage_rules_parse_glob_and_keep_one_unit():
    rule = parse_damage("exchange*=250:USD exchanged in error")
    assert (rule.pattern, rule.amount, rule.unit) == ("exchange*", 250.0, "USD exchanged in error")
    assert rule.matches("exchange_delivered_order_items") and rule.matches("shop.Exchange_items")
    rules, defaulted = damage_rules([parse_damage("cancel*=1"), parse_damage("refund*=2:USD")])
    assert not defaulted and {r.unit for r in rules} == {"USD"}
    assert damage_rules([])[0][0].unit == DEFAULT_UNIT and damage_rules([])[1]
    for bad in ("cancel*", "=3", "x=abc", "x=0", "x=-1", "x=nan"):
        with pytest.raises(ProjectionError, match="--damage"):
            parse_damage(bad)
    with pytest.raises(ProjectionError, match="one damage unit"):
        damage_rules([parse_damage("a*=1:USD"), parse_damage("b*=1:EUR")])


def test_a_damage_amount_play_shows_as_another_number_is_refused_at_the_option() -> None:
    """`--damage 'x=12.345:records'` was accepted, and `warroom validate` then refused the drill it wrote (the
    amount shows as 12.35): the same check where the option is read, naming it. A USD amount shows its cents and
    more (`$0.001`), so there 0.001 stands."""
    with pytest.raises(ProjectionError, match=r"--damage x=12.345: the amount shows as 12.35"):
        damage_rules([parse_damage("x=12.345:records")])
    with pytest.raises(ProjectionError, match=r"--damage x=0.001: the amount shows as 0 "):
        damage_rules([parse_damage("x=0.001")])
    assert damage_rules([parse_damage("x=0.001:USD")])[0][0].amount == 0.001
    assert damage_rules([parse_damage("x=12.35:records")])[0][0].amount == 12.35


@pytest.mark.parametrize(("tool", "writes"), [
    ("cancel_pending_order", True), ("crm.update_ticket", True), ("erp_close_month", True), ("createTicket", True),
    ("idp.unlock_users", True), ("get_return_policy", False), ("list_orders", False), ("think", False),
    ("transfer_to_human_agents", False), ("calculate", False),
])
def test_write_like_tool_names(tool: str, writes: bool):
    assert is_write_like(tool) is writes


def test_the_reading_window_releases_the_damage_later_only_when_needed():
    events = [{"id": f"e{i}", "t": float(t)} for i, t in enumerate((0, 10, 12, 14))]
    same, added = reading_window(events, 1, 3, 3.0)
    assert added == 0 and same is events and deadline_for(events, 3) == 13.0
    later, added = reading_window(events, 1, 3, 10.0)
    assert [e["t"] for e in later] == [0.0, 10.0, 12.0, 14.0 + added]
    assert deadline_for(later, 3) >= 10.0 + 10.0 and deadline_for(later, 3) < later[3]["t"]
    assert [e["t"] for e in shift_from(events, 2, 1.25)] == [0.0, 10.0, 13.2, 15.2]  # a tenth of a second at most


def test_difficulty_grows_with_depth_and_size_and_falls_when_a_later_report_contradicts():
    _, made = change("wrong-record", trace(ORDER))
    assert estimate("wrong-record", made, 200, "") == 3
    assert estimate("wrong-record", made, 7000, "") == 5
    assert estimate("wrong-record", made, 200, "Returning items of #W2890441 now.") == 2
    assert estimate("rate-limit-swallowed", made, 10, "Returning items of #W2890441 now.") == 1


def test_unit_confusion_changes_the_currency_records_state_and_never_contradicts_them():
    # records that say their own currency: each that said EUR now says CAD, and no second currency is added beside
    # them (it added "currency": "CAD" at the top, beside 3 items that still said EUR)
    stock = {"items": [{"sku": f"S{i}", "price": 10 + i, "currency": "EUR"} for i in range(3)]
             + [{"sku": "S9", "price": 4, "currency": "GBP"}], "warehouse": "MUC-1"}
    view, made = change("unit-confusion", trace(stock))
    assert "currency" not in made.value and made.value["warehouse"] == "MUC-1"
    assert [i["currency"] for i in made.value["items"]] == ["CAD", "CAD", "CAD", "GBP"]
    assert [i["price"] for i in made.value["items"]] == [10, 11, 12, 4]
    assert made.evidence_path == made.field == "items[0].currency" and made.depth == 3
    assert value_at(view.form.dump(made.value), made.evidence_path) == (True, "CAD")
    assert "are in CAD (items[0].currency = \"CAD\"), not EUR" in made.debrief
