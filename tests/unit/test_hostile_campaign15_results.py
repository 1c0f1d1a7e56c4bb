"""A fifteenth fresh hostile campaign on results and scores (issue 30): the filters of ``warroom scores`` and
``warroom report`` at their edges, the figures a facilitator reads, and scripted trainees that exploit the scoring
rules' own structure. Each case it found, with the right behaviour."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from warroom.cli import main


def _cli(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output, result.output
    return result.exit_code, result.stdout, result.stderr


def test_a_set_file_that_is_not_utf8_is_refused_at_the_bad_bytes_line_and_column(tmp_path: Path):
    """``warroom scores --set FILE`` (and every command reading a drill set file) refused a set file holding a byte
    that is not UTF-8 at ``FILE:1:1`` whatever its place, naming its offset as ``(byte 38)``: not the place, and not
    the byte. It is named where it is, as a drill file's is (``FILE:3:13: ... (byte 0xe9 here)``)."""
    week = tmp_path / "week.yaml"
    week.write_bytes(b"set: week-1\ntitle: Week 1\ndrills: [caf\xe9-refunds]\n")
    code, _, err = _cli("scores", "summary", "--set", str(week), "--data-dir", str(tmp_path / "data"))
    assert code != 0
    assert f"{week}:3:13: the file is not UTF-8 text (byte 0xe9 here); save it as UTF-8" in err, err
