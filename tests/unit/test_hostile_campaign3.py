"""A third fresh hostile campaign on issue 30's promises (docs/cohorts.md, "What a trainee can and cannot do to their
results"; docs/reliability.md), on the code that changed since the second: each case a hostile trainee or a faulty
world found, with the right behaviour."""

from __future__ import annotations

import time

import pytest

from warroom.core.files import DuplicateKey, record_json


def test_a_key_given_twice_at_the_end_of_a_large_record_is_found_in_linear_time():
    """An imported trace (up to 8 MiB; chat exports 64 MiB) or an exported line (80 MiB) holding a key twice after a
    million strings: finding where the second key stands sliced the rest of the document once per string, so 0.6 MB
    took 2 s and an 8 MiB trace minutes (quadratic). It is found in one pass."""
    n = 1_000_000
    doc = '{"a": [' + ",".join(['""'] * n) + '], "a": 1}'
    started = time.monotonic()
    with pytest.raises(DuplicateKey) as caught:
        record_json(doc)
    assert time.monotonic() - started < 10  # quadratic: about 50 s on the machine that found it, now about 1 s
    assert caught.value.key == "a" and caught.value.pos == len(doc) - len('"a": 1}')


NESTED = ['{"x": {"a": 1, "b": {"a": 2}}, "y": {"a": 1, "c": [{}], "a" : 3}}', '{"a{": "}", "b": {"a{": 1}, "a{"\n:2}',
          '{"k": "\\"a\\":", "a": 1, "a": 2}']  # fmt: skip


@pytest.mark.parametrize("doc", NESTED)
def test_the_second_key_is_placed_in_its_own_object_with_braces_and_colons_in_strings(doc: str):
    with pytest.raises(DuplicateKey) as caught:
        record_json(doc)
    assert doc[caught.value.pos :].startswith(f'"{caught.value.key}"')
    assert doc.rindex(f'"{caught.value.key}"') == caught.value.pos
