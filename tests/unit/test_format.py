"""warroom.core.text._format: drill text made safe and one format per number, and the CLI commands that print drill text
(cost, validate, check, run) showing control characters visibly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from core_support import drill_dict, drill_yaml

from warroom.cli import main
from warroom.core.text import _format as fmt

#: An OSC terminal-title sequence (ESC ] ... BEL), a CSI colour in its one-character C1 form, and an OSC in C1 form.
HOSTILE = "\x1b]0;PWNED\x07 \x9b31m \x9d0;title\x9c"
SHOWN = "\\x1b]0;PWNED\\x07 \\x9b31m \\x9d0;title\\x9c"
RAW_CONTROLS = ("\x1b", "\x07", "\x9b", "\x9d", "\x9c")


def _no_raw_controls(text: str) -> bool:
    return not any(c in text for c in RAW_CONTROLS)


# -- the helpers ------------------------------------------------------------------------------------------------


def test_clean_shows_c0_del_and_c1_controls_and_keeps_newline_and_tab():
    assert fmt.clean(HOSTILE) == SHOWN
    assert fmt.clean("a\x7fb\x00c\rd") == "a\\x7fb\\x00c\\x0dd"
    assert fmt.clean("line one\n\tline two é €") == "line one\n\tline two é €"
    assert fmt.clean(fmt.clean(HOSTILE)) == SHOWN  # idempotent
    assert fmt.clean_line("a\n b\t\tc") == "a b c"


def test_clean_shows_bidi_overrides_and_isolates_but_keeps_joiners():
    # An RTL override in a drill's text would reorder warroom's own text after it on a bidi-aware terminal.
    assert fmt.clean("a\u202eb\u202ac\u2066d\u2069") == "a\\u202eb\\u202ac\\u2066d\\u2069"
    family = "\U0001f469\u200d\U0001f467 \u0645\u0631\u062d\u0628\u0627 e\u0301 \u6f22\u5b57 \u200b"
    assert fmt.clean(family) == family  # ZWJ emoji, Arabic, combining marks, CJK, zero-width space: kept
    assert fmt.clean(fmt.clean("x\u202ey")) == "x\\u202ey"  # idempotent


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (18.25, "18.3 s"),  # halves round up (Python's f"{18.25:.1f}" gives 18.2)
        (0.15, "0.2 s"),
        (0.05, "0.1 s"),
        (12, "12 s"),
        (12.0, "12 s"),
        (30.5, "30.5 s"),
        (29.96, "30 s"),
        (1234.5, "1,234.5 s"),
        (0, "0 s"),
        (-0.01, "0 s"),  # never "-0 s"
        (None, "-"),
    ],
)
def test_seconds(value, text):
    assert fmt.seconds(value) == text
    if value is not None:  # a formula's bare figure is the same number
        assert fmt.seconds_figure(value) + " s" == text


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (14021, "14,021"),
        (931837.5, "931,837.5"),
        (0.25, "0.25"),
        (12.345, "12.35"),  # half up at two decimals
        (2.5, "2.5"),
        (0, "0"),
        (None, "-"),
    ],
)
def test_amount(value, text):
    assert fmt.amount(value) == text


@pytest.mark.parametrize(
    ("value", "text"),
    [(0.00195, "$0.00195"), (0.0506, "$0.0506"), (14.0249, "$14.02"), (0, "$0.00"), (0.5, "$0.50"), (None, "-")],
)
def test_usd_follows_the_scoring_docs(value, text):
    assert fmt.usd(value) == text


@pytest.mark.parametrize(
    ("value", "text"), [(5, "$5"), (25, "$25"), (0.15, "$0.15"), (2.5, "$2.50"), (0.005, "$0.005")]
)
def test_usd_price_drops_only_a_whole_dollar_s_cents(value, text):
    assert fmt.usd_price(value) == text


@pytest.mark.parametrize(
    ("value", "ok"),
    [("abc", True), ("a.b_c-1", True), ("x" * 80, True), ("abc\n", False), ("x" * 81, False), ("", False),
     ("-a", False), ("a b", False), ("é", False)],
)
def test_is_valid_id_matches_the_whole_string(value, ok):
    assert fmt.is_valid_id(value) is ok


def test_playback_speeds_are_the_war_room_s():
    from warroom.tui.room import WarRoomScreen

    assert fmt.PLAYBACK_SPEEDS == (0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0)
    assert [fmt.speed(s) for s in fmt.PLAYBACK_SPEEDS[:2]] == ["0.5x", "1x"]
    faster = next(b for b in WarRoomScreen.BINDINGS if getattr(b, "action", None) == "faster")
    assert faster.tooltip == "faster playback (0.5x 1x 2x 4x 8x 16x 32x)"  # the war room's + and - step through them


# -- the CLI ------------------------------------------------------------------------------------------------------


def _hostile_models() -> dict:
    d = drill_dict()
    d["models"]["planner"]["name"] = f"big {HOSTILE}"
    d["models"]["executor"]["name"] = f"small {HOSTILE}"
    return d


def test_cost_shows_a_hostile_model_name_visibly(tmp_path: Path):
    import yaml

    path = tmp_path / "tiny.yaml"
    path.write_text(yaml.safe_dump(_hostile_models(), allow_unicode=False), encoding="utf-8")
    result = CliRunner().invoke(main, ["cost", str(path)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert _no_raw_controls(result.output)
    assert f"planner big {SHOWN} at $5/$25 per million tokens" in result.output
    assert f"  small {SHOWN}" in result.output  # the by-model table
    # JSON stays JSON: the name comes back exactly as written
    out = CliRunner().invoke(main, ["cost", "--format", "json", str(path)], catch_exceptions=False).output
    assert _no_raw_controls(out)
    assert json.loads(out)["planner_model"] == f"big {HOSTILE}"


def test_validate_and_check_quote_author_values_visibly(tmp_path: Path):
    path = tmp_path / "tiny.yaml"
    path.write_text(drill_yaml(difficulty=f"hard {HOSTILE}"), encoding="utf-8")
    for command in (["validate"], ["check"], ["cost"]):
        result = CliRunner().invoke(main, [*command, str(path)], catch_exceptions=False)
        assert result.exit_code == 1, (command, result.output)
        assert _no_raw_controls(result.output), command
        assert "hard \\x1b]0;PWNED\\x07 \\x9b31m" in result.output, command
    out = CliRunner().invoke(main, ["validate", "--format", "json", str(path)]).stdout
    assert _no_raw_controls(out)
    assert "hard \\x1b]0;PWNED" in json.loads(out.splitlines()[0])["message"]


def test_check_table_times_damage_and_totals_use_the_shared_formats(tmp_path: Path):
    import yaml

    d = drill_dict()
    d["answer_key"]["damage"]["entries"][0]["amount"] = 100.25  # fractional damage shows (it used to round away)
    path = tmp_path / "tiny.yaml"
    path.write_text(yaml.safe_dump(d), encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(path)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    rows = {line.split()[0]: line for line in result.output.splitlines()[1:8] if line.startswith("  ")}
    assert "100/100" in rows["ideal"].split()  # the scorecard's max_total, not a bare number
    assert rows["ideal"].endswith(" 0 s              0  0 of 400.25")
    assert rows["late"].endswith(" 28 s             0  100.25 of 400.25")
    assert " -  " in rows["never"] and rows["never"].endswith(" 400.25 of 400.25")


def test_run_reports_load_problems_visibly(tmp_path: Path):
    path = tmp_path / "tiny.yaml"
    path.write_text(drill_yaml(difficulty=f"hard {HOSTILE}"), encoding="utf-8")
    result = CliRunner().invoke(main, ["run", str(path)], catch_exceptions=False)
    assert result.exit_code == 1
    assert _no_raw_controls(result.output) and "hard \\x1b]0;PWNED\\x07" in result.output


@pytest.mark.parametrize("speed", ["0.1", "3", "64", "0"])
def test_run_accepts_only_the_war_room_s_speeds(tmp_path: Path, speed: str):
    result = CliRunner().invoke(main, ["run", "--speed", speed, "no-such-drill"])
    assert result.exit_code == 2
    assert "is not a speed the war room offers: use one of 0.5, 1, 2, 4, 8, 16, 32" in result.output


def test_run_help_lists_the_speeds():
    result = CliRunner().invoke(main, ["run", "--help"])
    assert "one of 0.5, 1, 2, 4, 8, 16, 32" in " ".join(result.output.split())


@pytest.mark.parametrize(
    ("value", "unit", "text", "alone"),
    [
        (931837.5, "USD refunded in error", "$931,837.50 refunded in error", "$931,837.50"),
        (120, "USD", "$120.00", "$120.00"),
        (0.25, "USD", "$0.25", "$0.25"),
        (0, "USD refunded in error", "$0.00 refunded in error", "$0.00"),
        (14021, "rows corrupted", "14,021 rows corrupted", "14,021"),
        (0.255, "records", "0.26 records", "0.26"),
        (5, "USDC tokens", "5 USDC tokens", "5"),  # not USD
        (5, "", "5", "5"),
        (None, "USD", "-", "-"),
    ],
)
def test_damage_one_format_per_unit(value, unit, text, alone):
    from warroom.core.text import damage, damage_amount

    assert damage(value, unit) == text
    assert damage_amount(value, unit) == alone
