"""A sixth fresh hostile campaign on issue 30's promises, on the reading and authoring inputs (text encodings, YAML
features, ids that collide, times at the float limits, the importers fed recorded fixtures mutated field by field,
odd paths and streams): each case a hostile author or a faulty world found, with the right behaviour."""

from __future__ import annotations

import json
from pathlib import Path

import yaml
from click.testing import CliRunner
from locations import TESTS

from warroom.cli import main

FIXTURES = TESTS / "fixtures"


def _tool_call_ids(drill_file: Path) -> list[str]:
    data = yaml.safe_load(drill_file.read_text())
    return [e["id"] for e in data["trace"] if e["kind"] == "tool_call"]


def test_a_chat_call_id_ending_in_a_newline_is_replaced_by_a_made_up_id_not_a_failed_import(tmp_path: Path):
    """A call id such as ``"call_lookup1\\n"`` passed the importer's id check (Python's ``$`` matches before a final
    newline), became the tool call's event id, and the drill made from the trace did not validate: the whole trace
    failed to import. A call id that is not an id is replaced by the made-up ``mNNN-cJ``, as any other."""
    record = json.loads((FIXTURES / "chat" / "refund.json").read_text())
    for message in record["messages"]:
        for call in message.get("tool_calls") or []:
            call["id"] += "\n"
        if message.get("tool_call_id"):
            message["tool_call_id"] += "\n"
    source = tmp_path / "refund.json"
    source.write_text(json.dumps(record))
    result = CliRunner().invoke(main, ["import", "chat", str(source), "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    (drill,) = (tmp_path / "out").glob("*.yaml")
    assert _tool_call_ids(drill) == ["m002-c1", "m002-c2", "m005-c1"]
    results = [e["call"] for e in yaml.safe_load(drill.read_text())["trace"] if e["kind"] == "tool_result"]
    assert results == ["m002-c2", "m002-c1", "m005-c1"]


def test_an_otel_tool_call_id_ending_in_a_newline_is_replaced_by_a_made_up_id_not_a_failed_import(tmp_path: Path):
    """The span importers had the same id check: a ``gen_ai.tool.call.id`` ending in a newline failed the trace."""
    record = json.loads((FIXTURES / "otel" / "current.json").read_text())
    for span in record["resourceSpans"][0]["scopeSpans"][0]["spans"]:
        for attribute in span.get("attributes", []):
            if attribute["key"] == "gen_ai.tool.call.id":
                attribute["value"] = {"stringValue": attribute["value"]["stringValue"] + "\n"}
    source = tmp_path / "current.json"
    source.write_text(json.dumps(record))
    result = CliRunner().invoke(main, ["import", "otel", str(source), "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    (drill,) = (tmp_path / "out").glob("*.yaml")
    # unmutated, the calls are call_scout, call_inv, call_cred, call_pay, call_close (the two in the middle are named
    # by the planner's messages, which keep theirs); the three whose span id ends in a newline get their event's id
    assert _tool_call_ids(drill) == ["e0004", "call_inv", "call_cred", "e0013", "e0016"]


def _healthy_run_with_keys_ending_in_a_newline(tmp_path: Path) -> Path:
    """The recorded tau-bench healthy run with its results' ``order_id``, ``currency`` and ``items`` keys ending in a
    newline, imported: the drill `warroom project` reads."""
    record = json.loads((FIXTURES / "projection" / "tau-retail-healthy.json").read_text())

    def renamed(value: object) -> object:
        if isinstance(value, dict):
            return {(k + "\n" if k in ("order_id", "currency", "items") else k): renamed(v) for k, v in value.items()}
        return [renamed(v) for v in value] if isinstance(value, list) else value

    for message in record[0]["traj"]:  # a tau-bench file: a list of tasks, each with its trajectory
        if message.get("role") == "tool" and str(message.get("content", "")).startswith("{"):
            message["content"] = json.dumps(renamed(json.loads(message["content"])))
    source = tmp_path / "healthy.json"
    source.write_text(json.dumps(record))
    result = CliRunner().invoke(main, ["import", "chat", str(source), "--out", str(tmp_path / "healthy")])
    assert result.exit_code == 0, result.output
    (drill,) = (tmp_path / "healthy").glob("*.yaml")
    return drill


def test_project_never_offers_a_field_whose_key_ends_in_a_newline_as_the_path_to_change(tmp_path: Path):
    """A result key ``"order_id\\n"`` passed as a field path (``$`` matches before a final newline): `warroom project
    --list` said wrong-record was projectable at m011, and projecting it failed with pydantic's pattern error
    (``answer_key.evidence[0].EvidenceRef.path: String should match pattern ...``). A key that a path cannot spell
    is not a field to change: the template does not apply there, said in words."""
    from warroom.core.projection._output import path_text

    assert path_text(("order_id\n",)) is None and path_text(("items", 0, "sku\n")) is None
    drill = _healthy_run_with_keys_ending_in_a_newline(tmp_path)
    listing = CliRunner().invoke(main, ["project", str(drill), "--list", "--format", "json"])
    assert listing.exit_code == 0, listing.output
    sites = json.loads(listing.output)
    at_m011 = {s["template"] for s in sites if s["event"] == "m011"}
    assert "wrong-record" not in at_m011 and "unit-confusion" in at_m011, at_m011
    result = CliRunner().invoke(main, ["project", str(drill), "--template", "wrong-record", "--at", "m011",
                                       "--out", str(tmp_path / "out")])
    assert result.exit_code == 1
    assert "template wrong-record does not apply at m011: its result is not a mapping result that repeats an id" \
        in result.output, result.output
    assert "should match pattern" not in result.output


def _kyc_with_repeats(counts: dict[int, int]) -> str:
    """The bundled kyc-deceased-director drill with trace event ``i`` repeated ``counts[i]`` times, all at once."""
    data = yaml.safe_load((Path(__file__).parents[2] / "drills" / "kyc-deceased-director.yaml").read_text())
    for i, count in counts.items():
        data["trace"][i]["repeat"] = {"count": count, "interval": 0}
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True)


def test_a_few_lines_cannot_repeat_an_event_a_million_times():
    """``repeat: {count: 1000000}`` on one event of a 12 KB drill was valid: each replay laid out and released a
    million entries, and `warroom check` (about 130 replays) would run half an hour or more (100,000 took 92 s).
    An event repeats at most 10,000 times, and a drill's events repeat at most 20,000 times in all (after each
    repeated event's first); the events written do not count (a large drill of written events loads:
    tests/unit/test_shape_drills.py)."""
    from warroom.core.load import DrillLoadError, load_drill_text

    try:
        load_drill_text(_kyc_with_repeats({9: 1_000_000}), "kyc.yaml")
    except DrillLoadError as e:
        message = "`repeat.count` of trace event `e06` must be at most 10,000, got `1000000`"
        assert [p.message for p in e.problems] == [message]
    else:
        raise AssertionError("a million repetitions loaded")
    try:
        load_drill_text(_kyc_with_repeats({9: 10_000, 13: 9_000, 16: 2_000}), "kyc.yaml")
    except DrillLoadError as e:
        (problem,) = e.problems
        assert problem.message.startswith("the drill's events repeat more than 20,000 times in all here"), problem
    else:
        raise AssertionError("20,997 repetitions after the first loaded")
    assert load_drill_text(_kyc_with_repeats({9: 10_000, 13: 9_000}), "kyc.yaml").trace[9].repeat.count == 10_000


def test_a_path_under_the_home_of_no_such_user_is_a_missing_file_not_a_traceback(tmp_path: Path, monkeypatch):
    """``warroom validate ~nouser/x.yaml`` (and check, cost, run, ``--data-dir``, ``--store sqlite:///~nouser/...``,
    ``scores --set``, ``report --set``) ended in Python's ``RuntimeError: Could not determine home directory.``: the
    ``~user`` of no user is kept as written, as a shell keeps it, and reported as the path that does not exist."""
    from warroom.core.files import expand_home

    monkeypatch.chdir(tmp_path)
    assert expand_home("~nouser-c6/x.yaml") == Path("~nouser-c6/x.yaml")
    assert expand_home("~/x.yaml") == Path.home() / "x.yaml"
    for command, said in (("validate", "no file, folder or drill id"), ("check", "no file, folder or drill id"),
                          ("cost", "no drill file or drill id")):
        result = CliRunner().invoke(main, [command, "~nouser-c6/x.yaml"])
        assert result.exit_code == 2 and isinstance(result.exception, SystemExit), result.output
        assert f"{said} '~nouser-c6/x.yaml'" in result.output, result.output
    result = CliRunner().invoke(main, ["scores", "--set", "~nouser-c6/w.set.yaml"])
    assert "no drill set file '~nouser-c6/w.set.yaml'" in result.output and result.exit_code == 2, result.output
    result = CliRunner().invoke(main, ["--data-dir", "~nouser-c6/data", "scores"])
    assert result.exit_code == 0 and "No sessions recorded yet in ~nouser-c6/data." in result.output, result.output


def test_a_variants_names_cannot_blow_a_small_drill_up_to_a_huge_variant():
    """A name found 5,000 times in a drill of 160 KB, with choices of 20,000 characters, was valid: every session's
    variant held 100 MB of text (a billion laughs through ``variants.names``). A phrasing's choice is renamed when it
    is played, so the places a name is found there count too."""
    from warroom.core.load import DrillLoadError, load_drill_text
    from warroom.core.variants import apply_variant

    base = yaml.safe_load((Path(__file__).parents[2] / "drills" / "late-delivery-replies.yaml").read_text())

    def loads(places_in_trace: int, places_in_phrasing: int, choice_length: int) -> str | int:
        data = json.loads(json.dumps(base))
        event = next(e for e in data["trace"] if "content" in e)
        event["content"] += " svc-helpdesk-bot" * places_in_trace
        data["variants"]["phrasings"][1]["choices"][0]["content"] += " svc-helpdesk-bot" * places_in_phrasing
        data["variants"]["names"][0]["choices"] = ["Z" * choice_length + str(i) for i in range(3)]
        try:
            drill = load_drill_text(yaml.safe_dump(data, sort_keys=False, width=10**9), "v.yaml")
        except DrillLoadError as e:
            (problem,) = e.problems
            assert problem.message.startswith("the names' choices make a variant more than 1,000,000 characters"), e
            return problem.message
        return max(sum(len(getattr(e, "content", "") or "") for e in apply_variant(drill, s).trace) for s in range(8))

    assert isinstance(loads(5000, 0, 20_000), str)
    assert isinstance(loads(0, 5000, 400), str)  # the name 5,000 times in one phrasing's choice
    longest = loads(5000, 0, 150)  # 750,000 characters more: allowed
    assert isinstance(longest, int) and 750_000 < longest < 1_000_000, longest


def test_an_amount_with_a_huge_bound_or_many_decimals_is_a_problem_at_its_value_not_a_traceback():
    """``variants.amounts`` with ``max: 1e308`` and one decimal (the draw's steps overflow to infinity) or a text
    written with 400 decimals (``10**400`` as a float) ended `warroom validate` in an OverflowError traceback."""
    from warroom.core.load import DrillLoadError, load_drill_text

    base = yaml.safe_load((Path(__file__).parents[2] / "drills" / "late-delivery-replies.yaml").read_text())

    def problems(text: str, low: float, high: float) -> list[str]:
        data = json.loads(json.dumps(base))
        next(e for e in data["trace"] if "content" in e)["content"] += f" {text}"
        data["variants"]["amounts"] = [{"text": text, "min": low, "max": high}]
        try:
            load_drill_text(yaml.safe_dump(data, sort_keys=False, width=10**9), "v.yaml")
        except DrillLoadError as e:
            return [p.message for p in e.problems]
        return []

    assert problems("48.2", 0.0, 1e308) == [
        "`max` of item of `amounts` #1 must be at most 1,000,000,000,000,000, got `1.0e+308`"]
    assert problems("48.2", -1.7976931348623157e308, 1.0) == [
        "`min` of item of `amounts` #1 must be at least -1,000,000,000,000,000, got `-1.7976931348623157e+308`"]
    assert problems("48." + "0" * 400, 1.0, 99.0) == [
        "an amount is written with at most 6 decimals (a variant draws it in steps of its last one), this one has "
        "400: write fewer"]
    assert problems("48.200000", 1.0, 1e15) == []


def test_a_repeated_event_cannot_go_on_past_the_latest_drill_time():
    """Every ``t`` is at most 1,000,000 s of drill time, but ``repeat: {count: 10000, interval: 1000000}`` made an
    event repeat until about 10,000,000,000 s (317 years at 1x): the last repetition must come by that time too."""
    from warroom.core.load import DrillLoadError, load_drill_text

    data = yaml.safe_load(_kyc_with_repeats({}))
    data["trace"][23]["repeat"] = {"count": 10_000, "interval": 1_000_000}
    try:
        load_drill_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), "kyc.yaml")
    except DrillLoadError as e:
        assert [p.message for p in e.problems] == [
            "the last repetition of this event comes at 9,999,000,110 s of drill time, after the latest drill time "
            "(1,000,000 s): repeat it fewer times or closer together"]
    else:
        raise AssertionError("a repetition at 10,000,000,000 s loaded")
    data["trace"][23]["repeat"] = {"count": 10_000, "interval": 99}
    assert load_drill_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), "kyc.yaml").trace[23].repeat
