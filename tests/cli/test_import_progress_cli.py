"""`warroom import` on a batch: each file's failures printed as soon as the file is done, and on a terminal a
`N of M files` line, so that a large batch is never silent until its summary."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from warroom.cli import main
from warroom.cli.imports.run import ImportProgress
from warroom.importers import chat
from warroom.importers.kit import ImportResult

CONVERSATION = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]


def _batch(folder: Path) -> list[Path]:
    folder.mkdir()
    paths = []
    for i in range(4):
        p = folder / f"t{i}.json"
        p.write_text(json.dumps(CONVERSATION if i != 2 else [{"role": "wizard", "content": "x"}]), encoding="utf-8")
        paths.append(p)
    return paths


def test_the_library_tells_progress_after_each_file(tmp_path: Path) -> None:
    paths = _batch(tmp_path / "in")
    told: list[tuple[int, int, list[str | None]]] = []
    report = chat.import_chats([tmp_path / "in"], tmp_path / "out",
                               progress=lambda done, total, rs: told.append((done, total, [r.error for r in rs])))
    assert [(d, t) for d, t, _ in told] == [(1, 4), (2, 4), (3, 4), (4, 4)]
    assert [e is None for _, _, [e] in told] == [True, True, False, True]
    assert len(report.results) == len(paths)


def test_failures_are_printed_as_each_file_is_done_not_after_the_batch(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    _batch(tmp_path / "in")
    seen: list[int] = []
    real = ImportProgress.__call__

    def spy(self: ImportProgress, done: int, total: int, results: list[ImportResult]) -> None:
        real(self, done, total, results)
        seen.append(done)

    monkeypatch.setattr(ImportProgress, "__call__", spy)
    result = CliRunner().invoke(main, ["import", "chat", str(tmp_path / "in"), "--out", str(tmp_path / "out"), "-v"])
    assert result.exit_code == 1, result.output
    assert seen == [1, 2, 3, 4]
    assert "t2.json:1:1: [0].role is 'wizard'" in result.stderr
    assert [line.split(" -> ")[0].rsplit("/", 1)[-1] for line in result.stdout.splitlines() if " -> " in line] == [
        "t0.json", "t1.json", "t3.json"]
    assert "files" not in result.stderr  # not a terminal: no progress line
    assert result.stdout.splitlines()[-2] == f"3 drills imported into {tmp_path / 'out'} from 4 files, 1 failed"


def test_on_a_terminal_a_count_line_is_shown_and_erased_before_each_message(capsys: pytest.CaptureFixture[str]
                                                                           ) -> None:
    progress = ImportProgress(verbose=False, live=True)
    ok = ImportResult(source=Path("a.json"), drill_id="chat-a", output=Path("out/chat-a.yaml"))
    bad = ImportResult(source=Path("b.json"), error="not JSON")
    progress(1, 3, [ok])
    progress(2, 3, [bad])
    progress(3, 3, [ok])
    progress.finish()
    err = capsys.readouterr().err
    assert err == "\r1 of 3 files\r\x1b[Kb.json:1:1: not JSON\n\r2 of 3 files\r\x1b[K"


def test_a_folder_without_trace_files_names_every_suffix_the_chat_importer_reads(tmp_path: Path) -> None:
    # chat reads *.jsonl from folders too, but said `no trace files (*.json) found`
    (tmp_path / "empty").mkdir()
    result = CliRunner().invoke(main, ["import", "chat", str(tmp_path / "empty"), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert f"no trace files (*.json, *.jsonl) found in {tmp_path / 'empty'}" in result.stderr
