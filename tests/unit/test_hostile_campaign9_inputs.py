"""A ninth fresh hostile campaign on issue 30's promises, on the reading and authoring inputs (traces recorded by
real frameworks and then edited: non-finite numbers, JSON text nested deep or holding what a drill cannot, captured
ingest bodies; drills in odd YAML; the authoring commands): each case a hostile author or a faulty world found, with
the right behaviour."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import yaml
from click.testing import CliRunner
from locations import TESTS

from warroom.cli import main
from warroom.core.load import load_yaml_text

FIXTURES = TESTS / "fixtures"
CHAT = FIXTURES / "chat" / "refund.json"
MULTIPART = FIXTURES / "frameworks" / "langsmith-multipart.txt"


def _import(importer: str, source: Path, out: Path) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["import", importer, str(source), "--out", str(out)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


def _only_problem_is_the_answer_key(drill: Path) -> None:
    result = CliRunner().invoke(main, ["validate", str(drill)])
    problems = [ln for ln in result.output.splitlines() if ln.startswith(str(drill))]
    assert len(problems) == 1 and "needs an answer_key" in problems[0], result.output


def _otlp_trace(value: str) -> str:
    """An OTLP/JSON trace of an agent, a model call and a tool call whose tool span carries ``value`` (raw JSON text)
    as an ``intValue`` attribute."""
    def attrs(**kv: object) -> list[dict[str, object]]:
        return [{"key": k, "value": {"stringValue": v}} for k, v in kv.items()]

    def span(sid: str, parent: str, name: str, start: int, attributes: list[dict[str, object]]) -> dict[str, object]:
        return {"traceId": "4bf92f3577b34da6a3ce929d0e0e4736", "spanId": sid, "parentSpanId": parent, "name": name,
                "startTimeUnixNano": str(1774000000 * 10**9 + start * 10**9),
                "endTimeUnixNano": str(1774000000 * 10**9 + (start + 1) * 10**9), "attributes": attributes}

    tool = attrs(**{"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "lookup",
                    "gen_ai.tool.call.id": "call_1", "gen_ai.tool.call.arguments": '{"q": 1}',
                    "gen_ai.tool.call.result": '{"rows": 3}'})
    tool.append({"key": "rows.count", "value": {"intValue": "SENTINEL"}})
    spans = [
        span("00f067aa0ba902b7", "", "invoke_agent a", 0, attrs(**{"gen_ai.operation.name": "invoke_agent",
                                                                    "gen_ai.agent.name": "a"})),
        span("00f067aa0ba902b8", "00f067aa0ba902b7", "chat m", 1, attrs(**{
            "gen_ai.operation.name": "chat", "gen_ai.request.model": "m",
            "gen_ai.output.messages": json.dumps([{"role": "assistant", "parts": [
                {"type": "tool_call", "id": "call_1", "name": "lookup", "arguments": {"q": 1}}]}])})),
        span("00f067aa0ba902b9", "00f067aa0ba902b7", "execute_tool lookup", 3, tool),
    ]
    doc = {"resourceSpans": [{"resource": {"attributes": attrs(**{"service.name": "s"})},
                              "scopeSpans": [{"scope": {"name": "x"}, "spans": spans}]}]}
    return json.dumps(doc).replace('"SENTINEL"', value)


def test_an_otlp_int_value_that_is_infinity_is_written_as_that_text_not_a_traceback(tmp_path: Path):
    """`{"intValue": Infinity}` (or `1e400`, or `NaN`: not JSON, but Python's json writes and reads them) in an
    OTLP/JSON attribute ended `warroom import otel` and `openinference` in an OverflowError traceback (`cannot convert
    float infinity to integer`). The value is read as the number it is (written as the text JSON writers use, as every
    non-finite number of a trace is, where a drill shows it), and the trace imports."""
    for literal in ("Infinity", "-1e400", "NaN"):
        source = tmp_path / "trace.json"
        source.write_text(_otlp_trace(literal), encoding="utf-8")
        out = tmp_path / literal
        status, output = _import("otel", source, out)
        assert status == 0, output
        assert "Traceback" not in output
        [drill] = out.glob("*.yaml")
        _only_problem_is_the_answer_key(drill)


def _chat_with_arguments(tmp_path: Path, arguments: str, name: str = "deep.json") -> Path:
    """The refund transcript with its first tool call's ``arguments`` replaced by the raw JSON ``arguments``."""
    data = json.loads(CHAT.read_text(encoding="utf-8"))
    calls = [m for m in data["messages"] if m.get("tool_calls")]
    calls[0]["tool_calls"][0]["function"]["arguments"] = "SENTINEL"
    path = tmp_path / name
    path.write_text(json.dumps(data).replace('"SENTINEL"', arguments), encoding="utf-8")
    return path


def test_tool_arguments_nested_deeper_than_a_drill_holds_are_written_as_their_json_text(tmp_path: Path):
    """A tool call's arguments nested 80 levels deep were written as they were: the import said the drill was written
    and checked, and `warroom validate` refused it (`nested too deeply: drill files allow at most 64 levels`); 500
    levels ended the import in `cannot import this trace (RecursionError: maximum recursion depth exceeded)`. A value
    nested deeper than 60 levels is written as its JSON text (the same characters the trainee reads), with a
    warning naming where."""
    for depth in (80, 500):
        source = _chat_with_arguments(tmp_path, '{"a":' * depth + "1" + "}" * depth, f"deep{depth}.json")
        out = tmp_path / f"out{depth}"
        status, output = _import("chat", source, out)
        assert status == 0, output
        assert "RecursionError" not in output and "cannot import" not in output
        warning = next(ln for ln in output.splitlines() if ": warning: " in ln)
        assert warning.startswith(f"{source}: warning: trace[")
        assert warning.endswith("nested deeper than 60 levels (a drill file holds 64): written as its JSON text")
        assert output.splitlines()[-2].endswith("1 file, 0 failed, 1 warning")
        [drill] = out.glob("*.yaml")
        _only_problem_is_the_answer_key(drill)


def test_a_deep_value_is_cut_at_the_level_the_drill_loader_allows(tmp_path: Path):
    """The value written as text is the one at level 61: the levels above it stay data, and the drill loads."""
    source = _chat_with_arguments(tmp_path, '{"a":' * 100 + "1" + "}" * 100)
    out = tmp_path / "out"
    assert _import("chat", source, out)[0] == 0
    [drill] = out.glob("*.yaml")
    data = yaml.safe_load(drill.read_text(encoding="utf-8"))
    arguments = next(ev["arguments"] for ev in data["trace"] if ev["kind"] == "tool_call")
    levels, value = 4, arguments  # the drill, trace, the event and the arguments are levels 1 to 4
    while isinstance(value, dict):
        value, levels = value["a"], levels + 1
    assert levels == 61 and isinstance(value, str)
    assert json.loads(value) == json.loads('{"a":' * 43 + "1" + "}" * 43)  # the 58th to the 100th


def _langfuse_arguments(tmp_path: Path, inner: str) -> Path:
    """The Langfuse OTel fixture with the `list_charges` tool's input (its arguments: JSON text in a string attribute)
    holding ``inner`` (raw JSON) under the key ``x``."""
    lines = (FIXTURES / "frameworks" / "langfuse-otel.jsonl").read_text(encoding="utf-8").splitlines()
    doc = json.loads(lines[0])
    [span] = [sp for sp in doc["resourceSpans"][0]["scopeSpans"][0]["spans"] if sp["name"] == "list_charges"]
    [value] = [a["value"] for a in span["attributes"] if a["key"] == "langfuse.observation.input"]
    value["stringValue"] = '{"order_id": "4417", "x": SENTINEL}'
    lines[0] = json.dumps(doc).replace("SENTINEL", json.dumps(inner)[1:-1])
    path = tmp_path / "lf.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_json_text_in_a_trace_value_holding_a_lone_surrogate_is_written_escaped(tmp_path: Path):
    """A Langfuse tool call's arguments (JSON text in a string attribute) holding `"\\ud800"` ended the import of
    its file in `cannot import this trace (UnicodeEncodeError: 'utf-8' codec can't encode character '\\ud800' ...)`:
    the file's own checks look at the file's JSON, and the text inside a value is decoded later. The surrogate is
    written as that escape, with a warning, and the drill is written."""
    source = _langfuse_arguments(tmp_path, '"a\\ud800b"')
    assert "a\\\\ud800b" in source.read_text(encoding="utf-8")  # the escape, inside the JSON text of a string
    out = tmp_path / "out"
    status, output = _import("langfuse", source, out)
    assert status == 0, output
    assert "UnicodeEncodeError" not in output and "cannot import" not in output
    assert "an unpaired surrogate, which is not a character: written as its escape" in output
    [drill] = out.glob("*.yaml")
    assert "a\\ud800b" in drill.read_text(encoding="utf-8")
    _only_problem_is_the_answer_key(drill)


def test_json_text_in_a_trace_value_holding_a_number_of_4100_digits_is_written_as_its_digits(tmp_path: Path):
    """The file's own numbers are limited to 30 digits, but JSON text inside a value was decoded without a limit: a
    number of 4,100 digits went into the drill, which `warroom validate` refused (`a whole number has at most 4,000
    digits`). It is written as its digits, as text, with a warning."""
    source = _langfuse_arguments(tmp_path, "7" * 4100)
    out = tmp_path / "out"
    status, output = _import("langfuse", source, out)
    assert status == 0, output
    assert "a whole number of more than 4,000 digits" in output
    [drill] = out.glob("*.yaml")
    _only_problem_is_the_answer_key(drill)
    assert "7" * 4100 in drill.read_text(encoding="utf-8")


def _multipart(tmp_path: Path, old: str, new: str) -> Path:
    text = MULTIPART.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "body.txt"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def test_a_langsmith_multipart_part_giving_a_key_twice_is_refused_at_the_key(tmp_path: Path):
    """A `/runs/multipart` body's JSON parts were read with Python's json alone: a run giving `run_type` twice
    (`"chain"`, then `"llm"`) was read as its last copy, an llm run, and imported (a drill of 194 lines for the 175 of
    the body as sent), where a JSON file doing so is refused (docs/importing.md: no object gives one key twice). The
    part is refused at the key's place in the file, as a file is."""
    source = _multipart(tmp_path, '"run_type":"chain"', '"run_type":"chain","run_type":"llm"')
    out = tmp_path / "out"
    status, output = _import("langsmith", source, out)
    assert status == 1
    line = next(n for n, ln in enumerate(source.read_text(encoding="utf-8").splitlines(), 1) if '"llm"' in ln)
    column = source.read_text(encoding="utf-8").splitlines()[line - 1].index('"run_type":"llm"') + 1
    assert output.splitlines()[0] == (
        f"{source}:{line}:{column}: not LangSmith runs one can read one way: the key \"run_type\" is given twice in "
        "one JSON object (JSON readers keep either one); keep one of them")
    assert not list(out.glob("*.yaml"))


def test_a_langsmith_multipart_part_holding_a_40_digit_number_is_refused(tmp_path: Path):
    """A part's number of 40 digits was kept as the reader's stand-in for a number too long to convert; it is
    refused, as in a file (numbers are limited to 30 digits), at the line where that part's JSON starts."""
    source = _multipart(tmp_path, '"tags":[]', '"tags":[],"extra":' + "1" * 40)
    status, output = _import("langsmith", source, tmp_path / "out")
    assert status == 1
    line = next(n for n, ln in enumerate(source.read_text(encoding="utf-8").splitlines(), 1) if "1" * 40 in ln)
    assert output.splitlines()[0] == (
        f"{source}:{line}:1: extra is a number with 40 digits; numbers are limited to 30 digits")


def test_the_multipart_body_as_sent_still_imports(tmp_path: Path):
    out = tmp_path / "out"
    status, output = _import("langsmith", MULTIPART, out)
    assert status == 0, output
    [drill] = out.glob("*.yaml")
    _only_problem_is_the_answer_key(drill)


def test_a_line_separator_in_a_traces_text_is_written_so_that_it_reads_back_as_it_was(tmp_path: Path):
    """PyYAML's emitter breaks a line at U+2028 and U+2029 (YAML 1.1 line breaks) and indents what follows; the drill
    loader reads them as characters (YAML 1.2), the indentation too: a model named `m\\u2028x` was written and read
    back as `m\\u2028  x` in `models` and `m\\u2028    x` in its call, and `warroom validate` refused the imported drill
    (`is not a model in models`). Such text is written double-quoted, with the characters escaped."""
    source = tmp_path / "trace.json"
    source.write_text(_otlp_trace("1").replace('"gen_ai.request.model", "value": {"stringValue": "m"}',
                                               '"gen_ai.request.model", "value": {"stringValue": "m\\u2028x\\u2029y"}'),
                      encoding="utf-8")
    assert "m\\u2028x" in source.read_text(encoding="utf-8")
    out = tmp_path / "out"
    status, output = _import("otel", source, out)
    assert status == 0, output
    [drill] = out.glob("*.yaml")
    _only_problem_is_the_answer_key(drill)
    assert '"m\\Lx\\Py"' in drill.read_text(encoding="utf-8")
    data = load_yaml_text(drill.read_text(encoding="utf-8"))
    assert data["models"]["planner"]["name"] == "m\u2028x\u2029y"


def test_two_files_whose_names_make_one_drill_id_are_named_escaped_with_what_to_do(tmp_path: Path):
    """`a\\nb.json` and `a b.json` both make the drill id `chat-a-b`; the second's refusal named the first file raw, so
    its newline forged a line of its own (`b.json in this run`), and said nothing to do. The name is escaped on its
    line, and the refusal says how to import both."""
    folder = tmp_path / "in"
    folder.mkdir()
    for name in ("a\nb.json", "a b.json"):
        (folder / name).write_bytes(CHAT.read_bytes())
    result = CliRunner().invoke(main, ["import", "chat", str(folder), "--out", str(tmp_path / "out")])
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert lines[0] == (
        f"{folder}/a b.json:1:1: drill id 'chat-a-b' was already imported from {folder}/a\\x0ab.json in this run (the "
        "two files' names make the same id): rename one of them, or import it into another --out folder")
    assert lines[1].startswith("1 drill imported into ")
    assert not any(line.startswith("b.json") for line in lines)


def test_a_healthy_run_whose_text_holds_a_date_that_is_no_day_projects_without_a_traceback(tmp_path: Path):
    """`warroom project` (a FILE, `--list` and `--all`) took the latest text shaped like an ISO date in the run as a
    date: a ticket `opened 2026-02-30` or a `build 2026-19-39` ended each in a traceback (`ValueError: month must be
    in 1..12`) when the stale-data template dated its cache. Only real days count: the `as_of` it writes is before
    the run's latest real date."""
    data = json.loads(CHAT.read_text(encoding="utf-8"))
    first = next(m for m in data["messages"] if m.get("role") == "user")
    first["content"] += " (ticket opened 2026-02-30, build 2026-19-39)"
    source = tmp_path / "dates.json"
    source.write_text(json.dumps(data), encoding="utf-8")
    imported = tmp_path / "imported"
    assert _import("chat", source, imported)[0] == 0
    [drill] = imported.glob("*.yaml")
    real = max(re.findall(r"20\d\d-[01]\d-[0-3]\d", CHAT.read_text(encoding="utf-8")))
    runner = CliRunner()
    listed = runner.invoke(main, ["project", "--list", str(drill)])
    assert listed.exit_code == 0 and listed.exception is None, listed.output
    one = runner.invoke(main, ["project", str(drill), "--template", "stale-data", "--out", str(tmp_path / "one")])
    assert one.exit_code == 0 and one.exception is None, one.output
    text = "".join(p.read_text(encoding="utf-8") for p in (tmp_path / "one").glob("*.yaml"))
    # the fault's as_of, and its twin's (the live read, as every twin shows the fields its fault added): the latest
    stale, live = sorted(set(re.findall(r'"as_of": "([^"]+)"', text)))
    assert "2026-01-01" <= stale < real and live == real, (stale, live, real)
    every = runner.invoke(main, ["project", "--all", str(imported), "--out", str(tmp_path / "all")])
    assert every.exit_code == 0 and every.exception is None, every.output


def test_annotate_saves_a_drill_whose_distractor_text_ends_in_spaces_inside_a_folded_block(tmp_path: Path):
    """A distractor's `why_harmless: >-` whose last line ends in spaces (an editor that keeps trailing spaces) is that
    text with the spaces; the author mode reads it without them, so every save, of any change, was refused (`the
    distractors would not read back as written; the file is left unchanged`, nothing to do about it). The blocks
    written are checked; one left as the file has it is kept byte for byte."""
    from warroom.core.author import open_for_annotation, write_draft

    text = (TESTS.parent / "drills" / "tutorial.yaml").read_text(encoding="utf-8")
    assert "without a retry would.\n" in text
    path = tmp_path / "tutorial.yaml"
    path.write_text(text.replace("without a retry would.\n", "without a retry would.  \n", 1), encoding="utf-8")
    before = load_yaml_text(path.read_text(encoding="utf-8"))
    opened = open_for_annotation(path)
    write_draft(path, dataclasses.replace(opened.draft, debrief="What the trainee should have seen."),
                opened.event_order)
    after = load_yaml_text(path.read_text(encoding="utf-8"))
    assert after["answer_key"]["debrief"] == "What the trainee should have seen."
    assert after["distractors"] == before["distractors"]
    assert "without a retry would.  \n" in path.read_text(encoding="utf-8")


def test_a_flattened_attribute_whose_index_is_no_plain_number_is_an_unknown_attribute(tmp_path: Path):
    """OpenInference flattens lists into attributes by index (`llm.input_messages.0.message.content`). An index that
    `str.isdigit` takes but `int` refuses (`²`), or one of 5,000 digits, ended the import of its file in `cannot import
    this trace (ValueError: invalid literal for int() with base 10: '²')` or `(ValueError: Exceeds the limit (4300
    digits) for integer string conversion ...; use sys.set_int_max_str_digits() ...)`. Such an attribute is not an
    index of a list: the trace imports without it."""
    raw = (FIXTURES / "thirdparty" / "oi-span-kinds.json").read_text(encoding="utf-8")
    key = "llm.input_messages.0.message.content"
    assert f'"{key}"' in raw
    for index in ("²", "9" * 5000):
        source = tmp_path / "oi.json"
        source.write_text(raw.replace(f'"{key}"', f'"llm.input_messages.{index}.message.content"'), encoding="utf-8")
        out = tmp_path / f"out{len(index)}"
        status, output = _import("openinference", source, out)
        assert status == 0, output
        assert "ValueError" not in output and "cannot import" not in output
        [drill] = out.glob("*.yaml")
        _only_problem_is_the_answer_key(drill)


def test_a_jaeger_int64_tag_or_a_ground_truth_step_of_superscript_digits_is_no_number_not_a_value_error(
        tmp_path: Path):
    """A Jaeger tag typed `int64` whose value is `"²"`, and a ground-truth `step_number` of `"²"`, passed
    `str.isdigit` and ended in `cannot import this trace (ValueError: invalid literal for int() ...)`. The tag is kept
    as the text it is; the step is refused as the failure's missing whole `step_number`, as any other text is."""
    jaeger = (FIXTURES / "thirdparty" / "jaeger-export.json").read_text(encoding="utf-8")
    old = '"type": "int64",\n       "value": 64'
    assert old in jaeger
    source = tmp_path / "jaeger.json"
    source.write_text(jaeger.replace(old, '"type": "int64",\n       "value": "²"', 1), encoding="utf-8")
    status, output = _import("otel", source, tmp_path / "out")
    assert status == 0 and "ValueError" not in output, output

    tau = FIXTURES / "agentrx" / "tau-retail"
    truth = json.loads((tau / "ground_truth.json").read_text(encoding="utf-8"))
    [record] = [r for r in truth if r["trajectory_id"] == 8]
    record["failures"][0]["step_number"] = "²"
    edited = tmp_path / "ground_truth.json"
    edited.write_text(json.dumps(truth), encoding="utf-8")
    result = CliRunner().invoke(main, ["import", "chat", str(tau / "failed" / "8.json"), "--ground-truth", str(edited),
                                       "--out", str(tmp_path / "keyed")])
    assert result.exit_code == 1
    assert result.output.splitlines()[0] == f"{tau / 'failed' / '8.json'}:1:1: its failure 3 has no whole `step_number`"


def test_an_evidence_path_holding_a_superscript_digit_is_a_path_that_leads_nowhere(tmp_path: Path):
    """An evidence item's `path: statistics.²` made `warroom validate` say `warroom could not check this file
    (internal error ValueError: invalid literal for int() with base 10: '²'); please report it`: `str.isdigit` takes
    `²` for a list index. It is a key like any other, one the output does not have."""
    text = (TESTS.parent / "drills" / "clickstream-backfill.yaml").read_text(encoding="utf-8")
    old = "{event: e27, path: statistics.result_partial,"
    assert old in text
    path = tmp_path / "clickstream-backfill.yaml"
    path.write_text(text.replace(old, '{event: e27, path: "statistics.²",', 1), encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert result.exit_code == 1
    assert "internal error" not in result.output
    assert result.output.splitlines()[0].startswith(
        f"{path}:385:26: the field path `statistics.\\xb2` (superscript two ² U+00B2) leads nowhere in the output of "
        "`e27`: `²` is not at `statistics`; the keys there: ")


def test_a_columns_variable_that_is_no_plain_number_is_ignored_not_a_traceback():
    """`COLUMNS=²` (which `str.isdigit` takes and `int` refuses) ended every command that prints a table in a
    ValueError traceback, from Rich and from warroom's own tables, and so did `COLUMNS` of 5,000 digits. Such a value
    is dropped: the table is as wide as without it."""
    drill = str(TESTS.parent / "drills" / "api-dns-cutover.yaml")
    plain = CliRunner().invoke(main, ["cost", drill], env={"COLUMNS": None})
    assert plain.exit_code == 0
    for columns in ("²", "9" * 5000):
        result = CliRunner().invoke(main, ["cost", drill], env={"COLUMNS": columns})
        assert result.exception is None and result.exit_code == 0, result.exception
        assert result.output == plain.output


def test_a_run_time_in_the_year_9999_is_refused_as_out_of_range_not_a_value_error(tmp_path: Path):
    """A LangSmith run whose `start_time` is `9999-12-31T23:59:59-14:00` (the year 10000 in UTC) ended the import in
    `cannot import this trace (ValueError: year 10000 is out of range)`. A time past 2554, where OTLP's nanoseconds
    end, is refused as such at its field, as a time before 1970 is."""
    text = (FIXTURES / "thirdparty" / "langsmith-runs.json").read_text(encoding="utf-8")
    old = "2026-03-20T09:46:40.000000"
    assert old in text
    for late in ("9999-12-31T23:59:59-14:00", "2600-01-01T00:00:00"):
        source = tmp_path / "runs.json"
        source.write_text(text.replace(old, late, 1), encoding="utf-8")
        status, output = _import("langsmith", source, tmp_path / "out")
        assert status == 1
        first = output.splitlines()[0]
        assert first.startswith(f"{source}:1:1: run ") and "ValueError" not in first
        assert first.endswith(f".start_time is out of range (after 2554): '{late}'")


def test_a_citation_of_a_field_holding_a_superscript_digit_is_refused_naming_the_fields_there(tmp_path: Path):
    """The same field path in an escalation's citation (`e27:statistics.²`, in an action log given to `warroom
    score`, as the war room's field input reads it): the refusal was Python's `invalid literal for int() with base
    10: '²'`. It is the field the event does not have, with the keys it has."""
    log = tmp_path / "log.jsonl"
    log.write_text(json.dumps({"t": 150, "kind": "escalate", "step": "s4", "cites": ["e27:statistics.²"]}) + "\n",
                   encoding="utf-8")
    drill = TESTS.parent / "drills" / "clickstream-backfill.yaml"
    result = CliRunner().invoke(main, ["score", str(drill), str(log)])
    assert result.exit_code == 1
    assert result.output.splitlines()[0] == (
        f"{log}:1:1: action 1 (escalate at 150 s): 'e27:statistics.²' cites a field 'e27' does not have: `²` is not at "
        "`statistics`; the keys there: elapsed, rows_read, result_partial, reason; cite a field it has, or the whole "
        "event, 'e27'")


def test_json_text_in_a_trace_value_giving_a_key_twice_is_kept_as_its_text(tmp_path: Path):
    """A Langfuse tool call's arguments (JSON text in a string attribute) giving `order_id` twice were read as the
    last copy (`9999`), silently, where a file doing so is refused (docs/importing.md: such an object has no one
    reading). JSON text inside a value that gives a key twice is kept as its text: the trainee sees both."""
    lines = (FIXTURES / "frameworks" / "langfuse-otel.jsonl").read_text(encoding="utf-8").splitlines()
    doc = json.loads(lines[0])
    [span] = [sp for sp in doc["resourceSpans"][0]["scopeSpans"][0]["spans"] if sp["name"] == "list_charges"]
    [value] = [a["value"] for a in span["attributes"] if a["key"] == "langfuse.observation.input"]
    value["stringValue"] = '{"order_id": "4417", "order_id": "9999"}'
    source = tmp_path / "lf.jsonl"
    source.write_text("\n".join([json.dumps(doc), *lines[1:]]) + "\n", encoding="utf-8")
    out = tmp_path / "out"
    status, output = _import("langfuse", source, out)
    assert status == 0, output
    [drill] = out.glob("*.yaml")
    events = yaml.safe_load(drill.read_text(encoding="utf-8"))["trace"]
    [call] = [e for e in events if e.get("kind") == "tool_call" and e.get("tool") == "list_charges"]
    assert "4417" in json.dumps(call) and "9999" in json.dumps(call), call


def test_an_openai_agents_tool_output_giving_a_key_twice_is_kept_as_its_text():
    """A function span's output (JSON text, or a Python dict literal) giving a key twice was read as its last copy."""
    from functools import partial

    from warroom.importers.exports import returned_value

    tool_output = partial(returned_value, json_text=True)  # the Agents SDK's reading of a function span's output
    assert tool_output('{"refunds": [], "refunds": [1]}') == '{"refunds": [], "refunds": [1]}'
    assert tool_output("{'refunds': [], 'refunds': [1]}") == "{'refunds': [], 'refunds': [1]}"
    assert tool_output("{'refunds': [], 'total': 0}") == {"refunds": [], "total": 0}
