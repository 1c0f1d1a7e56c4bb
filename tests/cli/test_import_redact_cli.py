"""`warroom import FORMAT --redact` and `--trace-id`: placeholders consistent across events and files, counts in
the summary, one trace picked from a file of several (or a clear error naming the ids found)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import yaml
from click.testing import CliRunner
from trace_import_support import FIXTURES, only_missing_key

from warroom.cli import main


def _chat(path: Path, user: str, tool_output: str) -> Path:
    path.write_text(json.dumps({"messages": [
        {"role": "user", "content": user},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "call_1", "type": "function", "function": {"name": "lookup", "arguments": json.dumps(
                {"email": "ann.lee@example.com"})}}]},
        {"role": "tool", "tool_call_id": "call_1", "content": tool_output},
        {"role": "assistant", "content": "Done, Ann Lee."},
    ]}), encoding="utf-8")
    return path


def test_chat_redaction_is_consistent_across_events_and_files(tmp_path: Path) -> None:
    src = tmp_path / "in"
    src.mkdir()
    _chat(src / "a.json", "I am Ann Lee, ann.lee@example.com, +1 202-555-0143", '{"ip": "10.0.0.7"}')
    _chat(src / "b.json", "Ann Lee again from 10.0.0.7; my key sk-abcdefghijklmnopqrstu", '{"owner": "ann lee"}')
    names = tmp_path / "names.txt"
    names.write_text("Ann Lee\n", encoding="utf-8")
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["import", "chat", str(src), "--out", str(out), "--redact-names", str(names)])
    assert result.exit_code == 0, result.output
    # each text counts: the first user message is also the briefing's goal
    assert ("redacted 4 e-mail addresses, 2 API keys or tokens, 3 IP addresses, 2 phone numbers, 7 names"
            in result.output)
    a, b = (yaml.safe_load((out / f"chat-{n}.yaml").read_text(encoding="utf-8")) for n in "ab")
    assert a["trace"][0]["content"] == "I am <name-1>, <email-1>, <phone-1>"
    assert a["trace"][1]["arguments"] == {"email": "<email-1>"} == b["trace"][1]["arguments"]
    assert a["trace"][2]["output"] == '{"ip": "<ip-1>"}'
    assert b["trace"][0]["content"] == "<name-1> again from <ip-1>; my key <key-1>"
    assert b["trace"][2]["output"] == '{"owner": "<name-1>"}'
    assert b["briefing"]["goal"] == b["trace"][0]["content"]
    for f in out.iterdir():
        text = f.read_text(encoding="utf-8")
        assert "example.com" not in text and "Ann Lee" not in text and "10.0.0.7" not in text
        only_missing_key(f)


def test_without_redact_nothing_is_replaced_and_no_count_is_printed(tmp_path: Path) -> None:
    _chat(tmp_path / "a.json", "I am Ann Lee, ann.lee@example.com", "ok")
    result = CliRunner().invoke(main, ["import", "chat", str(tmp_path / "a.json"), "--out", str(tmp_path / "o")])
    assert result.exit_code == 0 and "redacted" not in result.output
    assert "ann.lee@example.com" in (tmp_path / "o" / "chat-a.yaml").read_text(encoding="utf-8")


def test_a_file_that_fails_is_not_counted(tmp_path: Path) -> None:
    _chat(tmp_path / "a.json", "write to x@example.com", "ok")
    (tmp_path / "b.json").write_text('[{"role": "tool", "content": "y@example.com"}]', encoding="utf-8")
    result = CliRunner().invoke(main, ["import", "chat", str(tmp_path / "a.json"), str(tmp_path / "b.json"),
                                       "--out", str(tmp_path / "o"), "--redact"])
    assert result.exit_code == 1
    assert "redacted 3 e-mail addresses" in result.output  # a.json's message, goal and arguments; not b.json's


def test_otel_redaction_and_who_and_when_summary(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["import", "otel", str(FIXTURES / "otel" / "current.json"),
                                       "--out", str(tmp_path / "o"), "--redact"])
    assert result.exit_code == 0, result.output
    assert "redacted " in result.output
    only_missing_key(tmp_path / "o" / "otel-current.yaml")


def test_who_and_when_redaction_keeps_the_answer_key_playable(tmp_path: Path) -> None:
    record = json.loads((FIXTURES / "who_and_when" / "good" / "captain-agent" / "mini.json").read_text("utf-8"))
    record["history"][1]["content"] += "\nContact: ops@example.org, 192.168.0.9"
    record["mistake_reason"] += " (reported by ops@example.org)"
    src = tmp_path / "captain-agent" / "mini.json"
    src.parent.mkdir()
    src.write_text(json.dumps(record), encoding="utf-8")
    result = CliRunner().invoke(main, ["import", "who-and-when", str(src), "--out", str(tmp_path / "w"), "--redact"])
    assert result.exit_code == 0, result.output
    # the reason is in the fault summary and the debrief: 3 e-mail addresses with the one in h001
    assert result.output.splitlines()[-1] == "redacted 3 e-mail addresses, 1 IP address"
    from warroom.core.author import run_checks
    from warroom.core.load import load_drill

    drill = load_drill(tmp_path / "w" / "ww-captain-agent-mini.yaml")
    assert drill.event("h001").output.endswith("Contact: <email-1>, <ip-1>")
    assert "<email-1>" in drill.answer_key.fault.summary and "<email-1>" in drill.answer_key.debrief
    assert run_checks(drill).passed


LEGACY = FIXTURES / "otel" / "legacy.jsonl"


def _trace_ids(path: Path) -> list[str]:
    """The trace ids of an OTLP/JSON Lines file, read from its text in order of first appearance."""
    ids = [s["traceId"] for line in path.read_text(encoding="utf-8").splitlines()
           for rs in json.loads(line)["resourceSpans"] for ss in rs["scopeSpans"] for s in ss["spans"]]
    return list(dict.fromkeys(ids))


def test_trace_id_picks_one_trace(tmp_path: Path) -> None:
    run, followup = _trace_ids(LEGACY)  # the agent run, then the follow-up question
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["import", "otel", str(LEGACY), "--out", str(out),
                                       "--trace-id", f" {followup.upper()} "])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.iterdir()) == ["otel-legacy.yaml"]
    drill = yaml.safe_load((out / "otel-legacy.yaml").read_text(encoding="utf-8"))
    assert f"trace {followup}" in drill["source"] and run not in drill["source"]
    assert drill["briefing"]["goal"] == "Which March invoices did you pay, and when?"  # the follow-up's, not the run's


def test_without_trace_id_each_trace_is_a_drill(tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["import", "otel", str(LEGACY), "--out", str(out)])
    assert result.exit_code == 0, result.output
    drills = [yaml.safe_load(p.read_text(encoding="utf-8")) for p in sorted(out.iterdir())]
    assert [d["source"].split("trace ")[1][:32] for d in drills] == _trace_ids(LEGACY)
    goals = [d["briefing"]["goal"] for d in drills]
    assert goals == ["Reconcile March's vendor invoices and pay what is unpaid, once.",
                     "Which March invoices did you pay, and when?"]


def test_an_absent_trace_id_names_the_ids_found_and_writes_nothing(tmp_path: Path) -> None:
    src = tmp_path / "in"
    src.mkdir()
    shutil.copy(FIXTURES / "openinference" / "phoenix.jsonl", src)
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["import", "openinference", str(src), "--out", str(out), "--trace-id", "abc"])
    assert result.exit_code == 1
    line = next(x for x in result.output.splitlines() if "phoenix.jsonl:" in x)
    assert line.startswith(f"{src / 'phoenix.jsonl'}:1:1: no trace abc in this file; its trace ids: ")
    assert not any(out.iterdir())
    assert "0 drills imported" in result.output and "no answer key yet" not in result.output  # no drill to mark up
