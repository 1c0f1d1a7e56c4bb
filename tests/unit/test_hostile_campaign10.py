"""A tenth fresh hostile campaign on the command line and the results (issue 30): what changed on the day of
campaign 10 (re-scoring edited columns, ``--output -``, ``warroom new x.yaml``, the store's own order of sessions).
Each case it found, with the right behaviour."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from locations import TESTS

from unit.test_forgeries import GOOD, play
from warroom.cli import main
from warroom.store.results import ResultsStore


def _cli(*args: str) -> tuple[int, str, str]:
    """Exit status, stdout and stderr of a ``warroom`` command, which never shows a traceback."""
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result.exit_code, result.stdout, result.stderr


def _figures(data: Path, session_id: str) -> tuple:
    with ResultsStore(data) as store:
        sql = "SELECT response, distractors_shown, distractor_escalations FROM sessions WHERE session_id = ?"
        return tuple(store.db.conn.execute(sql, (session_id,)).fetchone())


def test_rescore_corrects_the_counted_columns_edited_beside_an_unedited_scorecard(tmp_path: Path, backend_url):
    """A hit whose ``response`` column was edited to ``miss`` and ``distractors_shown`` to 5 by SQL, its scorecard
    JSON left as it was: ``scores verify`` found both, but ``scores rescore`` compared only the scorecard's own
    columns (total, outcome...), said "0 changed, 2 unchanged" and kept the edited values, which the statistics
    count (its hit counted as a miss once verified). Re-scoring rewrites them from the scorecard, naming them; on
    both back ends."""
    data = tmp_path / "data"
    sid = play(data, "ann", GOOD, mode="assessment").session_id
    truth = _figures(data, sid)
    assert truth[0] == "hit", truth
    with ResultsStore(data) as store:
        sql = "UPDATE sessions SET response = 'miss', distractors_shown = 5 WHERE session_id = ?"
        store.db.write(lambda: store.db.conn.execute(sql, (sid,)))
    code, out, err = _cli("scores", "rescore", "--yes", "--data-dir", str(data))
    assert code == 0, err
    assert (f"stored columns disagreed with the scorecard: distractors_shown 5 -> {truth[1]!r}, response 'miss' -> "
            "'hit'") in out + err, out + err
    assert _figures(data, sid) == truth
    code, out, err = _cli("scores", "rescore", "--yes", "--data-dir", str(data))
    assert "1 unchanged" in out + err, out + err
    code, out, err = _cli("scores", "verify", "--format", "json", "--data-dir", str(data))
    assert [v["verdict"] for v in json.loads(out)] == ["verified"], out
    code, out, err = _cli("scores", "summary", "--format", "json", "--data-dir", str(data))
    (row,) = json.loads(out)["trainees"]
    assert (row["hits"], row["misses"]) == (1, 0), row


def test_rescore_leaves_a_session_it_wrote_unchanged_on_both_counts(tmp_path: Path):
    """The counted columns of a session warroom stored agree with its scorecard: re-scoring finds nothing to
    correct (no session is "changed" by the comparison itself)."""
    data = tmp_path / "data"
    play(data, "ann", GOOD, mode="assessment")
    play(data, "ann", [], mode="assessment")
    code, out, err = _cli("scores", "rescore", "--yes", "--data-dir", str(data))
    assert code == 0 and "0 changed, 2 unchanged" in out + err, out + err
    with ResultsStore(data) as store:
        assert all(s.rescored_at is None for s in store.iter_sessions())


@pytest.mark.parametrize("text", ["{(1, 2): 3}", "{'a': {(1, 2): 3}}", "{1: 'x', '1': 'y'}", "{1: 'x', 1.0: 'y'}"])
def test_a_tool_input_written_as_a_python_dict_whose_keys_are_not_text_is_kept_as_its_text(tmp_path: Path, text: str):
    """A Langfuse tool call's input recorded as ``str()`` of a Python dict with a tuple key (``{(1, 2): 3}``) ended
    ``warroom import langfuse`` in a TypeError traceback (``keys must be str, int, float, bool or None, not tuple``):
    the literal was made JSON-ready after the checks. One whose keys are ``1`` and ``'1'`` (or ``1`` and ``1.0``)
    was read as one key, the last copy, silently. JSON's keys are text: such a value is kept as its text, as one
    giving a key twice is (docs/importing.md)."""
    lines = (TESTS / "fixtures" / "frameworks" / "langfuse-otel.jsonl").read_text(encoding="utf-8").splitlines()
    doc = json.loads(lines[0])
    [span] = [sp for sp in doc["resourceSpans"][0]["scopeSpans"][0]["spans"] if sp["name"] == "list_charges"]
    [value] = [a["value"] for a in span["attributes"] if a["key"] == "langfuse.observation.input"]
    value["stringValue"] = text
    source = tmp_path / "lf.jsonl"
    source.write_text("\n".join([json.dumps(doc), *lines[1:]]) + "\n", encoding="utf-8")
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["import", "langfuse", str(source), "--out", str(out)])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code == 0 and "Traceback" not in result.output, result.output
    [drill] = out.glob("*.yaml")
    events = yaml.safe_load(drill.read_text(encoding="utf-8"))["trace"]
    [call] = [e for e in events if e.get("kind") == "tool_call" and e.get("tool") == "list_charges"]
    assert call["arguments"] == {"input": text}, call


def test_a_python_literal_is_read_only_when_every_key_is_text():
    """The same rule for an OpenAI Agents SDK function span's output (its ``str()``), which reads it too."""
    from functools import partial

    from warroom.importers.exports import returned_value

    tool_output = partial(returned_value, json_text=True)

    assert tool_output("{(1, 2): 3}") == "{(1, 2): 3}"
    assert tool_output("[{1: 'x', '1': 'y'}]") == "[{1: 'x', '1': 'y'}]"
    assert tool_output("{'refunds': [{'id': 1}], 'total': 0}") == {"refunds": [{"id": 1}], "total": 0}


def test_a_type_error_the_checks_missed_fails_its_file_only_never_a_traceback(tmp_path: Path, monkeypatch):
    """What the checks miss in one file (as the tuple key above, a TypeError) fails that file with its name and the
    error, as a ValueError does, never the whole import with a traceback."""
    from warroom.importers.kit import _files

    def broken(self, f):
        raise TypeError("keys must be str, int, float, bool or None, not tuple")

    monkeypatch.setattr(_files._Run, "_prepare", broken)
    source = TESTS / "fixtures" / "frameworks" / "langfuse-otel.jsonl"
    result = CliRunner().invoke(main, ["import", "langfuse", str(source), "--out", str(tmp_path / "out")])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code == 1 and "Traceback" not in result.output, result.output
    assert "cannot import this trace (TypeError: keys must be str" in result.output, result.output


@pytest.mark.parametrize(
    "command",
    [["schema"], ["store", "export"], ["scores", "list", "--format", "csv"], ["report"]],
)
def test_an_empty_output_name_is_refused_as_no_file_never_read_as_the_current_folder(tmp_path: Path, command):
    """``--output ""`` (a shell variable left unset: ``-o "$OUT"``) was read as ``.``: ``schema`` and ``scores`` said
    ``.: is a folder; nothing was written``, ``store export`` ``cannot write .: Is a directory``, naming a folder the
    user never gave. It is a usage error naming what is wrong and what to give, before anything is read or written."""
    result = CliRunner().invoke(main, [*command, "--output", "", "--data-dir", str(tmp_path / "data")]
                                if command != ["schema"] else [*command, "--output", ""])
    assert result.exit_code == 2, result.output
    assert "'--output' / '-o': an empty name names no file: give the file to write, or - for standard output" \
        in result.stderr, result.stderr
    assert ".:" not in result.stderr and not (tmp_path / "data").exists()


def test_new_given_a_yml_file_name_writes_that_file(tmp_path: Path):
    """``warroom new refunds.yml`` wrote refunds.yaml: the file named was not the file written (an editor opening
    refunds.yml found nothing). A file name given as the id is the file written, ``.yml`` as ``.yaml``; ``.YML``,
    which the drill library does not read, is written ``.yaml``."""
    result = CliRunner().invoke(main, ["new", "refunds.yml", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["refunds.yml"]
    assert '\nid: "refunds" ' in (tmp_path / "refunds.yml").read_text(encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", str(tmp_path / "refunds.yml")])
    assert result.exit_code == 0, result.output
    result = CliRunner().invoke(main, ["new", "refunds.yaml", "--out", str(tmp_path)])
    assert result.exit_code == 1 and "refunds.yml already exists" in result.output, result.output
    result = CliRunner().invoke(main, ["new", "Upper.YML", "--out", str(tmp_path)])
    assert result.exit_code == 0 and (tmp_path / "Upper.yaml").exists(), result.output


def test_new_names_a_refused_id_as_given_with_a_byte_that_is_not_utf8_as_the_byte(tmp_path: Path):
    """A refused id was named without the suffix it was given with, and a byte of a file name that is not UTF-8 as
    Python's stand-in (``'n\\udcff'``): it is named as typed, the byte as ``\\xff``."""
    result = CliRunner().invoke(main, ["new", "n\udcff.yaml", "--out", str(tmp_path)])
    assert result.exit_code == 2, result.output
    assert "Invalid value for ID 'n\\xff.yaml': use letters" in result.stderr, result.stderr


def test_a_stored_order_written_by_hand_as_text_is_no_place_in_the_order_never_a_crash(tmp_path: Path):
    """``stored_seq`` set by SQL in a SQLite store to text: ``stored_order`` (the console's grid and gradebook, the
    copy check) read it with ``int()`` and raised ValueError. Such a row comes with the unnumbered rows, and the
    summary and report still count the store."""
    import sqlite3

    data = tmp_path / "data"
    first = play(data, "ann", GOOD, mode="assessment").session_id
    second = play(data, "bob", GOOD, mode="assessment").session_id
    with sqlite3.connect(data / "results.sqlite3") as conn:
        conn.execute("UPDATE sessions SET stored_seq = 'abc' WHERE session_id = ?", (first,))
    with ResultsStore(data) as store:
        order = store.stored_order([first, second])
    assert order[first] == (0, 0) and order[second][0] == 1, order
    _code, out, err = _cli("scores", "summary", "--format", "json", "--data-dir", str(data))
    assert "Traceback" not in err and json.loads(out)["counted"]["sessions"] >= 1, err


def test_one_reader_of_a_returned_value_keeps_each_producers_reading() -> None:
    """The OpenAI Agents SDK's function output and OpenInference's output.value (Agno) are read by one reader: a
    Python literal parsed by both; JSON text parsed for the SDK, kept as its text for the span importers."""
    from warroom.importers.exports import returned_value

    for json_text in (True, False):
        assert returned_value("{'a': [1]}", json_text=json_text) == {"a": [1]}
        assert returned_value('{"a": 1, "a": 2}', json_text=json_text) == '{"a": 1, "a": 2}'
        assert returned_value("done", json_text=json_text) == "done"
        assert returned_value(3, json_text=json_text) == 3
    assert returned_value(' {"a": 1}', json_text=True) == {"a": 1}
    assert returned_value(' {"a": 1}', json_text=False) == ' {"a": 1}'
