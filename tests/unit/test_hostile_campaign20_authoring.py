"""The twentieth hostile campaign, on the author's tools (drills written by hand, validate, check, migrate, retime,
project, variants, drill sets, annotate): each case it found, with the right behaviour."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest


def _full(tmp_path: Path, extra: str = "") -> Any:
    from warroom.core.author import example_text
    from warroom.core.load import load_drill

    path = tmp_path / "full.yaml"
    path.write_text(example_text("full", "full", "drill.schema.json") + extra, encoding="utf-8")
    return load_drill(path)


def _with_output(drill: Any, event_id: str, output: Any, twin: bool = False) -> Any:
    """``drill`` (no twin unless ``twin``) with the output of its tool result ``event_id`` replaced."""
    trace = [e.model_copy(update={"output": output}) if e.id == event_id else e for e in drill.trace]
    return drill.model_copy(update={"trace": trace, **({} if twin else {"twin": None})})


@pytest.mark.parametrize("sound", [
    {"currency": "USD"}, {"partial": False}, {"errors": []}, {"source": "primary"}, {"cache_age_s": 0},
    {"next_cursor": None, "total_count": 2}, {"cache_age_s": 0, "as_of": "2031-01-01"},
    {"items_timed_out": False}, {"write_errors": [], "matched_count": 2, "modified_count": 2},
])
def test_a_hand_written_runs_sound_looking_field_makes_another_run(tmp_path: Path, sound: dict[str, Any]) -> None:
    """The run fingerprint dropped the fields a projection's twin adds to say a result is sound (`currency`,
    `partial: false`, `total_count` beside a null cursor, `as_of` beside `cache_age_s: 0` ...) from every tool
    result of every run: two hand-written runs differing only in such a field (a price in USD, the same price in
    EUR) were one run. Only the fields a twin's `replace` gives are left out."""
    from warroom.core.library import run_events, run_fingerprint

    drill = _full(tmp_path)
    one = _with_output(drill, "e15", {"paid": 20})
    other = _with_output(drill, "e15", {"paid": 20, **sound})
    assert run_fingerprint(one) != run_fingerprint(other)
    assert run_events(one) != run_events(other)
    if "currency" in sound:
        eur = _with_output(drill, "e15", {"paid": 20, "currency": "EUR"})
        assert run_fingerprint(eur) != run_fingerprint(other)


def test_a_twins_sound_fields_are_still_left_out_of_its_replaced_result(tmp_path: Path) -> None:
    """What a twin's `replace` adds to say its result is sound stays out of the fingerprint: a fault drill whose
    twin gives the result with `next_cursor: null` and `total_count` is of the run without them."""
    from warroom.core.library import run_fingerprint
    from warroom.core.model import EventChange

    drill = _full(tmp_path)
    assert drill.twin is not None
    healthy = {"invoices": 40, "returned": 20}
    change = EventChange.model_validate({"output": {**healthy, "total_count": 20, "next_cursor": None}})
    twin = drill.twin.model_copy(update={"replace": {**drill.twin.replace, "e06": change}})
    projected = drill.model_copy(update={"twin": twin})
    from warroom.core.model import twin_of

    source = twin_of(drill.model_copy(update={"twin": drill.twin.model_copy(update={"replace": {
        **drill.twin.replace, "e06": EventChange.model_validate({"output": healthy})}})}))
    assert run_fingerprint(projected) == run_fingerprint(source)


def test_jitter_moves_a_probes_answer_by_time_with_the_event_after_it(tmp_path: Path) -> None:
    """Variant jitter moved every trace event but left a probe's earlier answer by time (`until: 13`, written for
    the matcher's retries at 13 s) where it was: a variant releasing the retries at 12.1 s kept answering "it has
    run once and failed" after them, one releasing them at 13.9 s answered as though they were out before they
    were. The `until` moves with the event after it (as `warroom project` and the re-timing move it)."""
    from warroom.core.author import example_text
    from warroom.core.load import load_drill
    from warroom.core.variants import apply_variant

    text = example_text("full", "full", "drill.schema.json").replace("{until_event: e10,", "{until: 13,")
    path = tmp_path / "full.yaml"
    path.write_text(text + "variants:\n  jitter: {max_seconds: 1}\n", encoding="utf-8")
    drill = load_drill(path)
    moved = 0
    for seed in range(12):
        variant = apply_variant(drill, seed)
        retries = next(e.t for e in variant.trace if e.id == "e10")
        [answer] = next(p for p in variant.probes if p.id == "p2").answers
        assert answer.until == retries, seed
        moved += retries != 13
    assert moved


def _basic_text(**moves: float) -> str:
    """`warroom new`'s basic skeleton (id ``basic``), with the ``t`` of the events named moved."""
    import re

    from warroom.core.author import skeleton_text

    text = skeleton_text("basic")
    for event_id, t in moves.items():
        text, n = re.subn(rf"(  - id: {event_id}\n    t: )[0-9.]+\n", rf"\g<1>{t:g}\n", text)
        assert n == 1, event_id
    return text


def test_evidence_released_when_the_drill_starts_fails_check_by_rule_1(tmp_path: Path) -> None:
    """A drill whose earliest evidence comes at 0 s (the query and its failed result at the drill's first moment,
    after a planner call of no step) passed `warroom check` with only the newest-guess warning: the evidence is on
    screen before the trainee has read anything, which fairness rule 1 (docs/authoring.md) fails ("release the
    earliest evidence after the first trace event"), but the rule judged only whether the trigger-happy trainee's
    first escalation, of the planner call's step, was a hit. Check fails it by rule 1, at the evidence; the advice
    followed (the result a second later) passes."""
    from click.testing import CliRunner

    from warroom.cli import main

    path = tmp_path / "basic.yaml"
    path.write_text(_basic_text(e02=0, e03=0), encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(path)])
    assert result.exit_code == 1 and "FAIL basic" in result.output, result.output
    line = next(n for n, text in enumerate(path.read_text().splitlines(), 1) if "evidence: [e03]" in text)
    assert (f"basic.yaml:{line}:13: fairness rule trigger-happy-contains: the earliest evidence, e03, is out at 0 s, "
            "with the first trace event: it is on screen when the drill starts") in result.output
    assert "Release the earliest evidence after the first trace event" in result.output
    path.write_text(_basic_text(e02=0, e03=1), encoding="utf-8")
    followed = CliRunner().invoke(main, ["check", str(path)])
    assert "trigger-happy-contains" not in followed.output, followed.output


@pytest.mark.parametrize(("written", "unit", "shown"), [
    ("0.001", "wrong reports published", "0"), ("12.345", "wrong reports published", "12.35"),
    ("12.345", "USD sent in error", "$12.35")])
def test_a_damage_amount_the_meter_would_show_otherwise_is_refused(
        tmp_path: Path, written: str, unit: str, shown: str) -> None:
    """A damage amount of 0.001 (or 12.345) validated, and play showed it as the damage meter and the scorecard
    show every amount, to two decimals: "damage 0 of 0", a containment that saved "0". Validate reads the amounts as
    play shows them, and refuses one shown as another number, at the amount."""
    from click.testing import CliRunner

    from warroom.cli import main

    text = _basic_text().replace("{event: e07, amount: 1,", f"{{event: e07, amount: {written},")
    text = text.replace('unit: "wrong reports published"', f'unit: "{unit}"')
    path = tmp_path / "basic.yaml"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", str(path)])
    line = next(n for n, t in enumerate(text.splitlines(), 1) if f"amount: {written}," in t)
    column = text.splitlines()[line - 1].index(written) + 1
    assert result.exit_code == 1, result.output
    assert (f"basic.yaml:{line}:{column}: damage amount {written} shows as {shown} on the damage meter and the "
            "scorecard") in result.output


def test_a_set_written_with_id_is_one_problem_in_one_wording_at_the_id_key(tmp_path: Path) -> None:
    """A drill set written with `id:` for `set:` was caught twice, by two predicates with two wordings (the drill
    loader's "looks like a drill set ... without its `set` key", the drill-set loader's "this drill set has no
    `set` key"), both at the file's first line whatever line the `id:` was on. One predicate, one message, at the
    `id` key."""
    from click.testing import CliRunner

    from warroom.cli import main

    path = tmp_path / "week-1.set.yaml"
    path.write_text("# week 1\ntitle: Week 1\n  \nid: week-1\ndrills:\n  - duplicate-charge-refunds\n",
                    encoding="utf-8")
    env = {"WARROOM_DATA_DIR": str(tmp_path / "data"), "WARROOM_CACHE_DIR": str(tmp_path / "cache")}
    message = (f"{path}:4:1: this file looks like a drill set (a `drills` list) without its `set` key: a drill set "
               "names itself with `set: ID`, not `id: ID` (docs/drill-sets.md)")
    validated = CliRunner().invoke(main, ["validate", str(path)], env=env)
    listed = CliRunner().invoke(main, ["scores", "--set", str(path)], env=env)
    assert validated.exit_code == listed.exit_code == 1
    assert message in validated.output and message in listed.output, (validated.output, listed.output)


@pytest.mark.parametrize(("old", "new", "where"), [
    ('title: "Weekly signup report"', 'title: "Weekly signup report (error flag ignored)"', "title"),
    ("objective: Signups per plan for the last 7 days from the warehouse, with a total.",
     "objective: Signups per plan for the last 7 days; watch for error_flag_ignored.", "plan step s1's objective"),
    ("title: Post to Slack", "title: Post to Slack (wrong reports published)", "plan step s3's title"),
])
def test_a_title_or_plan_step_that_names_the_fault_is_warned_about_as_the_briefing_is(
        tmp_path: Path, old: str, new: str, where: str) -> None:
    """The title, the plan's step titles and objectives are shown before the debrief as the briefing is
    (docs/authoring.md: they "describe the task and the stakes, never the fault"), but only the briefing and the
    domain tags were searched for the fault kind's name or the damage unit: a plan objective saying
    `error_flag_ignored` validated without a word. Validate warns about each, at its line."""
    from click.testing import CliRunner

    from warroom.cli import main

    text = _basic_text()
    assert old in text
    text = text.replace(old, new)
    path = tmp_path / "basic.yaml"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", str(path)])
    line = next(n for n, t in enumerate(text.splitlines(), 1) if new in t)
    assert result.exit_code == 0, result.output
    assert f"basic.yaml:{line}:" in result.output and f"warning: {where} names the" in result.output, result.output


def test_a_distractor_that_repeats_the_evidence_is_refused(tmp_path: Path) -> None:
    """A distractor that says what the evidence says (the failed query retried, its result the same `ok: false`
    permission error, listed as a harmless retry) validated and passed check: a trainee who escalated the origin
    citing it, having read the fault in it, scored "right step, unsupported". Validate refuses it at the
    distractor; listed in `accepted_evidence` instead (the advice), it validates."""
    import copy

    import yaml
    from click.testing import CliRunner

    from warroom.cli import main

    data = yaml.safe_load(_basic_text())
    trace = data["trace"]
    at = next(i for i, e in enumerate(trace) if e["id"] == "e03")
    call = {**copy.deepcopy(trace[at - 1]), "id": "e03a", "t": 11}
    result = {**copy.deepcopy(trace[at]), "id": "e03b", "t": 12, "call": "e03a"}
    trace[at + 1:at + 1] = [call, result]
    data["distractors"].append({"event": "e03b", "why_harmless": "A retry of the query; harmless."})
    path = tmp_path / "basic.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    checked = CliRunner().invoke(main, ["validate", str(path)])
    assert checked.exit_code == 1
    assert ("distractor event `e03b` says what evidence event `e03` says (the same tool_result, but for its id and "
            "time)") in checked.output
    data["distractors"].pop()
    data["answer_key"]["accepted_evidence"].append("e03b")
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    assert CliRunner().invoke(main, ["validate", str(path)]).exit_code == 0


def test_a_twin_probe_that_names_no_probe_says_which_probes_there_are(tmp_path: Path) -> None:
    """`twin.probes` naming a probe the drill does not have (`p9` for `p1`) said only "no probe `p9`", with no
    did-you-mean for a two-character id and nothing to do: it names the drill's probes."""
    from click.testing import CliRunner

    from warroom.cli import main
    from warroom.core.author import example_text

    text = example_text("full", "full", "drill.schema.json").replace("    p1: {reveals:", "    p9: {reveals:")
    path = tmp_path / "full.yaml"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", str(path)])
    line = next(n for n, t in enumerate(text.splitlines(), 1) if t.startswith("    p9: {reveals:"))
    assert result.exit_code == 1
    assert (f"full.yaml:{line}:9: no probe `p9`: `twin.probes` gives what a probe of the drill reveals in the healthy "
            "run; name one of the drill's probes (p1, p2, p3)") in result.output, result.output


def test_annotate_saves_a_loop_drills_spend_and_budget_deadline_as_they_were(tmp_path: Path) -> None:
    """Author mode (`warroom annotate`) opened `warroom new --example loop` (damage by `spend`, a deadline `{budget:
    0.50}`) with both unset, listed the damage entries and the deadline as missing, and a save of a one-word change
    to the habit dropped `damage.spend` and the deadline: the saved drill no longer validated. Both are kept as the
    file has them; the save changes the habit's line only."""
    import difflib

    import yaml

    from warroom.core.author import example_text
    from warroom.core.author._annotatefile import open_for_annotation
    from warroom.core.author._keywrite import apply_draft
    from warroom.core.load import load_drill

    path = tmp_path / "loop.yaml"
    text = example_text("loop", "loop", "drill.schema.json")
    path.write_text(text, encoding="utf-8")
    draft = open_for_annotation(path).draft
    assert draft.missing() == []
    draft.habit += " Always."
    order = {e["id"]: i for i, e in enumerate(yaml.safe_load(text)["trace"])}
    saved = apply_draft(text, draft, order, str(path))
    changed = [line for line in difflib.ndiff(text.splitlines(), saved.splitlines()) if line[:1] in "+-"]
    assert len(changed) == 2 and changed[1].startswith("+   habit:") and changed[1].endswith(" Always.")
    path.write_text(saved, encoding="utf-8")
    key = load_drill(path).answer_key
    assert key is not None and key.damage.spend and key.deadline > 0


def test_an_adaptive_set_longer_than_its_attempts_allow_is_refused(tmp_path: Path) -> None:
    """An adaptive set of 4 drills with `attempts: 1` and `length: 6` validated, but a trainee can start at most 4
    sessions in it (a drill with no attempt left is never chosen): the set could never be complete. Validate
    refuses it at `length`; the advice followed (`length: 4`) validates."""
    from click.testing import CliRunner

    from warroom.cli import main

    text = ("set: a1\ntitle: A1\nattempts: 1\n"
            "drills: [late-delivery-replies, duplicate-charge-refunds, q1-access-review, clickstream-backfill]\n"
            "adaptive:\n  seed: 7\n  length: 6\n")
    path = tmp_path / "a1.set.yaml"
    path.write_text(text, encoding="utf-8")
    env = {"WARROOM_DATA_DIR": str(tmp_path / "data"), "WARROOM_CACHE_DIR": str(tmp_path / "cache")}
    result = CliRunner().invoke(main, ["validate", str(path)], env=env)
    assert result.exit_code == 1
    assert ("a1.set.yaml:7:11: `length` is 6 sessions, but a trainee can play at most 4 in this set (1 attempt on "
            "each of its 4 drills), so the set could never be complete: make `length` at most 4") in result.output
    path.write_text(text.replace("length: 6", "length: 4"), encoding="utf-8")
    assert CliRunner().invoke(main, ["validate", str(path)], env=env).exit_code == 0


def test_an_answer_held_until_an_event_moves_with_that_event_in_project_and_jitter() -> None:
    """An earlier answer by time holds until the event released at or after its `until` is out (asked at that
    event's time, the answer no longer applies). `warroom project` moved it with the event after that one (`t >
    until`), the jitter with that one (`t >= until`): one rule now, `ending_event`, used by both."""
    from warroom.core.model import ending_event
    from warroom.core.projection._engine import _answer_retimed

    assert ending_event(5.0, [1.0, 5.0, 8.0]) == 1 and ending_event(5.5, [1.0, 5.0, 8.0]) == 2
    assert ending_event(9.0, [1.0, 5.0, 8.0]) is None
    source = [{"id": "e1", "t": 1.0}, {"id": "e2", "t": 5.0}, {"id": "e3", "t": 8.0}]
    now = {"e1": 1.0, "e2": 5.0, "e3": 11.0}  # the clock stretched from e3 on: e2, out at 5 s, did not move
    assert _answer_retimed({"until": 5.0, "reveals": "not yet"}, source, now)["until"] == 5.0
    assert _answer_retimed({"until": 6.0, "reveals": "not yet"}, source, now)["until"] == 9.0


def test_a_distractor_with_the_evidences_output_for_another_call_is_not_the_evidence(tmp_path: Path) -> None:
    """The rule that a distractor must not say what evidence says compared a tool result without the call it
    answers: the same harmless output of another call (another query) was refused as the evidence repeated. A
    result says what its call asked too."""
    import copy

    import yaml
    from click.testing import CliRunner

    from warroom.cli import main

    data = yaml.safe_load(_basic_text())
    trace = data["trace"]
    at = next(i for i, e in enumerate(trace) if e["id"] == "e03")
    call = {**copy.deepcopy(trace[at - 1]), "id": "e03a", "t": 11}
    call["arguments"] = {**(call.get("arguments") or {}), "note": "another query"}
    result = {**copy.deepcopy(trace[at]), "id": "e03b", "t": 12, "call": "e03a"}
    trace[at + 1:at + 1] = [call, result]
    data["distractors"].append({"event": "e03b", "why_harmless": "Another query; harmless."})
    path = tmp_path / "basic.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    checked = CliRunner().invoke(main, ["validate", str(path)])
    assert "says what evidence event" not in checked.output
    assert checked.exit_code == 0, checked.output


def test_a_distractor_answering_another_request_in_the_evidences_words_is_not_the_evidence(tmp_path: Path) -> None:
    """The same rule read a tool result with its call but an approval's decision without its request: a harmless
    "Denied." of another request was refused as the evidence's "Denied." repeated. An answer says what it answers."""
    import yaml
    from click.testing import CliRunner

    from warroom.cli import main

    shape = Path(__file__).parent.parent / "fixtures" / "shapes" / "shape-07-approvals.yaml"
    data = yaml.safe_load(shape.read_text(encoding="utf-8"))
    trace = data["trace"]
    denial = next(e for e in trace if e["id"] == "e05")
    denial["content"] = "Denied."
    at = trace.index(denial) + 1
    trace[at:at] = [
        {"id": "e05a", "t": 11.5, "step": "s2", "agent": "ops", "kind": "approval", "decision": "requested",
         "content": "Also open tcp/8444 from 203.0.113.0/24 for the partner's staging?"},
        {**denial, "id": "e05b", "t": 11.8, "request": "e05a"},
    ]
    data["answer_key"]["evidence"] = ["e07", "e05"]
    data["distractors"].append({"event": "e05b", "why_harmless": "A staging port denied: nothing was applied."})
    path = tmp_path / f"{data['id']}.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    checked = CliRunner().invoke(main, ["validate", str(path)])
    assert "says what evidence event" not in checked.output
    assert checked.exit_code == 0, checked.output
    trace[at + 1]["request"] = "e04"  # the same words denying the same request: the evidence repeated
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    refused = CliRunner().invoke(main, ["validate", str(path)])
    assert "distractor event `e05b` says what evidence event `e05` says" in refused.output, refused.output
