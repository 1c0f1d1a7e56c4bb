"""`warroom scores` tables are readable at any width: ids never cut or wrapped, no trailing spaces."""

from __future__ import annotations

from pathlib import Path

import pytest
from scores_support import run

from warroom.store.results import ResultsStore


@pytest.fixture
def long_ids(tmp_path: Path) -> Path:
    """Sessions with real-length ids: a 20-character session id, a 27-character drill id, a 44-character unit."""
    from store_support import add_session

    with ResultsStore(tmp_path) as store:
        add_session(store, "20261102-100000-abcd", trainee="annabel", drill_id="review-classifier-benchmark",
                    outcome="contained_late", total=37, ttd=18.25, damage=4413.0, false_escalations=1,
                    damage_unit="USD of orders confirmed that cannot ship")  # fmt: skip
        add_session(store, "20261103-093000-wxyz", trainee="bob", drill_id="duplicate-charge-refunds",
                    started_at="2026-11-03T09:30:00.000000+00:00", outcome="all_clear_held", total=100, ttd=None,
                    damage=0.0, damage_unit="USD")  # fmt: skip
    return tmp_path


@pytest.mark.parametrize("columns", ["80", "60", "100"])
def test_table_at_a_narrow_width_keeps_ids_whole(long_ids: Path, columns: str):
    r = run(long_ids, env={"COLUMNS": columns})
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert max(len(ln) for ln in lines) <= int(columns)
    assert all(ln == ln.rstrip() for ln in lines)  # no trailing spaces, the title line included
    assert lines[0] == "2 sessions"
    table = lines[: next(i for i, ln in enumerate(lines) if ln.startswith("* damage in"))]
    for whole in ("20261102-100000-abcd", "20261103-093000-wxyz", "review-classifier-benchmark", "annabel"):
        assert sum(whole in ln for ln in table) == 1, whole  # on one line: never cut or wrapped
    assert "…" not in r.stdout
    assert "contained late" in r.stdout and "all clear held" in r.stdout and "contained_late" not in r.stdout
    assert "18.3 s" in r.stdout and "$4,413.00 *" in r.stdout  # halves up; the long unit in the footnote
    assert "* damage in USD of orders confirmed that cannot ship (review-classifier-benchmark)" in " ".join(
        " ".join(lines).split()
    )


def test_table_uses_the_whole_width_it_is_given(long_ids: Path):
    wide = run(long_ids).stdout.splitlines()  # not a terminal, no COLUMNS: nothing squeezed
    (row,) = [ln for ln in wide if "20261102-100000-abcd" in ln]
    assert "$4,413.00 of orders confirmed that cannot ship" in row and "contained late" in row and "2026-11-01" in row
    assert not any("* damage in" in ln for ln in wide)
    at_141 = run(long_ids, env={"COLUMNS": "141"}).stdout.splitlines()  # ten columns, the long unit in a footnote
    assert max(len(ln) for ln in at_141) <= 141
    (row,) = [ln for ln in at_141 if "20261102-100000-abcd" in ln]
    assert "│ annabel │ review-classifier-benchmark │" in row and "$4,413.00 *" in row
    assert at_141[-1] == "* damage in USD of orders confirmed that cannot ship (review-classifier-benchmark)"
