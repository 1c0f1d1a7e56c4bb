"""A fifteenth hostile campaign, on warroom's inputs (issue 30): drills that validate but do not play or score as
written, the importers, the command line. Each case it found, with the right behaviour."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from warroom.core.author._examples import example_path
from warroom.core.load import DrillLoadError, load_drill_text


def _full_with_step(step: str) -> str:
    return re.sub(r"\bs1\b", step, example_path("full").read_text())


@pytest.mark.parametrize("step", ["e17"])
def test_a_plan_step_named_as_an_event_is_shown_is_refused_by_validate_not_at_a_sessions_start(step: str) -> None:
    """A drill with a twin is played with its events' ids by position (e01, e02, ...; its re-plan numbered on after
    the trace: e17 in the full example): a plan step whose id is one of them could not be told from the event, so a
    session could not start (`cannot play drill full: plan step 'e17' has an id that a trace event is shown as`),
    while `warroom validate` and `warroom check` passed the drill. validate names the step at its line."""
    text = _full_with_step(step)
    with pytest.raises(DrillLoadError) as caught:
        load_drill_text(text, "full.yaml")
    line = next(n for n, row in enumerate(text.splitlines(), start=1) if f"{{id: {step}," in row)
    column = text.splitlines()[line - 1].index(step) + 1
    assert str(caught.value) == (
        f"full.yaml:{line}:{column}: plan step `{step}` has an id that a trace event is shown as (a drill with a twin "
        "is played with its events' ids by position, e01, e02, ...): give it another id")


def test_a_plan_step_or_probe_id_past_the_ids_shown_still_plays() -> None:
    """Only the ids a session can show are refused: the full example shows e01 to e20 (19 trace events and its
    re-plan; its twin's one added event is in place of a removed one), so e21 and e017 are a step's own."""
    from warroom.core.model import PlayedAs
    from warroom.core.variants import session_drill

    for step in ("e21", "e017", "E01"):
        drill = load_drill_text(_full_with_step(step), "full.yaml")
        assert session_drill(drill, 0, PlayedAs.SIGNAL).plan[1].id == step  # (plan[0] is s0)
        assert session_drill(drill, 0, PlayedAs.NOISE).plan[1].id == step


def _conversation(n: int) -> dict[str, object]:
    return {"messages": [{"role": "user", "content": f"refund {n}"}, {"role": "assistant", "content": "done"}]}


@pytest.mark.parametrize(("text", "where", "message"), [
    # two pretty-printed files joined with `cat`: the second value starts on line 13
    (json.dumps(_conversation(1), indent=2) + "\n" + json.dumps(_conversation(2), indent=2) + "\n", "13:1",
     "not JSON: a second JSON value starts here, after the first one ended (files joined with `cat`?): import each "
     "value from a file of its own, or write them one per line (JSON Lines)"),
    (json.dumps(_conversation(1)) + json.dumps(_conversation(2)), "1:98",
     "not JSON: a second JSON value starts here, after the first one ended (files joined with `cat`?): import each "
     "value from a file of its own, or write them one per line (JSON Lines)"),
    (json.dumps(_conversation(1)) + "]\n", "1:98",
     "not JSON: text after the end of the JSON value (`]`): remove it"),
    (json.dumps(_conversation(1)) + ";x", "1:98", "not JSON: text after the end of the JSON value (`;x`): remove it"),
])
def test_text_after_a_json_value_says_what_it_is_and_what_to_do(tmp_path: Path, text: str, where: str,
                                                                 message: str) -> None:
    """Python's "Extra data" was the whole refusal (`trace.json:10:1: not JSON: Extra data`) of two documents joined
    and of a stray character after one: it says neither which nor what to do."""
    from warroom.importers import chat

    path = tmp_path / "trace.json"
    path.write_text(text)
    [failed] = chat.import_chats([path], tmp_path / "out").failed
    assert failed.error_at(path) == f"{path}:{where}: {message}"


#: JSON as real tool back ends write it that Python's json.dumps does not: PHP escapes every `/` (json_encode's
#: default), Go escapes `<`, `>` and `&` (encoding/json's HTML escaping), a decimal column keeps its trailing zeros
#: (`10.50`), Java writes exponents as `1.0E10`, and a mix of both forms of a number in one result.
_WRITERS = [
    '{"order_id": "W1", "url": "https:\\/\\/shop.example\\/o\\/W1", "items": [{"id": "i1"}, {"id": "i2"}]}',
    '{"order_id":"W1","note":"\\u003cb\\u003eA \\u0026 B\\u003c/b\\u003e","items":[{"id":"i1"},{"id":"i2"}]}',
    '{"order_id": "W1", "total": 10.50, "tax": 0.80, "items": [{"id": "i1", "price": 9.70}, {"id": "i2"}]}',
    '{"order_id": "W1", "size": 1.0E10, "ratio": 2.5e-3, "items": [{"id": "i1"}, {"id": "i2"}]}',
]


@pytest.mark.parametrize("text", _WRITERS)
def test_a_projected_result_is_written_back_with_the_sources_own_escapes_and_numbers(text: str) -> None:
    """docs/authoring.md promises that the changed result is written back in the form the source wrote it (the same
    separators and escaping). Only the separators, the indent and ASCII escaping were kept: the changed result lost
    PHP's `\\/`, Go's `\\u003c` and a price's trailing zero (`10.50` became `10.5`) while every other result of the
    run kept them, so the one event the template changed could be told by its spelling alone."""
    from warroom.core.projection._output import read_output

    value, form = read_output({"output": text})
    assert form.dump(value) == text  # unchanged, it reads as written, byte for byte
    changed = form.dump({**value, "items": value["items"][:1], "items_next_cursor": "a/b <c> & d", "count": 2.5})
    assert changed.startswith(text.split('"items"')[0])  # every field before the change as the source wrote it


def test_new_text_in_a_projected_result_is_escaped_as_the_sources_own() -> None:
    from warroom.core.projection._output import read_output

    value, form = read_output({"output": _WRITERS[0]})
    assert '"next": "https:\\/\\/shop.example\\/p\\/2"' in form.dump({**value, "next": "https://shop.example/p/2"})
    value, form = read_output({"output": _WRITERS[1]})
    assert '"error":"\\u003c504\\u003e A \\u0026 B"' in form.dump({**value, "error": "<504> A & B"})
    value, form = read_output({"output": '{"a": "x/y <b>"}'})  # a source that escapes neither: new text neither
    assert form.dump({**value, "c": "p/q <r>"}) == '{"a": "x/y <b>", "c": "p/q <r>"}'


def test_an_event_with_a_plan_steps_id_in_a_drill_with_a_twin_is_refused_at_the_event() -> None:
    """A session of a drill with a twin renames every whole word of the debrief's texts that is an authored event
    id: with an event `s2` beside the plan step `s2`, a debrief's "s2 matched the payments" would read "e07 matched
    the payments" (the event's shown id), while validate and check passed the drill."""
    text = re.sub(r"\be07\b", "s2", example_path("full").read_text())
    with pytest.raises(DrillLoadError) as caught:
        load_drill_text(text, "full.yaml")
    line = next(n for n, row in enumerate(text.splitlines(), start=1) if row.strip() == "- id: s2")
    assert str(caught.value) == (
        f"full.yaml:{line}:9: trace event `s2` has the id of plan step `s2`: a session of a drill with a twin shows "
        "its events by position and renames the event ids its debrief names, so a debrief naming the step would name "
        "the event; give the event another id")


@pytest.mark.parametrize(("value", "column", "message"), [
    ('"Late replies" for March', 23, "text after the closing quote: the quoted text ends there, so `for March` is "
     "left over; put the whole value inside the quotes, or write it without them"),
    ("'Late' replies", 15, "text after the closing quote: the quoted text ends there, so `replies` is left over; put "
     "the whole value inside the quotes, or write it without them"),
    ("[a, b] c", 15, "text after the closing `]`: the [...] list ends there, so `c` is left over; put it inside the "
     "brackets, or write the whole value in quotes"),
    ('{a: 1} b', 15, "text after the closing `}`: the {...} mapping ends there, so `b` is left over; put it inside "
     "the braces, or write the whole value in quotes"),
])
def test_text_after_a_closing_quote_is_named_as_such_not_as_indentation(value: str, column: int,
                                                                        message: str) -> None:
    """`title: "Late replies" for March` (a quote closed before the value's end, a common slip) was refused as
    "this line's indentation does not match the keys above it (check the spaces at the start of the line)": the
    line's indentation is right, and the message sent the author to the wrong end of the line."""
    text = re.sub(r"(?m)^title: .*$", f"title: {value}", example_path("full").read_text())
    line = text.splitlines().index(f"title: {value}") + 1
    with pytest.raises(DrillLoadError) as caught:
        load_drill_text(text, "full.yaml")
    assert str(caught.value) == f"full.yaml:{line}:{column}: {message}"


@pytest.mark.parametrize(("value", "column", "message"), [
    ("@oncall the ERP is down", 8, "`@` cannot start unquoted text in YAML (it is reserved): put the whole text in "
     'quotes, "@oncall the ERP is down"'),
    ("`kubectl` failed", 8, "`` ` `` cannot start unquoted text in YAML (it is reserved): put the whole text in "
     "quotes, \"`kubectl` failed\""),
    ("%50 off", 8, '`%` cannot start unquoted text in YAML (it is reserved): put the whole text in quotes, "%50 off"'),
    ("*urgent* refunds", 8, "`*` at the start of a value makes it an alias (a reference to an `&` anchor), not text: "
     'put the whole text in quotes, "*urgent* refunds"'),
    ("> 5 s latency", 8, "`>` at the start of a value starts a block of text on the lines below it, not text on its "
     'line: put the whole text in quotes, "> 5 s latency"'),
    ("| grep refund", 8, "`|` at the start of a value starts a block of text on the lines below it, not text on its "
     'line: put the whole text in quotes, "| grep refund"'),
    (", and more", 8, "`,` cannot start unquoted text in YAML (it separates the items of a [...] list or {...} "
     'mapping): put the whole text in quotes, ", and more"'),
])
def test_a_value_starting_with_a_reserved_character_says_to_quote_it(value: str, column: int, message: str) -> None:
    """A Slack handle (`@oncall`), Markdown code or bold, or a percentage at the start of a text was refused as
    "YAML syntax error: found character that cannot start any token" (or "did not find expected alphabetic or
    numeric character ... while scanning an alias"), naming neither the character nor the quotes that fix it."""
    text = re.sub(r"(?m)^title: .*$", lambda _: f"title: {value}", example_path("full").read_text())
    line = text.splitlines().index(f"title: {value}") + 1
    with pytest.raises(DrillLoadError) as caught:
        load_drill_text(text, "full.yaml")
    assert str(caught.value) == f"full.yaml:{line}:{column}: {message}"


def test_a_reserved_character_inside_a_flow_mapping_quotes_only_its_value() -> None:
    text = example_path("full").read_text().replace("content: Fetch March.}", "content: @scout fetch March, all}")
    with pytest.raises(DrillLoadError) as caught:
        load_drill_text(text, "full.yaml")
    assert str(caught.value).endswith('put the whole text in quotes, "@scout fetch March"')


@pytest.mark.parametrize(("value", "title", "warning"), [
    ("&Co replies", "replies", "`&Co replies` is read as `replies`: `&Co` is an anchor (a name an alias `*Co` refers "
     "to) and nothing refers to it; if it belongs to the text, put it all in quotes: \"&Co replies\""),
    ("! urgent refunds", "urgent refunds", "`! urgent refunds` is read as `urgent refunds`: a `!` before a value is a "
     "YAML tag; if it belongs to the text, put it all in quotes: \"! urgent refunds\""),
])
def test_text_that_yaml_reads_without_its_first_word_warns(value: str, title: str, warning: str) -> None:
    """`title: &Co replies` is the title "replies" (an anchor named Co that nothing uses) and `title: ! urgent` is
    "urgent" (YAML's non-specific tag): both loaded with no word said, the text shown without its start."""
    from warroom.core.load._loader import load_drill_text_with_warnings

    text = re.sub(r"(?m)^title: .*$", lambda _: f"title: {value}", example_path("full").read_text())
    line = text.splitlines().index(f"title: {value}") + 1
    drill, warnings = load_drill_text_with_warnings(text, "full.yaml")
    assert drill.title == title
    assert [(w.line, w.column, w.message, w.rule) for w in warnings] == [(line, 8, warning, "indicator-cut")]


def test_an_unsupported_tag_on_text_says_it_may_be_quoted() -> None:
    text = re.sub(r"(?m)^title: .*$", "title: !important notice", example_path("full").read_text())
    with pytest.raises(DrillLoadError) as caught:
        load_drill_text(text, "full.yaml")
    assert str(caught.value).endswith(
        "the tag `!important` is not supported in drill files; remove it (drills are plain data), or, if it belongs "
        'to the text, put it all in quotes: "!important notice"')


@pytest.mark.parametrize(("value", "where"), [('"C:\\Users\\ops\\report.csv"', "14:13"),
                                              ('"\\d+ rows matched"', "14:9")])
def test_a_backslash_that_is_no_escape_in_double_quotes_says_how_to_write_one(value: str, where: str) -> None:
    """A Windows path or a regular expression in double quotes was refused as "did not find expected hexdecimal
    number (or found unknown escape character) in the quoted text that starts at ...", without what to write."""
    text = re.sub(r"(?m)^title: .*$", lambda _: f"title: {value}", example_path("full").read_text())
    with pytest.raises(DrillLoadError) as caught:
        load_drill_text(text, "full.yaml")
    assert str(caught.value).startswith(f"full.yaml:{where}: ")
    assert str(caught.value).endswith(
        "in the quoted text that starts at line 14, column 8: a backslash starts an escape in double quotes; write "
        "`\\\\` for a backslash itself, or put the text in single quotes")


def test_a_list_item_without_a_space_after_its_dash_is_named_as_such() -> None:
    """`-id: e02` (no space after the dash) was refused as "this line's indentation does not match the keys above
    it": YAML reads `-id` as a key, and the line's indentation is right."""
    text = example_path("full").read_text().replace("  - id: e03\n", "  -id: e03\n", 1)
    line = text.splitlines().index("  -id: e03") + 1
    with pytest.raises(DrillLoadError) as caught:
        load_drill_text(text, "full.yaml")
    assert str(caught.value) == (f"full.yaml:{line}:3: a list item needs a space after its `-`: write `- id: e03` "
                                 "(YAML reads `-id` as a key)")


def test_a_drill_given_as_an_action_log_is_named_as_a_drill(tmp_path: Path) -> None:
    """`warroom score DRILL DRILL` (the drill given again where a log goes, or two drills) refused the second as
    "not a JSON line (Expecting value: line 1 column 1 (char 0))", naming neither what the file is nor what goes
    there."""
    from click.testing import CliRunner

    from warroom.cli import main

    drill = tmp_path / "full.yaml"
    drill.write_text(example_path("full").read_text())
    result = CliRunner().invoke(main, ["score", str(drill), str(drill)])
    assert result.exit_code == 1
    assert f"{drill}:1:1: this is YAML (a drill?), not an action log: `warroom score DRILL LOG...` takes the drill " \
           "first, then logs (session journals, or JSON Lines of actions)" in result.output


def test_ollama_tool_calls_without_ids_import_each_result_answering_its_call(tmp_path: Path) -> None:
    """Ollama's own chat API (`/api/chat`) writes tool calls without an `id` and tool messages without a
    `tool_call_id` (newer versions name the tool in `tool_name`): a saved Ollama conversation was refused as "a
    tool call is an object with an `id` and a `function`". Each result answers the earliest unanswered call of its
    tool (Ollama's clients append results in their calls' order)."""
    from warroom.core.load import load_yaml_text
    from warroom.importers import chat

    messages = [
        {"role": "user", "content": "Weather in Toronto and Paris?"},
        {"role": "assistant", "content": "", "tool_calls": [
            {"function": {"name": "get_weather", "arguments": {"city": "Toronto"}}},
            {"function": {"name": "get_time", "arguments": {"city": "Paris"}}},
            {"function": {"name": "get_weather", "arguments": {"city": "Lima"}}}]},
        {"role": "tool", "content": "14:05", "tool_name": "get_time"},
        {"role": "tool", "content": "11 degrees celsius", "tool_name": "get_weather"},
        {"role": "tool", "content": "19 degrees celsius", "tool_name": "get_weather"},
        {"role": "assistant", "content": "It is 11 degrees in Toronto; 14:05 in Paris."},
        {"role": "assistant", "content": "", "tool_calls": [{"function": {"name": "get_weather",
                                                                          "arguments": {"city": "Oslo"}}}]},
        {"role": "tool", "content": "2 degrees celsius"},  # older Ollama: no tool_name
    ]
    path = tmp_path / "ollama.json"
    path.write_text(json.dumps(messages))
    report = chat.import_chats([path], tmp_path / "out")
    assert not report.failed, [r.error for r in report.failed]
    [drill] = [load_yaml_text((tmp_path / "out" / "chat-ollama.yaml").read_text())]
    calls = {e["id"]: e["arguments"]["city"] for e in drill["trace"] if e["kind"] == "tool_call"}
    answered = {calls[e["call"]]: e["output"] for e in drill["trace"] if e["kind"] == "tool_result"}
    assert answered == {"Toronto": "11 degrees celsius", "Paris": "14:05", "Lima": "19 degrees celsius",
                        "Oslo": "2 degrees celsius"}


@pytest.mark.parametrize(("kind", "command"), [("gzip", "gunzip -k"), ("a zip archive", "unzip")])
def test_a_compressed_drill_says_to_decompress_it_not_to_save_it_as_utf8(tmp_path: Path, kind: str,
                                                                         command: str) -> None:
    """A drill sent compressed (`drill.yaml.gz`, a zip) was refused as "the file is not UTF-8 text (byte 0x8b here);
    save it as UTF-8": no re-encoding helps; the importers already said to decompress it."""
    import gzip
    import io
    import zipfile

    from warroom.core.load import load_drill

    text = example_path("full").read_bytes()
    path = tmp_path / "full.yaml"
    if kind == "gzip":
        path.write_bytes(gzip.compress(text))
    else:
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            archive.writestr("full.yaml", text)
        path.write_bytes(buffer.getvalue())
    with pytest.raises(DrillLoadError) as caught:
        load_drill(path)
    assert str(caught.value) == (f"{path}:1:1: compressed ({kind}), not a drill's YAML text: decompress it first "
                                 f"(`{command} FILE`) and give the file it holds")


def test_a_compressed_action_log_says_to_decompress_it(tmp_path: Path) -> None:
    import gzip

    from click.testing import CliRunner

    from warroom.cli import main

    drill = tmp_path / "full.yaml"
    drill.write_text(example_path("full").read_text())
    log = tmp_path / "session.jsonl.gz"
    log.write_bytes(gzip.compress(b'{"t": 12, "kind": "pause"}\n'))
    result = CliRunner().invoke(main, ["score", str(drill), str(log)])
    assert f"{log}:1:1: compressed (gzip), not a log's JSON Lines: decompress it first (`gunzip -k FILE`) and " \
           "score the file it holds" in result.output


def test_a_tool_call_id_reused_turn_after_turn_imports_each_result_answering_its_call(tmp_path: Path) -> None:
    """Some OpenAI-compatible servers give every tool call the same id (Hugging Face TGI wrote `"id": "0"`): a
    conversation of such turns was refused as "tool call id '0' is used twice", though each result follows the
    call it answers. A result answers the earliest unanswered call of its id."""
    from warroom.core.load import load_yaml_text
    from warroom.importers import chat

    def call(city: str) -> dict[str, object]:
        return {"id": "0", "type": "function", "function": {"name": "get_weather",
                                                              "arguments": json.dumps({"city": city})}}

    messages = [
        {"role": "user", "content": "Weather in Toronto, then Paris and Lima?"},
        {"role": "assistant", "content": None, "tool_calls": [call("Toronto")]},
        {"role": "tool", "tool_call_id": "0", "content": "11 C"},
        {"role": "assistant", "content": None, "tool_calls": [call("Paris"), call("Lima")]},
        {"role": "tool", "tool_call_id": "0", "content": "17 C"},
        {"role": "tool", "tool_call_id": "0", "content": "19 C"},
        {"role": "assistant", "content": "11 C, 17 C and 19 C."},
    ]
    path = tmp_path / "tgi.json"
    path.write_text(json.dumps(messages))
    report = chat.import_chats([path], tmp_path / "out")
    assert not report.failed, [r.error for r in report.failed]
    drill = load_yaml_text((tmp_path / "out" / "chat-tgi.yaml").read_text())
    calls = {e["id"]: e["arguments"]["city"] for e in drill["trace"] if e["kind"] == "tool_call"}
    assert len(calls) == 3
    answered = {calls[e["call"]]: e["output"] for e in drill["trace"] if e["kind"] == "tool_result"}
    assert answered == {"Toronto": "11 C", "Paris": "17 C", "Lima": "19 C"}


def _otel_export() -> dict[str, object]:
    return json.loads((Path(__file__).parents[1] / "fixtures" / "otel" / "current.json").read_text())


def test_a_span_written_twice_the_same_is_read_once_with_a_warning(tmp_path: Path) -> None:
    """An exporter that retries a batch (or two exports joined, one holding the other's last batch) writes a span
    twice, byte for byte: the file was refused as "span X appears twice", naming nothing to do. The copy is read
    once, with a warning; the drill is the one the file without it gives."""
    from warroom.importers import otel

    export = _otel_export()
    (tmp_path / "once.json").write_text(json.dumps(export))
    spans = export["resourceSpans"][0]["scopeSpans"][0]["spans"]  # type: ignore[index]
    first = spans[0]
    spans.append(json.loads(json.dumps(first)))
    (tmp_path / "twice.json").write_text(json.dumps(export))
    once = otel.import_otel([tmp_path / "once.json"], tmp_path / "a")
    twice = otel.import_otel([tmp_path / "twice.json"], tmp_path / "b")
    assert not twice.failed, [r.error for r in twice.failed]
    [(_, warning)] = twice.warnings
    assert warning.message == (f"span {first['spanId']} of trace {first['traceId']} is written twice, the same both "
                               "times (an exporter's retry?); it is read once")
    from warroom.core.load import load_yaml_text

    a, b = (load_yaml_text(r.output.read_text()) for r in (*once.imported, *twice.imported))
    assert (a["trace"], a["plan"], a["agents"]) == (b["trace"], b["plan"], b["agents"])


def test_two_different_spans_with_one_id_are_refused_saying_what_to_do(tmp_path: Path) -> None:
    from warroom.importers import otel

    export = _otel_export()
    spans = export["resourceSpans"][0]["scopeSpans"][0]["spans"]  # type: ignore[index]
    other = {**spans[1], "spanId": spans[0]["spanId"]}
    spans.append(other)
    (tmp_path / "clash.json").write_text(json.dumps(export))
    [failed] = otel.import_otel([tmp_path / "clash.json"], tmp_path / "out").failed
    assert failed.error == (f"trace {other['traceId']}: span {other['spanId']} is written twice with different "
                            "content (a span id names one span): the export is damaged or joins two traces; keep one "
                            "of them")


def test_a_damage_pattern_that_matches_no_later_call_names_the_pattern_and_the_tools(tmp_path: Path) -> None:
    """`warroom project --damage 'refnd*=5'` (a typo) said "no consequential call after it (write-like tool names:
    cancel*, update*, ...; name others with --damage PATTERN=AMOUNT)": the defaults it names were not in use, and
    --damage had been given. It names the pattern and the tools called after the result."""
    from warroom.core.projection import damage_rules, parse_damage, read_source, sites_of, survey

    drill = tmp_path / "full.yaml"
    drill.write_text(example_path("full").read_text())
    rules, _ = damage_rules([parse_damage("refnd*=5")])
    found = survey(read_source(drill), rules)
    problems = {s.problem for s in sites_of(found) if s.problem and "after it" in s.problem}
    assert problems and all(p.startswith("no call after it matches --damage refnd* (the tools called after it: ")
                            for p in problems), problems


def test_a_path_whose_name_is_on_disk_in_another_unicode_form_says_so(tmp_path: Path, monkeypatch) -> None:
    """A folder copied from macOS keeps its accented names decomposed (NFD: `e` and a combining accent); typed on
    Linux (composed, NFC) the path names nothing, and `warroom validate café/x.yaml` said only "no file, folder or
    drill id": the two names look alike in every terminal. The message says the name is there in another form."""
    import unicodedata

    from click.testing import CliRunner

    from warroom.cli import main

    monkeypatch.chdir(tmp_path)
    folder = tmp_path / unicodedata.normalize("NFD", "café")
    folder.mkdir()
    (folder / "full.yaml").write_text(example_path("full").read_text())
    typed = unicodedata.normalize("NFC", "café") + "/full.yaml"
    result = CliRunner().invoke(main, ["validate", typed])
    assert result.exit_code == 2
    assert (f"no file {typed!r} as typed, but 'café' is on disk with its name written in another Unicode form, "
            "decomposed (NFD: a letter and a combining accent, as macOS writes names): type the name as it is on disk "
            "(tab completion does), or rename it to the composed form (NFC)") in result.output
    (tmp_path / "w.set.yaml").write_text(f"set: w\ntitle: W\ndrills:\n  - {typed}\n")
    result = CliRunner().invoke(main, ["validate", "w.set.yaml"])
    assert "is on disk with its name written in another Unicode form" in result.output
    for args in (["import", "chat", typed, "--out", "o"], ["annotate", typed], ["project", "--list", typed]):
        result = CliRunner().invoke(main, args)
        assert "is on disk with its name written in another Unicode form" in result.output, (args, result.output)


@pytest.mark.parametrize(("due", "message"), [
    ("2026-02-30", "`due` must be a date written YYYY-MM-DD that exists: 2026-02-30 is written so but is no day of "
     "the calendar"),
    ("0000-01-01", "`due` must be a date written YYYY-MM-DD that exists: 0000-01-01 is written so but is no day of "
     "the calendar"),
    ("2026-1-5", "`due` must be a date written YYYY-MM-DD, got '2026-1-5'"),
])
def test_a_due_date_written_right_that_is_no_day_says_so(tmp_path: Path, due: str, message: str) -> None:
    """`due: 2026-02-30` was refused as "`due` must be a date written YYYY-MM-DD": it is written so; the day does
    not exist."""
    from warroom.core.load import DrillSetError, load_drill_set

    path = tmp_path / "w.set.yaml"
    path.write_text(f"set: w\ntitle: W\ndue: {due}\ndrills: [late-delivery-replies]\n")
    with pytest.raises(DrillSetError) as caught:
        load_drill_set(path)
    assert str(caught.value) == f"{path}:3:6: {message}"


def test_a_path_whose_name_is_on_disk_in_another_case_says_so(tmp_path: Path, monkeypatch) -> None:
    """`warroom validate Refunds.yaml` on a system whose names are case-sensitive, for a file `refunds.yaml` (a set
    written on macOS, where both name one file): "no file, folder or drill id" named nothing near."""
    from click.testing import CliRunner

    from warroom.cli import main

    monkeypatch.chdir(tmp_path)
    (tmp_path / "full.yaml").write_text(example_path("full").read_text())
    result = CliRunner().invoke(main, ["validate", "Full.yaml"])
    assert result.exit_code == 2
    assert ("no file 'Full.yaml' as typed, but 'full.yaml' is on disk, its name in other letter case (names are "
            "case-sensitive here): type the name as it is on disk") in result.output
