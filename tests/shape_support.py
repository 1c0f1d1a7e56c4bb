"""Shape 14 of issue 15 (a large drill, over the old 8 MiB file limit), generated rather than stored: the tests
that load it (tests/unit/test_shape_drills.py) and play it (tests/tui/test_shape_large.py) write it to tmp_path.

(Moved from tests/unit/test_shape_drills.py, unchanged.)
"""

from __future__ import annotations

from locations import TESTS

SHAPES = TESTS / "fixtures" / "shapes"

_AUDIT_LINE = """\
  - id: a{i:06d}
    t: 6
    step: s1
    kind: log
    source: booking-audit
    level: debug
    content: "audit: waitlist row {i} read by booking.waitlist (patient ref P-{i:06d}, priority 3, unchanged)"
"""


def large_drill_text(min_bytes: int) -> tuple[str, int]:
    """shape-12's drill with audit log lines in block style inserted into step s1 until the text is at least
    ``min_bytes`` long: (the text, how many lines were inserted)."""
    base = (SHAPES / "shape-12-event-times.yaml").read_text(encoding="utf-8")
    base = base.replace("id: shape-12-event-times", "id: shape-14-large")
    anchor = "  - {id: e04, t: 9,"
    assert base.count(anchor) == 1
    per = len(_AUDIT_LINE.format(i=0).encode())
    n = min_bytes // per + 1
    lines = "".join(_AUDIT_LINE.format(i=i) for i in range(n))
    head, tail = base.split(anchor)
    return head + lines + anchor + tail, n
