"""The two points a comparison reads: an execution, or every execution of one UTC day, named by id, date, alias or
days back from the chip's last execution."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Literal

from copilot_core.errors import CopilotError

_EXECUTION = re.compile(r"^[0-9]{8}-[0-9]{3,6}$")
_DATE = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")
_DAYS_BACK = re.compile(r"^-?([0-9]{1,3})\s*d(ays?)?(\s+ago)?$")
ALIASES = {"latest": "latest", "last": "latest", "now": "latest", "today": "latest", "previous": "previous",
           "prev": "previous", "yesterday": "-1d", "last week": "-7d", "a week ago": "-7d"}


class CompareError(CopilotError, ValueError):
    """The two points cannot be compared (message is safe to show and says what to pick instead); ``malformed``:
    a point that is not written as one (not a fact of the data)."""

    level = "warning"

    def __init__(self, message: str, *, malformed: bool = False) -> None:
        super().__init__(message)
        self.malformed = malformed


@dataclass(frozen=True)
class Point:
    """One side of a comparison: the executions it covers, and how to name it."""

    spec: str
    kind: Literal["execution", "date"]
    label: str
    execution_ids: tuple[str, ...]
    start: datetime


def _usable(executions: list[dict]) -> list[dict]:
    done = [e for e in executions if e.get("status") == "completed"]
    return done or executions


def _run_label(e: dict) -> str:
    start = e.get("start_at")
    when = f" ({start:%Y-%m-%d %H:%M})" if isinstance(start, datetime) else ""
    return f"run {e['execution_id']}{when}"


def _run_point(spec: str, e: dict) -> Point:
    return Point(spec, "execution", _run_label(e), (e["execution_id"],), e["start_at"])


def _day_point(spec: str, day: date, executions: list[dict]) -> Point | None:
    runs = [e for e in executions if isinstance(e.get("start_at"), datetime) and e["start_at"].date() == day]
    if not runs:
        return None
    start = min(e["start_at"] for e in runs)
    return Point(spec, "date", f"{day.isoformat()} ({len(runs)} run{'s' if len(runs) > 1 else ''})",
                 tuple(e["execution_id"] for e in runs), start)


def resolve_point(spec: str, executions: list[dict]) -> Point:
    """``latest``, ``previous``, an execution id, a date ``YYYY-MM-DD``, or ``-Nd`` (N days before the
    chip's last execution; the newest day with runs on or before it).  ``executions`` newest first."""
    text = " ".join(str(spec).strip().lower().split())
    text = ALIASES.get(text, text)
    dated = [e for e in executions if isinstance(e.get("start_at"), datetime)]
    if not dated:
        raise CompareError("this chip has no executions to compare")
    usable = _usable(dated)
    if text == "latest":
        return _run_point(spec, usable[0])
    if text == "previous":
        if len(usable) < 2:
            raise CompareError("this chip has only one execution: there is no previous run to compare with")
        return _run_point(spec, usable[1])
    if _EXECUTION.fullmatch(text):
        found = next((e for e in dated if e["execution_id"] == text), None)
        if found is None:
            recent = ", ".join(e["execution_id"] for e in dated[:5])
            raise CompareError(f"execution {text} is not recorded for this chip; recent ones: {recent}")
        return _run_point(spec, found)
    if _DATE.fullmatch(text):
        try:
            day = date.fromisoformat(text)
        except ValueError:
            raise CompareError(f"{text!r} is not a calendar date (YYYY-MM-DD)", malformed=True) from None
        point = _day_point(spec, day, dated)
        if point is None:
            days = sorted({e["start_at"].date() for e in dated}, reverse=True)[:5]
            raise CompareError(f"no execution on {day.isoformat()}; days with runs: "
                               + ", ".join(d.isoformat() for d in days))
        return point
    back = _DAYS_BACK.fullmatch(text)
    if back:
        target = dated[0]["start_at"].date() - timedelta(days=int(back.group(1)))
        for day in sorted({e["start_at"].date() for e in dated if e["start_at"].date() <= target}, reverse=True):
            point = _day_point(spec, day, dated)
            if point is not None:
                return point
        raise CompareError(f"no execution on or before {target.isoformat()} ({int(back.group(1))} days before the "
                           "chip's last execution)")
    raise CompareError(f"cannot read the point {str(spec)[:40]!r}: use 'latest', 'previous', an execution id like "
                       "'20260720-003', a date like '2026-07-20', or '-7d' (7 days before the last execution)",
                       malformed=True)
