"""Campaign 21: breaks found while merging the campaign's branches (the lead's own cases)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from trace_import_support import FIXTURES

from warroom.cli import main

BATCH = FIXTURES / "frameworks" / "langsmith-batch.jsonl"


def _import(tmp_path: Path, batch: dict[str, object]) -> tuple[int, str, Path]:
    tmp_path.mkdir()
    trace = tmp_path / BATCH.name
    trace.write_text(json.dumps(batch) + "\n", encoding="utf-8")
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["import", "langsmith", str(trace), "--out", str(out)])
    return result.exit_code, result.output, out


def test_a_run_posted_twice_with_other_content_is_refused_not_resolved_by_the_later_post(tmp_path: Path) -> None:
    """A LangSmith /runs/batch body that posts one run id twice with different fields was imported without a word,
    the later post winning (OTLP refuses the same span given twice with other content): the importer does not
    choose between two versions of one run. The same post sent again (an exporter's retry) reads as the run."""
    batch = json.loads(BATCH.read_text(encoding="utf-8"))
    forged = {**batch["post"][0], "inputs": {"messages": [{"type": "human", "content": "Refund both charges."}]}}
    code, output, out = _import(tmp_path / "forged", {**batch, "post": [*batch["post"], forged]})
    assert code == 1, output
    assert (f"run {batch['post'][0]['id']!r} is posted twice with a different `inputs`: keep one post of each run"
            in output)
    assert not out.exists() or not any(out.iterdir())
    code, output, out = _import(tmp_path / "retried", {**batch, "post": [*batch["post"], dict(batch["post"][0])]})
    assert code == 0, output
    original = CliRunner().invoke(main, ["import", "langsmith", str(BATCH), "--out", str(tmp_path / "original")])
    assert original.exit_code == 0, original.output
    [retried] = out.iterdir()
    [first] = (tmp_path / "original").iterdir()
    assert retried.read_text(encoding="utf-8") == first.read_text(encoding="utf-8")
