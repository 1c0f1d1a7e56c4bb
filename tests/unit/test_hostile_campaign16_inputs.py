"""A sixteenth hostile campaign, on the inputs changed in campaign 15 (issue 30): the projection's own spelling of a
source's JSON, the near-match run fingerprint, the YAML reader's new messages. Each case it found, with the right
behaviour."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from warroom.core.load import load_drill_text
from warroom.core.projection._output import read_output


@pytest.mark.parametrize("source", [
    '{"count": 0, "delta": -0, "price": 1.50}',
    '{"a": 0, "b": [0, -0], "c": "x/y", "d": "a\\/b"}',
])
def test_a_minus_zero_in_a_result_is_not_spelt_into_every_zero(source: str) -> None:
    """A source that writes one `-0` (an integer JSON allows) kept that spelling for the number 0, so every other
    0 of the result, unchanged, was written `-0` in the projected result: a zero is written 0 (JSON readers read
    the integer -0 as 0)."""
    value, form = read_output({"output": source})
    assert form.dump(value) == source.replace("-0", "0")


@pytest.mark.parametrize("source", ['{"n": 1e400, "p": 1.50}', '{"n": -1E999, "p": 2.50}'])
def test_a_number_too_large_for_a_float_keeps_its_spelling_not_infinity(source: str) -> None:
    """A number past a float's range (1e400) reads as infinity; json.dumps writes that `Infinity`, which is not
    JSON, where the source wrote a number: the projected result keeps the source's number."""
    value, form = read_output({"output": source})
    written = form.dump(value)
    assert written == source
    json.loads(written, parse_constant=lambda name: pytest.fail(f"{name} is not JSON"))


@pytest.mark.parametrize("source", ['{"a":1.0,"b":1.00,"c":[1.0]}', '{"p":2.50,"q":2.5,"s":"x\\/y"}'])
def test_a_value_spelt_two_ways_keeps_the_sources_compact_separators(source: str) -> None:
    """A value the source spells two ways (1.0 and 1.00) is written with its first spelling everywhere, which is
    no longer the source text, so no form matched and the compact result was written spaced (`{"a": 1.00, ...`):
    the separators are those of the source."""
    value, form = read_output({"output": source})
    assert form.separators == (",", ":")
    assert ", " not in form.dump(value) and ": " not in form.dump(value)


def test_many_projections_of_one_run_are_grouped_without_comparing_every_pair(monkeypatch) -> None:
    """400 projections of one run (each its run with one event changed): each pair is near, and each was compared
    (79,800 overlaps; 5,000 projections took 70 s to validate as a set). Runs a chain of near pairs has joined are
    not compared again: one overlap a run."""
    import warroom.core.library._runs as runs_module
    from warroom.core.library import run_groups

    runs = [frozenset({*((f"e{k}", 0) for k in range(30) if k != i % 30), (f"fault{i}", 0)}) for i in range(400)]
    calls = []
    real = runs_module.run_overlap
    monkeypatch.setattr(runs_module, "run_overlap", lambda a, b: calls.append(1) or real(a, b))
    assert run_groups(runs) == [0] * 400
    assert len(calls) <= 400
    two = [runs[0], frozenset({("other", 0)}), runs[1], frozenset({("other", 0), ("x", 0)})]
    assert run_groups(two) == [0, 1, 0, 1]


def _full_objective(value: str) -> str:
    """The full example with its first plan step's objective, in its flow mapping, written ``value``."""
    from warroom.core.author._examples import example_path

    text = example_path("full").read_text(encoding="utf-8")
    old = "objective: Every open invoice of March fetched.}"
    assert old in text
    return text.replace(old, f"objective: {value}}}", 1)


@pytest.mark.parametrize(("value", "quoted"), [
    ("&Co replies", '"&Co replies"'), ("! urgent", '"! urgent"'), ("&Co  replies", '"&Co  replies"'),
])
def test_indicator_cut_in_a_flow_mapping_quotes_the_value_not_the_mapping_end(value: str, quoted: str,
                                                                               tmp_path: Path) -> None:
    """The warning's quoted text ran to the end of the line, so a value in a {...} mapping was quoted with the
    mapping's `}` (`"&Co replies}"`): pasted, the objective read `&Co replies}` and the mapping closed after it.
    The quoted text is the value alone, and pasting it reads the text as written."""
    from warroom.core.load import load_drill_with_warnings

    path = tmp_path / "fanout-retries.yaml"
    path.write_text(_full_objective(value), encoding="utf-8")
    _, warnings = load_drill_with_warnings(path)
    cut = [w for w in warnings if w.rule == "indicator-cut"]
    assert len(cut) == 1 and cut[0].message.endswith(f"put it all in quotes: {quoted}")
    path.write_text(_full_objective(quoted), encoding="utf-8")
    drill, again = load_drill_with_warnings(path)
    assert drill.plan[1].objective == value and not [w for w in again if w.rule == "indicator-cut"]


def test_an_unsupported_tag_in_a_flow_mapping_quotes_the_value_not_the_mapping_end() -> None:
    from warroom.core.load import DrillLoadError

    with pytest.raises(DrillLoadError) as caught:
        load_drill_text(_full_objective("!foo bar"), "full.yaml")
    assert str(caught.value).endswith('if it belongs to the text, put it all in quotes: "!foo bar"')


@pytest.mark.parametrize(("value", "message"), [
    ("| pipe text", '`|` cannot start unquoted text inside a [...] list or {...} mapping: put the whole text in '
                    'quotes, "| pipe text"'),
    ("> 5 replies", '`>` cannot start unquoted text inside a [...] list or {...} mapping: put the whole text in '
                    'quotes, "> 5 replies"'),
    ("] bracket", '`]` cannot start unquoted text in YAML (it closes a [...] list): put the whole text in quotes, '
                  '"] bracket"'),
    ("&Cø replies", "`&` at the start of a value makes it an anchor (a name an alias `*` refers to), not text: put "
                    'the whole text in quotes, "&Cø replies"'),
])
def test_a_reserved_start_inside_a_flow_mapping_says_what_to_write(value: str, message: str) -> None:
    """The advice for a value starting with a character YAML reserves stopped at a flow collection: `|` or `>`
    in a {...} mapping was 'found character that cannot start any token', `]` 'did not find expected node
    content', an anchor of letters YAML 1.1 refuses (&Cø) 'expected alphabetic or numeric character'; each is
    named with the quoted text to write (the value alone: a `]` first was quoted as "")."""
    from warroom.core.load import DrillLoadError

    text = _full_objective(value)
    with pytest.raises(DrillLoadError) as caught:
        load_drill_text(text, "full.yaml")
    row = next(n for n, line in enumerate(text.splitlines(), start=1) if f"objective: {value}" in line)
    column = text.splitlines()[row - 1].index(value) + 1
    assert str(caught.value) == f"full.yaml:{row}:{column}: {message}"


@pytest.mark.parametrize("first", [b"BZh I pressed escalate\n", b"BZh91AY&SY: not JSON\n"])
def test_a_text_log_whose_first_bytes_look_like_a_magic_number_is_not_called_compressed(tmp_path: Path,
                                                                                       first: bytes) -> None:
    """`warroom score` named a log compressed by its first bytes alone, before it looked whether they are text: a
    UTF-8 line starting `BZh` (bzip2's magic) was 'compressed (bzip2) ... `bunzip2 -k FILE`', a command that can
    only fail. As the drill loader and the importers do, a log is named compressed only when it is not text."""
    import bz2

    from click.testing import CliRunner

    from warroom.cli import main
    from warroom.core.author._examples import example_path

    drill = tmp_path / "full.yaml"
    drill.write_text(example_path("full").read_text(encoding="utf-8"), encoding="utf-8")
    log = tmp_path / "session.jsonl"
    log.write_bytes(first)
    result = CliRunner().invoke(main, ["score", str(drill), str(log)])
    assert f"{log}:1:1: not a JSON line (Expecting value" in result.output and "compressed" not in result.output
    log.write_bytes(bz2.compress(b'{"t": 12, "kind": "pause"}\n'))
    result = CliRunner().invoke(main, ["score", str(drill), str(log)])
    assert f"{log}:1:1: compressed (bzip2), not a log's JSON Lines" in result.output


def _set_in_a_decomposed_folder(tmp_path: Path) -> str:
    """A drill set in a folder named `café` as macOS writes it (NFD), and the path to it as typed (NFC)."""
    import unicodedata

    folder = tmp_path / unicodedata.normalize("NFD", "café")
    folder.mkdir()
    (folder / "week-1.yaml").write_text("set: week-1\ntitle: Week 1\ndrills:\n  - api-dns-cutover\n", encoding="utf-8")
    return str(tmp_path / "café" / "week-1.yaml")


def test_a_drill_set_file_in_another_unicode_form_is_named_so_by_the_set_loader(tmp_path: Path) -> None:
    """`warroom --set café/week-1.yaml` said `no such file` of a set ls lists in a folder named in NFD (as macOS
    writes names), where a drill in it is named as such since campaign 15: a set file is named so too."""
    from warroom.core.load import DrillSetError, load_drill_set

    typed = _set_in_a_decomposed_folder(tmp_path)
    with pytest.raises(DrillSetError) as caught:
        load_drill_set(typed)
    assert str(caught.value.problems[0]).startswith(
        f"{typed}:1:1: no file {typed!r} as typed, but 'café' is on disk with its name written in another Unicode "
        "form, decomposed (NFD")


@pytest.mark.parametrize("command", [["scores", "list"], ["report"]])
def test_scores_set_in_another_unicode_form_is_named_so(tmp_path: Path, command: list[str]) -> None:
    """`warroom scores --set café/week-1.yaml` and `report --set` said `no drill set file` of it."""
    from click.testing import CliRunner

    from warroom.cli import main

    typed = _set_in_a_decomposed_folder(tmp_path)
    result = CliRunner().invoke(main, ["--data-dir", str(tmp_path / "data"), *command, "--set", typed])
    assert result.exit_code == 2
    assert f"no file {typed!r} as typed, but 'café' is on disk with its name written in another Unicode form" \
        in result.output


def test_an_action_log_in_another_unicode_form_is_named_so(tmp_path: Path) -> None:
    """`warroom score DRILL café/log.jsonl` said `cannot read it: No such file or directory` of a log ls lists in
    a folder named in NFD (macOS), where the drill beside it is named as such: the log is too."""
    import unicodedata

    from click.testing import CliRunner

    from warroom.cli import main
    from warroom.core.author._examples import example_path

    folder = tmp_path / unicodedata.normalize("NFD", "café")
    folder.mkdir()
    (folder / "log.jsonl").write_text('{"t": 12, "kind": "pause"}\n', encoding="utf-8")
    drill = tmp_path / "full.yaml"
    drill.write_text(example_path("full").read_text(encoding="utf-8"), encoding="utf-8")
    typed = str(tmp_path / "café" / "log.jsonl")
    result = CliRunner().invoke(main, ["score", str(drill), typed])
    assert f"{typed}: no file {typed!r} as typed, but 'café' is on disk with its name written in another Unicode " \
           "form" in result.output


def test_migrate_names_a_drill_in_another_unicode_form(tmp_path: Path) -> None:
    """`warroom migrate café/x.yaml` said `cannot read the file: No such file or directory` of a file ls lists in a
    folder named in NFD, where validate, run and project name it so."""
    import unicodedata

    from warroom.core.author import migrate_file
    from warroom.core.load import DrillLoadError

    folder = tmp_path / unicodedata.normalize("NFD", "café")
    folder.mkdir()
    (folder / "x.yaml").write_text("id: x\n", encoding="utf-8")
    typed = str(tmp_path / "café" / "x.yaml")
    with pytest.raises(DrillLoadError) as caught:
        migrate_file(typed)
    assert str(caught.value).startswith(f"{typed}:1:1: no file {typed!r} as typed, but 'café' is on disk")


def test_a_reused_tool_call_id_made_unique_never_takes_an_id_the_conversation_uses(tmp_path: Path) -> None:
    """A reused id is made unique as `0#1`: a conversation whose own calls hold the id `0#1` as well was refused
    as "messages[5]: tool call id '0#1' is used twice", an id messages[5] does not hold. The made id is one no call
    of the conversation has, and each result answers its call."""
    from warroom.core.load import load_yaml_text
    from warroom.importers import chat

    def call(call_id: str, name: str) -> dict[str, object]:
        return {"role": "assistant", "content": None,
                "tool_calls": [{"id": call_id, "type": "function", "function": {"name": name, "arguments": "{}"}}]}

    messages = [{"role": "user", "content": "go"},
                call("0", "lookup"), {"role": "tool", "tool_call_id": "0", "content": "A"},
                call("0#1", "check"), {"role": "tool", "tool_call_id": "0#1", "content": "B"},
                call("0", "refund"), {"role": "tool", "tool_call_id": "0", "content": "C"},
                {"role": "assistant", "content": "done"}]
    path = tmp_path / "ids.json"
    path.write_text(json.dumps(messages))
    report = chat.import_chats([path], tmp_path / "out")
    assert not report.failed, [r.error for r in report.failed]
    drill = load_yaml_text((tmp_path / "out" / "chat-ids.yaml").read_text())
    tools = {e["id"]: e["tool"] for e in drill["trace"] if e["kind"] == "tool_call"}
    answered = {tools[e["call"]]: e["output"] for e in drill["trace"] if e["kind"] == "tool_result"}
    assert answered == {"lookup": "A", "check": "B", "refund": "C"}


def test_ollama_results_naming_their_tool_only_answer_calls_that_have_ids(tmp_path: Path) -> None:
    """Ollama's chat API gives tool calls an id in later versions, while its clients still append each result
    with its `tool_name` only: such a conversation was refused ('a tool message needs the `tool_call_id`'), as the
    results were matched only to calls without an id. A result naming its tool answers the earliest unanswered call
    of that tool, one answered by its id is no longer open."""
    from warroom.core.load import load_yaml_text
    from warroom.importers import chat

    def call(call_id: str, city: str) -> dict[str, object]:
        return {"id": call_id, "function": {"index": 0, "name": "get_weather", "arguments": {"city": city}}}

    messages = [{"role": "user", "content": "Paris, Rome and Lima?"},
                {"role": "assistant", "content": "", "tool_calls": [call("call_a", "Paris"), call("call_b", "Rome")]},
                {"role": "tool", "tool_call_id": "call_a", "content": "20 C"},
                {"role": "tool", "tool_name": "get_weather", "content": "25 C"},
                {"role": "assistant", "content": "", "tool_calls": [call("call_c", "Lima")]},
                {"role": "tool", "tool_name": "get_weather", "content": "19 C"},
                {"role": "assistant", "content": "20 C, 25 C, 19 C"}]
    path = tmp_path / "ollama.json"
    path.write_text(json.dumps({"model": "qwen3", "messages": messages}))
    report = chat.import_chats([path], tmp_path / "out")
    assert not report.failed, [r.error for r in report.failed]
    drill = load_yaml_text((tmp_path / "out" / "chat-ollama.yaml").read_text())
    calls = {e["id"]: e["arguments"]["city"] for e in drill["trace"] if e["kind"] == "tool_call"}
    answered = {calls[e["call"]]: e["output"] for e in drill["trace"] if e["kind"] == "tool_result"}
    assert answered == {"Paris": "20 C", "Rome": "25 C", "Lima": "19 C"}
    del messages[3]["tool_name"]  # neither tool_call_id nor Ollama's tool_name: still refused (docs/importing.md)
    path.write_text(json.dumps({"model": "qwen3", "messages": messages}))
    report = chat.import_chats([path], tmp_path / "out2")
    assert "[3]: a tool message needs the `tool_call_id` of the call it answers" in report.failed[0].error


@pytest.mark.parametrize(("written", "message", "title"), [
    ('"He said "hi" to me"', 'the `"` inside the quoted text ends it early, so the rest of the value is left over: a '
                             '`"` inside double quotes is written `\\"`: "He said \\"hi\\" to me"',
     'He said "hi" to me'),
    ("'It's late'", "the `'` inside the quoted text ends it early, so the rest of the value is left over: a `'` "
                    "inside single quotes is written twice, `''`: 'It''s late'", "It's late"),
    ('"C:\\\\dir "x""', 'the `"` inside the quoted text ends it early, so the rest of the value is left over: a '
                       '`"` inside double quotes is written `\\"`: "C:\\\\dir \\"x\\""', 'C:\\dir "x"'),
])
def test_a_quote_inside_quoted_text_gives_the_value_written_right(written: str, message: str, title: str) -> None:
    """`title: "He said "hi" to me"` was told 'text after the closing quote ... put the whole value inside the
    quotes', of a value that is inside them: the quote inside ends it. The message says so and gives the value
    written right, which pasted reads as meant (other escapes kept as written)."""
    from warroom.core.author._examples import example_path
    from warroom.core.load import DrillLoadError

    text = example_path("full").read_text(encoding="utf-8")
    old = "title: Vendor invoice reconciliation"
    with pytest.raises(DrillLoadError) as caught:
        load_drill_text(text.replace(old, f"title: {written}", 1), "full.yaml")
    assert str(caught.value).split(": ", 1)[1] == message
    pasted = message.rsplit(": ", 1)[1]
    assert load_drill_text(text.replace(old, f"title: {pasted}", 1), "full.yaml").title == title


def test_indicator_cut_of_a_value_over_several_lines_quotes_the_whole_value(tmp_path: Path) -> None:
    """The quoted text of a plain value over two lines was its first line (`"&Co replies"`): pasted over the value,
    the title lost `and more`; pasted over the first line only, the file no longer parsed. It is the value as YAML
    folds it, and pasting it reads the text as written."""
    from warroom.core.author._examples import example_path
    from warroom.core.load import load_drill_with_warnings

    text = example_path("full").read_text(encoding="utf-8")
    old = "title: Vendor invoice reconciliation"
    path = tmp_path / "fanout-retries.yaml"
    path.write_text(text.replace(old, "title: &Co replies\n  and more", 1), encoding="utf-8")
    _, warnings = load_drill_with_warnings(path)
    (cut,) = [w for w in warnings if w.rule == "indicator-cut"]
    assert cut.message.endswith('put it all in quotes: "&Co replies and more"')
    path.write_text(text.replace(old, 'title: "&Co replies and more"', 1), encoding="utf-8")
    assert load_drill_with_warnings(path)[0].title == "&Co replies and more"


def test_a_reserved_start_of_a_value_over_several_lines_quotes_the_whole_value() -> None:
    """`title: @oncall paged` over two lines was told to write `"@oncall paged"`: pasted over its first line, the
    file no longer parsed (the second line was left under a quoted value). The quoted text is the whole value."""
    from warroom.core.author._examples import example_path
    from warroom.core.load import DrillLoadError

    text = example_path("full").read_text(encoding="utf-8")
    old = "title: Vendor invoice reconciliation"
    with pytest.raises(DrillLoadError) as caught:
        load_drill_text(text.replace(old, "title: @oncall paged\n  at night  # late", 1), "full.yaml")
    assert str(caught.value).endswith('put the whole text in quotes, "@oncall paged at night"')
    assert load_drill_text(text.replace(old, 'title: "@oncall paged at night"', 1), "full.yaml").title == \
        "@oncall paged at night"
