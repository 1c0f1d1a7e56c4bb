"""The input-side breaks campaign 5 found and left (issue 30), fixed where each concept lives, each with the right
behaviour: `warroom schema --output` writes as every other writer does (whole or not at all, through a symbolic
link that stays a link, a read-only file refused); a file's name in a message from reading within limits is
escaped at the source; a version-1 drill's action log citing a field is refused at its line; the author mode's
notices name the drill file escaped; a folder too large or too deep to search for drills is refused, never walked
whole; the OpenAI Agents importer reads a deep trace in linear time. Then the same classes of break in the other
writers (store export, import and project with --force, the roster, new) and messages (score, check). A file or
folder name is shown on its line with its controls escaped (``\\x1b``, ``\\x0a``), as in campaign 5."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from warroom.cli import main
from warroom.core.files import TooLarge, read_limited

FORGE = "\x1b[2Ja\nX: forged"  # clears the screen and forges a line starting "X: forged"
SHOWN = "\\x1b[2Ja\\x0aX: forged"


def _no_forgery(output: str) -> None:
    assert "\x1b" not in output, output
    assert not any(line.startswith("X: forged") for line in output.splitlines()), output
    assert SHOWN in output, output


# 1. warroom schema --output


def test_schema_output_through_a_symlink_writes_the_file_it_points_to_and_keeps_the_link(tmp_path: Path):
    """``warroom schema --output link.json`` (a link to a shared schema): the shared file gets the schema, the link
    stays a link to it (the file is replaced whole, by a temporary file renamed over it)."""
    shared = tmp_path / "shared" / "drill.schema.json"
    shared.parent.mkdir()
    shared.write_text("old")
    link = tmp_path / "drill.schema.json"
    link.symlink_to(shared)
    result = CliRunner().invoke(main, ["schema", "--output", str(link)])
    assert result.exit_code == 0, result.output
    assert link.is_symlink() and os.readlink(link) == str(shared)
    assert shared.read_text() == CliRunner().invoke(main, ["schema"]).output
    assert sorted(p.name for p in shared.parent.iterdir()) == ["drill.schema.json"]  # no temporary file left


def test_schema_output_refuses_a_read_only_file_and_leaves_it(tmp_path: Path):
    """A schema file made read-only (``chmod 444``: "do not change") was written over (as root, or by a rename)."""
    target = tmp_path / f"{FORGE}.json"
    target.write_text("keep")
    target.chmod(0o444)
    result = CliRunner().invoke(main, ["schema", "--output", str(target)], color=True)
    assert result.exit_code == 1
    _no_forgery(result.output)
    assert result.output == (
        f"Error: {tmp_path}/{SHOWN}.json: the file is read-only (mode -r--r--r--): make it writable (chmod u+w) or "
        "write the schema to another file; nothing was written\n"
    )
    assert target.read_text() == "keep" and target.stat().st_mode & 0o777 == 0o444


def test_schema_output_that_cannot_be_finished_leaves_the_old_file_whole(tmp_path: Path, monkeypatch):
    """A full disk while the schema is written: ``write_text`` left a truncated file; now the old file stays as it
    was, no temporary file is left, and the error names the file and the reason."""
    target = tmp_path / "drill.schema.json"
    target.write_text("old schema")

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    result = CliRunner().invoke(main, ["schema", "--output", str(target)])
    assert result.exit_code == 1
    assert result.output == f"Error: {target}: cannot write the schema: No space left on device\n"
    assert target.read_text() == "old schema"
    assert [p.name for p in tmp_path.iterdir()] == ["drill.schema.json"]


# 2. read_limited names a path escaped, at the source


def test_read_limited_names_a_special_file_escaped(tmp_path: Path):
    """``read_limited`` of a FIFO (or a folder) with a newline and an ESC in its name: the OSError's message held
    them raw, and callers that print ``exc.strerror or exc`` printed them raw."""
    fifo = tmp_path / f"{FORGE}.yaml"
    os.mkfifo(fifo)
    with pytest.raises(OSError) as caught:
        read_limited(fifo, 100)
    assert str(caught.value) == f"{tmp_path}/{SHOWN}.yaml is a FIFO, not a regular file"


def test_read_limited_names_a_file_over_its_limit_escaped(tmp_path: Path):
    big = tmp_path / f"{FORGE}.yaml"
    big.write_bytes(b"x" * 101)
    with pytest.raises(TooLarge) as caught:
        read_limited(big, 100)
    assert str(caught.value) == f"{tmp_path}/{SHOWN}.yaml: 101 bytes, over the limit of 100"
    assert (caught.value.size, caught.value.limit) == (101, 100)


def test_import_redact_names_file_that_is_a_fifo_is_named_escaped(tmp_path: Path):
    """``warroom import chat --redact-names FIFO``: the names file is read within limits (a FIFO never opened); its
    name was printed with its newline raw (``clean`` keeps newlines) in the usage error."""
    names = tmp_path / FORGE
    os.mkfifo(names)
    trace = Path(__file__).parent.parent / "fixtures" / "chat" / "refund.json"
    result = CliRunner().invoke(
        main, ["import", "chat", str(trace), "--out", str(tmp_path / "out"), "--redact-names", str(names)], color=True
    )
    assert result.exit_code == 2
    _no_forgery(result.output)
    assert f"{tmp_path}/{SHOWN}: cannot read the names file: {tmp_path}/{SHOWN} is a FIFO" in result.output


def test_a_roster_that_is_a_fifo_is_named_escaped(tmp_path: Path):
    """``warroom serve roster list FIFO``: the roster's name was printed raw in its problem line and in the reason
    read_limited gave."""
    roster = tmp_path / FORGE
    os.mkfifo(roster)
    result = CliRunner().invoke(main, ["serve", "roster", "list", str(roster)], color=True)
    assert result.exit_code == 1
    _no_forgery(result.output)
    assert f"{tmp_path}/{SHOWN}:1:1: cannot read the roster: {tmp_path}/{SHOWN} is a FIFO" in result.output


# 4. the author mode's notices name the drill file literally


async def test_annotate_changed_on_disk_notice_names_the_file_escaped(tmp_path: Path):
    """``warroom annotate`` of a drill whose name holds ESC and a newline, saved after another editor changed it:
    the "changed on disk" notice printed the file's name raw three times (in the reason, the recovery copy's name
    and the ``warroom annotate FILE`` to run again), so the toast held an escape sequence and a forged line."""
    from screen_support import lasting_notices, record_notifications, screen_text
    from textual.clock import MockClock

    from warroom.core.author import open_for_annotation
    from warroom.core.library import bundled_drills_dir
    from warroom.tui.app import AnnotateApp

    path = tmp_path / f"{FORGE}.yaml"
    path.write_bytes((bundled_drills_dir() / "duplicate-charge-refunds.yaml").read_bytes())
    app = AnnotateApp(open_for_annotation(path), clock=MockClock())
    async with app.run_test(size=(160, 50), notifications=True) as pilot:
        await pilot.pause()
        lasting_notices(app)  # the toast is read off the screen below: its 15 s never run out before
        messages = record_notifications(app)
        app.screen.draft.distractors.clear()  # type: ignore[attr-defined]
        app.screen.saved = False  # type: ignore[attr-defined]
        path.write_text(path.read_text(encoding="utf-8") + "# saved by another editor\n", encoding="utf-8")
        await pilot.press("s")
        await pilot.pause()
        shown = screen_text(app)
    (message,) = messages
    assert message.startswith(f"{tmp_path}/{SHOWN}.yaml: the file changed on disk since it was opened")
    assert f"Your marks are kept in {tmp_path}/{SHOWN}.yaml.unsaved: quit (q)" in message
    assert f"run `warroom annotate {tmp_path}/{SHOWN}.yaml` again" in message
    assert "\x1b" not in message and message.count("\n") == 1  # the one line break the notice makes itself
    assert "\x1b" not in shown and "X: forged" not in shown.replace("\\x0aX: forged", "")
    assert "\\x1b[2Ja" in shown


# 3. a version-1 drill has no citations of a field


def test_a_field_citation_in_a_version_1_drill_is_refused_at_its_line(tmp_path: Path):
    """``warroom score`` of a version-1 drill with a log citing ``e15:nonexistent``: it was accepted and judged as
    citing e15 whole (a hit, 92/100), though format 1 has no citations of a field (its war room offers none) and
    format 2 refuses what its format does not hold at the log's ``path:line:col``. On the drill made version 2, a
    field e15 has (undeclared by the answer key) is judged by the whole event (docs/scoring.md); one it lacks is
    refused."""
    from locations import TESTS

    v1 = TESTS / "fixtures" / "v1" / "q1-access-review.yaml"
    v2 = tmp_path / "q1-access-review.yaml"
    v2.write_text(v1.read_text(encoding="utf-8").replace("schema_version: 1", "schema_version: 2", 1))
    log = tmp_path / "log.jsonl"
    log.write_text('{"t": 60, "kind": "inspect", "event": "e15"}\n'
                   '{"t": 60, "kind": "escalate", "step": "s4", "cites": ["e15:nonexistent"]}\n')  # fmt: skip
    refused = CliRunner().invoke(main, ["score", str(v1), str(log)])
    assert refused.exit_code == 1
    assert refused.output == (
        f"{log}:2:1: action 2 (escalate at 60 s): 'e15:nonexistent' cites a field of 'e15', and a version-1 drill has "
        "no citations of a field: cite the whole event, 'e15' (fields are cited in format 2)\n"
    )
    whole = log.with_name("whole.jsonl")
    whole.write_text(log.read_text().replace("e15:nonexistent", "e15"))
    assert CliRunner().invoke(main, ["score", str(v1), str(whole)]).output.startswith(f"{whole}: 92/100; contained")
    # format 2 refuses a field e15 does not have too (issue 30's leftovers, tests/unit/test_hostile_campaign7_left.py)
    refused = CliRunner().invoke(main, ["score", str(v2), str(log)])
    assert refused.exit_code == 1 and "'e15:nonexistent' cites a field 'e15' does not have" in refused.output
    field = log.with_name("field.jsonl")
    field.write_text(log.read_text().replace("e15:nonexistent", "e15:exceptions"))
    judged = CliRunner().invoke(main, ["score", str(v2), str(field)])
    assert judged.exit_code == 0 and judged.output.startswith(f"{field}: 92/100; contained"), judged.output


# 5. a folder too large or too deep to search is refused, never walked whole


def test_validate_of_a_folder_too_large_to_search_is_refused_with_what_to_do(tmp_path: Path, monkeypatch):
    """``warroom validate /`` walked the whole file system (811,797 files and folders here, 35 s) and then checked
    every YAML file on it (27,355). The search now stops after ``MAX_WALK_ENTRIES`` files and folders (100,000;
    lowered here) and refuses with what to do; a folder within the limit is searched as before."""
    from warroom.core.library import _library

    folder = tmp_path / FORGE
    (folder / "a").mkdir(parents=True)
    for n in range(6):
        (folder / "a" / f"note{n}.txt").write_text("x")
    monkeypatch.setattr(_library, "MAX_WALK_ENTRIES", 5)
    result = CliRunner().invoke(main, ["validate", str(folder)], color=True)
    assert result.exit_code == 2
    _no_forgery(result.output)
    assert result.output.endswith(
        f"Error: {tmp_path}/{SHOWN}: more than 5 files and folders under it (the search for drill files stops "
        "there): name the folder that holds the drills (or a file), not a folder above them\n"
    )
    monkeypatch.setattr(_library, "MAX_WALK_ENTRIES", 7)  # 1 folder and 6 files: searched, no drill in it
    result = CliRunner().invoke(main, ["validate", str(folder)])
    assert result.exit_code == 2 and "no drill files (*.yaml, *.yml) found in" in result.output


def test_validate_of_folders_nested_too_deep_is_refused_naming_where(tmp_path: Path, monkeypatch):
    from warroom.core.library import _library

    deep = tmp_path / "d1" / "d2" / "d3"
    deep.mkdir(parents=True)
    (deep / "x.yaml").write_text("id: x\n")
    monkeypatch.setattr(_library, "MAX_WALK_DEPTH", 1)
    result = CliRunner().invoke(main, ["validate", str(tmp_path / "d1")])
    assert result.exit_code == 2
    assert result.output.endswith(
        f"Error: {tmp_path}/d1: folders nested more than 1 deep under it (at {deep}): name the folder that holds the "
        "drills (or a file), not a folder above them\n"
    )
    monkeypatch.setattr(_library, "MAX_WALK_DEPTH", 2)  # d2/d3 is 2 below d1: searched
    result = CliRunner().invoke(main, ["validate", str(tmp_path / "d1")])
    assert result.exit_code == 1 and f"{deep}/x.yaml:" in result.output


def test_a_drills_folder_too_large_is_named_where_a_drill_is_looked_up(tmp_path: Path, monkeypatch):
    """``warroom --drills HUGE run ID``: the library's index is built without it, and the unknown drill's message
    says why that folder was not searched."""
    from warroom.core.library import DrillLibrary, _library

    for n in range(60):
        (tmp_path / f"d{n}.yaml").write_text("id: x\n")
    monkeypatch.setattr(_library, "MAX_WALK_ENTRIES", 50)  # the bundled library (44 files) is searched
    library = DrillLibrary((tmp_path,))
    assert "d1" not in library.drill_ids() and "tutorial" in library.drill_ids()
    with pytest.raises(_library.UnknownDrill) as caught:
        library.resolve("d1")
    assert f"{tmp_path} could not be read (more than 50 files and folders under it" in str(caught.value)


# 6. the OpenAI Agents importer on a deep trace


def test_openai_agents_deep_trace_reads_every_span_under_its_agent(tmp_path: Path):
    """A recorded OpenAI Agents SDK trace made 1,001 spans deep by repeating one recorded turn, each under the one
    before (tests/deep_trace_support.py): every span is read, each under the Refunds agent, and the agent's
    input is the user's message once. Walking up from every model call to its agent was quadratic (5,000 deep:
    44.6 s; now 7.3 s, linear: benchmarks/bench_import_agents.py)."""
    from collections import Counter

    from deep_trace_support import AGENT, deep_trace

    from warroom.importers.openai_agents._spans import read_agent_spans
    from warroom.importers.spans import AGENT as AGENT_KIND
    from warroom.importers.spans import MODEL, TOOL, nearest_agent

    path = tmp_path / "deep.jsonl"
    path.write_text(deep_trace(1000), encoding="utf-8")
    steps, recorded = read_agent_spans(path)
    ((trace_id, group),) = steps.items()
    assert Counter(s.kind for s in group) == {"other": 1000, MODEL: 1000, TOOL: 1000, AGENT_KIND: 1}
    by_id = {s.span.span_id: s for s in group}
    assert {nearest_agent(s, by_id).span.span_id for s in group} == {AGENT}  # type: ignore[union-attr]
    (agent,) = [s for s in group if s.kind == AGENT_KIND]
    assert (agent.name, agent.inputs) == ("Refunds", "I was charged twice for order 4417 — refund please")
    assert recorded.notes[trace_id] == ["The trace's workflow_name: 'Customer service'.",
                                        "Ignored span types: custom (1000)."]  # fmt: skip


# the same class of break in the other writers: a read-only file replaced by a rename, a symbolic link replaced


def test_store_export_refuses_a_read_only_file_and_names_it_escaped(tmp_path: Path):
    """``warroom store export -o FILE``: the export was renamed over a read-only FILE (a rename needs only the
    folder's permission), and a failure named FILE raw."""
    from store_support import add_session

    from warroom.store.results import ResultsStore

    with ResultsStore(tmp_path / "a") as store:
        add_session(store, "s1", trainee="ann")
    out = tmp_path / f"{FORGE}.jsonl"
    out.write_text("kept\n")
    out.chmod(0o444)
    result = CliRunner().invoke(main, ["store", "export", "--data-dir", str(tmp_path / "a"), "-o", str(out)],
                                color=True)  # fmt: skip
    assert result.exit_code == 1
    _no_forgery(result.output)
    assert (f"Error: cannot write {tmp_path}/{SHOWN}.jsonl: the file is read-only (mode -r--r--r--): make it "
            "writable (chmod u+w) or export to another file; nothing was written") in result.output  # fmt: skip
    assert out.read_text() == "kept\n"


def test_import_force_writes_through_a_symlink_and_refuses_a_read_only_drill(tmp_path: Path):
    """``warroom import chat FILE --out DIR --force``: a drill in DIR that is a symbolic link to a shared drill was
    replaced by a regular file (the link lost, the shared drill left as it was); a read-only drill was replaced."""
    from locations import TESTS

    recorded = str(TESTS / "fixtures" / "chat" / "refund.json")
    out = tmp_path / "imported"
    assert CliRunner().invoke(main, ["import", "chat", recorded, "--out", str(out)]).exit_code == 0
    written = out / "chat-refund.yaml"
    shared = tmp_path / "chat-refund.yaml"
    shared.write_text("old")
    written.replace(tmp_path / "new.yaml")
    written.symlink_to(shared)
    result = CliRunner().invoke(main, ["import", "chat", recorded, "--out", str(out), "--force"])
    assert result.exit_code == 0, result.output
    assert written.is_symlink() and shared.read_text() == (tmp_path / "new.yaml").read_text()
    shared.chmod(0o444)
    result = CliRunner().invoke(main, ["import", "chat", recorded, "--out", str(out), "--force"])
    assert result.exit_code == 1
    assert (f"{recorded}:1:1: {written} is read-only (mode -r--r--r--): make it writable (chmod u+w) to overwrite "
            "it, or import into another --out folder") in result.output  # fmt: skip
    assert shared.read_text() == (tmp_path / "new.yaml").read_text()


def test_project_force_writes_through_a_symlink_and_refuses_a_read_only_drill(tmp_path: Path):
    """``warroom project RUN --template T --out DIR --force``: the drill in DIR was replaced whatever its mode, and
    a symbolic link there was replaced by a regular file."""
    from locations import TESTS

    imported = tmp_path / "imported"
    recorded = str(TESTS / "fixtures" / "chat" / "refund.json")
    assert CliRunner().invoke(main, ["import", "chat", recorded, "--out", str(imported)]).exit_code == 0
    run = imported / "chat-refund.yaml"
    out = tmp_path / "out"
    command = ["project", str(run), "--template", "stale-data", "--out", str(out), "--force"]
    assert CliRunner().invoke(main, command).exit_code == 0
    (written,) = out.glob("*.yaml")
    projected = written.read_text()
    shared = tmp_path / "shared.yaml"
    shared.write_text("old")
    written.unlink()
    written.symlink_to(shared)
    assert CliRunner().invoke(main, command).exit_code == 0
    assert written.is_symlink() and shared.read_text() == projected
    shared.write_text("mine")
    shared.chmod(0o444)
    result = CliRunner().invoke(main, command)
    assert result.exit_code == 1
    assert result.output == (f"Error: {written}: the file is read-only (mode -r--r--r--): make it writable (chmod u+w) "
                             "or write into another --out folder; nothing was written\n")  # fmt: skip
    assert shared.read_text() == "mine"


def test_roster_add_writes_through_a_symlink_and_refuses_a_read_only_roster(tmp_path: Path):
    """``warroom serve roster add ROSTER NAME``: a roster that is a symbolic link (kept beside a class's files) was
    replaced by a regular file, and a read-only roster was replaced all the same."""
    shared = tmp_path / "class" / "roster.yaml"
    shared.parent.mkdir()
    assert CliRunner().invoke(main, ["serve", "roster", "add", str(shared), "ada"]).exit_code == 0
    link = tmp_path / "roster.yaml"
    link.symlink_to(shared)
    assert CliRunner().invoke(main, ["serve", "roster", "add", str(link), "bob"]).exit_code == 0
    assert link.is_symlink() and "bob" in shared.read_text() and shared.stat().st_mode & 0o777 == 0o600
    shared.chmod(0o400)
    before = shared.read_text()
    result = CliRunner().invoke(main, ["serve", "roster", "add", str(link), "cy"])
    assert result.exit_code == 1
    assert result.output == (f"Error: {link}: cannot write the roster: the roster is read-only (mode -r--------): "
                             "make it writable (chmod u+w) to change it; nothing was written\n")  # fmt: skip
    assert shared.read_text() == before


def test_new_that_cannot_be_finished_leaves_no_part_of_a_drill(tmp_path: Path, monkeypatch):
    """``warroom new ID`` wrote the skeleton straight into ID.yaml: a full disk (found when the bytes are flushed)
    left a partial drill there, and the next ``warroom new ID`` refused to overwrite it. Now the drill is written
    beside it and linked into place whole: nothing is left, and the error names the file and the reason."""
    out = tmp_path / "drills"

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    result = CliRunner().invoke(main, ["new", "ok", "--out", str(out)])
    assert result.exit_code == 1
    assert result.output == f"Error: cannot write {out}/ok.yaml: No space left on device\n"
    assert list(out.iterdir()) == []
    monkeypatch.undo()
    assert CliRunner().invoke(main, ["new", "ok", "--out", str(out)]).exit_code == 0
    assert (out / "ok.yaml").read_text().startswith("# yaml-language-server")
    again = CliRunner().invoke(main, ["new", "ok", "--out", str(out)])
    assert again.exit_code == 1 and "ok.yaml already exists; not overwriting it" in again.output


def test_create_file_never_writes_over_anything_there(tmp_path: Path):
    """``create_file`` (``warroom new``'s write): a file, or a symbolic link pointing nowhere, already at the path is
    left as it was (FileExistsError), and no temporary file stays behind; a new file is created whole."""
    from warroom.core.files import create_file

    link = tmp_path / "a.yaml"
    link.symlink_to(tmp_path / "nowhere.yaml")
    with pytest.raises(FileExistsError):
        create_file(link, "id: a\n")
    assert os.readlink(link) == str(tmp_path / "nowhere.yaml") and not (tmp_path / "nowhere.yaml").exists()
    create_file(tmp_path / "b.yaml", "id: b\n")
    with pytest.raises(FileExistsError):
        create_file(tmp_path / "b.yaml", "id: other\n")
    assert (tmp_path / "b.yaml").read_text() == "id: b\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.yaml", "b.yaml"]


def test_score_names_a_log_escaped_on_its_line_scored_or_refused(tmp_path: Path):
    """``warroom score DRILL LOG``: the scored line (``LOG: 92/100; ...``) and a refusal (``LOG:1:1: ...``) printed
    LOG's newline raw (``say`` escapes ESC, not a newline), so a log's name forged a line of its own."""
    from locations import TESTS

    drill = str(TESTS / "fixtures" / "v1" / "q1-access-review.yaml")
    log = tmp_path / f"{FORGE}.jsonl"
    log.write_text('{"t": 60, "kind": "escalate", "step": "s4", "cites": ["e15"]}\n')
    scored = CliRunner().invoke(main, ["score", drill, str(log)], color=True)
    assert scored.exit_code == 0
    _no_forgery(scored.output)
    assert scored.output.startswith(f"{tmp_path}/{SHOWN}.jsonl: 92/100; contained")
    log.write_text("not json\n")
    refused = CliRunner().invoke(main, ["score", drill, str(log)], color=True)
    assert refused.exit_code == 1
    _no_forgery(refused.output)
    assert refused.output.startswith(f"{tmp_path}/{SHOWN}.jsonl:1:1: not a JSON line")
