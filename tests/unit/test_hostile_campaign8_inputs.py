"""An eighth fresh hostile campaign on issue 30's promises, on the reading and authoring inputs (YAML itself, Unicode
in ids and text, numbers at the edges, file-system oddities, real corpora imported and played, large folders, the
authoring commands with odd seeds): each case a hostile author or a faulty world found, with the right behaviour."""

from __future__ import annotations

import gc
import os
import socket
from pathlib import Path

import pytest
from click.testing import CliRunner
from locations import TESTS

from warroom.cli import main

DRILLS = TESTS.parent / "drills"
BASE = DRILLS / "compacted-review-criteria.yaml"


def _drill(tmp_path: Path, old: str, new: str, name: str = "d.yaml") -> Path:
    text = BASE.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / name
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def test_an_unknown_event_kind_holding_terminal_escapes_is_shown_escaped_and_named(tmp_path: Path):
    """An event `kind: "\\e[31mexecutor_report"` was quoted raw in validate's problem: the terminal took the ESC
    (and a right-to-left override) as commands. It is shown as an id is, escaped, with what the characters are."""
    path = _drill(tmp_path, "    kind: executor_report\n    status: success\n    content: \"s3",
                  "    kind: \"\\e[31mexecutor_\\u202ereport\"\n    status: success\n    content: \"s3")
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert result.exit_code == 1
    problem = result.output.splitlines()[0]
    assert problem.startswith(
        f"{path}:123:11: unknown event kind `\\x1b[31mexecutor_\\u202ereport` (U+001B, right-to-left override U+202E) "
        "in trace event `e16`; "
    )
    assert "\x1b" not in result.output and "\u202e" not in result.output


def test_a_nesting_past_libyamls_own_limit_says_the_limit_and_what_to_do(tmp_path: Path):
    """65 levels said the limit ("at most 64 levels"); 1,000 or more (where libyaml stops before the build's check)
    said only "the YAML is nested too deeply", with no limit and nothing to do."""
    for depth, column in ((65, 152), (10_000, 1088)):
        path = _drill(tmp_path, "output: {studies: 41", "output: {deep: " + "[" * depth + "]" * depth + ", studies: 41")
        result = CliRunner().invoke(main, ["validate", str(path)])
        assert result.exit_code == 1
        problem = result.output.splitlines()[0]
        assert problem.startswith(f"{path}:60:{column}: nested too deeply: ")
        assert "at most 64 levels of mappings and lists" in problem
    deep = tmp_path / "deep.yaml"
    deep.write_text("[" * 10_000)
    result = CliRunner().invoke(main, ["validate", str(deep)])
    assert result.output.splitlines()[0] == (
        f"{deep}:1:1001: nested too deeply: at most 64 levels of mappings and lists are allowed (a drill needs about "
        "6); remove the extra levels"
    )


@pytest.fixture
def unix_socket(tmp_path: Path):
    path = tmp_path / "s.yaml"
    listener = socket.socket(socket.AF_UNIX)
    try:
        listener.bind(str(path))
    except OSError as e:  # a path too long for a socket address on this platform
        pytest.skip(f"cannot bind a UNIX socket here: {e}")
    yield path
    listener.close()


def test_a_socket_given_as_a_drill_is_named_a_socket_not_no_such_device(unix_socket: Path):
    """A socket cannot be opened (ENXIO): validate, cost, run and project said "cannot read the file: No such device
    or address", where a FIFO is "this is a FIFO, not a drill file". The socket is named for what it is."""
    for args in (["validate"], ["cost"], ["project", "--list"]):
        result = CliRunner().invoke(main, [*args, str(unix_socket)])
        assert result.exit_code == 1
        assert result.output.splitlines()[0].startswith(f"{unix_socket}:1:1: this is a socket, not a drill file (")


def test_schema_output_to_a_socket_says_it_is_a_socket_not_a_fifo(unix_socket: Path):
    """`warroom schema --output SOCKET` said "is a FIFO that no process is reading"."""
    result = CliRunner().invoke(main, ["schema", "--output", str(unix_socket)])
    assert result.exit_code == 1
    assert result.output == f"Error: {unix_socket}: is a socket, not a file: nothing was written; name a file\n"


def test_a_fifo_or_a_socket_given_as_a_drills_folder_is_refused_not_searched_as_an_empty_folder(
    tmp_path: Path, unix_socket: Path
):
    """click's folder check refuses a regular file only: `--drills FIFO` (or a socket) was taken as a folder with no
    drill, without a word, before the command and after it alike."""
    fifo = tmp_path / "f.yaml"
    os.mkfifo(fifo)
    for given, kind in ((fifo, "a FIFO"), (unix_socket, "a socket")):
        for args in (["--drills", str(given), "validate", "compacted-review-criteria"],
                     ["validate", "--drills", str(given), "compacted-review-criteria"]):
            result = CliRunner().invoke(main, args)
            assert result.exit_code == 2
            assert result.output.splitlines()[-1] == (
                f"Error: Invalid value for '--drills': {given} is {kind}, not a folder: name a folder of drill files")


def test_a_drill_given_to_set_under_a_name_holding_a_newline_is_named_escaped_in_the_command_it_suggests(
    tmp_path: Path,
):
    """`warroom --set 'nl<newline>X<ESC>[31m.yaml'` on a drill printed the name raw inside the command it suggests
    (`play it with warroom run ...`): the newline made a line of its own."""
    path = tmp_path / "nl\nX\x1b[31m.yaml"
    path.write_text(BASE.read_text(encoding="utf-8"), encoding="utf-8")
    result = CliRunner().invoke(main, ["--data-dir", str(tmp_path / "data"), "--set", str(path)])
    assert result.exit_code == 1
    shown = f"{tmp_path}/nl\\x0aX\\x1b[31m.yaml"
    assert result.output == (f"{shown}:2:1: this file is a drill, not a drill set (no `set:` key): play it with "
                             f"`warroom run {shown}`\n")


def test_a_set_that_is_a_fifo_or_a_socket_is_named_for_what_it_is(tmp_path: Path, unix_socket: Path):
    """A drill set path that is a FIFO or a socket was "not a regular file" (a look at the path before the open)."""
    fifo = tmp_path / "f.set.yaml"
    os.mkfifo(fifo)
    for given, kind in ((fifo, "a FIFO"), (unix_socket, "a socket")):
        result = CliRunner().invoke(main, ["--data-dir", str(tmp_path / "data"), "--set", str(given)])
        assert result.exit_code == 1
        assert result.output.splitlines()[0] == (
            f"{given}:1:1: this is {kind}, not a drill set file (only regular files are read)")


def _folder_of_copies(tmp_path: Path, n: int) -> Path:
    folder = tmp_path / "many"
    folder.mkdir()
    text = BASE.read_text(encoding="utf-8")
    for i in range(n):
        (folder / f"copy-{i}.yaml").write_text(text.replace("id: compacted-review-criteria", f"id: copy-{i}", 1))
    return folder


def _live_drills() -> int:
    """The drills of :func:`_folder_of_copies` alive in this process (ids ``copy-N``; other tests' drills, kept by
    caches of the whole run, are not counted)."""
    from warroom.core.model import Drill

    gc.collect()
    return sum(1 for o in gc.get_objects() if isinstance(o, Drill) and o.id.startswith("copy-"))


def test_validate_of_a_folder_holds_one_drill_at_a_time_not_every_drill_until_the_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """`warroom validate` kept every loaded drill for the rules across files (which read only the id): a folder of
    2,000 drills took 315 MB, 500 took 104 MB. Each drill is let go once checked (500: 53 MB)."""
    import warroom.core.load as load

    folder = _folder_of_copies(tmp_path, 6)
    real, alive = load.load_drill_with_warnings, []

    def counting(path: Path) -> object:
        alive.append(_live_drills())
        return real(path)

    monkeypatch.setattr(load, "load_drill_with_warnings", counting)
    result = CliRunner().invoke(main, ["validate", str(folder)])
    assert result.output.splitlines()[-1] == "6 drills checked: 6 valid, 0 invalid"
    assert alive == [0] * 6


def test_check_of_a_folder_holds_one_drill_at_a_time_not_every_drill_until_the_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """`warroom check` loaded every drill of a folder first and kept them (and every scripted trainee's result of
    each, printed only with --format json) to the end: 500 drills peaked at 179 MB. Each is let go once checked."""
    from warroom.core.library import DrillLibrary

    folder = _folder_of_copies(tmp_path, 6)
    real, alive = DrillLibrary.load_or_problems, []

    def counting(path: Path) -> object:
        alive.append(_live_drills())
        return real(path)

    monkeypatch.setattr(DrillLibrary, "load_or_problems", staticmethod(counting))
    result = CliRunner().invoke(main, ["check", str(folder)])
    assert result.output.splitlines()[-1] == "6 drills checked: 6 passed, 0 failed."
    assert len(alive) == 12  # each loaded for the ids (the rules across files), then again to be checked
    assert alive[:7] == [0] * 7  # none kept by the first pass
    assert max(alive) <= 4  # the last two drills checked and their twins (the play caches), never all six


def test_a_path_too_long_for_the_system_is_a_refusal_saying_so_not_a_traceback(tmp_path: Path):
    """A name of 300 bytes (over the 255 of a file name) gave a traceback from `validate`, `check`, `cost` and
    `run` (``Path.exists`` raises ENAMETOOLONG, it does not return False) and from `new --out`."""
    long = tmp_path / ("x" * 300 + ".yaml")
    for args, hint in ((["validate"], "PATH_OR_ID"), (["check"], "PATH_OR_ID"), (["cost"], "DRILL")):
        result = CliRunner().invoke(main, [*args, str(long)])
        assert result.exit_code == 2
        assert result.exception is None or isinstance(result.exception, SystemExit)
        name = str(long)  # over 200 characters: named by its ends and length (tests/unit/test_leftovers11.py)
        assert result.output.splitlines()[-1] == (
            f"Error: Invalid value for {hint}: {name[:12]}…{name[-4:]} ({len(name):,} characters): the name is too "
            f"long for the system ({len(name):,} bytes): name a shorter path (a link, or a folder nearer the file)")
    result = CliRunner().invoke(main, ["new", "abc", "--out", str(tmp_path / ("x" * 300))])
    assert result.exit_code == 1
    target = str(tmp_path / ("x" * 300) / "abc.yaml")
    shown = f"{target[:12]}…{target[-4:]} ({len(target):,} characters)"
    assert result.output == f"Error: cannot write {shown}: File name too long\n"


def test_a_link_loop_or_a_dangling_link_given_to_validate_is_named_as_one_not_as_no_such_drill(tmp_path: Path):
    """`warroom validate LINK` (and check) said "no file, folder or drill id 'LINK'" for a symbolic link in a loop
    or to nothing (``Path.exists`` follows it), where `cost` named it; a loop now says what to do, too."""
    loop, dangling = tmp_path / "loop.yaml", tmp_path / "dangling.yaml"
    loop.symlink_to(loop)
    dangling.symlink_to(tmp_path / "nowhere.yaml")
    result = CliRunner().invoke(main, ["validate", str(loop), str(dangling)])
    assert result.exit_code == 1
    assert result.output.splitlines() == [
        f"{loop}:1:1: a symbolic link that leads round in a loop, to no file: point it at a drill file or remove it",
        f"{dangling}:1:1: a symbolic link to {tmp_path / 'nowhere.yaml'}, which does not exist: point it at a drill "
        "file or remove it",
        "2 drills checked: 0 valid, 2 invalid (2 problems)",
    ]


def test_a_merge_key_given_twice_in_one_mapping_is_a_duplicate_key(tmp_path: Path):
    """`<<: {id: e07}` then `<<: {t: 24}` in one event loaded, both merged, though docs/authoring.md says duplicate
    keys are errors (and ruamel.yaml, which the author mode saves with, refuses the file). One `<<` with a list
    of mappings is the way to merge several."""
    path = _drill(tmp_path, "  - id: e07\n    t: 24\n", "  - <<: {id: e07}\n    <<: {t: 24}\n")
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert result.exit_code == 1
    assert result.output.splitlines() == [
        f"{path}:71:5: duplicate key `<<`: a mapping has one merge key; merge several mappings with one list, "
        "`<<: [*first, *second]`",
        "1 drill checked: 0 valid, 1 invalid (1 problem)",
    ]
    (tmp_path / "one").mkdir()
    one = _drill(tmp_path, "  - id: e07\n    t: 24\n", "  - <<: [{id: e07}, {t: 24}]\n",
                 name="one/compacted-review-criteria.yaml")
    assert CliRunner().invoke(main, ["validate", str(one)]).output == "1 drill checked: 1 valid, 0 invalid\n"
