"""Fuzzing the Who&When importer with mutated copies of the good fixture records.

Property: ``import_records`` over a folder of mutated records and one good record never raises; it reports every
file, each either as a written drill that loads and validates with the core loader, or as a one-line problem;
a bad file never stops the files after it (the good record is imported). Budgets: tests/fuzz/budget.py.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st
from locations import WHO_AND_WHEN

from warroom.core.load import load_drill
from warroom.importers.who_and_when import import_records

from .budget import budget
from .properties import FORBIDDEN_WORDS
from .record_mutations import KNOWN_BUG_JSON, ODD_JSON, RECORDS, mutated_record


def check_import(files: list[bytes]) -> None:
    subset, name, _ = RECORDS[0]
    good = (WHO_AND_WHEN / "good" / subset / name).read_bytes()
    with tempfile.TemporaryDirectory() as d:
        src = Path(d) / "records"
        src.mkdir()
        for i, data in enumerate(files, start=1):
            (src / f"{i:02d}.json").write_bytes(data)
        (src / "99.json").write_bytes(good)
        report = import_records([src], Path(d) / "out")
        assert [r.source.name for r in report.results] == [f"{i:02d}.json" for i in range(1, len(files) + 1)] + [
            "99.json"
        ]
        for r in report.results:
            if r.ok:
                assert r.output is not None and r.output.stem == r.drill_id
                drill = load_drill(r.output)  # raises DrillLoadError if the written drill does not validate
                assert drill.id == r.drill_id
            else:
                assert r.error and r.error.strip() and "\n" not in r.error, r
                assert not any(w in r.error for w in FORBIDDEN_WORDS), r
        assert report.results[-1].ok, report.results[-1]


@budget(40)
@given(st.lists(mutated_record(), min_size=1, max_size=3))
def test_importing_mutated_records_gives_a_valid_drill_or_a_problem_per_file(files: list[bytes]):
    check_import(files)


@budget(20)
@given(st.lists(st.binary(max_size=200) | mutated_record().map(lambda b: b[: len(b) // 2]), min_size=1, max_size=3))
def test_importing_random_or_cut_files_gives_a_problem_per_file(files: list[bytes]):
    check_import(files)


@budget(30)
@given(st.lists(mutated_record(odd=KNOWN_BUG_JSON), min_size=1, max_size=2))
def test_importing_records_with_surrogates_or_huge_numbers_reports_them_per_file(files: list[bytes]):
    check_import(files)


def test_the_known_bug_values_are_kept_apart():
    assert not set(KNOWN_BUG_JSON) & set(ODD_JSON)
