"""Special files and folders where a drill or a record is expected (issue 12 items 2 and 13; issue 11 item 17):
a FIFO is refused by name before anything opens it (no hang), an unreadable folder is reported, `run` takes the
group options and refuses what validate refuses."""

from __future__ import annotations

import os
import shutil
import socket
from pathlib import Path

import pytest
from click.testing import CliRunner
from locations import WHO_AND_WHEN
from store_support import bundled_drill_path

from warroom.cli import main
from warroom.core.files import special_file_kind
from warroom.core.library import find_drill_files, resolve_drill
from warroom.core.load import DrillLoadError, load_drill
from warroom.tui.logic import Services

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")


def invoke(*args: str):
    return CliRunner().invoke(main, list(args))


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "drills" / "stuck.yaml"
    path.parent.mkdir()
    os.mkfifo(path)
    return path


def test_special_file_kind(tmp_path: Path, fifo: Path):
    regular = tmp_path / "a.yaml"
    regular.write_text("x")
    assert special_file_kind(regular) is None
    assert special_file_kind(tmp_path / "missing.yaml") is None
    assert special_file_kind(fifo) == "a FIFO"
    assert special_file_kind(tmp_path) == "a folder"
    assert special_file_kind("/dev/null") == "a character device"
    sock_path = tmp_path / "s.yaml"
    with socket.socket(socket.AF_UNIX) as s:
        s.bind(str(sock_path))
        assert special_file_kind(sock_path) == "a socket"


def test_loader_refuses_a_fifo_without_opening_it(fifo: Path):
    with pytest.raises(DrillLoadError) as info:
        load_drill(fifo)
    assert str(info.value.problems[0]) == f"{fifo}:1:1: this is a FIFO, not a drill file (only regular files are read)"


def test_loader_refuses_a_device():
    with pytest.raises(DrillLoadError, match="this is a character device, not a drill file"):
        load_drill("/dev/zero")


@pytest.mark.parametrize("command", [("validate",), ("check",), ("cost",), ("run",)])
def test_commands_refuse_a_fifo(command: tuple[str, ...], fifo: Path, tmp_path: Path):
    r = invoke("--data-dir", str(tmp_path / "data"), *command, str(fifo))
    assert r.exit_code == 1, r.output
    assert "is a FIFO, not a drill file" in r.output
    assert "Traceback" not in r.output


def test_a_fifo_in_a_folder_is_reported_not_skipped(fifo: Path):
    shutil.copyfile(bundled_drill_path(), fifo.parent / bundled_drill_path().name)
    assert fifo in find_drill_files([fifo.parent])
    r = invoke("validate", str(fifo.parent))
    assert r.exit_code == 1
    assert f"{fifo}:1:1: this is a FIFO" in r.stdout
    assert "2 drills checked: 1 valid, 1 invalid" in r.stdout


def test_picker_lists_a_fifo_as_a_problem(fifo: Path, tmp_path: Path):
    entries = Services("t", tmp_path / "data", (fifo.parent,)).catalog()
    entry = next(e for e in entries if e.path == fifo)
    assert entry.drill is None and "is a FIFO" in entry.problems[0]


def test_import_refuses_a_fifo(tmp_path: Path):
    record = tmp_path / "r.json"
    os.mkfifo(record)
    r = invoke("import", "who-and-when", str(record), "--out", str(tmp_path / "out"))
    assert r.exit_code == 1
    assert f"{record}:1:1: is a FIFO, not a record file" in r.stderr


@pytest.fixture
def unreadable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A drills folder whose sub-folder ``locked`` cannot be listed (simulated: the tests may run as root)."""
    top = tmp_path / "lib"
    (top / "locked").mkdir(parents=True)
    shutil.copyfile(bundled_drill_path(), top / bundled_drill_path().name)
    real = os.scandir

    def scandir(path=".", *a):
        if Path(path) == top / "locked":
            raise PermissionError(13, "Permission denied", str(path))
        return real(path, *a)

    monkeypatch.setattr(os, "scandir", scandir)
    return top


def test_unreadable_folder_is_collected(unreadable: Path):
    errors: list[OSError] = []
    files = find_drill_files([unreadable], errors=errors)
    assert [f.name for f in files] == [bundled_drill_path().name]
    assert [e.filename for e in errors] == [str(unreadable / "locked")]


@pytest.mark.parametrize("command", ["validate", "check"])
def test_validate_and_check_fail_on_an_unreadable_folder(command: str, unreadable: Path):
    r = invoke(command, str(unreadable))
    assert r.exit_code == 1
    assert (
        f"{unreadable / 'locked'}: cannot read this folder (permission denied); the drills in it were not checked"
        in r.stderr
    )
    assert "1 folder could not be read" in r.output


def test_picker_shows_an_unreadable_folder(unreadable: Path, tmp_path: Path):
    entries = Services("t", tmp_path / "data", (unreadable,)).catalog()
    last = entries[-1]
    assert last.path == unreadable / "locked" and last.drill is None
    assert last.problems == (f"{unreadable / 'locked'}: cannot read this folder (permission denied)",)


def test_run_of_a_folder_says_it_is_a_folder(tmp_path: Path):
    folder = tmp_path / "drills"
    folder.mkdir()
    r = invoke("--data-dir", str(tmp_path / "d"), "run", str(folder))
    assert r.exit_code == 2
    assert f"{folder} is a folder, not a drill file" in r.stderr
    assert f"warroom --drills {folder}" in r.stderr


def test_resolve_drill_prefers_a_drill_id_over_a_folder_of_that_name(tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("duplicate-charge-refunds").mkdir()
    assert resolve_drill("duplicate-charge-refunds") == bundled_drill_path()


def test_run_takes_drills_after_the_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    lib = tmp_path / "lib"
    lib.mkdir()
    copy = lib / "my-drill.yaml"
    copy.write_text(bundled_drill_path().read_text().replace("\nid: duplicate-charge-refunds\n", "\nid: my-drill\n"))
    started = {}

    def fake_launch(settings, start=None, speed=1.0, **options):
        started.update(settings=settings, start=start)

    monkeypatch.setattr("warroom.tui.app.launch", fake_launch)
    r = invoke("run", "--drills", str(lib), "--trainee", "ann", "--data-dir", str(tmp_path / "d"), "my-drill")
    assert r.exit_code == 0, r.output
    assert started["start"].path == copy and started["settings"].drill_dirs == (lib,)
    assert started["settings"].trainee == "ann"


def test_run_refuses_a_drill_whose_id_differs_from_its_file_name(tmp_path: Path):
    renamed = tmp_path / "renamed.yaml"
    shutil.copyfile(bundled_drill_path(), renamed)
    r = invoke("--data-dir", str(tmp_path / "d"), "run", str(renamed))
    assert r.exit_code == 1
    assert "drill id `duplicate-charge-refunds` does not match the file name `renamed.yaml`" in r.stderr


@pytest.mark.parametrize("command", ["validate", "check", "cost"])
def test_drill_commands_take_drills_after_the_command(command: str, tmp_path: Path):
    lib = tmp_path / "lib"
    lib.mkdir()
    text = bundled_drill_path().read_text().replace("\nid: duplicate-charge-refunds\n", "\nid: my-drill\n")
    (lib / "my-drill.yaml").write_text(text)
    before = invoke(command, "my-drill")
    assert before.exit_code == 2 and "my-drill" in before.output
    r = invoke(command, "--drills", str(lib), "my-drill")
    assert r.exit_code == 0, r.output  # found in the folder named after the command, as before it


def test_an_unknown_id_names_the_folders_that_could_not_be_read(unreadable: Path):
    with pytest.raises(FileNotFoundError) as info:
        resolve_drill("no-such-drill", [unreadable])
    assert f"; {unreadable / 'locked'} could not be read (Permission denied))" in str(info.value)


def test_linked_folders_are_searched_once_and_a_link_loop_ends(tmp_path: Path):
    top = tmp_path / "lib"
    shared = tmp_path / "shared"
    shared.mkdir()
    shutil.copyfile(bundled_drill_path(), shared / "a.yaml")
    top.mkdir()
    (top / "linked").symlink_to(shared, target_is_directory=True)
    (shared / "loop").symlink_to(shared, target_is_directory=True)
    assert find_drill_files([top]) == [top / "linked" / "a.yaml"]


def test_import_reports_an_unreadable_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    good = WHO_AND_WHEN / "good" / "magentic-one" / "mini.json"
    top = tmp_path / "records"
    (top / "locked").mkdir(parents=True)
    shutil.copyfile(good, top / "mini.json")
    real = os.scandir

    def scandir(path=".", *a):
        if Path(path) == top / "locked":
            raise PermissionError(13, "Permission denied", str(path))
        return real(path, *a)

    monkeypatch.setattr(os, "scandir", scandir)
    r = invoke("import", "who-and-when", str(top), "--out", str(tmp_path / "out"))
    assert r.exit_code == 1
    assert f"{top / 'locked'}: cannot read this folder (permission denied); its records were not imported" in r.stderr
    assert "1 of 1 record imported" in r.output and "; 1 folder could not be read" in r.output


def test_scores_output_to_a_fifo_nobody_reads_is_refused_at_once(fifo: Path, tmp_path: Path):
    from store_support import add_session

    from warroom.store.results import ResultsStore

    with ResultsStore(tmp_path / "data") as store:
        add_session(store, "s1", trainee="ann")
    result = CliRunner().invoke(
        main, ["--data-dir", str(tmp_path / "data"), "scores", "--format", "csv", "--output", str(fifo)]
    )
    assert result.exit_code == 1
    assert f"{fifo}: is a FIFO that no process is reading; nothing was written" in result.output


def test_scores_output_to_a_fifo_with_a_reader_is_written(fifo: Path, tmp_path: Path):
    from store_support import add_session

    from warroom.store.results import ResultsStore

    with ResultsStore(tmp_path / "data") as store:
        add_session(store, "s1", trainee="ann")
    fd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # a reader is there before the write
    try:
        result = CliRunner().invoke(
            main, ["--data-dir", str(tmp_path / "data"), "scores", "--format", "csv", "--output", str(fifo)]
        )
        written = os.read(fd, 65536)  # one session's CSV fits in the pipe's buffer
    finally:
        os.close(fd)
    assert result.exit_code == 0, result.output
    assert written.startswith(b"session_id,")
