"""A twelfth hostile campaign, on the day's new command-line code (issue 30): WholeNumber, FiniteFloat, GivenPath,
``import --out -``. Each case it found, with the right behaviour."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from warroom.cli import main

DRILL = str(Path(__file__).parents[2] / "drills" / "api-dns-cutover.yaml")
LONG = "1" * 5000


def _cli(*args: str) -> tuple[int, str, str]:
    """Exit status, stdout and stderr of a ``warroom`` command, which never shows a traceback."""
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("0" * 33 + "5", None),  # 5 seeds, not "000000000000…0005 (34 digits) is too large"
        ("-" + "0" * 34, None),  # zero, not "too small"
        ("-" + "0" * 34 + "5", "-5 is not a number of seeds"),
        ("0" * 40 + "1_0", None),  # 10, as 1_0 is
        ("５" * 32, "５５５５５５５５５５５５…５５５５ (32 digits) is too large"),  # as ５ is 5
        ("1x" + LONG, "1x1111111111…1111 (5,002 characters) is not a whole number"),
    ],
)
def test_a_long_whole_number_is_judged_by_its_value_not_its_length(value: str, message: str | None):
    """``--variants 0000000000000000000000000000000005`` was refused as too large (34 characters), and 35 zeros
    after a minus sign as too small: a value of more than 30 characters was judged by its length, where click reads
    ``05`` as 5; and 32 full-width digits were 'not a whole number' where one is read as 5."""
    code, out, err = _cli("check", "--variants", value, DRILL)
    if message is None:
        assert code == 0, (out, err)
    else:
        assert code == 2, (out, err)
        assert message in err, err


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (LONG, "111111111111…1111 (5,000 characters) is too large: give a number (x>=5)"),
        ("x" + LONG, "x11111111111…1111 (5,001 characters) is not a number"),
        ("1e400", "'1e400' is too large: give a number (x>=5)"),
        ("0." + LONG, "0.1111111111111111 is not in the range x>=5"),
    ],
)
def test_a_long_number_option_is_never_echoed_whole(value: str, message: str):
    """``serve --stuck-after`` with 5,000 digits wrote them all back (5,164 characters, 'is no number'): a number
    option's refusal cuts a long value as a whole-number option's does, and digits that overflow are too large, not
    'no number'."""
    code, out, err = _cli("serve", "--stuck-after", value)
    assert code == 2, (out, err)
    assert message in err, err
    assert len(err) < 400, err


FIXTURES = Path(__file__).parents[1] / "fixtures"
TRACE = str(FIXTURES / "openinference" / "phoenix.jsonl")


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("--reading-time", LONG, "111111111111…1111 (5,000 characters): give a reading time from 1 to 120 seconds"),
        ("--price", LONG, "111111111111…1111 (5,000 characters) is not IN/OUT"),
        ("--price", "1/" + LONG, "1/1111111111…1111 (5,002 characters): prices must be non-negative numbers"),
        ("--trace-id", "0" * 5000, "000000000000…0000 (5,000 characters) is all zeros"),
        ("--price", "x/1", "'x/1' is not IN/OUT with two numbers"),  # a short value as before
    ],
)
def test_an_importer_option_never_echoes_a_long_value_whole(tmp_path: Path, option: str, value: str, message: str):
    """The importers' own options (``--price``, ``--reading-time``, ``--trace-id``) are text options their importer
    parses, outside the WholeNumber and FiniteFloat types: each wrote a 5,000-character value back whole."""
    code, out, err = _cli("import", "openinference", TRACE, "--out", str(tmp_path / "o"), option, value)
    assert code == 2, (out, err)
    assert message in err, err
    assert len(err) < 500, err
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("1" * 5000, "111111111111…1111 (5,000 characters): file name too long"),  # was a traceback (ENAMETOOLONG)
        ("", "an empty name names no file: give the dataset's ground-truth file"),  # was ": no such file"
        (".", ".: is no file"),  # was ".: no such file"
        ("gone", "gone: a symbolic link to nowhere, which does not exist: point it at a file or remove it"),
        ("absent.json", "absent.json: no such file or directory"),
    ],
)
def test_a_ground_truth_that_is_no_file_is_said_as_such(tmp_path: Path, monkeypatch, name: str, message: str):
    """``--ground-truth`` is a path the importer checks, not a GivenPath: a name too long for the system raised
    ``OSError: [Errno 36] File name too long`` as a traceback, an empty name and a folder were 'no such file' and a
    symbolic link to nothing was not named as one."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "gone").symlink_to("nowhere")
    code, out, err = _cli("import", "openinference", TRACE, "--out", "o", "--ground-truth", name)
    assert code == 2, (out, err)
    assert f"Invalid value for '--ground-truth': {message}" in err, err
    assert len(err) < 500, err
    assert not (tmp_path / "o").exists()


def test_import_out_dash_writes_the_drill_a_folder_gets(tmp_path: Path):
    """``import ... --out -`` cleaned the drill's text for the terminal: a bidirectional isolate in a tool call's
    multi-line input (a literal block) and an override in a single-quoted output became the six characters
    ``\\u2066`` of text, a drill other than the one ``--out DIR`` writes. Standard output now gets the same drill,
    every character outside ASCII written as a double-quoted escape, and still no raw control on the terminal."""
    import yaml

    text = Path(TRACE).read_text(encoding="utf-8")
    for key, value in (("output", "evil\\u202etxt.exe plain "), ("input", "one\\ntwo \\u2066iso\\u2069\\n")):
        field = f'{{"key":"{key}.value","value":{{"stringValue":"'
        at = text.index(field) + len(field)
        text = text[:at] + value + text[at:]
    trace = tmp_path / "bidi.jsonl"
    trace.write_text(text, encoding="utf-8")
    code, out, err = _cli("import", "openinference", str(trace), "--out", str(tmp_path / "o"))
    assert code == 0, err
    (written,) = (tmp_path / "o").iterdir()
    code, out, err = _cli("import", "openinference", str(trace), "--out", "-")
    assert code == 0, err
    assert "\u202e" in written.read_text(encoding="utf-8")  # the case: the folder's drill holds it raw
    assert not any(ch in out for ch in "\u202e\u2066\u2069")
    assert yaml.safe_load(out) == yaml.safe_load(written.read_text(encoding="utf-8"))
    assert out.startswith("# Imported by `warroom import openinference` from bidi.jsonl")


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("WEEK-1.SET.YAML", "no drill set file 'WEEK-1.SET.YAML': give the set's id or its file"),  # was an id
        ("", "an empty name names no drill set: give the set's id or its file"),  # was an id no session has
        ("  ", "an empty name names no drill set"),
        ("gone.yaml", "'gone.yaml': a symbolic link to nowhere.yaml, which does not exist: point it at a file"),
        ("a" * 5000 + ".yaml", "no drill set file aaaaaaaaaaaa…yaml (5,005 characters): give"),  # a traceback
    ],
)
@pytest.mark.parametrize("command", [["scores"], ["report", "-o", "r.html"]])
def test_a_set_option_that_names_no_set_is_a_usage_error(tmp_path: Path, monkeypatch, command, value, message):
    """``scores --set``/``report --set``: a set file named in capitals was taken for a set id (no session matched,
    without a word), as was an empty value; a link to nothing was 'no drill set file'; and a file name too long for
    the system raised ``OSError: File name too long`` from ``Path.is_file`` as a traceback."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("WARROOM_DATA_DIR", str(tmp_path / "data"))
    (tmp_path / "gone.yaml").symlink_to("nowhere.yaml")
    code, out, err = _cli(*command, "--set", value)
    assert code == 2, (out, err)
    assert f"Invalid value for '--set': {message}" in err, err
    assert len(err) < 500, err


@pytest.mark.parametrize("command", [["store", "status"], ["store", "export"]])
def test_a_sqlite_store_named_too_long_is_said_not_a_traceback(tmp_path: Path, monkeypatch, command):
    """``--store sqlite:///NAME`` with a name too long for the system: ``Path.exists`` raised ``OSError: [Errno 36]
    File name too long`` through to a traceback."""
    monkeypatch.setenv("WARROOM_DATA_DIR", str(tmp_path / "data"))
    code, out, err = _cli(*command, "--store", f"sqlite:///{tmp_path}/{'b' * 5000}")
    assert code == 1, (out, err)
    assert "cannot use the results store " in err and "File name too long" in err, err


def test_a_sqlite_store_named_with_a_newline_is_named_on_one_line(tmp_path: Path, monkeypatch):
    """A store file named with a newline forged a line of its own in the store's messages (``no results store at
    /x/nl`` then ``forged: line.db (no session ...)``); data directories and journals were escaped already."""
    monkeypatch.setenv("WARROOM_DATA_DIR", str(tmp_path / "data"))
    code, out, err = _cli("store", "status", "--store", f"sqlite:///{tmp_path}/nl\nforged: line.db")
    assert code == 1, (out, err)
    assert f"no results store at {tmp_path}/nl\\x0aforged: line.db (no session" in err, err
    assert "\nforged" not in err


def test_a_damaged_store_message_escapes_its_names():
    """The damaged and empty store messages name the file, its name and its journals escaped."""
    from warroom.store.errors import damaged_message, empty_message

    path = Path("/x/a\nb.sqlite3")
    for message in (damaged_message(path, ValueError("bad")), empty_message(path)):
        assert "\n" not in message
        assert "/x/a\\x0ab.sqlite3" in message and "a\\x0ab.sqlite3." in message
