"""The store's timestamps: ISO 8601 UTC text with microseconds, which sorts as time (:func:`utc_now`), the
``--since`` value of a command turned into that text (:func:`parse_since`), any ISO 8601 time a row brings (an
imported line's ``started_at`` with an offset) written as that text (:func:`utc_text`), and any ISO 8601 time read
as an aware datetime (:func:`aware_time`)."""

from __future__ import annotations

from datetime import UTC, date, datetime


def utc_now() -> str:
    """The current time as ISO 8601 UTC with microseconds, e.g. ``2026-11-29T15:20:52.123456+00:00``.

    Every timestamp in the store uses this fixed format, so timestamps sort as text.
    """
    return datetime.now(UTC).isoformat(timespec="microseconds")


def parse_since(text: str) -> str:
    """Parse a ``--since`` value (a date ``2026-11-29`` or an ISO datetime) into the store's UTC timestamp text.

    A date or a datetime without a zone is taken as UTC. Raises ValueError with a clear message otherwise (also for a
    time whose UTC reading is outside the years 1 to 9999).
    """
    value = text.strip()
    try:
        if len(value) == 10:
            d = date.fromisoformat(value)
            dt = datetime(d.year, d.month, d.day, tzinfo=UTC)
        else:
            dt = aware_time(value)
    except ValueError:
        raise ValueError(
            f"{text!r} is not a date or ISO datetime (expected e.g. 2026-11-29 or 2026-11-29T14:30)"
        ) from None
    try:
        return dt.astimezone(UTC).isoformat(timespec="microseconds")
    except OverflowError:  # 0001-01-01T00:00+01:00 is before year 1 in UTC: a traceback in the CLI, a 500 served
        raise ValueError(f"{text!r} is outside the years 1 to 9999 once read as UTC") from None


def utc_text(value: str) -> str:
    """An ISO 8601 time (any offset; none: UTC) as the store's UTC text, so that the times of rows brought in by
    ``warroom store import`` sort as time beside warroom's own (``2026-12-06T09:00:00-05:00``, 14:00 UTC, sorted as
    text before ``2026-12-06T10:00:00+00:00``, and so became a trainee's first attempt). The store's own texts are
    returned as they are. Raises ValueError for a text that is not one, or outside the years 1 to 9999 in UTC."""
    try:
        return aware_time(value).astimezone(UTC).isoformat(timespec="microseconds")
    except OverflowError:
        raise ValueError("outside the years 1 to 9999 once read as UTC") from None


def aware_time(text: str) -> datetime:
    """An ISO 8601 time (``Z`` or an offset; none: UTC) as an aware datetime. Raises ValueError for text that is
    not one."""
    dt = datetime.fromisoformat(text)
    return dt if dt.tzinfo is not None else dt.replace(tzinfo=UTC)


def ended_before_start(started_at: str, ended_at: str | None) -> str | None:
    """Why a session that ends (``ended_at``) before it starts (``started_at``; ISO times, any offset) cannot be
    right, as a sentence; None when it does not (or has no end). The store refuses such a row, and ``warroom scores
    verify`` names one stored before."""
    if ended_at is None or aware_time(ended_at) >= aware_time(started_at):
        return None
    return (f"ended_at {ended_at} is before started_at {started_at}: a session ends after it starts (the clock "
            "that wrote it was wrong, or the row was changed)")
