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
