"""``warroom store export`` / ``import``: JSON Lines that move results between SQLite and PostgreSQL losslessly."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner, Result
from scores_support import played_session
from store_support import copy_drill, known_sessions

from warroom.cli import main
from warroom.core.scoring import Scorecard
from warroom.store.results import ResultsStore


def run(*args: str, input: str | None = None) -> Result:
    return CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)


def fill(data: Path, tmp_path: Path) -> None:
    """A played session (re-scored, with a note) and the known sessions of store_support, in the SQLite store."""
    with ResultsStore(data) as store:
        known_sessions(store)
    sid = played_session(data, copy_drill(tmp_path / "drills"))
    with ResultsStore(data) as store:
        stored = store.get(sid)
        store.update_scorecard(sid, Scorecard.from_dict(stored.scorecard), note="a facilitator's note — ünïcode")


def test_export_import_round_trip_between_back_ends(tmp_path: Path, store_url: str):
    sqlite_data, pg_data = tmp_path / "a", tmp_path / "b"
    fill(sqlite_data, tmp_path)
    exported = run("store", "export", "--data-dir", str(sqlite_data))
    assert exported.exit_code == 0
    lines = exported.stdout.splitlines()
    with ResultsStore(sqlite_data) as store:
        assert len(lines) == store.count() > 5
    assert all(isinstance(json.loads(line)["actions"], str) for line in lines)  # stored JSON text, as it is

    imported = run("--store", store_url, "store", "import", "--all-trainees", "-", "--data-dir", str(pg_data),
                   input=exported.stdout)
    assert imported.exit_code == 0, imported.output
    assert f"{len(lines)} sessions imported" in imported.stdout
    again = run("--store", store_url, "store", "export", "--data-dir", str(pg_data))
    assert again.stdout == exported.stdout  # lossless: every value, every type, the same order

    twice = run("--store", store_url, "store", "import", "--all-trainees", "-", "--data-dir", str(pg_data),
                input=exported.stdout)
    assert "0 sessions imported into postgresql://warroom@/postgres?host=" in twice.stdout
    assert f"{len(lines)} already there, 0 refused" in twice.stdout

    back = tmp_path / "back.jsonl"
    assert run("--store", store_url, "store", "export", "-o", str(back), "--data-dir", str(pg_data)).exit_code == 0
    c = tmp_path / "c"
    assert run("store", "import", "--all-trainees", str(back), "--data-dir", str(c)).exit_code == 0
    assert run("store", "export", "--data-dir", str(c)).stdout == exported.stdout
    listed = [json.loads(run("--store", u, "scores", "--data-dir", str(d), "--format", "json").stdout) for u, d in
              (("sqlite://", sqlite_data), (store_url, pg_data))]  # fmt: skip
    assert {r["verification"] for r in listed[0]} == {None}  # recorded where they were played
    assert {r["verification"] for r in listed[1]} == {"unverified"}  # imported: not verified in their new store
    assert [{**r, "verification": None} for r in listed[1]] == listed[0]


def test_bad_lines_are_refused_by_line_and_the_rest_stored(tmp_path: Path):
    data = tmp_path / "a"
    fill(data, tmp_path)
    good = run("store", "export", "--data-dir", str(data)).stdout.splitlines()
    bad_total = json.loads(good[1]) | {"session_id": "other-1", "total": "80"}
    clash = json.loads(good[2]) | {"trainee": "mallory"}
    injected = json.loads(good[3]) | {"session_id": "other-2", "total) VALUES (1); DROP TABLE sessions; --": 1}
    source = tmp_path / "in.jsonl"
    source.write_text("\n".join([good[0], "{not json", json.dumps(bad_total), json.dumps(clash), json.dumps(injected)]))
    result = run("store", "import", "--all-trainees", str(source), "--data-dir", str(tmp_path / "new"))
    assert result.exit_code == 1
    assert f"{source}:2:2: not a JSON object" in result.output  # where the line stops being JSON
    assert f"{source}:3: session other-1 was not stored: total: Input should be a valid integer" in result.output
    assert f"{source}:5: unknown column" in result.output
    assert "2 sessions imported" in result.output and "0 already there, 3 refused" in result.output
    with ResultsStore(tmp_path / "new") as store:
        assert sorted(r.session_id for r in store.query()) == sorted(json.loads(good[i])["session_id"] for i in (0, 2))
    # the clash is the same id with another trainee: refused against a store that has the original
    result = run("store", "import", "--all-trainees", str(source), "--data-dir", str(data))
    assert f"{source}:4: cannot store session" in result.output and "another session is stored under this id" in (
        result.output
    )


def test_lines_refused_for_the_same_reason_share_one_line_of_output(tmp_path: Path):
    data = tmp_path / "a"
    fill(data, tmp_path)
    good = json.loads(run("store", "export", "--data-dir", str(data)).stdout.splitlines()[0])
    bad = [json.dumps(good | {"session_id": f"bad-{i:02}", "total": "80"}) for i in range(12)]
    source = tmp_path / "in.jsonl"
    source.write_text("\n".join(["{not json", *bad, "[]", "{not json either"]))
    result = run("store", "import", "--all-trainees", str(source), "--data-dir", str(tmp_path / "new"))
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert f"{source}:2, 3, 4, 5, 6, 7, 8, 9, 10, 11 and 2 more lines (12 lines; S is each line's session id): " \
        "session S was not stored: total: Input should be a valid integer" in " ".join(lines)
    assert f"{source}:1, 15 (2 lines): not a JSON object: Expecting property name" in result.output  # no S
    assert f"{source}:14: not a JSON object\n" in result.output  # a reason of its own: its own line
    assert "0 sessions imported" in result.output and "0 already there, 15 refused" in result.output
    assert len([line for line in lines if line.startswith(str(source))]) == 3
