"""A fifth fresh hostile campaign on ``warroom serve`` and its console (issue 30): each case a hostile client or a
faulty world found, with the right behaviour."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from serve_support import FACILITATOR, serving

from warroom.cli import main

#: Times that read as dates but whose UTC reading is before year 1 or after year 9999.
OUT_OF_RANGE = ["0001-01-01T00:00+01:00", "9999-12-31T23:59-01:00"]


async def test_a_gradebook_date_outside_the_years_utc_holds_is_a_bad_request_not_a_500(tmp_path):
    """``?since=0001-01-01T00:00+01:00`` is a valid ISO time whose UTC reading is before year 1: converting it raised
    OverflowError, an HTTP 500 with a traceback in the server's log at any facilitator's (or any typo's) will. It is
    a 400 naming the date, as any date not understood is."""
    with serving(tmp_path) as served:
        facilitator = await served.signed_in(FACILITATOR)
        async with facilitator:
            for key in ("since", "until"):
                for value in OUT_OF_RANGE:
                    async with facilitator.get("/console/gradebook.csv", params={key: value}) as r:
                        text = await r.text()
                    assert r.status == 400, (key, value, text)
                    wanted = f"a date is not understood: {value!r} is outside the years 1 to 9999 once read as UTC"
                    assert text == wanted
        log = served.log.read_text()
    assert "Traceback" not in log and "OverflowError" not in log


@pytest.mark.parametrize("value", OUT_OF_RANGE)
def test_a_since_outside_the_years_utc_holds_is_a_usage_error_not_a_traceback(tmp_path, value):
    result = CliRunner().invoke(main, ["--data-dir", str(tmp_path), "scores", "list", "--since", value])
    assert result.exit_code == 2, result.output
    assert f"Invalid value for --since: {value!r} is outside the years 1 to 9999 once read as UTC" in result.output
