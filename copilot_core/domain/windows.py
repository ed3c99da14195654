"""The one meaning of "the last N days": whole UTC days ending with the day of the chip's newest run.

The data's "today" is the day of the chip's newest run (a lab's data is often days old), so "the last 7 days" are the
7 dates ending on that day, "yesterday" is the one date before it, and "since Monday" starts on the latest Monday on
or before it.  Every count, ranking, history and review that takes days reads its window here, and its answer states
the dates (:func:`dates_text`), so two tools asked about "the last 7 days" count over the same documents.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Literal

from copilot_core.errors import InvalidRequest

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
Day = Literal["today", "yesterday"]
DAYS: tuple[Day, ...] = ("today", "yesterday")
# one end of a window written as a day: a date, a month and day (the year left to the data), a day of the month
# alone (``---20``, ISO 8601's form: "since the 20th"), days back from the newest run's day (``-2``: "the day before
# yesterday"), a weekday, or "month" (the 1st of the newest run's month)
DATE_PATTERN = r"^(\d{4}-)?\d{2}-\d{2}$|^---\d{2}$|^-\d{1,2}$|^(" + "|".join(WEEKDAYS) + "|month)$"
LAST_RUNS_MOST = 50  # the newest runs a window of runs ("the last 5 runs") may hold
_FIRST = datetime(1970, 1, 1)  # an open start: every stored run


def written_day(last: datetime, written: str) -> date:
    """One end of a window as the router writes it: ``2026-11-03``; ``-2``, that many days before the day of
    ``last`` (the newest run); ``11-03``, ``---03`` (a day of the month) or ``tuesday``, the latest such day on or
    before it; ``month``, the 1st of its month ("this month").  ``InvalidRequest`` for a day no calendar has."""
    today = last.date()
    if written == "month":
        return today.replace(day=1)
    if written[:1] == "-" and written[1:].isdigit():
        return today - timedelta(days=int(written[1:]))
    if written in WEEKDAYS:
        return today - timedelta(days=(today.weekday() - WEEKDAYS.index(written)) % 7)
    if written.startswith("---") and written[3:].isdigit() and 1 <= int(written[3:]) <= 31:
        first_of = today.replace(day=1)
        while True:  # the latest month, this one or earlier, that has the day, on or before today
            if (found := _day_of(first_of, int(written[3:]))) is not None and found <= today:
                return found
            first_of = (first_of - timedelta(days=1)).replace(day=1)
    try:
        if len(written) == 10:
            return date.fromisoformat(written)
        month, day = int(written[:2]), int(written[3:])
        found = date(today.year, month, day) if (month, day) != (2, 29) else None
        return found if found is not None and found <= today else date(today.year - 1, month, day)
    except ValueError:
        raise InvalidRequest(f"{written!r} is not a day of the calendar") from None


def _day_of(month: date, day: int) -> date | None:
    try:
        return month.replace(day=day)
    except ValueError:
        return None


def dates_window(last: datetime, first: str | None, final: str | None) -> tuple[datetime, datetime]:
    """Whole UTC days as ``[start, end)`` from the day ``first`` through the day ``final``, both included (an open
    start: every stored run; an open end: through the day of the newest run).  ``InvalidRequest`` when it ends
    before it starts."""
    start = datetime.combine(written_day(last, first), datetime.min.time()) if first else _FIRST
    final_day = written_day(last, final) if final else last.date()
    if final and len(final) == 5 and final_day < start.date():  # "in November" on the 29th: its 30th, not last year's
        final_day = final_day.replace(year=final_day.year + 1)
    elif final and final.startswith("---") and final_day < start.date():  # "the 25th to the 30th" on the 29th
        final_day = _day_of(start.date(), int(final[3:])) or final_day
    elif final in WEEKDAYS and first in WEEKDAYS and final_day < start.date():  # "the weekend" asked on a Saturday
        final_day += timedelta(days=7)
    end = datetime.combine(final_day, datetime.min.time()) + timedelta(days=1)
    if end <= start:
        raise InvalidRequest(f"the window ends ({final_day:%Y-%m-%d}) before it starts ({start:%Y-%m-%d})")
    return start, end


def day_window(last: datetime, days: int | None = None, weekday: str | None = None,
               day: Day | None = None) -> tuple[datetime, datetime]:
    """Whole UTC days as ``[start, end)``, ending with the day of ``last`` (the chip's newest run): the last ``days``
    days counting that day ("last 7 days": 7 dates; none given: that day alone), from the latest ``weekday`` on or
    before it ("since Monday"), or one ``day``: "today" is that day, "yesterday" the day before it."""
    end = datetime(last.year, last.month, last.day) + timedelta(days=1)
    if day is not None:
        end -= timedelta(days=DAYS.index(day))
        return end - timedelta(days=1), end
    if weekday is not None:
        back = (last.weekday() - WEEKDAYS.index(weekday)) % 7
        return end - timedelta(days=back + 1), end
    return end - timedelta(days=days or 1), end


def read_end(until: datetime | None, last: datetime | None) -> datetime | None:
    """The end a query reads for a window ending at ``until`` (``last``: the newest run's start): none when the
    window takes in the newest run's day, so a run that crosses midnight UTC is counted whole (its tasks after
    midnight too), while :func:`dates_text` still says the dates; else ``until``."""
    return None if until is not None and last is not None and until > last else until


def dates_text(start: datetime, end: datetime, last: datetime | None = None) -> str:
    """``from 2026-11-23 to 2026-11-29 (UTC, 7 days ending on the day of the newest run)``; one day: ``on ...``;
    a window that ends before the day of ``last`` (the newest run: "yesterday") says so."""
    final = end - timedelta(days=1)
    n = (end - start).days
    if start == _FIRST:
        return f"through {final:%Y-%m-%d} (UTC, every stored run up to that day)"
    span = f"on {start:%Y-%m-%d}" if n == 1 else f"from {start:%Y-%m-%d} to {final:%Y-%m-%d}"
    if start.day == 1 and end.day == 1 and n > 1:  # a month named ("in November"): its own dates, not the newest run's
        newest = f"; the newest run is on {last:%Y-%m-%d}" if last is not None and last.date() < final.date() else ""
        return f"{span} (UTC, the whole month of {start:%B %Y}, {n} days{newest})"
    if last is not None and final.date() < last.date():
        back = (last.date() - final.date()).days
        return f"{span} (UTC, {n} day{'s' if n != 1 else ''} ending {back} day{'s' if back != 1 else ''} before " \
               f"the day of the newest run, {last:%Y-%m-%d})"
    return f"{span} (UTC, {n} day{'s' if n != 1 else ''} ending on the day of the newest run)"
