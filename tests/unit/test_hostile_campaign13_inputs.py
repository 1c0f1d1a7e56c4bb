"""A thirteenth hostile campaign, on warroom's inputs (issue 30): drills, drill sets, the importers, the command
line's arguments. Each case it found, with the right behaviour."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from warroom.importers import chat


def _chat_lines(n: int) -> list[str]:
    return [json.dumps({"messages": [{"role": "user", "content": f"refund {i}"},
                                     {"role": "assistant", "content": "done"}]}) for i in range(n)]


@pytest.mark.parametrize(("tail", "line", "zeros"), [(b"\n" + b"\x00" * 4096, 3, "4,096"), (b"\x00" * 100, 2, "100")])
def test_json_lines_whose_end_a_crash_left_as_nul_bytes_import_with_a_warning(tmp_path: Path, tail: bytes,
                                                                              line: int, zeros: str) -> None:
    """A file whose length reached the disk but not its last blocks (a crash on a file system that allocates late)
    ends in NUL bytes. Its complete lines were refused as `line 3: not JSON: Expecting value` (or `Extra data` when
    the zeros follow the last line), naming nothing an editor shows: the NUL bytes are skipped with a warning at
    the line where they start, as a cut-off last line is."""
    path = tmp_path / "crashed.jsonl"
    path.write_bytes("\n".join(_chat_lines(2)).encode() + tail)
    report = chat.import_chats([path], tmp_path / "out")
    assert not report.failed, [r.error for r in report.failed]
    assert len(report.imported) == 2
    [(_, warning)] = report.warnings
    assert warning.line == line
    assert warning.message == (f"the file ends in {zeros} NUL bytes (zeros where a write had not "
                               "reached the disk when the machine stopped?); they are skipped, and the text before "
                               "them is read")


def test_one_json_document_followed_by_nul_bytes_imports_with_a_warning(tmp_path: Path) -> None:
    path = tmp_path / "crashed.json"
    path.write_bytes(json.dumps({"messages": [{"role": "user", "content": "x"}]}, indent=1).encode() + b"\x00" * 9)
    report = chat.import_chats([path], tmp_path / "out")
    assert not report.failed, [r.error for r in report.failed]
    [(_, warning)] = report.warnings
    assert warning.line == 8 and warning.message.startswith("the file ends in 9 NUL bytes")


def test_a_file_of_nul_bytes_only_is_said_to_be_one(tmp_path: Path) -> None:
    path = tmp_path / "zeros.jsonl"
    path.write_bytes(b"\x00" * 512)
    [result] = chat.import_chats([path], tmp_path / "out").results
    assert result.error == ("the file holds only NUL bytes (512), no JSON: a crash may have left it unwritten; "
                            "import the file the trace was written to again")


def test_json_lines_joined_by_cat_from_files_with_a_byte_order_mark_import(tmp_path: Path) -> None:
    """docs/importing.md advises `cat a.jsonl b.jsonl > trace.jsonl` to join JSON Lines files; a file that starts
    with a byte-order mark (as Windows tools write UTF-8) is read, but joined after another its mark starts a line
    inside the file, which was refused as `line 2: not JSON: Unexpected UTF-8 BOM (decode using utf-8-sig)` (advice
    for a programmer's decode call). A byte-order mark at the start of a line is dropped, as at the file's start."""
    first, second = _chat_lines(2)
    path = tmp_path / "joined.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + first.encode() + b"\r\n" + b"\xef\xbb\xbf" + second.encode() + b"\r\n")
    report = chat.import_chats([path], tmp_path / "out")
    assert not report.failed, [r.error for r in report.failed]
    assert len(report.imported) == 2 and report.warnings == []
    # a line that is only a mark (an empty file joined in) is a blank line
    path.write_bytes(first.encode() + b"\n\xef\xbb\xbf\n" + second.encode() + b"\n")
    report = chat.import_chats([path], tmp_path / "out2")
    assert not report.failed and len(report.imported) == 2


def test_a_crashed_file_given_to_the_wrong_importer_warns_once(tmp_path: Path) -> None:
    """The importer reads the file, then the recogniser reads it again to name its format: one warning, not two."""
    from warroom.importers import otel

    path = tmp_path / "crashed.jsonl"
    path.write_bytes("\n".join(_chat_lines(2)).encode() + b"\n" + b"\x00" * 10)
    report = otel.import_otel([path], tmp_path / "out")
    [result] = report.results
    assert result.error is not None and "`warroom import chat` reads it" in result.error
    assert [w.line for _, w in report.warnings] == [3]


V1 = Path(__file__).parents[1] / "fixtures" / "v1" / "late-delivery-replies.yaml"


@pytest.mark.parametrize("version", ["<<: {schema_version: 1}\n", "<<: [{schema_version: 1}, {title: x}]\n"])
def test_migrate_gives_a_version_written_through_a_merge_key_its_own_key(version: str) -> None:
    """A valid version-1 drill whose `schema_version` comes from a top-level merge key ended `warroom migrate` in a
    traceback (StopIteration: the version was looked for among the mapping's own keys only). The migrated drill
    says `schema_version: 2` as a key of its own (which a merge key never overrides), all else kept."""
    from warroom.core.author._migrate import migrate_text

    text = V1.read_text(encoding="utf-8").replace("schema_version: 1\n", version)
    result = migrate_text(text)
    assert result.changed
    assert result.text == text.replace(version, "schema_version: 2\n" + version)


@pytest.mark.parametrize(("old", "new", "where"), [
    ("difficulty: 1\n", "difficulty: &v 1\nschema_version: *v\n", (6, 17)),  # the value through an alias
    ("difficulty: 1\n", "difficulty: *v\n", (2, 17)),  # the value anchored, used elsewhere
])
def test_migrate_refuses_a_version_shared_through_an_anchor_saying_what_to_write(old: str, new: str,
                                                                                where: tuple[int, int]) -> None:
    """`schema_version: *v` (its anchor on `difficulty: &v 1`) was rewritten at the anchor, which dropped it: the
    refusal said `the alias *v names no anchor (&v) defined above it`, of a file that has one. A version shared with
    another value cannot change alone: the refusal says so at the version, with what to write."""
    from warroom.core.author._migrate import migrate_text
    from warroom.core.load import DrillLoadError

    text = V1.read_text(encoding="utf-8")
    if new.startswith("difficulty: *v"):
        text = text.replace("schema_version: 1\n", "schema_version: &v 1\n")
    else:
        text = text.replace("schema_version: 1\n", "")
    text = text.replace(old, new)
    with pytest.raises(DrillLoadError) as caught:
        migrate_text(text, "d.yaml")
    [problem] = caught.value.problems
    assert (problem.line, problem.column) == where
    assert problem.message == ("`schema_version` shares its value with another key through an anchor (&) and alias "
                               "(*): write it as a number of its own (`schema_version: 1`), then migrate the drill")


BUNDLED = Path(__file__).parents[2] / "drills" / "late-delivery-replies.yaml"
TITLE = 'title: "Late-delivery replies for the weekend backlog"\n'


def _save(tmp_path: Path, text: str, **meta: object) -> str:
    """``text`` saved by the author mode with the drill's marks as they are and ``meta`` changed; the file after."""
    import dataclasses

    from warroom.core.author import open_for_annotation, write_draft

    path = tmp_path / "late-delivery-replies.yaml"
    path.write_text(text, encoding="utf-8")
    opened = open_for_annotation(path)
    draft = dataclasses.replace(opened.draft, meta={**opened.draft.meta, **meta})
    draft.debrief = "Edited in author mode."
    write_draft(path, draft, opened.event_order)
    return path.read_text(encoding="utf-8")


@pytest.mark.parametrize("merged", ["<<: {tags: [support], author: me}\n", "<<: [{tags: [support]}, {author: me}]\n"])
def test_the_author_mode_saves_into_a_drill_with_a_top_level_merge_key(tmp_path: Path, merged: str) -> None:
    """Any save into a drill with a `<<:` key at the top level ended in `KeyError: 'tags'` (ruamel.yaml lists the
    merged keys with the mapping's own, but has no line for them): a traceback that ended the author mode. The key
    is saved, the merge line kept."""
    from warroom.core.load import load_drill_text

    text = BUNDLED.read_text(encoding="utf-8")
    text = text.replace("tags: [", "<<: {x: 1}\ntags: [", 1).split("<<: {x: 1}\n")[0] + merged + text.split(
        "author: warroom drill library\n", 1)[1]
    saved = _save(tmp_path, text)
    assert merged in saved
    drill = load_drill_text(saved)
    assert drill.answer_key is not None and drill.answer_key.debrief == "Edited in author mode."
    assert drill.tags == ["support"] and drill.author == "me"


def test_a_title_changed_beside_a_merge_line_keeps_the_merge_line(tmp_path: Path) -> None:
    """The span of a top-level key ran to the next key ruamel.yaml gives a line for, over a `<<:` line after it:
    changing the title replaced that line too, and the keys it merged were gone."""
    from warroom.core.load import load_drill_text

    text = BUNDLED.read_text(encoding="utf-8").replace("\nversion: 2\n", "\n<<: {version: 7}\n", 1)
    saved = _save(tmp_path, text, title="A new title")
    assert "<<: {version: 7}\n" in saved
    drill = load_drill_text(saved)
    assert (drill.title, drill.version) == ("A new title", 7)


def test_a_title_that_comes_from_a_merge_key_is_saved_as_a_key_of_its_own(tmp_path: Path) -> None:
    """A title (or difficulty, briefing) that a top-level merge key gives was not saved at all (or the save raised
    KeyError): it is written as a key of its own under the merge line, which overrides the merged one."""
    from warroom.core.load import load_drill_text

    text = BUNDLED.read_text(encoding="utf-8").replace(TITLE, "<<: {" + TITLE.strip() + ", difficulty: 1}\n")
    text = text.replace("difficulty: 1\n", "", 1)
    saved = _save(tmp_path, text, title="A new title", difficulty=3)
    drill = load_drill_text(saved)
    assert (drill.title, drill.difficulty) == ("A new title", 3)
    assert saved.index("title: A new title\n") > saved.index("<<: {")


def test_a_title_whose_anchor_an_alias_uses_is_refused_saying_why(tmp_path: Path) -> None:
    """`title: &t ...` with `author: *t`: the title written anew drops its anchor, and the save was refused as
    `the alias *t names no anchor (&t) defined above it`, of a file that has one. The refusal says what to do."""
    from warroom.core.author import KeyWriteError

    text = BUNDLED.read_text(encoding="utf-8").replace(TITLE, TITLE.replace("title: ", "title: &t ")).replace(
        "author: warroom drill library\n", "author: *t\n")
    with pytest.raises(KeyWriteError) as caught:
        _save(tmp_path, text, title="A new title")
    assert str(caught.value) == (
        f"{tmp_path / 'late-delivery-replies.yaml'}: `title` holds the anchor &t, which the alias *t on line 8 uses: "
        "write that value out in full there (or remove the anchor), then save again; nothing was written")


@pytest.mark.parametrize("odd", ["# a line\u2028separator\n", "# a paragraph\u2029separator and a NEL\x85\n"])
def test_re_timing_for_reading_moves_a_drill_holding_a_unicode_line_separator(odd: str) -> None:
    """`warroom annotate --reading-time S` moved nothing, silently, in a drill holding U+2028, U+2029 or NEL (in a
    comment or a text; valid, and saved into like any other): the file's lines were split where Python splits them,
    not where the YAML reader counts its lines, so no `t` was where it was looked for."""
    from warroom.core.author._retime import retime_text
    from warroom.core.load import load_drill_text

    text = odd + BUNDLED.read_text(encoding="utf-8")
    new, by = retime_text(text, "e08", 30)
    assert by == 28
    times = {e.id: e.t for e in load_drill_text(new).trace}
    assert (times["e08"], times["e09"], times["e10"]) == (22, 52, 58)
    assert new.startswith(odd)


@pytest.mark.parametrize(("old", "new", "where"), [
    ("  - id: e12\n    t: 38\n", "  - id: e12\n    <<: {t: 38}\n", "a merge key (<<) gives it"),
    ("  - id: e12\n    t: 38\n", "  - id: e12\n    t: *t32\n", "an alias (*t32) gives it"),
])
def test_re_timing_an_event_whose_time_is_not_its_own_number_refuses_the_save_saying_so(
        old: str, new: str, where: str) -> None:
    """An event after the evidence whose `t` comes from a merge key ended the save in `KeyError: 't'` (a traceback
    that ended the author mode), and one whose `t` is an alias was not moved, nor any other, silently. The save is
    refused, naming the event, its line and what to write."""
    from warroom.core.author import KeyWriteError
    from warroom.core.author._retime import retime_text
    from warroom.core.load import load_drill_text

    text = BUNDLED.read_text(encoding="utf-8").replace("  - id: e11\n    t: 32\n", "  - id: e11\n    t: &t32 32\n")
    text = text.replace(old, new)
    load_drill_text(text)  # a valid drill
    line = text[: text.index(new)].count("\n") + 1  # the event's
    with pytest.raises(KeyWriteError) as caught:
        retime_text(text, "e08", 30)
    assert str(caught.value) == (f"cannot re-time for reading: the `t` of event e12 (line {line}) is not a number of "
                                 f"its own ({where}): write it as a number, then save again; nothing was written")


def test_replace_files_creating_puts_nothing_over_a_file_and_leaves_none_of_its_own(tmp_path: Path) -> None:
    from warroom.core.files import replace_files

    first, taken = tmp_path / "a.yaml", tmp_path / "b.yaml"
    taken.write_text("another process's drill")
    with pytest.raises(FileExistsError) as caught:
        replace_files([(first, "a"), (taken, "b")], create=True)
    assert caught.value.filename == str(taken)
    assert not first.exists() and taken.read_text() == "another process's drill"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b.yaml"]  # no temporary file left
    replace_files([(first, "a")], create=True)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.yaml", "b.yaml"] and first.read_text() == "a"


def test_an_import_never_overwrites_a_drill_another_import_wrote_since_it_looked(tmp_path: Path, monkeypatch) -> None:
    """Two `warroom import` runs into one --out folder at once (`for f in */trace.json; do warroom import chat $f
    --out drills & done`: files named alike make one drill id) both said `1 drill imported`, and the drill written
    first was lost: the target was looked at before the write, which then replaced whatever was there. Without
    --force a drill is never written over one another process wrote since the look."""
    from warroom.importers.kit import _files

    source = tmp_path / "trace.json"
    source.write_text(_chat_lines(1)[0])
    prepare = _files._Run._prepare

    def then_another_import_writes(self, f):
        drills = prepare(self, f)
        for _, target, _ in drills[0]:
            target.write_text("the other import's drill")
        return drills

    monkeypatch.setattr(_files._Run, "_prepare", then_another_import_writes)
    [result] = chat.import_chats([source], tmp_path / "out").results
    assert result.error == f"{tmp_path / 'out' / 'chat-trace.yaml'} already exists (use --force to overwrite it)"
    assert (tmp_path / "out" / "chat-trace.yaml").read_text() == "the other import's drill"
    [result] = chat.import_chats([source], tmp_path / "out", force=True).results  # --force still overwrites
    assert result.error is None and "the other" not in (tmp_path / "out" / "chat-trace.yaml").read_text()


def test_project_never_overwrites_a_drill_another_process_wrote_since_it_looked(tmp_path: Path, monkeypatch) -> None:
    """`warroom project` looked for the drill file, then replaced whatever was there: the same race as the
    importers' (two `project --all` runs into one folder)."""
    from types import SimpleNamespace

    import warroom.core.files
    from warroom.cli.author._project import _write

    target = tmp_path / "p-1.yaml"
    looked = warroom.core.files.read_only_mode

    def then_another_process_writes(path):
        target.write_text("the other process's drill")
        return looked(path)

    monkeypatch.setattr(warroom.core.files, "read_only_mode", then_another_process_writes)
    projection = SimpleNamespace(id="p-1", data={"id": "p-1"}, header="projected")
    assert _write(projection, tmp_path, False) is None  # as when it existed before the look
    assert target.read_text() == "the other process's drill"
    assert _write(projection, tmp_path, True) == target and "p-1" in target.read_text()


LONG_KEY = "k" * 1030


@pytest.mark.parametrize(("text", "where"), [
    (f"a: 1\n{LONG_KEY}: 1\n", (2, 1)),  # was "is not a `key: value` line: add `: ` after the key"
    (f'a: 1\n"{LONG_KEY}": 1\n', (2, 1)),  # was "... inside unquoted text: put the whole text in quotes", quoted
    (f"a:\n  b: 1\n  - x\n  {LONG_KEY}: 2\n", None),  # another mistake first: its own message
    (f"a: 1\nb:\n  - {LONG_KEY}: 1\n", (3, 5)),
    (f"a: {{x: 1, {LONG_KEY}: 1}}\n", (1, 11)),  # was "did not find expected ',' or '}'"
])
def test_a_key_over_yamls_1024_characters_is_named_as_such(text: str, where: tuple[int, int] | None) -> None:
    """YAML reads a `key: value` key of more than 1,024 characters as text, not a key; the errors that follow said
    to add the `: ` the line has, or to quote text that is quoted. The problem says what it is and what to write."""
    from warroom.core.load import DrillLoadError, load_yaml_text

    with pytest.raises(DrillLoadError) as caught:
        load_yaml_text(text)
    [problem] = caught.value.problems
    size = "1,032" if '"' in text else "1,030"  # a quoted key's quotes count
    message = (f"a key of {size} characters (`{'k' * 57}...`): YAML reads a "
               "`key: value` key of more than 1,024 as text, not a key; write it as an explicit key, `? ` and the key "
               "on one line and `: ` and the value on the next (as `warroom import` writes one), or shorten it")
    if where is None:
        assert problem.message != message
    else:
        assert ((problem.line, problem.column), problem.message) == (where, message)


@pytest.mark.parametrize("end", ["...\n", "...\n# the end\n", "... # the end\n\n"])
def test_a_key_added_to_a_drill_that_ends_with_a_document_end_marker_goes_before_it(tmp_path: Path, end: str) -> None:
    """A drill without an answer key (as imported) whose file ends with YAML's document end marker `...` (as
    `yaml.dump(explicit_end=True)` writes one) could never be saved: the key was appended after the marker, a second
    document, and the save refused it as `did not find expected <document start>`."""
    from warroom.core.load import load_yaml_text

    text = BUNDLED.read_text(encoding="utf-8")
    text = text[: text.index("\nanswer_key:") + 1] + end
    saved = _save(tmp_path, text)
    assert saved.endswith("\n" + end) and load_yaml_text(saved)["answer_key"]["debrief"] == "Edited in author mode."


def test_project_into_a_folder_it_cannot_write_says_so_not_a_traceback(tmp_path: Path, monkeypatch) -> None:
    """`warroom project FILE --out /proc/self` (or a full disk, a folder another user owns) ended in a traceback
    (FileNotFoundError from the write): the write's error is one line naming the file, and nothing is written."""
    import errno
    from types import SimpleNamespace

    import click

    import warroom.core.files
    from warroom.cli.author._project import _write

    def full_disk(files, **_):
        raise OSError(errno.ENOSPC, "No space left on device", str(files[0][0]))

    monkeypatch.setattr(warroom.core.files, "replace_files", full_disk)
    projection = SimpleNamespace(id="p-1", data={"id": "p-1"}, header="projected")
    with pytest.raises(click.ClickException) as caught:
        _write(projection, tmp_path, False)
    assert caught.value.message == f"{tmp_path / 'p-1.yaml'}: cannot write the drill: No space left on device"


@pytest.mark.parametrize("window", ["1e9", "99999999"])
def test_a_projection_window_past_the_drill_clock_is_a_usage_error(tmp_path: Path, window: str) -> None:
    """`--window 1e9` was taken, and the projection refused as `the fault drill: trace[8].tool_call.t: Input should be
    less than or equal to 1000000` (pydantic's words, of a drill the author never wrote)."""
    from click.testing import CliRunner

    from warroom.cli import main

    result = CliRunner().invoke(main, ["project", str(BUNDLED), "--template", "stale-data", "--window", window,
                                       "--out", str(tmp_path)])
    assert result.exit_code == 2, result.output
    assert "Invalid value for --window: at most 3,600 s (an hour to read one result)" in result.output


def test_an_anchor_defined_twice_is_named_as_such_not_a_syntax_error() -> None:
    """YAML 1.2 lets an anchor be defined again (an alias then names the latest); warroom's reader does not, and said
    `YAML syntax error: second occurrence (found duplicate anchor 'x'; ...)` with `check that this is a drill file`."""
    from warroom.core.load import DrillLoadError, load_yaml_text

    with pytest.raises(DrillLoadError) as caught:
        load_yaml_text("a: &x 1\nb: *x\nc: &x 2\nd: *x\n")
    [problem] = caught.value.problems
    assert (problem.line, problem.column) == (3, 4)
    assert problem.message == ("the anchor &x is defined a second time (first at line 1, column 4): give this one "
                               "another name, and its aliases below (*x) with it (drill files take each anchor once)")
