"""A fourth fresh hostile campaign on issue 30's promises, on the authoring and reading inputs (drill YAML in both
formats, drill sets, the authoring commands, ``warroom annotate``'s save, the trace importers): each case a hostile
author or trainee or a faulty world found, with the right behaviour."""

from __future__ import annotations

import difflib
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from warroom.cli import main
from warroom.core.load import DrillLoadError, load_drill_text, load_yaml_text
from warroom.core.text import clean_name


def test_a_drill_of_many_unknown_keys_offers_a_did_you_mean_for_the_first_twenty_only(monkeypatch):
    """80,000 unknown top-level keys (a 900 KB file): every one was matched against the allowed keys for a
    did-you-mean (about 1 ms each: 145 s for the file, two hours for the 64 MiB limit). As for references
    (docs/authoring.md), only the first 20 misspelt words get one; each key is still a problem at its place."""
    calls = []
    original = difflib.get_close_matches
    monkeypatch.setattr(difflib, "get_close_matches", lambda *a, **k: calls.append(a[0]) or original(*a, **k))
    text = "".join(f"title_{i}: x\n" for i in range(2000))
    with pytest.raises(DrillLoadError) as caught:
        load_drill_text(text, "many.yaml")
    problems = caught.value.problems
    hinted = [p for p in problems if "did you mean `title`?" in p.message]
    assert len(calls) == 20 and len(hinted) == 20
    assert [p.line for p in hinted] == list(range(1, 21))
    assert sum("unknown key `title_" in p.message for p in problems) == 2000


def test_an_imported_drills_header_writes_a_trace_ids_control_characters_escaped(tmp_path: Path):
    """An OTLP trace whose ``traceId`` holds an escape sequence and a bell (or a file so named): the drill's header
    comment carried them raw, so the written drill was no YAML (``validate``: "a control character ... that YAML
    does not allow") and ``head`` on it played the sequence, while the import said "2 drills imported"."""
    from locations import TESTS

    data = json.loads((TESTS / "fixtures" / "otel" / "current.json").read_text())
    for span in (s for r in data["resourceSpans"] for scope in r["scopeSpans"] for s in scope["spans"]):
        span["traceId"] = "\x1b[31mred\x1b]0;t\x07\u202e"
    source = tmp_path / "t\x1b[2J.json"
    source.write_text(json.dumps(data))
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["import", "otel", str(source), "--out", str(out)])
    assert result.exit_code == 0, result.output
    (drill,) = out.glob("*.yaml")
    first = drill.read_text().splitlines()[0]
    assert first == (f"# Imported by `warroom import otel` from {clean_name(source.name)}, trace "
                     "\\x1b[31mred\\x1b]0;t\\x07\\u202e.")  # fmt: skip
    checked = CliRunner().invoke(main, ["validate", str(drill)])
    assert checked.output.count(f"{drill}:") == 1 and "the drill needs an answer_key" in checked.output


@pytest.mark.parametrize("text", ["1e999", "1e5", "1.5e3", "0o17", "+1E5", ".5e3"])
def test_an_imported_text_that_yaml_1_2_reads_as_a_number_is_written_quoted(tmp_path: Path, text: str):
    """A chat whose user wrote ``1e5`` (or a span named ``1e999``): the importer's YAML writer quoted what YAML 1.1
    reads as a number but wrote these plain, which the drill loader (YAML 1.2) reads as numbers: the drill said
    "imported" and then did not load (``got `1e999` ... the number inf``), or a tool argument changed value."""
    from locations import TESTS

    chat = json.loads((TESTS / "fixtures" / "chat" / "refund.json").read_text())
    chat["messages"][1]["content"] = text
    source = tmp_path / "chat.json"
    source.write_text(json.dumps(chat))
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["import", "chat", str(source), "--out", str(out)])
    assert result.exit_code == 0, result.output
    (drill,) = out.glob("*.yaml")
    checked = CliRunner().invoke(main, ["validate", str(drill)])
    assert checked.output.count(f"{drill}:") == 1 and "the drill needs an answer_key" in checked.output
    data = load_yaml_text(drill.read_text())
    assert text in [event.get("content") for event in data["trace"]]
