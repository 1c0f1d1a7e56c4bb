"""One policy each for plurals, natural order and did-you-mean (issue 13, "One place for each job")."""

from __future__ import annotations

import pytest

from warroom.core.text import Suggester, did_you_mean, natural_key, plural
from warroom.core.text._ids import SUGGEST_CUTOFF, likely_typo


@pytest.mark.parametrize(
    ("n", "word", "many", "expected"),
    [
        (0, "drill", None, "0 drills"),
        (1, "drill", None, "1 drill"),
        (2, "drill", None, "2 drills"),
        (1200, "event", None, "1,200 events"),
        (1, "was", "were", "1 was"),
        (3, "was", "were", "3 were"),
    ],
)
def test_plural(n, word, many, expected):
    assert plural(n, word, many) == expected


def test_plural_without_the_count():
    assert plural(1, "turn", count=False) == "turn"
    assert plural(4, "turn", count=False) == "turns"


def test_natural_key_orders_digit_runs_by_value_and_ignores_case():
    ids = ["ww-10", "WW-3", "ww-2", "s2a", "s2", "s10", "s010"]
    assert sorted(ids, key=natural_key) == ["s2", "s2a", "s010", "s10", "ww-2", "WW-3", "ww-10"]


def test_natural_key_gives_one_order_to_texts_that_differ_in_case_only():
    assert sorted(["s1", "S1"], key=natural_key) == sorted(["S1", "s1"], key=natural_key) == ["S1", "s1"]


@pytest.mark.parametrize("text", ["", "²", "x²", "٣", "s٣", "1", "-", "a1b22c333"])
def test_natural_key_never_raises(text):
    """A superscript two passes str.isdigit but is no number; the old key called int() on it and raised."""
    natural_key(text)
    assert sorted([text, "s1", "10"], key=natural_key)


def test_unicode_digits_count_by_value():
    assert sorted(["s\u0663", "s2"], key=natural_key) == ["s2", "s\u0663"]  # Arabic-Indic three


def test_did_you_mean_offers_one_slip_of_the_keyboard():
    assert did_you_mean("refund-pagnation", ["refund-pagination", "other"]) == " (did you mean `refund-pagination`?)"
    assert did_you_mean("e04", ["e40", "x"]) == " (did you mean `e40`?)"  # two neighbours swapped


def test_did_you_mean_never_offers_an_unrelated_word():
    assert did_you_mean("refund", ["refund-pagination", "slow-api"]) == ""
    assert did_you_mean("anything", []) == ""


def test_did_you_mean_is_the_suggester_policy_with_one_cutoff():
    assert SUGGEST_CUTOFF == 0.8
    choices = ["e04", "e06", "e15"]
    assert did_you_mean("e05", choices) == Suggester(choices)("e05") == " (nearby ids: `e04`, `e06`)"
    assert likely_typo("abcde", "abcdef")  # ratio 10/11 >= 0.8
    assert not likely_typo("ab", "abcd")  # ratio 4/6 < 0.8
