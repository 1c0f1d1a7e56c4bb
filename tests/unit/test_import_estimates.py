"""Who&When import, the estimates a record lacks: reading-time pacing, token counts, prices and their USD
(docs/importing.md)."""

from __future__ import annotations

import itertools
import json
import math

import pytest
from import_support import GOOD, convert

from warroom.importers import kit
from warroom.importers import who_and_when as ww


def test_reading_time_paces_the_drill_clock_within_bounds():
    assert kit.reading_gap("") == kit.MIN_EVENT_GAP
    assert kit.reading_gap("word " * 40) == 10.0  # 40 words at 4 words a second
    assert kit.reading_gap("word " * 10_000) == kit.MAX_EVENT_GAP
    _, drill = convert(GOOD / "magentic-one" / "mini.json")
    times = [e.t for e in drill.trace]
    assert times[0] == 0 and times == sorted(times)
    gaps = [b - a for a, b in itertools.pairwise(times)]
    assert all(kit.MIN_EVENT_GAP - 1e-9 <= g <= kit.MAX_EVENT_GAP + 1e-9 for g in gaps)


def test_token_estimates():
    assert kit.estimate_tokens(0) == 0 and kit.estimate_tokens(1) == 1 and kit.estimate_tokens(8) == 2
    path = GOOD / "magentic-one" / "mini.json"
    record = json.loads(path.read_text(encoding="utf-8"))
    _, drill = convert(path)
    h = record["history"]
    usage = drill.event("h004").usage
    assert usage.output_tokens == math.ceil(len(h[4]["content"]) / 4)
    assert usage.input_tokens == math.ceil(sum(len(m["content"]) for m in h[:4]) / 4)
    assert usage.estimated


def test_input_tokens_are_capped_at_the_context_window(tmp_path):
    record = json.loads((GOOD / "magentic-one" / "mini.json").read_text(encoding="utf-8"))
    big = "lorem ipsum " * 50_000  # 600,000 characters
    record["history"][4]["content"] = big
    rec = ww.parse_record(record, "big")
    _, drill = ww.convert_record(rec)
    assert drill.event("h005").usage.input_tokens == kit.CONTEXT_WINDOW_TOKENS
    assert drill.event("h004").usage.output_tokens == math.ceil(len(big) / 4)
    assert drill.event("h004").content == big  # never truncated


def test_default_and_overridden_prices():
    _, drill = convert(GOOD / "magentic-one" / "mini.json")
    assert (drill.models.planner.input_usd_per_mtok, drill.models.planner.output_usd_per_mtok) == (5.0, 25.0)
    assert (drill.models.executor.input_usd_per_mtok, drill.models.executor.output_usd_per_mtok) == (1.0, 5.0)
    options = ww.ImportOptions(planner_price=kit.Price.parse("2.5/10"), executor_price=kit.Price.parse("0.15/0.6"))
    _, drill = convert(GOOD / "magentic-one" / "mini.json", options)
    assert (drill.models.planner.input_usd_per_mtok, drill.models.planner.output_usd_per_mtok) == (2.5, 10.0)
    assert (drill.models.executor.input_usd_per_mtok, drill.models.executor.output_usd_per_mtok) == (0.15, 0.6)
    assert "$2.50/$10 per million tokens" in drill.briefing.context  # prices as warroom cost writes them


@pytest.mark.parametrize("text", ["5", "a/b", "5/25/1", "-1/5", "nan/1", ""])
def test_bad_price_is_a_clear_error(text):
    with pytest.raises(ValueError, match=r"IN/OUT|non-negative"):
        kit.Price.parse(text)


def test_a_price_option_below_a_millionth_or_negative_zero():
    """Issue 30: as a drill's price, --price is 0 or at least 0.000001 (5e-320 refused); -0 is 0, not -0.0."""
    with pytest.raises(ValueError, match=r"'5e-320/1': a price is 0 \(a free model\) or at least 0.000001 USD"):
        kit.Price.parse("5e-320/1")
    price = kit.Price.parse("-0/0.000001")
    assert (price.input_usd_per_mtok, price.output_usd_per_mtok) == (0.0, 1e-6)
    assert math.copysign(1, price.input_usd_per_mtok) == 1


def test_estimated_costs_are_written_as_usd_everywhere_else():
    """USD as docs/scoring.md writes it (four significant digits below a dollar), not cut to four decimals."""
    _, drill = convert(GOOD / "magentic-one" / "mini.json")
    notes = {e.event: e.note for e in drill.answer_key.damage.entries}
    # h005: a planner call of 410 input and 137 output tokens at $5/$25 per million: (2,050 + 3,425) / 1e6 USD.
    assert notes["h005"].endswith("(model call, est. $0.005475)")
    assert notes["h012"].endswith("(model call, est. $0.000694)")
    assert "about $0.009594 of estimated model calls" in drill.answer_key.debrief
