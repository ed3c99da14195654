"""A time window as a question writes it in words, read into one :class:`Window` (the days it means are the
domain's: :mod:`copilot_core.domain.windows`).

- a number of days, weeks or months ("the last 3 days", "past two weeks", "the last month": 30 days);
- hours ("the last 48 hours", "past 36h", "the last day and a half": 36 hours): read as whole UTC days, rounded up
  (:attr:`Window.whole_days`), and the answer says so;
- no number ("the last few days", "several days", "recently", "lately"): :data:`DEFAULT_DAYS` days, "a couple of
  days" two, and the answer says so;
- "today", "yesterday";
- the other forms of N units (:func:`_written_form`): "rolling/trailing/preceding/prior N days", "a 10-day window",
  "the last 7 calendar days", "the 5 preceding days", "a rolling window of 10 days", "within 2 days", "a fortnight".
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from copilot_core.domain.vocabulary import NUMBER_WORDS
from copilot_core.domain.windows import LAST_RUNS_MOST
from copilot_core.language.question_words import WORDS, Phrases, tokens_of
from copilot_core.language.spelled import spelled_as_digits

Unit = Literal["day", "week", "month", "hour", "today", "yesterday"]
_UNIT_DAYS = {"day": 1.0, "week": 7.0, "month": 30.0, "hour": 1 / 24}
_UNIT_NAMES = {"h": "hour", "hr": "hour", "hrs": "hour", "d": "day"}  # "36h", "12 hrs", "7d"
DEFAULT_DAYS = 3  # a window written with no number ("the last few days", "recently")
_VAGUE_DAYS = {"couple": 2}  # a vague word that still says how many
_VAGUE_SAID = {"couple": "a couple of days", "few": "a few days", "several": "several days"}


@dataclass(frozen=True)
class Window:
    """A time window in words: ``n`` units ("last 2 weeks": 2, "week"); "today" and "yesterday" are their own unit;
    ``vague``: the words of a window written with no number ("recently"), read as :data:`DEFAULT_DAYS` days."""

    n: int
    unit: Unit
    vague: str | None = None

    @property
    def days(self) -> float:
        """How many days the window spans: "today" and "yesterday" are one whole day each."""
        return 1.0 if self.unit in ("today", "yesterday") else self.n * _UNIT_DAYS[self.unit]

    @property
    def whole_days(self) -> int:
        """The whole UTC days it is read as, 1 to 365: hours rounded up ("48 hours": 2, "36 hours": 2)."""
        return max(1, min(365, math.ceil(self.days - 1e-9) if self.unit == "hour" else round(self.days)))

    @property
    def yesterday(self) -> bool:
        """The one whole day before the data's today (the day of the chip's newest run)."""
        return self.unit == "yesterday"


def _count(word: str) -> int:
    return int(word) if word.isdigit() else NUMBER_WORDS[word.lower()]


def read_window(text: str) -> Window | None:
    """The window ``text`` writes in words (see the module docstring), else None."""
    rule, text = WORDS["window"], spelled_as_digits(text, 11)
    if (to_today := _counted_to_today(text)) is not None:
        return to_today
    m = rule.search(text) if isinstance(rule, re.Pattern) else None
    if m is None:
        return _written_form(text) or _vague(text)
    if m.group(3):
        if [w for _, _, w in tokens_of(text[:m.start()])][-2:] == ["day", "before"]:
            return None  # "the day before yesterday": a date two days back (language/dates.py), no window of days
        return Window(1, "today" if m.group(3).lower() == "today" else "yesterday")
    counted, written = (m.group(1), m.group(2)) if m.group(2) else (m.group(4), m.group(5))
    if not counted and written.lower() == "days":  # "in recent days", "the past days": no number written
        return Window(DEFAULT_DAYS, "day", "recently")
    n = _count(counted) if counted else 1
    unit = written.lower()
    unit = _UNIT_NAMES.get(unit, unit.rstrip("s"))
    if [w for _, _, w in tokens_of(text[m.end():])[:3]] == ["and", "a", "half"]:  # "the last day and a half"
        return Window(math.ceil((n + 0.5) * _UNIT_DAYS[unit] * 24), "hour")
    return Window(n, unit)  # type: ignore[arg-type]


# the words that may join a count of days to the day it ends on (its last word "today", "now" or "date"): the
# days are counted back from the data's today, that day included
_TO_TODAY = frozenset({"up", "leading", "running", "to", "through", "thru", "ending", "ended", "until", "till",
                       "including", "inclusive", "and", "of", "on", "with", "included", "counting", "date"})
_ENDS = frozenset({"today", "date", "now"})


def _counted_to_today(text: str) -> Window | None:
    """N units that end on the data's today, whatever word of :data:`_TO_TODAY` joins them to it: N days back from
    the newest run's day, never that day alone; a unit after "the" or "a" is one of it."""
    words = [w for _, _, w in tokens_of(text)]
    for i, word in enumerate(words):
        if word not in _ENDS or i < 2 or word == "date" and words[i - 1] != "to":
            continue
        j = i - 1
        while j >= 0 and words[j] in _TO_TODAY and words[j] != "date":
            j -= 1
        if j == i - 1 and words[i + 1:i + 2] not in (["included"], ["inclusive"]) or j < 1 or \
                words[j] not in _FORM_UNITS or _FORM_UNITS[words[j]][0] == "hour":
            continue
        counted = words[j - 1] if words[j - 1] not in ("calendar", "whole", "full") else words[j - 2] if j >= 2 else ""
        unit, times = _FORM_UNITS[words[j]]
        if counted.isdigit() or counted in NUMBER_WORDS:
            return Window(_count(counted) * times, unit)
        if counted in ("the", "a", "one") and not words[j].endswith("s"):  # a single week: seven days
            return Window(times, unit)
    return None


_TO_RUN = _TO_TODAY | {"that", "which", "close", "closes", "closing", "end", "ends", "finish", "finishes"}
_NEWEST = frozenset({"latest", "newest", "last", "recent", "final", "current"})
_RUN = frozenset({"run", "execution", "calibration", "batch"})
_WHOSE = frozenset({"its", "their", "the", "each", "every", "that", "this", "chip", "chips", "device", "s", "own",
                    "most", "calibration"})


def anchored_to_today(text: str) -> str:
    """``text`` with a count of days tied by "up to", "through" and the like to the chip's most recent run tied to
    "today" instead: the data's today is that run's date, so those run words date the window's end and pick no run
    to rank within."""
    tokens = tokens_of(text)
    words = [w for _, _, w in tokens]
    for i, word in enumerate(words):
        if word not in _RUN or words[i + 1:i + 2] and words[i + 1] in _RUN:
            continue  # the run's last word ("calibration run")
        first = i
        while first > 0 and words[first - 1] in _RUN:
            first -= 1
        if first < 3 or words[first - 1] not in _NEWEST:
            continue
        j = first - 2
        while j >= 0 and (words[j] in _WHOSE or words[j][:1].isdigit() and "q" in words[j]):  # "64Qv3's"
            j -= 1
        k = j
        while k >= 0 and words[k] in _TO_RUN and words[k] != "date":
            k -= 1
        if k == j or k < 1 or words[k] not in _FORM_UNITS or _FORM_UNITS[words[k]][0] == "hour":
            continue
        return text[:tokens[k + 1][0]] + "up to today" + anchored_to_today(text[tokens[i][1]:])
    return text


_FORM_UNITS: dict[str, tuple[Unit, int]] = {
    **{w: ("day", 1) for w in ("day", "days")}, **{w: ("hour", 1) for w in ("hour", "hours", "h", "hr", "hrs")},
    **{w: ("week", 1) for w in ("week", "weeks", "wk", "wks")}, **{w: ("month", 1) for w in ("month", "months")},
    **{w: ("week", 2) for w in ("fortnight", "fortnights")}}


def counts_of_time(text: str) -> list[tuple[int, int]]:
    """Where ``text`` writes a count of days, weeks, months or hours, or of the newest runs: how long a window is,
    so never a limit (a number after "over") and never how many a ranking lists."""
    tokens = tokens_of(text)
    spans = []
    for i, (start, end, word) in enumerate(tokens):
        if not (word.isdigit() or word in NUMBER_WORDS):
            continue
        unit = i + 2 if tokens[i + 1:i + 2] and tokens[i + 1][2] in ("calendar", "whole", "full") else i + 1
        if unit < len(tokens) and tokens[unit][2] in _FORM_UNITS:
            spans.append((start, end))
    runs = runs_back(text)
    return spans + ([runs[1]] if runs is not None else [])


_RUNS_BEFORE = frozenset({"last", "past", "previous", "prior", "latest", "newest", "recent", "final", "preceding"})
_RUNS_AFTER = frozenset({"latest", "newest", "recent", "last", "previous"})  # "the 5 most recent runs"
_RUN_NOUNS = frozenset({"runs", "executions", "batches"})
_RUN_KINDS = frozenset({"calibration", "cal", "completed", "finished", "chip", "s"})  # "last 4 calibration runs"


def runs_back(text: str) -> tuple[int, tuple[int, int]] | None:
    """A window of the chip's newest runs ("the last 5 runs", "its 3 most recent executions", "across the
    prior ten calibration runs"): how many, and where the count is written (so it is no limit nor a ranking's N)."""
    tokens = tokens_of(text)
    words = [w for _, _, w in tokens]
    for i, word in enumerate(words):
        if not (word.isdecimal() or word in NUMBER_WORDS) or not 2 <= (n := _count(word)) <= LAST_RUNS_MOST:
            continue
        j = i + 1
        after = j < len(words) and words[j] in _RUNS_AFTER or words[j:j + 2] == ["most", "recent"]
        j += (2 if words[j:j + 1] == ["most"] else 1) if after else 0
        while j < len(words) and words[j] in _RUN_KINDS:
            j += 1
        if j < len(words) and words[j] in _RUN_NOUNS and (after or i and words[i - 1] in _RUNS_BEFORE):
            return n, (tokens[i][0], tokens[i][1])
    return None


def _written_form(text: str) -> Window | None:
    """A window in one of the word table's other forms ("a 10-day window", "the last 7 calendar days", "the 5
    preceding days", "a rolling window of 10 days", "within 2 days", "a trailing week"): its count (none or "a": one;
    none before a plural unit: "the preceding days", :data:`DEFAULT_DAYS` days) and its unit."""
    rule = WORDS["window form"]
    spans = rule.find(text) if isinstance(rule, Phrases) else []
    if not spans:
        return None
    words = [w for _, _, w in tokens_of(text[spans[0][0]:spans[0][1]])]
    unit = next(w for w in words if w in _FORM_UNITS)
    counted = next((w for w in words if w.isdigit() or w in NUMBER_WORDS), None)
    if counted is None and unit.endswith("s"):
        return Window(DEFAULT_DAYS, "day", "recently")
    named, times = _FORM_UNITS[unit]
    return Window((_count(counted) if counted else 1) * times, named)


def _vague(text: str) -> Window | None:
    part = WORDS["part of today"]
    hours = part.find(text) if isinstance(part, Phrases) else []
    if hours:  # "this morning": windows are whole UTC days, so the newest run's whole day, and the answer says so
        return Window(1, "today", " ".join(w for _, _, w in tokens_of(text[hours[0][0]:hours[0][1]])))
    rule = WORDS["vague window"]
    spans = rule.find(text) if isinstance(rule, Phrases) else []
    if not spans:
        return None
    words = {w for _, _, w in tokens_of(text[spans[0][0]:spans[0][1]])}
    key = next((k for k in _VAGUE_SAID if k in words), None)
    return Window(_VAGUE_DAYS.get(key or "", DEFAULT_DAYS), "day", _VAGUE_SAID[key] if key else "recently")


def window_reading(window: Window | None) -> str | None:
    """The sentence that says how a window in hours or with no number was read, for the answer; None for others."""
    if window is None or window.unit != "hour" and window.vague is None:
        return None
    days = window.whole_days
    if window.unit == "today":
        return f"Window: \"{window.vague}\" is read as the whole UTC day of the newest run (windows are whole days)."
    span = f"the last {days} whole UTC day{'s' if days != 1 else ''}, ending on the day of the newest run"
    if window.vague is not None:
        why = "a window written with no number" if window.vague != "a couple of days" else "two days"
        return f"Window: \"{window.vague}\" is read as {span} ({why}; the default is {DEFAULT_DAYS} days)."
    return f"Window: {window.n} hours are read as {span} (hours rounded up to whole days)."


def unread_window(said: str) -> str:
    """The sentence for a window the question writes that no reading of days or dates took ("during the last
    sprint"): the answer says so instead of counting every stored run as if it had been asked."""
    return f"Window: \"{said}\" could not be read as a time window of whole UTC days, so the answer above is not " \
           "limited to it: it covers what its own sentence says (every stored run, or the run it names), not that " \
           "window. Ask again with dates (YYYY-MM-DD to YYYY-MM-DD) or a number of days."


_PLACED = frozenset({"since last run"})  # rows whose window words are read elsewhere ("what changed since the last run")


def unplaced_window(found: Mapping[str, str], read: bool) -> tuple[str, ...]:
    """The window words a question writes (its first "window hint", as written) when no reading took a window from
    it (``read``: a window, dates or a weekday was read), for the answer to say so: never every stored run in
    silence."""
    said = found.get("window hint")
    return (said,) if said and not read and not _PLACED & found.keys() else ()
