"""Issue 30's leftovers in the command line and the results (the ninth stop's list): each break found by a hostile
campaign and left open, with the right behaviour."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from warroom.cli import main


def _chats(path: Path, n: int) -> Path:
    lines = [json.dumps({"messages": [{"role": "user", "content": f"refund order {i}"},
                                      {"role": "assistant", "content": "done"}]}) for i in range(n)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_import_out_dash_writes_the_one_drill_on_stdout(tmp_path: Path, monkeypatch) -> None:
    # was: a folder named `-` made in the current folder, the drill inside it
    monkeypatch.chdir(tmp_path)
    _chats(tmp_path / "inc.jsonl", 1)
    result = CliRunner().invoke(main, ["import", "chat", "inc.jsonl", "--out", "-"])
    assert result.exit_code == 0, result.output
    assert not (tmp_path / "-").exists()
    drill = yaml.safe_load(result.stdout)
    assert drill["id"] == "chat-inc"
    assert "1 drill imported into standard output from 1 file, 0 failed" in result.stderr


def test_import_out_dash_refuses_several_drills_and_writes_nothing(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    _chats(tmp_path / "inc.jsonl", 3)
    result = CliRunner().invoke(main, ["import", "chat", "inc.jsonl", "--out", "-"])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert ("--out -: this import makes 3 drills (from 1 file) and standard output holds one; nothing was written"
            in result.stderr)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["inc.jsonl"]


def test_import_out_dot_slash_dash_is_a_folder_named_dash(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    _chats(tmp_path / "inc.jsonl", 1)
    result = CliRunner().invoke(main, ["import", "chat", "inc.jsonl", "--out", "./-"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "-" / "chat-inc.yaml").is_file()


def test_scores_set_naming_a_yaml_file_that_does_not_exist_says_so(tmp_path: Path) -> None:
    # was: `No sessions match` (the name read as a set id), exit 0
    data = str(tmp_path / "data")
    for args in (["scores", "--set", "nosuch.set.yaml"], ["scores", "summary", "--set", "nosuch.set.yml"]):
        result = CliRunner().invoke(main, ["--data-dir", data, *args])
        assert result.exit_code == 2, result.output
        assert f"no drill set file '{args[-1]}': give the set's id or its file" in result.output
    found = CliRunner().invoke(main, ["--data-dir", data, "scores", "--set", "week-1"])
    assert found.exit_code == 0 and "no drill set file" not in found.output


def test_no_export_writes_a_negative_zero(tmp_path: Path) -> None:
    # was: `-0.0` in JSON and CSV made from a figure rounded to zero from below, or stored as such
    from warroom.cli.common import emit_json
    from warroom.cli.common._output import csv_text
    from warroom.core.text import json_text

    figures = {"c": round(-0.0004, 2), "rows": [{"damage": -0.0, "t": (1.5, -0.0)}], "n": 0, "name": "-0.0"}
    assert json.loads(json_text(figures)) == {"c": 0.0, "rows": [{"damage": 0.0, "t": [1.5, 0.0]}], "n": 0,
                                              "name": "-0.0"}
    assert "-0.0," not in json_text(figures) and '"c": 0.0' in json_text(figures)
    assert csv_text(["a", "b"], [{"a": -0.0, "b": round(-0.04, 1)}], terminal=False) == "a,b\n0.0,0.0\n"
    out = tmp_path / "figures.json"
    emit_json({"mean": -0.0}, out)
    assert out.read_text() == '{\n  "mean": 0.0\n}\n'



def test_the_old_summary_spelling_takes_all_and_include_unverified(tmp_path: Path) -> None:
    # was: `warroom scores --summary --include-unverified` -> "No such option" (exit 2), as --all
    from unit.test_forgeries import GOOD, play
    from warroom.store.results import ResultsStore
    from warroom.store.results._verification import mark

    for trainee in ("ann", "bob"):
        play(tmp_path, trainee, GOOD)
    with ResultsStore(tmp_path) as store:
        bob = next(r.session_id for r in store.query() if r.trainee == "bob")
        mark(store.db, bob, "unverified", "stored by a trainee's own client")
    runs = {}
    for form in (["--summary"], ["summary"]):
        for extra in ([], ["--include-unverified"], ["--all", "--include-unverified"]):
            args = ["scores", *form, "--data-dir", str(tmp_path), "--format", "json", *extra]
            result = CliRunner().invoke(main, args)
            assert result.exit_code == 0, result.output
            runs[form[0], tuple(extra)] = json.loads(result.stdout)
    for extra in ((), ("--include-unverified",), ("--all", "--include-unverified")):
        assert runs["--summary", extra] == runs["summary", extra]
    assert [t["trainee"] for t in runs["--summary", ("--include-unverified",)]["trainees"]] == ["ann", "bob"]
    assert [t["trainee"] for t in runs["--summary", ()]["trainees"]] == ["ann"]
    refused = CliRunner().invoke(main, ["scores", "--data-dir", str(tmp_path), "--all"])
    assert refused.exit_code == 2 and "--all only applies with --summary" in refused.output


def test_a_long_number_given_to_an_option_is_not_echoed_whole() -> None:
    # was: `'999...9' is not a valid integer` with all 5,000 digits (click echoes the value; Python refuses to read an
    # integer of over 4,300 digits)
    for args, said in ((["check", "x", "--variants"],
                        "Invalid value for '--variants': 999999999999…9999 (5,000 digits) is too large"),
                       (["serve", "--port"], "Invalid value for '--port': 999999999999…9999 (5,000 digits) is too "
                        "large: give 0 to 65535")):
        result = CliRunner().invoke(main, [*args, "9" * 5000])
        assert result.exit_code == 2 and said in result.output, result.output
        assert len(result.output) < 400
    result = CliRunner().invoke(main, ["check", "x", "--variants", "-" + "1" * 40 + "x"])
    assert result.exit_code == 2 and "-11111111111…111x (42 characters) is not a whole number" in result.output
    result = CliRunner().invoke(main, ["check", "x", "--variants", "12x"])
    assert "'12x' is not a valid integer." in result.output


def test_postgresql_refuses_a_trainee_row_that_ends_before_it_starts(tmp_path: Path, postgres_server,
                                                                       store_url: str, monkeypatch) -> None:
    # was: stored (only `scores verify` named it), where warroom's clients refuse it; schema migration 22
    from pg_support import as_role, secured_roles

    from unit.test_forgeries import GOOD, forged_row, insert, play, row_of
    from warroom.store.results import ResultsStore

    ann, _ = secured_roles(postgres_server, store_url, tmp_path)
    monkeypatch.setenv("WARROOM_STORE", as_role(store_url, ann))
    played = play(tmp_path / "ann", ann, GOOD)
    with ResultsStore(tmp_path / "ann") as store:
        template = row_of(store.db.conn, played.session_id)
        insert(store.db.conn, forged_row(template, "later", ended_at="2999-01-01T00:00:00+00:00"))  # accepted
        for ended in ("2000-01-01T00:00:00+00:00", template["started_at"][:19] + "+01:00"):
            with pytest.raises(Exception, match="sessions_ends_after_start"):
                insert(store.db.conn, forged_row(template, "backwards", ended_at=ended))
        insert(store.db.conn, forged_row(template, "no-end", ended_at=None))  # a session with no end is no refusal
        ids = {r[0] for r in store.db.conn.execute("SELECT session_id FROM sessions")}
    assert ids == {played.session_id, "later", "no-end"}


def _otlp_document(spans: int) -> dict:
    span = {"traceId": "0af7651916cd43dd8448eb211c80319c", "spanId": "b7ad6b7169203331", "name": "chat",
            "startTimeUnixNano": "1", "endTimeUnixNano": "2",
            "attributes": [{"key": "gen_ai.operation.name", "value": {"stringValue": "chat"}},
                           {"key": "x", "value": {"stringValue": "y" * 200}}]}
    return {"resourceSpans": [{"resource": {"attributes": []}, "scopeSpans": [{"spans": [span] * spans}]}]}


def test_a_trace_refused_for_its_size_is_not_read_whole_to_name_its_format(tmp_path: Path, monkeypatch) -> None:
    # was: the recogniser read and parsed the whole file (up to 64 MiB) to add "it looks like ...": a 54 MiB OTLP
    # file refused for its size peaked at 341 MB of memory
    from warroom.importers import openinference, otel
    from warroom.importers.kit import _recognise, import_files

    def whole(path: Path, *args, **kwargs):
        raise AssertionError(f"{path} read whole to recognise it")

    monkeypatch.setattr(_recognise, "read_text", whole)
    big = tmp_path / "big.json"
    big.write_text(json.dumps(_otlp_document(25_000)))  # about 11 MiB, over the 8 MiB of a trace
    [result] = import_files(otel.IMPORTER, [big], tmp_path / "out").results
    assert result.error == "the file is 11.3 MiB; records are limited to 8 MiB"
    lines = tmp_path / "big.jsonl"
    lines.write_text("\n".join([json.dumps(_otlp_document(100))] * 400) + "\n")
    [result] = import_files(openinference.IMPORTER, [lines], tmp_path / "out").results  # JSON Lines: named by its head
    assert result.error is not None and "limited to 8 MiB; it looks like OpenTelemetry GenAI" in result.error


def test_rescore_and_verify_find_the_same_edited_columns(tmp_path: Path) -> None:
    # was: two definitions (rescore's _edited_columns, verify's differences) that disagreed: a damage of 1e-12 stored
    # where 0.0 is recomputed was a change to rescore (relative tolerance only) and equal to verify (1e-9 absolute)
    import sqlite3

    from unit.test_forgeries import GOOD, play

    sid = play(tmp_path, "ann", GOOD).session_id
    with sqlite3.connect(tmp_path / "results.sqlite3") as db:
        db.execute("UPDATE sessions SET damage = 1e-12, total = 99 WHERE session_id = ?", (sid,))
    verify = CliRunner().invoke(main, ["scores", "verify", "--data-dir", str(tmp_path), "--format", "json"])
    [verdict] = json.loads(verify.stdout)
    assert verdict["problems"] == ["total 99 is stored, 100 recomputed"], verdict
    rescore = CliRunner().invoke(main, ["scores", "rescore", "--data-dir", str(tmp_path)])
    assert "stored columns disagreed with the scorecard: total 99 -> 100" in rescore.output, rescore.output
    assert "damage" not in rescore.output


def test_verify_makes_a_drill_without_variants_once_whatever_the_seeds(tmp_path: Path) -> None:
    # was: each seed a (file, seed, trial) of its own in the pass's cache, so a drill with a twin and no variants was
    # dumped, renamed by position and validated again for every seeded session (a fifth of `scores verify`'s time)
    from warroom.core.scoring import SCORING_VERSION
    from warroom.store.results import SessionInfo
    from warroom.store.review import DrillCache, default_drill_resolver
    from warroom.store.review._drill import resolve_session_drill

    cache, resolver = DrillCache(), default_drill_resolver()
    found = [resolve_session_drill(SessionInfo(f"s{seed}", "ann", "api-dns-cutover", None, None, None,
                                               "2026-12-07T00:00:00+00:00", scoring_version=SCORING_VERSION,
                                               seed=seed, played_as="signal"), resolver, cache)
             for seed in (1, 2, 3)]
    assert found[0].drill.trace[0].id == "e01" and found[0].renamed is True
    assert found[0].drill is found[1].drill is found[2].drill and len(cache.played) == 1
    assert [f.drawn for f in found] == [_drawn(1), _drawn(2), _drawn(3)]


def _drawn(seed: int) -> str:
    """The trial ``seed`` draws for api-dns-cutover."""
    from warroom.core.library import resolve_drill
    from warroom.core.load import load_drill
    from warroom.core.variants import draw_played_as

    return draw_played_as(load_drill(resolve_drill("api-dns-cutover")), seed).value
