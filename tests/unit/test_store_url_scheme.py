"""A store URL's scheme in capitals (`POSTGRESQL://...`, as some copy it from a settings page) is the same store:
libpq itself refuses it with 'invalid connection option "POSTGRESQL://user:***@/db?host"'."""

from __future__ import annotations

from pathlib import Path

import pytest

from warroom.store.backends import store_target


@pytest.mark.parametrize("scheme", ["POSTGRESQL", "Postgres", "postgresql"])
def test_the_scheme_is_read_in_any_case_and_passed_on_in_lower_case(tmp_path: Path, scheme: str) -> None:
    target = store_target(tmp_path, f"{scheme}://ann:hunter2@db.example/cohort?sslmode=require")
    assert target.backend == "postgresql"
    assert target.url == f"{scheme.lower()}://ann:hunter2@db.example/cohort?sslmode=require"


def test_a_capitalised_scheme_reaches_the_server(tmp_path: Path, store_url: str) -> None:
    from warroom.store.results import ResultsStore

    shouted = "POSTGRESQL" + store_url[len("postgresql"):]
    with ResultsStore(tmp_path, url=shouted) as store:
        assert store.query() == []
