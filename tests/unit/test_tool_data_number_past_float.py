"""A whole number past what a float holds (hundreds of digits) in a trace event's tool data (found by the mutation
fuzz campaign, issue 30 item 5): tool data is the recorded output of a tool and may hold any JSON number. The
variants' rules compared every number of tool data as a float and raised OverflowError (`validate`: internal
error), and a variant of the drill (`warroom check --variants`, `run --seed`) raised it again while rewriting the
numbers. Now the drill loads, its variants leave that number as written, and `check --variants` passes."""

from __future__ import annotations

from click.testing import CliRunner
from locations import TESTS

from warroom.cli import main
from warroom.core.load import load_drill, load_drill_text
from warroom.core.variants import apply_variant

BIG = 10**400
CORPUS = TESTS / "fuzz" / "corpus" / "drills" / "tool-data-number-past-float.yaml"


def test_the_corpus_drill_holds_the_number_in_tool_data():
    text = CORPUS.read_text(encoding="utf-8")
    assert f'{{day: "2026-01-10", rows: {BIG}}}' in text


def test_a_drill_with_a_number_past_a_float_in_tool_data_loads_and_keeps_it():
    drill = load_drill_text(CORPUS.read_text(encoding="utf-8"), "clickstream-backfill.yaml")
    assert drill.variants is not None
    for seed in (0, 1, 2):
        variant = apply_variant(drill, seed)
        rows = [row for ev in variant.trace for row in _rows(getattr(ev, "output", None))]
        assert {"day": "2026-01-10", "rows": BIG} in rows


def _rows(output: object) -> list[dict]:
    return output.get("rows", []) if isinstance(output, dict) and isinstance(output.get("rows"), list) else []


def test_check_with_variants_passes_on_it(tmp_path):
    path = tmp_path / "clickstream-backfill.yaml"
    path.write_text(CORPUS.read_text(encoding="utf-8"), encoding="utf-8")
    load_drill(path)
    result = CliRunner().invoke(main, ["check", "--variants", "2", str(path)])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code == 0, result.output
    assert "1 drill checked: 1 passed, 0 failed." in result.output
