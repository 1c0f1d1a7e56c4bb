"""The fuzzers' budgets: a short, fixed-seed run by default (CI), a long randomised campaign on request.

- Default (``WARROOM_FUZZ`` unset): every fuzz test runs ``examples`` generated inputs with ``derandomize=True``
  (the seed comes from the test's source, so two runs try the same inputs) and no example database, so CI is
  reproducible and leaves nothing behind. The whole ``tests/fuzz`` folder takes about 15 s of CPU.
- ``WARROOM_FUZZ=long``: ``examples`` times ``WARROOM_FUZZ_SCALE`` (default 100) inputs per test, random seeds
  (``pytest --hypothesis-seed=N`` fixes one), every distinct failure reported (see benchmarks/fuzz.py).
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, Phase, settings

LONG = os.environ.get("WARROOM_FUZZ", "").strip().lower() == "long"
SCALE = int(os.environ.get("WARROOM_FUZZ_SCALE", "100")) if LONG else 1


def budget(examples: int, *, known_bug: bool = False) -> settings:
    """Hypothesis settings for one fuzz test: ``examples`` inputs by default, ``examples * SCALE`` when long.

    ``known_bug`` marks a test that fails (xfail) until a known bug is fixed: in the default run its failing input
    is not shrunk (that would cost tens of seconds for nothing); the long run shrinks it to a minimal example.
    """
    phases = [Phase.explicit, Phase.reuse, Phase.generate]
    if LONG or not known_bug:
        phases.append(Phase.shrink)
    return settings(
        phases=phases,
        max_examples=examples * SCALE,
        derandomize=not LONG,
        database=None,
        deadline=None,  # timing is never asserted in unit tests; hangs are caught by the size limits instead
        print_blob=LONG,
        report_multiple_bugs=True,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much,
                               HealthCheck.large_base_example],
    )
