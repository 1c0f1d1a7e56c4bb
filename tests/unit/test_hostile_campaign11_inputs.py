"""An eleventh fresh hostile campaign on the inputs (issue 30): the command line's arguments, environment variables,
drills and traces. Each case it found, with the right behaviour."""

from __future__ import annotations

import errno
import io
import os
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from warroom.cli import main
from warroom.cli.common import DrillParam, FiniteFloat, GivenPath

DRILL = str(Path(__file__).parents[2] / "drills" / "api-dns-cutover.yaml")


def _cli(*args: str) -> tuple[int, str, str]:
    """Exit status, stdout and stderr of a ``warroom`` command, which never shows a traceback."""
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result.exit_code, result.stdout, result.stderr


def _commands(group: click.Group, ctx: click.Context) -> list[tuple[str, click.Command]]:
    found: list[tuple[str, click.Command]] = []
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        assert command is not None, name
        found.append((f"{ctx.command_path} {name}", command))
        if isinstance(command, click.Group):
            found += _commands(command, click.Context(command, info_name=name, parent=ctx))
    return found


def test_every_path_parameter_of_the_command_line_refuses_an_empty_name():
    """``Path("")`` is ``.``: a path parameter given an empty value (``--out "$OUT"``, the variable unset) read it
    as the current folder. Every ``click.Path`` of every command is a :class:`GivenPath`, which refuses it."""
    ctx = click.Context(main, info_name="warroom")
    plain = [f"{path} {param.name}" for path, command in [("warroom", main), *_commands(main, ctx)]
             for param in command.params
             if isinstance(param.type, click.Path) and not isinstance(param.type, GivenPath)]
    assert plain == []


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["validate", ""], "'PATH_OR_ID...': an empty name names no drill file, folder or drill id: give one"),
        (["check", ""], "'PATH_OR_ID...': an empty name names no drill file, folder or drill id: give one"),
        (["cost", ""], "'[DRILL]': an empty name names no drill file or drill id: give one"),
        (["migrate", ""], "'FILES...': an empty name names no file or folder: give one"),
        (["project", "--list", ""], "'[FILE]': an empty name names no file or folder: give one"),
        (["new", "x", "--out", ""], "'--out': an empty name names no folder: give one"),
        (["import", "chat", "c.json", "--out", ""], "'--out': an empty name names no folder: give one"),
        (["--data-dir", "", "scores"], "'--data-dir': an empty name names no folder: give one"),
        (["--set", ""], "'--set': an empty name names no file: give one"),
        (["score", DRILL, ""], "'LOG...': an empty name names no file: give one"),
    ],
)
def test_an_empty_path_is_refused_never_read_as_the_current_folder(tmp_path: Path, monkeypatch, args, message):
    """``validate ""`` checked every drill of the current folder (44 valid), ``new x --out ""`` and ``import chat
    c.json --out ""`` wrote their drills into it, ``migrate ""`` and ``--set ""`` named ``.``, a path nobody gave,
    and ``--data-dir ""`` kept the results in the current folder. Each is a usage error that writes nothing."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "c.json").write_text('[{"role": "user", "content": "hi"}]', encoding="utf-8")
    (tmp_path / "a.yaml").write_text(Path(DRILL).read_text(encoding="utf-8"), encoding="utf-8")
    code, out, err = _cli(*args)
    assert code == 2, (out, err)
    assert f"Invalid value for {message}" in err, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.yaml", "c.json"]


def test_a_drill_argument_given_an_empty_name_is_refused_by_the_param_itself():
    with pytest.raises(click.BadParameter, match="an empty name names no drill file or drill id"):
        DrillParam().convert("", None, None)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--trainee", "", "scores"], "the trainee name from --trainee is empty: give a name, or leave --trainee out"),
        (["run", "--trainee", "  ", "x"], "the trainee name from --trainee is empty: give a name"),
        (["--store", "", "scores"], "Invalid value for '--store': an empty URL names no store: give sqlite:///FILE"),
        (["serve", "--host", ""], "Invalid value for '--host': an empty address names none: give 127.0.0.1"),
    ],
)
def test_an_empty_trainee_store_or_host_is_refused_never_a_silent_default(tmp_path: Path, monkeypatch, args, message):
    """``--trainee ""`` played and stored as the OS user, ``--store ""`` kept results in the data directory's SQLite
    file (not the PostgreSQL store ``--store "$URL"`` meant), and ``serve --host ""`` listened on every address of
    the machine behind a banner naming none (``http://:8000``). Each is a usage error; nothing is stored or served."""
    monkeypatch.setenv("WARROOM_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("WARROOM_TRAINEE", "ann")
    code, out, err = _cli(*args)
    assert code == 2, (out, err)
    assert message in err, err
    assert not (tmp_path / "data").exists()


class _FullDisk(io.RawIOBase):
    """A stream on a full disk: every write fails with ENOSPC."""

    def writable(self) -> bool:
        return True

    def write(self, data) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")


@pytest.mark.parametrize("args", [["schema"], ["validate", DRILL], ["cost", DRILL], ["cost", DRILL, "--format=json"]])
def test_standard_output_on_a_full_disk_is_one_line_saying_so_not_a_traceback(monkeypatch, capsys, args):
    """``warroom validate D > out.txt`` on a full disk (or ``> /dev/full``) ended in a traceback (``OSError: [Errno
    28] No space left on device`` from ``click.echo`` or Rich's console). It is one line on stderr, exit status 1."""
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(io.BufferedWriter(_FullDisk()), encoding="utf-8"))
    with pytest.raises(SystemExit) as stopped:
        main.main(args, prog_name="warroom")
    assert stopped.value.code == 1
    assert capsys.readouterr().err == ("Error: cannot write to standard output (No space left on device), so what it "
                                       "shows is cut short: send it where there is room (another file or disk)\n")


def test_a_full_disk_under_standard_output_says_so_and_nothing_more_at_exit():
    """The process itself: the line, exit status 1, and no "Exception ignored" when Python flushes stdout at exit."""
    with open(os.devnull, "wb") if not Path("/dev/full").exists() else open("/dev/full", "wb") as full:
        done = subprocess.run([sys.executable, "-m", "warroom", "schema"], stdout=full, stderr=subprocess.PIPE,
                              text=True, timeout=60, check=False)
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full here")
    assert done.returncode == 1, done.stderr
    assert done.stderr == ("Error: cannot write to standard output (No space left on device), so what it shows is "
                           "cut short: send it where there is room (another file or disk)\n")


_GONE = "a symbolic link to {target}, which does not exist: point it at a file or remove it"
_LOOP = "a symbolic link that leads round in a loop, to no file: point it at a file or remove it"


@pytest.mark.parametrize("loop", [False, True], ids=["to-nothing", "in-a-loop"])
@pytest.mark.parametrize(
    ("args", "shown"),
    [
        (["import", "chat", "{link}", "--out", "o"], "Invalid value for 'PATHS...': {link}: {why}"),
        (["import", "chat", "{folder}", "--out", "o"], "{link}:1:1: {why}"),
        (["annotate", "{link}"], "Invalid value for 'FILE': {link}: {why}"),
        (["serve", "--roster", "{link}"], "Invalid value for '--roster': {link}: {why}"),
        (["migrate", "{link}"], "{link}:1:1: {why}"),
        (["--set", "{link}"], "{link}:1:1: {why}"),
        (["project", "--list", "{link}"], "{link}:1:1: {why}"),
        (["score", DRILL, "{link}"], "{link}: {why}"),
    ],
)
def test_a_link_to_nothing_or_in_a_loop_is_named_as_one_not_as_no_such_file(tmp_path: Path, args, shown, loop):
    """``validate`` named a dangling link as one (campaign 8); ``import``, ``annotate``, ``serve --roster``,
    ``migrate``, ``--set``, ``project`` and ``score`` said ``Path '...' does not exist``, ``no such file`` or
    ``cannot read the file: No such file or directory`` of a name ``ls`` lists, without what to do."""
    folder = tmp_path / "in"
    folder.mkdir()
    link = folder / "x.json"
    if loop:
        link.symlink_to(link.name)
    else:
        link.symlink_to(tmp_path / "gone.json")
    why = _LOOP if loop else _GONE.format(target=tmp_path / "gone.json")
    code, out, err = _cli(*(a.format(link=link, folder=folder) for a in args))
    assert code in (1, 2), (out, err)
    assert shown.format(link=link, why=why) in err + out, err + out
    assert not (tmp_path / "gone.json").exists()


@pytest.mark.parametrize("args", [["scores"], ["scores", "summary"], ["scores", "verify"], ["report", "-o", "-"]])
def test_a_data_directory_named_with_a_newline_is_named_on_its_line(tmp_path: Path, monkeypatch, args):
    """``WARROOM_DATA_DIR=$'a\\nb' warroom scores`` printed ``No sessions recorded yet in a`` and ``b.`` as a line of
    its own (a name can forge a line); the data directory is named escaped (``a\\x0ab``), as files are."""
    monkeypatch.setenv("WARROOM_DATA_DIR", str(tmp_path / "a\nb"))
    _, out, err = _cli(*args)
    assert f"{tmp_path}/a\\x0ab" in out + err, out + err
    assert "a\nb" not in out + err


def test_a_data_directory_that_is_a_file_is_named_on_its_line(tmp_path: Path, monkeypatch):
    (tmp_path / "a\nb").write_text("", encoding="utf-8")
    monkeypatch.setenv("WARROOM_DATA_DIR", str(tmp_path / "a\nb"))
    code, _, err = _cli("scores")
    assert code == 1
    assert f"the data directory {tmp_path}/a\\x0ab is a file, not a folder" in err, err


def test_every_number_option_of_the_command_line_refuses_nan_and_infinity():
    """``nan`` passed click's ``FloatRange`` (no comparison with NaN is true) and ``float``: every number option is a
    :class:`FiniteFloat`."""
    ctx = click.Context(main, info_name="warroom")
    plain = [f"{path} {param.name}" for path, command in [("warroom", main), *_commands(main, ctx)]
             for param in command.params
             if isinstance(param.type, click.types.FloatParamType) and not isinstance(param.type, FiniteFloat)]
    assert plain == []


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["annotate", "--speed", "nan", DRILL], "'--speed': 'nan' is no number; give one (0.5<=x<=32)"),
        (["annotate", "--reading-time", "nan", DRILL], "'--reading-time': 'nan' is no number; give one (1<=x<=120)"),
        (["serve", "--stuck-after", "nan"], "Invalid value for '--stuck-after': 'nan' is no number; give one (x>=5)"),
        (["serve", "--stuck-after", "inf"], "Invalid value for '--stuck-after': 'inf' is no number; give one (x>=5)"),
        (["project", DRILL, "--template", "stale-data", "--window", "inf", "--out", "o"],
         "Invalid value for '--window': 'inf' is no number; give one"),
        (["run", "--speed", "nan", DRILL], "Invalid value for '--speed': 'nan' is no number; give one"),
    ],
)
def test_nan_or_infinity_for_a_number_option_is_a_usage_error(tmp_path: Path, monkeypatch, args, message):
    """``annotate --speed nan`` opened the author mode and crashed it (``ValueError: cannot advance the drill clock by
    nan seconds``), ``serve --stuck-after nan`` served a console that never shows a trainee stuck, and ``project
    --window inf`` failed in the drill it made (``answer_key.deadline: Input should be a finite number``)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("WARROOM_DATA_DIR", str(tmp_path / "data"))
    code, out, err = _cli(*args)
    assert code == 2, (out, err)
    assert message in err, err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("text", ["refund\rissued", "first line\r\nsecond line", "a tab\tand a\rreturn"])
def test_an_answer_key_text_holding_a_carriage_return_is_saved_and_reads_back_as_written(tmp_path: Path, text):
    """A summary or debrief holding a carriage return (text pasted with Windows line ends) was written raw, plain or
    as a literal block, where YAML reads it as a line break: the save was refused (``the answer_key would not read
    back as written``, ``the file would not read back after writing``) and the author's key could not be saved at
    all. It is written double-quoted (``"refund\\rissued"``) and reads back as written."""
    from warroom.core.author import open_for_annotation, write_draft
    from warroom.core.load import load_drill

    drills = Path(DRILL).parent
    path = tmp_path / "duplicate-charge-refunds.yaml"
    path.write_text((drills / path.name).read_text(encoding="utf-8"), encoding="utf-8")
    opened = open_for_annotation(path)
    opened.draft.summary, opened.draft.debrief = text, text
    write_draft(path, opened.draft, opened.event_order)
    again = open_for_annotation(path).draft
    assert (again.summary, again.debrief) == (text, text)
    drill = load_drill(path)
    assert drill.answer_key is not None and drill.answer_key.fault.summary == text


def test_standard_input_given_twice_as_a_log_is_a_usage_error_not_an_empty_log_scored_a_miss():
    """``warroom score D - -`` scored the first ``-`` and then the second, which read nothing, as a log of no actions:
    ``-: 0/100; missed``, a miss nobody played. Standard input is read once."""
    result = CliRunner().invoke(main, ["score", DRILL, "-", "-"], input='{"t": 5, "kind": "escalate", "step": "s1"}\n')
    assert result.exit_code == 2, result.output
    assert "`-` (standard input) is given 2 times, but standard input can be read only once" in result.stderr
    assert "missed" not in result.output


def test_project_jobs_start_no_more_worker_processes_than_cpus(monkeypatch):
    """`project --all --jobs 1000` on 1,000 drills started 1,000 worker processes (about 50 MB each) for work that is
    all CPU: the workers are at most the CPUs this process may run on, and never more than the files."""
    import os

    from warroom.core.projection._batch import workers

    monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: {0, 1}, raising=False)
    assert workers(1000, 1000) == 2
    assert workers(1000, 1) == 1 and workers(1, 1000) == 1 and workers(2, 5) == 2


def test_names_to_redact_are_matched_through_a_trie_the_same_as_their_alternation():
    """`--redact-names` with a long list of names: one alternation of every name was tried at every position of every
    text (20,000 names on 140 KB took 3.2 s; the 8 MiB limit of names, 28 s and 855 MB). The names are one trie;
    what it matches is what the alternation of the names, longest first, matched."""
    import random
    import re

    from warroom.importers.kit._redact import Redactor, _names_pattern

    assert _names_pattern(["ann", "anna", "anne"]) == "ann(?:a|e)?"

    def alternation(names: list[str], text: str) -> str:
        ordered = sorted({n.strip() for n in names if n.strip()}, key=lambda n: (-len(n), n))
        if not ordered:  # blank names are no names
            return ""
        alternatives = "|".join(re.escape(n) for n in ordered)
        pattern = re.compile(rf"(?<!\w)(?i:{alternatives})(?!\w)")
        return "|".join(m.group(0) for m in pattern.finditer(text))

    rng = random.Random(11)
    letters = "abAB .-é"
    for _ in range(500):
        names = ["".join(rng.choice(letters) for _ in range(rng.randint(1, 5))) for _ in range(rng.randint(1, 8))]
        text = "".join(rng.choice(letters + "xy") for _ in range(60))
        redactor = Redactor(names)
        found = "|".join(m.group("name") for m in redactor._pattern.finditer(text) if m.lastgroup == "name")
        assert found == alternation(names, text), (names, text)
    deep = Redactor(["a" * i for i in range(1, 1500)])  # nested deep: still one pattern, whichever way it is built
    assert deep.text("aaaa b aaaaaaa") == "<name-1> b <name-2>"
