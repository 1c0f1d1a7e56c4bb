"""`warroom project` on the command line: one projection written and fit to play (validate, check), where each
template applies (--list), every projection of a folder of healthy runs of several shapes (--all), the shared
tau-bench corpus when it is there, errors as path:line:col: message (never a traceback), and `warroom annotate`'s
key writer refining a projected key."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from projection_support import HEALTHY, RUNS, corpus_dir, imported

from warroom.cli import main
from warroom.core.load import load_drill, load_yaml_text
from warroom.core.projection import TEMPLATES


def run(*args: str) -> object:
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output, result.output
    return result


def test_one_projection_is_written_and_passes_validate_and_check(tmp_path: Path):
    source = imported(tmp_path)
    out = tmp_path / "out"
    result = run("project", str(source), "--template", "wrong-record", "--at", "m011", "--out", str(out))
    assert result.exit_code == 0, result.output
    written = list(out.glob("*.yaml"))
    assert len(written) == 1 and f"Wrote {written[0]}" in result.output
    assert "warroom annotate" in result.output and "wrong-record at m011" in result.output
    # written, with check's warning: m011 is the newest event for 15% of the trace (m019 is the better site)
    assert (f"{written[0]}: warning: the fault drill: warroom check: newest guess (the newest event's step, citing it, "
            "at a random moment): a hit for 15% of the trace (m011 at 59.4-81.9 s)") in result.output
    assert run("validate", str(written[0])).exit_code == 0
    checked = run("check", str(written[0]))
    assert checked.exit_code == 0 and "PASS" in checked.output
    text = written[0].read_text(encoding="utf-8")
    assert text.startswith("# Projected by `warroom project` from ")
    again = run("project", str(source), "--template", "wrong-record", "--at", "m011", "--out", str(out))
    assert again.exit_code == 1 and "exists; --force overwrites it" in again.output
    assert run("project", str(source), "--template", "wrong-record", "--at", "m011", "--out", str(out),
               "--force").exit_code == 0


def test_list_shows_where_each_template_applies(tmp_path: Path):
    source = imported(tmp_path)
    result = run("project", "--list", str(source))
    assert result.exit_code == 0, result.output
    for name in TEMPLATES:
        assert name in result.output
    assert "m011" in result.output and "get_order_details" in result.output and "no consequential call" in result.output
    rows = json.loads(run("project", "--list", str(source), "--format", "json").output)
    assert {r["template"] for r in rows} == set(TEMPLATES)
    assert all({"event", "step", "tool", "field", "damage", "problem"} <= set(r) for r in rows)


def test_all_projects_a_folder_of_healthy_runs_of_every_shape(tmp_path: Path):
    for name in RUNS:
        imported(tmp_path, name)
    out = tmp_path / "projected"
    result = run("project", "--all", str(tmp_path / "healthy"), "--out", str(out), "-v")
    assert result.exit_code == 0, result.output
    written = sorted(out.glob("*.yaml"))
    assert len(written) >= 25 and f"{len(written)} fault drills with their twins written" in result.output
    assert "duplicate site" in result.output
    prefixes = {p.name.rsplit("-p", 1)[0] for p in written}
    assert prefixes == {drill_id for _, _, drill_id in RUNS.values()}
    assert run("validate", str(out)).exit_code == 0
    checked = run("check", str(out))
    assert checked.exit_code == 0, checked.output[-2000:]
    levels = {load_drill(p).difficulty for p in written}
    assert len(levels) >= 2


def test_errors_are_path_line_col_messages_with_what_to_do(tmp_path: Path):
    source = imported(tmp_path)
    cases = [
        (["--template", "stale-date"], 1, "did you mean `stale-data`"),
        (["--template", "stale-data", "--at", "m999"], 1, f"{source}:"),
        (["--template", "stale-data", "--at", "m001"], 1, "does not apply at m001"),
        (["--template", "stale-data", "--damage", "cancel*"], 1, "PATTERN=AMOUNT"),
        (["--template", "stale-data", "--window", "2"], 2, "at least 5"),
        ([], 2, "give one --template NAME"),
    ]
    for extra, code, said in cases:
        result = run("project", str(source), *extra, "--out", str(tmp_path / "o"))
        assert result.exit_code == code and said in result.output, (extra, result.output)
    assert run("project").exit_code == 2
    assert run("project", "--all", str(tmp_path)).exit_code == 2  # no --out
    bad = tmp_path / "bad" / "broken.yaml"
    bad.parent.mkdir()
    bad.write_text("schema_version: 2\nid: broken\ntrace: [\n", encoding="utf-8")
    result = run("project", "--all", str(bad.parent), "--out", str(tmp_path / "o2"))
    assert result.exit_code == 1 and f"{bad}:" in result.output


def test_annotate_refines_a_projected_key(tmp_path: Path):
    from warroom.core.author import DeadlineMark, open_for_annotation, write_draft

    source = imported(tmp_path)
    out = tmp_path / "out"
    assert run("project", str(source), "--template", "stale-data", "--at", "m011", "--out", str(out)).exit_code == 0
    path = next(out.glob("*.yaml"))
    opened = open_for_annotation(path)
    assert opened.draft.kind == "stale_data" and opened.draft.origin_step == "u03"
    opened.draft.summary = "The order came from a replica cache weeks old, and the return was made on it."
    opened.draft.deadline = DeadlineMark(after=0.5, event="m013")
    write_draft(path, opened.draft, opened.event_order)
    drill = load_drill(path)
    assert drill.answer_key is not None and drill.answer_key.fault.summary.startswith("The order came from")
    assert load_yaml_text(path.read_text(encoding="utf-8"))["answer_key"]["deadline"] == {"event": "m013",
                                                                                         "after": 0.5}
    assert run("check", str(path)).exit_code == 0


@pytest.mark.skipif(corpus_dir() is None, reason="the shared tau-bench retail corpus is not here")
def test_the_shared_tau_bench_runs_give_at_least_100_projections(tmp_path: Path):
    corpus = corpus_dir()
    assert corpus is not None
    imported_to = tmp_path / "healthy"  # read where it is: nothing of the corpus is copied anywhere
    result = run("import", "chat", str(corpus), "--out", str(imported_to))
    assert result.exit_code == 0, result.output
    out = tmp_path / "projected"
    result = run("project", "--all", str(imported_to), "--out", str(out))
    assert result.exit_code == 0, result.output
    written = sorted(out.glob("*.yaml"))
    assert len(written) >= 100 and "0 projections that would fail warroom check" in result.output
    # the drills a blind newest guess wins too often are counted and named as such (no better site of their shape)
    warned = re.search(r"warning: in (\d+) drills of these a blind newest guess", result.output)
    assert warned, result.output
    over = [p.name for p in written if _guessable(load_drill(p))]
    assert len(over) == int(warned.group(1)), over
    for path in written[::25]:  # every one was checked before it was written; these are read back from disk
        assert load_drill(path).answer_key is not None


def _guessable(drill) -> bool:
    """Whether ``warroom check`` warns that a blind newest guess wins ``drill`` too often."""
    from warroom.core.author import NEWEST_GUESS_WARN, newest_guess_share, newest_guess_windows

    return newest_guess_share(newest_guess_windows(drill), drill) > NEWEST_GUESS_WARN


def test_a_run_that_is_one_request_is_projected_in_its_only_plan_step(tmp_path: Path):
    # A chat with no system prompt and one user message imports as one plan step (u01), and its first trace event
    # (the request) is in it. Escalating u01 at once is an early escalation, not a hit, so the step is a fair origin:
    # the same run with a system prompt first was projected, this one was refused as a whole.
    healthy = tmp_path / "healthy"
    result = run("import", "chat", str(HEALTHY / "chat-single-request.json"), "--out", str(healthy))
    assert result.exit_code == 0, result.output
    (source,) = healthy.glob("*.yaml")
    rows = json.loads(run("project", "--list", str(source), "--format", "json").output)
    assert {r["step"] for r in rows} == {"u01"}
    assert [r["event"] for r in rows if r["problem"] is None] == ["m004"] * 7 + ["m006"] * 2 + ["m008"] * 2
    out = tmp_path / "projected"
    result = run("project", "--all", str(healthy), "--out", str(out))
    assert result.exit_code == 0, result.output
    written = sorted(out.glob("*.yaml"))
    assert len(written) == 11 and "11 fault drills with their twins written" in result.output
    assert ("Left out: 0 duplicate sites (the same template on the same result shape), 5 sites that cannot be "
            "projected (4 fewer than 4 events before it, 1 no consequential call after it), 0 projections that "
            "would fail warroom check.") in " ".join(result.output.split())
    assert {load_drill(p).answer_key.fault.origin_step for p in written} == {"u01"}
    checked = run("check", "--format", "json", str(out))
    assert checked.exit_code == 0, checked.output[-2000:]
    report = json.loads(checked.output)
    assert report["checked"] == 11 and report["failed"] == 0
    for drill in report["drills"]:
        trigger_happy = next(r for r in drill["runs"] if r["trainee"] == "trigger-happy")
        assert trigger_happy["response"] != "hit"


def test_all_names_each_healthy_run_that_gave_no_drill_and_why(tmp_path: Path):
    # a run whose tool results are plain text (no template can change them) gives no drill: --all says so by name,
    # beside the runs that did give drills, and a folder that gave no drill at all exits 1
    text_only = tmp_path / "shell.json"
    call = {"id": "s1", "type": "function", "function": {"name": "shell", "arguments": '{"cmd": "du -sh /tmp/b"}'}}
    text_only.write_text(json.dumps([
        {"role": "system", "content": "You clean build hosts."},
        {"role": "user", "content": "Delete the temp files on build-7."},
        {"role": "assistant", "content": "", "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "s1", "content": "1.2G\t/tmp/b\n"},
        {"role": "assistant", "content": "", "tool_calls": [call | {"id": "s2", "function": {
            "name": "delete_files", "arguments": '{"path": "/tmp/b"}'}}]},
        {"role": "tool", "tool_call_id": "s2", "content": "removed 3 entries"},
        {"role": "assistant", "content": "Done, freed 1.2G."},
    ]), encoding="utf-8")
    alone = tmp_path / "alone"
    assert run("import", "chat", str(text_only), "--out", str(alone)).exit_code == 0
    result = run("project", "--all", str(alone), "--out", str(tmp_path / "none"))
    source = alone / "chat-shell.yaml"
    assert result.exit_code == 1
    assert (f"not projected: {source}: no template applies to any of its tool results (they need JSON records or "
            f"lists: a mapping, a list of records, money amounts, ids the call asked for ...); `warroom project "
            f"--list {source}` shows what each template needs") in result.output
    assert "1 healthy run gave no drill (above)." in result.output and "0 fault drills" in result.output
    mixed = imported(tmp_path).parent
    (mixed / source.name).write_bytes(source.read_bytes())
    result = run("project", "--all", str(mixed), "--out", str(tmp_path / "some"))
    assert result.exit_code == 0, result.output
    assert f"not projected: {mixed / source.name}: no template applies" in result.output
    assert "1 healthy run gave no drill (above)." in result.output


def test_all_names_a_run_whose_sites_all_lack_a_consequential_call(tmp_path: Path):
    # with --damage naming a tool the run never calls, no site has a consequential call after it: the run is named
    # with its sites counted by reason (the summary said "with no plan step or no consequential call" of any site)
    source = imported(tmp_path)
    result = run("project", "--all", str(source.parent), "--out", str(tmp_path / "out"), "--damage", "no_such_tool=1")
    assert result.exit_code == 1
    assert (f"not projected: {source}: none of its 26 sites can be projected (26 no consequential call after it); "
            f"`warroom project --list {source}` shows what each template needs") in result.output
    assert "26 sites that cannot be projected (26 no consequential call after it)" in result.output


@pytest.mark.parametrize(
    ("name", "content", "said"),
    [
        ("README.md", b"# Title\n\n* a list item\n", "README.md:3:2: YAML syntax error: "),
        ("bad.yaml", b"foo: [1, 2\nbar: 3\n", "bad.yaml:2:4: YAML syntax error: "),
        ("latin1.yaml", b"id: caf\xe9\n", "latin1.yaml:1:8: the file is not UTF-8 text (byte 0xe9 here); save it as "
         "UTF-8"),
        ("notes.yaml", b"just: a mapping\n", "notes.yaml:1:1: this file is neither a drill"),
    ],
)
def test_list_of_a_file_that_is_not_a_drill_says_what_is_wrong_as_validate_does(tmp_path: Path, name: str,
                                                                                 content: bytes, said: str):
    """Issue 30: `project --list` on a file that is not a drill says file:line:col: what is wrong and what to do,
    the very lines `validate` prints (a non-UTF-8 byte named at its place, a YAML error with what to do)."""
    path = tmp_path / name
    path.write_bytes(content)
    listed, validated = run("project", "--list", str(path)), run("validate", str(path))
    assert listed.exit_code == validated.exit_code == 1
    assert listed.stdout == "" and listed.stderr.startswith(f"{tmp_path}/{said}")
    assert listed.stderr.splitlines() == [line for line in validated.output.splitlines() if str(tmp_path) in line]
    if "YAML" in said:
        assert listed.stderr.rstrip().endswith("fix the YAML there, or check that this is a drill file (`warroom new "
                                               "ID` writes one to start from)")


def test_the_all_summary_says_how_many_drills_have_each_difficulty(capsys):
    # "(difficulty: 3 at 1, 15 at 2)" read as well as "difficulty 3, for 1 drill" as "3 drills of difficulty 1"
    from warroom.cli.author._project import _summary, _Tally

    _summary(Path("healthy"), Path("out"), _Tally(sources=2, written=18, levels={1: 3, 2: 15}))
    out = capsys.readouterr().out
    assert "18 fault drills with their twins written to out from 2 healthy runs in healthy " \
           "(3 of difficulty 1, 15 of difficulty 2)." in out
