"""Issue 30's leftovers of the eleventh stop: warroom's own messages name a long path by its start, end and length,
check messages write times exactly, a drill set's top-level merge key, snake_case OTLP JSON, and picker groups
that a drill's tag cannot imitate."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from core_support import make_drill

from warroom.cli import main
from warroom.core.author import run_checks
from warroom.core.text import shown_path

#: A name of 5,000 characters under a real folder: every look at it fails with ENAMETOOLONG.
LONG = "y" * 5000


def _long(tmp_path: Path) -> str:
    return str(tmp_path / LONG)


def _cut(tmp_path: Path) -> str:
    name = _long(tmp_path)
    return f"{name[:12]}…{name[-4:]} ({len(name):,} characters)"


def test_shown_path_names_a_short_path_whole_and_a_long_one_by_its_ends() -> None:
    assert shown_path("/tmp/a\nb.yaml") == "/tmp/a\\x0ab.yaml"
    assert shown_path(Path("/x") / ("z" * 300)) == "/x/zzzzzzzzz…zzzz (303 characters)"


@pytest.mark.parametrize("args", [
    ["--data-dir", "{long}", "scores"],
    ["run", "{long}"],
    ["score", "{long}", "{long}"],
    ["validate", "{long}"],
    ["migrate", "{long}"],
    ["schema", "--output", "{long}"],
])
def test_a_very_long_path_is_named_cut_in_warrooms_own_messages(tmp_path: Path, args: list[str]) -> None:
    # was: the 5,000-character name echoed whole ("cannot use the data directory /tmp/...yyyy...: File name too long")
    result = CliRunner().invoke(main, [a.format(long=_long(tmp_path)) for a in args])
    assert result.exit_code != 0
    assert LONG not in result.output
    assert _cut(tmp_path) in result.output


def test_import_out_with_a_very_long_path_names_it_cut(tmp_path: Path) -> None:
    source = tmp_path / "run.json"
    source.write_text('{"history": [], "is_correct": true}', encoding="utf-8")
    result = CliRunner().invoke(main, ["import", "who-and-when", str(source), "--out", _long(tmp_path)])
    assert result.exit_code == 2
    assert result.output.splitlines()[-1] == f"Error: {_cut(tmp_path)}: File name too long"


def test_check_writes_close_times_exactly_not_rounded_to_six_digits() -> None:
    # was: "the earliest evidence comes at 10 s, after the deadline (10 s)" for a deadline of 9.9999999 s
    key = make_drill().answer_key.model_dump()  # evidence e03 at 10 s
    key["deadline"] = 9.9999999
    report = run_checks(make_drill(answer_key=key))
    assert "cannot be won: the earliest evidence comes at 10 s, after the deadline (9.9999999 s)" in report.problems


@pytest.mark.parametrize("head", [
    "<<: {set: w1, title: W1}\n",
    "<<: &base {set: w1, title: W1}\n",
    "<<: [{set: w1}, {title: W1}]\n",
])
def test_a_drill_set_written_with_a_top_level_merge_key_is_a_drill_set(tmp_path: Path, head: str) -> None:
    # was: "this file is neither a drill (...) nor a drill set (no `set` key)"
    from warroom.core.load import DrillLoadError, is_drill_set_text, load_drill

    path = tmp_path / "week.yaml"
    text = head + "drills: [a.yaml]\n"
    path.write_text(text, encoding="utf-8")
    assert is_drill_set_text(text)
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert "neither a drill" not in result.output
    assert result.output.splitlines()[-1] == "1 drill set checked: 0 valid, 1 invalid (1 problem)"
    assert f"no drill file '{tmp_path / 'a.yaml'}'" in result.output
    run = CliRunner().invoke(main, ["run", str(path)])
    assert f"is a drill set: play it with `warroom --set {path}`" in run.output
    with pytest.raises(DrillLoadError) as caught:
        load_drill(path)
    assert "this file is a drill set, not a drill (its top-level `set` key)" in str(caught.value.problems[0])


def test_a_quoted_merge_like_key_brings_in_nothing() -> None:
    from warroom.core.load import is_drill_set_text

    assert not is_drill_set_text('"<<": {set: w1}\ndrills: [a.yaml]\n')


@pytest.mark.parametrize("wrapped", [False, True], ids=["document", "tempo-v2-answer"])
def test_snake_case_otlp_json_is_refused_saying_so_and_what_to_write(tmp_path: Path, wrapped: bool) -> None:
    # was: "not OTLP/JSON traces: an object without `resourceSpans`" (Grafana Tempo's v2 answer, {"trace": {...}},
    # still said so after the plain document was named)
    import json

    span = {"trace_id": "5b8efff798038103d269b633813fc60c", "span_id": "eee19b7ec3c1b174", "name": "plan",
            "start_time_unix_nano": "1000", "end_time_unix_nano": "2000"}
    doc = {"resource_spans": [{"resource": {"attributes": []}, "scope_spans": [{"spans": [span]}]}]}
    source = tmp_path / "snake.json"
    source.write_text(json.dumps({"trace": doc} if wrapped else doc), encoding="utf-8")
    result = CliRunner().invoke(main, ["import", "otel", str(source), "--out", str(tmp_path / "out")])
    assert result.exit_code == 1
    assert result.output.splitlines()[0] == (
        f"{source}:1:1: not OTLP/JSON traces: an object with `resource_spans`: the snake_case field names protobuf "
        "writes with `preserving_proto_field_name=True`, which OTLP/JSON does not allow; write the camelCase form "
        "(`resourceSpans`, `scopeSpans`, `traceId`), `MessageToJson`'s default (drop `preserving_proto_field_name`)")


def test_a_domain_that_reads_as_a_reserved_group_is_labelled_with_its_prefix() -> None:
    from warroom.tui.logic import domain_label

    assert [domain_label(d) for d in ("other", "Others", "cannot load", "Cannot-load", "start here", "tutorial")] == [
        "domain:other", "domain:Others", "domain:cannot load", "domain:Cannot-load", "domain:start here",
        "domain:tutorial"]
    assert domain_label("domain:other") == "domain:domain:other"  # never the label of the tag domain:other
    assert domain_label("billing") == "billing"


def test_the_sweep_cuts_a_long_path_in_import_store_and_annotate_messages(tmp_path: Path) -> None:
    # was: "/tmp/...yyyy...: no such file or folder" (import), "cannot read /tmp/...yyyy...: ..." (store import)
    cut = _cut(tmp_path)
    result = CliRunner().invoke(main, ["import", "chat", _long(tmp_path), "--out", str(tmp_path / "out")])
    assert LONG not in result.output and cut in result.output
    args = ["--data-dir", str(tmp_path / "data"), "store", "import", "--all-trainees", _long(tmp_path)]
    result = CliRunner().invoke(main, args)
    assert LONG not in result.output and cut in result.output


def test_exact_seconds_keeps_close_times_apart_and_drops_float_noise() -> None:
    from warroom.core.text import exact_seconds

    assert exact_seconds(7.1234567) != exact_seconds(7.1234565)
    assert exact_seconds(7.1234567) == "7.1234567 s"
    assert exact_seconds(28 + (60.4 - 28) / 2) == "44.2 s"  # 44.199999999999996 computed
    assert exact_seconds(10.0) == "10 s"


def test_import_names_a_system_refused_out_folder_cut_and_without_python_text():
    """``warroom import chat F --out /proc/<250 characters>``: the folder cannot be made (the system says no such
    file) and the message was Python's ``[Errno 2] No such file or directory: '/proc/qqq…'`` with the name whole; it
    is ``NAME: reason`` with the name cut, as every other path message."""
    name = "/proc/" + "q" * 250
    result = CliRunner().invoke(main, ["import", "chat", "tests/fixtures/chat/refund.json", "--out", name])
    assert result.exit_code == 2, result.output
    assert "/proc/qqqqqq…qqqq (256 characters): No such file or directory" in result.stderr, result.stderr
    assert "Errno" not in result.stderr and "q" * 200 not in result.stderr
