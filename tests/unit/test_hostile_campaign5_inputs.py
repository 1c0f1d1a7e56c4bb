"""A fifth fresh hostile campaign on issue 30's promises, on the authoring and reading inputs (drill YAML in both
formats and its variants, drill sets and libraries, `warroom new/schema/migrate/project`, the importers fed recorded
framework output mutated field by field): each case a hostile author or a faulty world found, with the right
behaviour. A file or folder name is shown on its line with its controls escaped (``\\x1b``, ``\\x0a``), as every
authoring command already showed a drill file's name."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from click.testing import CliRunner
from locations import TESTS

from warroom.cli import main
from warroom.core.load import Problem, group_warnings

FORGE = "\x1b[2Ja\nX: forged"  # clears the screen and forges a line starting "X: forged"
SHOWN = "\\x1b[2Ja\\x0aX: forged"


def _no_forgery(output: str) -> None:
    assert "\x1b" not in output, output
    assert not any(line.startswith("X: forged") for line in output.splitlines()), output
    assert SHOWN in output, output


def test_schema_output_names_the_file_it_wrote_escaped_on_its_line(tmp_path: Path):
    """``warroom schema --output NAME`` printed ``wrote NAME`` raw: an escape sequence in the name reached the
    terminal (color=True: as on a terminal) and a newline forged a line."""
    target = tmp_path / f"{FORGE}.json"
    result = CliRunner().invoke(main, ["schema", "--output", str(target)], color=True)
    assert result.exit_code == 0, result.output
    assert target.read_text().startswith("{")
    _no_forgery(result.output)
    assert f"wrote {tmp_path}/{SHOWN}.json" in result.output


def test_new_names_an_out_folder_escaped_on_its_line(tmp_path: Path):
    """``warroom new ID --out DIR``: the "next: ..." line printed DIR's newline raw (``say`` escapes ESC, not a
    newline), so a folder name forged a line of its own."""
    out = tmp_path / FORGE
    result = CliRunner().invoke(main, ["new", "ok", "--out", str(out)], color=True)
    assert result.exit_code == 0, result.output
    assert (out / "ok.yaml").is_file()
    _no_forgery(result.output)
    assert f"warroom validate {tmp_path}/{SHOWN}/ok.yaml" in result.output


def _healthy_run(folder: Path, name: str = "run.yaml") -> Path:
    """A healthy run (an imported trace with no answer key) in ``folder``, as `warroom import chat` writes it."""
    imported = folder / "imported"
    recorded = TESTS / "fixtures" / "chat" / "refund.json"
    result = CliRunner().invoke(main, ["import", "chat", str(recorded), "--out", str(imported)])
    assert result.exit_code == 0, result.output
    target = folder / name
    shutil.move(str(next(imported.glob("*.yaml"))), target)
    shutil.rmtree(imported)
    return target


def test_project_all_names_its_out_folder_escaped_on_its_line(tmp_path: Path):
    """``warroom project --all DIR --out OUT``: the summary printed OUT raw ("... written to OUT from ..."), a
    newline in it forging a summary line."""
    source = tmp_path / "src"
    source.mkdir()
    _healthy_run(source)
    result = CliRunner().invoke(main, ["project", "--all", str(source), "--out", str(tmp_path / FORGE)], color=True)
    _no_forgery(result.output)
    assert f"written to {tmp_path}/{SHOWN} from 1 healthy run in {source}" in result.output


def test_project_names_a_source_file_escaped_at_every_problem_and_listing(tmp_path: Path):
    """``warroom project --list FILE`` and ``project FILE --template``: a problem (``FILE:1:1: no such file``, a
    template that applies nowhere at its ``FILE:line:col``) and the listing's last line printed FILE raw."""
    missing = CliRunner().invoke(main, ["project", "--list", str(tmp_path / f"{FORGE}.yaml")], color=True)
    assert missing.exit_code == 1
    _no_forgery(missing.output)
    assert f"{tmp_path}/{SHOWN}.yaml:1:1: no such file" in missing.output
    run = _healthy_run(tmp_path, f"{FORGE}.yaml")
    listed = CliRunner().invoke(main, ["project", "--list", str(run)], color=True)
    assert listed.exit_code == 0, listed.output
    _no_forgery(listed.output)
    assert f" in {tmp_path}/{SHOWN}.yaml, " in listed.output
    nowhere = CliRunner().invoke(main, ["project", str(run), "--template", "partial-write"], color=True)
    assert nowhere.exit_code == 1
    _no_forgery(nowhere.output)
    assert f"{tmp_path}/{SHOWN}.yaml:" in nowhere.output and "applies nowhere in this trace" in nowhere.output


def test_a_group_of_warnings_names_its_file_escaped_on_its_line():
    """More warnings of one kind than a problem line lists are folded into one line; that line printed the file's
    name raw (each single problem line escaped it)."""
    warnings = [Problem(f"{FORGE}.yaml", n, 5, "unquoted `no`", "warning", "yaml11") for n in range(1, 7)]
    (group,) = group_warnings(warnings)
    assert str(group).startswith(f"{SHOWN}.yaml:1:5: warning: 6 warnings of one kind (yaml11)")
    assert "\n" not in str(group)


def test_annotate_names_a_file_it_cannot_open_escaped_on_its_line(tmp_path: Path):
    """``warroom annotate FILE`` on a drill with a problem, or on a trace to import first: the problem line escaped
    FILE's newline but the closing "cannot be marked up" line (and the "this is a chat transcript" line) printed it
    raw, forging a line."""
    broken = tmp_path / f"{FORGE}.yaml"
    broken.write_text("id: x\ntitle: [\n")
    result = CliRunner().invoke(main, ["annotate", str(broken)], color=True)
    assert result.exit_code == 1
    _no_forgery(result.output)
    assert f"{tmp_path}/{SHOWN}.yaml: cannot be marked up until the problems above are fixed" in result.output
    trace = tmp_path / f"{FORGE}.json"
    shutil.copy(TESTS / "fixtures" / "chat" / "refund.json", trace)
    result = CliRunner().invoke(main, ["annotate", str(trace)], color=True)
    assert result.exit_code == 1
    _no_forgery(result.output)
    assert result.output.startswith(f"{tmp_path}/{SHOWN}.json: this is a chat transcript, not a drill")


def test_a_drill_set_given_as_a_drill_is_named_escaped_in_the_commands_it_suggests(tmp_path: Path):
    """A drill set found where a drill is read (``check`` or ``project --all`` on a folder, ``migrate``): the one
    problem suggests ``warroom validate FILE`` and ``warroom --set FILE``, and printed FILE raw inside it, so a set
    file's name forged lines under its problem line."""
    folder = tmp_path / "drills"
    folder.mkdir()
    (folder / f"{FORGE}.set.yaml").write_text("set: w1\ntitle: t\ndrills: [nope]\n")
    for command in (["check", str(folder)], ["project", "--all", str(folder), "--out", str(tmp_path / "out")]):
        result = CliRunner().invoke(main, command, color=True)
        assert result.exit_code == 1
        _no_forgery(result.output)
        assert f"`warroom --set {folder}/{SHOWN}.set.yaml`" in result.output, result.output


def test_migrate_names_a_folder_it_cannot_read_escaped_on_its_line(tmp_path: Path):
    """``warroom migrate DIR``: "cannot read the file: DIR is a folder, not a regular file" printed DIR raw in the
    message (the problem's own path was escaped)."""
    folder = tmp_path / FORGE
    folder.mkdir()
    result = CliRunner().invoke(main, ["migrate", str(folder)], color=True)
    assert result.exit_code == 1
    _no_forgery(result.output)
    assert f"cannot read the file: {tmp_path}/{SHOWN} is a folder, not a regular file" in result.output


def test_annotate_names_a_fifo_escaped_on_its_line(tmp_path: Path):
    """``warroom annotate`` on a FIFO (never opened: reading it would block): "FILE: this is a FIFO, not a drill
    file" printed FILE raw, forging a line."""
    fifo = tmp_path / f"{FORGE}.yaml"
    os.mkfifo(fifo)
    result = CliRunner().invoke(main, ["annotate", str(fifo)], color=True)
    assert result.exit_code == 1
    _no_forgery(result.output)
    assert result.output.startswith(f"{tmp_path}/{SHOWN}.yaml: this is a FIFO, not a drill file")


def test_a_drill_command_names_a_folder_or_a_set_given_as_a_drill_escaped_on_its_line(tmp_path: Path):
    """``warroom cost FOLDER`` ("FOLDER is a folder, not a drill file ... `warroom --drills FOLDER`"), ``warroom run
    SET`` ("SET is a drill set: play it with `warroom --set SET`") and ``validate`` of a folder with no drill file
    printed the name's newline raw inside the message, forging lines."""
    folder = tmp_path / FORGE
    folder.mkdir()
    result = CliRunner().invoke(main, ["cost", str(folder)], color=True)
    assert result.exit_code == 2
    _no_forgery(result.output)
    assert f"`warroom --drills {tmp_path}/{SHOWN}`" in result.output
    result = CliRunner().invoke(main, ["validate", str(folder)], color=True)
    assert result.exit_code == 2
    _no_forgery(result.output)
    assert f"no drill files (*.yaml, *.yml) found in {tmp_path}/{SHOWN}" in result.output
    drill_set = folder / "w.set.yaml"
    drill_set.write_text("set: w1\ntitle: t\ndrills: [tutorial]\n")
    result = CliRunner().invoke(main, ["run", str(drill_set)], color=True)
    assert result.exit_code == 2
    _no_forgery(result.output)
    assert f"play it with `warroom --set {tmp_path}/{SHOWN}/w.set.yaml`" in result.output
