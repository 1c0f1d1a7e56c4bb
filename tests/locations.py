"""Where the test suite's data lives, for tests in any folder (tests/unit, tests/cli, tests/tui, tests/fuzz)."""

from __future__ import annotations

from pathlib import Path

#: The tests/ folder.
TESTS = Path(__file__).resolve().parent
#: The repository's root.
REPO = TESTS.parent
#: Who&When record fixtures (good/ and bad/).
WHO_AND_WHEN = TESTS / "fixtures" / "who_and_when"
#: The malformed drill corpus: one file per case, its expectation in malformed_cases.EXPECTED.
MALFORMED = TESTS / "malformed"
#: Drills that load with warnings.
WARNINGS = TESTS / "warnings"
#: Small drills that each break one fairness rule of `warroom check`.
FAIRNESS = TESTS / "fairness"
#: The four all-clear drills as bundled before each became a fault drill with this run as its twin: drill files that
#: are always a noise trial.
ALL_CLEAR = TESTS / "fixtures" / "all-clear"
