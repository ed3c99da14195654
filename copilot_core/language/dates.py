"""The written forms of a date, in one grammar (read with :func:`copilot_core.language.forms.found`).

- ``iso``: an ISO date, maybe with its time and zone (``2026-11-26T12:22:05Z``): the name of a moment, never a
  measurement, for the answer's number reader;
- ``iso_minute``: an ISO date, maybe with hours and minutes, standing alone as a word: the dates a qubit review
  may write;
- the forms a person writes a calibration's day in, most specific first (:data:`WRITTEN`): ``ymd`` (``2026-11-20``,
  ``2026/11/20``), ``mon_d`` (``Nov 20``, ``November 20th, 2026``), ``d_mon`` (``20 Nov``, ``20th of November``),
  ``a_b_y`` (``20.11.2026``, ``11/20/2026``), ``m_d`` (``11-20``) and ``a_b`` (``11/20``), each maybe with a time.

Month names, ``T``, ``at`` and ``UTC`` are read in any case in the first three written forms only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

from copilot_core.domain.vocabulary import NUMBER_WORDS
from copilot_core.language.forms import Found, found, found_each
from copilot_core.language.question_words import tokens_of

WRITTEN = ("ymd", "mon_d", "d_mon", "a_b_y", "m_d", "a_b")
MONTHS = {"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "oct": 10,
          "nov": 11, "dec": 12}


def _mon(form: str) -> str:
    return (rf"(?P<{form}__mon>jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
            r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?")


def _day(form: str) -> str:
    return rf"(?P<{form}__d>\d{{1,2}})(?:st|nd|rd|th)?"


def _year(form: str) -> str:
    return rf"(?:,?\s+(?P<{form}__y>\d{{4}}))?"


_TIME = r"(?:(?:[T ]|,?\s+at\s+)\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:\s?UTC|Z)?)?"

DATES = re.compile(
    r"(?=\d|\b(?i:[jfmasond]))"  # where a form can start: a digit, or a month name at the start of a word
    r"(?:(?=(?P<iso>\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?(?:Z|[+-]\d{2}:?\d{2})?))|)"
    r"(?:(?=(?P<iso_minute>\b\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2})?\b))|)"
    rf"(?:(?=(?P<ymd>(?i:(?<![\w.])(?P<ymd__y>\d{{4}})[-/.](?P<ymd__m>\d{{1,2}})[-/.](?P<ymd__d>\d{{1,2}}){_TIME}"
    r"(?![\w]|\.\d))))|)"
    rf"(?:(?=(?P<mon_d>(?i:\b{_mon('mon_d')}\s+{_day('mon_d')}{_year('mon_d')}{_TIME}\b)))|)"
    rf"(?:(?=(?P<d_mon>(?i:\b{_day('d_mon')}\s+(?:of\s+)?{_mon('d_mon')}{_year('d_mon')}{_TIME}(?![\w]))))|)"
    rf"(?:(?=(?P<a_b_y>(?<![\w.])(?P<a_b_y__a>\d{{1,2}})[./](?P<a_b_y__b>\d{{1,2}})[./](?P<a_b_y__y>\d{{4}}){_TIME}"
    r"(?![\w]|\.\d)))|)"
    rf"(?:(?=(?P<m_d>(?<![\w.\-/])(?P<m_d__m>\d{{1,2}})-(?P<m_d__d>\d{{1,2}}){_TIME}(?![\w\-/]|\.\d)))|)"
    rf"(?:(?=(?P<a_b>(?<![\w.\-/])(?P<a_b__a>\d{{1,2}})/(?P<a_b__b>\d{{1,2}}){_TIME}(?![\w\-/]|\.\d)))|)"
    r"(?(iso)|(?(iso_minute)|(?(ymd)|(?(mon_d)|(?(d_mon)|(?(a_b_y)|(?(m_d)|(?(a_b)|(?!)))))))))"  # where some form starts
)


# --- a window written as dates ("between 1 November 2026 and 15 November 2026", "since Nov 3", "in October 2026")

_DAY_FORMS = ("ymd", "mon_d", "d_mon", "a_b_y")  # the forms whose digits are never a qubit, a count or a limit
_MONTH_WORDS = {**{name: n for name, n in MONTHS.items() if name != "may"},
                **{full: n for full, n in (("january", 1), ("february", 2), ("march", 3), ("april", 4), ("may", 5),
                                           ("june", 6), ("july", 7), ("august", 8), ("september", 9), ("october", 10),
                                           ("november", 11), ("december", 12), ("sept", 9))}}
_OPEN_END = ("since", "from", "after")  # one date after these: the window runs on to the newest run's day
_OPEN_START = ("before", "until", "till", "through", "by")  # and these: every stored run up to that date
_DAYS_IN = (31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)
WEEKDAY_WORDS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")


@dataclass(frozen=True)
class Written:
    """A day or a month written in a text: where, its first and last day (``YYYY-MM-DD``, or ``MM-DD`` when no year
    is written) and the word before it."""

    start: int
    end: int
    first: str
    last: str
    before: str


def _calendar_day(year: str | None, month: int, day: int) -> str | None:
    """``2026-11-03`` / ``11-03``; None for a day no calendar has."""
    if not (1 <= month <= 12 and 1 <= day <= _DAYS_IN[month - 1]):
        return None
    if year is not None:
        try:
            date(int(year), month, day)
        except ValueError:
            return None
        return f"{int(year):04d}-{month:02d}-{day:02d}"
    return f"{month:02d}-{day:02d}"


def _from_form(form: str, f: Found, text: str) -> tuple[str | None, int, int] | None:
    """A written day's (year, month, day)."""
    g = f.groups
    if form == "ymd":
        return g["y"], int(g["m"] or 0), int(g["d"] or 0)
    if form in ("mon_d", "d_mon"):
        return g["y"], MONTHS[(g["mon"] or "")[:3].lower()], int(g["d"] or 0)
    a, b = int(g["a"] or 0), int(g["b"] or 0)  # a_b_y: day first when it cannot be a month or written with dots
    dotted = text[f.start + len(g["a"] or ""):][:1] == "."
    return (g["y"], b, a) if a > 12 or dotted else (g["y"], a, b)


def written_days(text: str) -> list[Written]:
    """Every day and month ``text`` writes as a date, in order: the dates of :data:`DATES`' unambiguous forms and a
    month name with its year ("October 2026") or after "in", "during" or "of" ("in October")."""
    tokens = tokens_of(text)
    out: list[Written] = []
    each = found_each(DATES, text, ("iso", *_DAY_FORMS))
    taken: list[tuple[int, int]] = []
    for form in _DAY_FORMS:
        for f in each[form]:
            if any(s <= f.start < e for s, e in taken):
                continue
            parts = _from_form(form, f, text)
            day = _calendar_day(*parts) if parts else None
            if day is not None:
                taken.append((f.start, f.end))
                out.append(Written(f.start, f.end, day, day, _word_before(tokens, f.start)))
    for i, (start, end, word) in enumerate(tokens):
        month = _MONTH_WORDS.get(word)
        if month is None or any(s <= start < e for s, e in taken):
            continue
        year = tokens[i + 1][2] if i + 1 < len(tokens) and len(tokens[i + 1][2]) == 4 and tokens[i + 1][2].isdigit() \
            else None
        before = _word_before(tokens, start)
        if year is None and before not in ("in", "during", "of", "for"):
            continue
        stop = tokens[i + 1][1] if year is not None else end
        leap = month == 2 and year is not None and int(year) % 4 == 0
        first, last = _calendar_day(year, month, 1), _calendar_day(year, month, 29 if leap else _DAYS_IN[month - 1]
                                                                   if month != 2 else 28)
        week = _WEEKS.get(tokens[i - 3][2]) if i >= 3 and [t[2] for t in tokens[i - 2:i]] == ["week", "of"] else None
        if first is not None and last is not None and week is not None:  # "the second week of November"
            first, last = _shifted(first, 7 * week), _shifted(first, 7 * week + 6)
            start, before = tokens[i - 3][0], _word_before(tokens, tokens[i - 3][0])
        if first is not None and last is not None:
            taken.append((start, stop))
            out.append(Written(start, stop, first, last, before))
    shared = _shared_month(tokens, out)
    shared += _bare_ends(text, tokens, out, [(w.start, w.end) for w in shared])
    out += _month_days(tokens, taken + [(w.start, w.end) for w in shared])
    return sorted(out + shared, key=lambda w: w.start)


# the words a day of the month alone follows ("since the 20th", "between the 20th and the 23rd"); "after" and "before"
# are left out: the day next to it is no written form
_DAY_ALONE_AFTER = frozenset({"since", "from", "until", "till", "through", "on", "between", "and", "to"})
_NOT_A_DAY = frozenset({"of", "qubit", "qubits", "coupling", "couplings", "pair", "chip", "run", "runs", "execution",
                        "executions", "task", "tasks", "value", "values", "measurement", "measurements", "point",
                        "points", "lowest", "highest", "best", "worst", "one", "ones", "time", "times", "percentile"})


def _month_days(tokens: list[tuple[int, int, str]], taken: list[tuple[int, int]]) -> list[Written]:
    """"since the 20th", "on the 3rd": a day of the month with no month written, as ``---20`` (the latest 20th on
    or before the newest run's day): a number with its ordinal ending, not followed by a month ("the 9th of Dec" is
    :func:`_shared_month`'s) or a noun it ranks ("the 2nd qubit")."""
    out = []
    for i, (start, end, word) in enumerate(tokens):
        number = _day_number(word)
        if number is None or not 1 <= number <= 31 or any(s <= start < e for s, e in taken) or i == 0:
            continue
        the = tokens[i - 1][2] == "the"
        before = tokens[i - 2][2] if the and i >= 2 else tokens[i - 1][2]
        after = tokens[i + 1][2] if i + 1 < len(tokens) else ""
        if not word.isdigit() and before in _DAY_ALONE_AFTER and after not in _NOT_A_DAY and \
                after not in _MONTH_WORDS:
            out.append(Written(tokens[i - 1][0] if the else start, end, f"---{number:02d}", f"---{number:02d}",
                               before))
    return out


_RANGE_WORDS = (("and", "between"), ("to", "from"), ("till", "from"), ("until", "from"), ("through", "from"))
_WEEKS = {"first": 0, "second": 1, "third": 2, "fourth": 3}  # "the first week of November": days 1-7


def _day_number(word: str) -> int | None:
    """"3", "3rd", "21st": the day of the month written; None for any other word."""
    digits = word[:-2] if word[-2:] in ("st", "nd", "rd", "th") else word
    return int(digits) if digits.isdecimal() and len(digits) <= 2 else None


def _shared_month(tokens: list[tuple[int, int, str]], days: list[Written]) -> list[Written]:
    """The first end of "between 1 and 15 November 2026" (or "from 1 to 15 Nov", "from the 2nd till the 9th of
    Dec"), a day written with the month and year of the second."""
    out = []
    for w in days:
        at = next((i for i, t in enumerate(tokens) if t[0] == w.start), None)
        if at is None or w.first != w.last:
            continue
        words = [t for t in tokens[:at] if t[2] != "the"][-3:]  # "the" leaves the range's words unchanged
        if len(words) < 3 or (words[2][2], words[0][2]) not in _RANGE_WORDS:
            continue
        number = _day_number(words[1][2])
        if number is not None and (day := _calendar_day(w.first[:-6] or None, int(w.first[-5:-3]), number)):
            out.append(Written(words[1][0], words[1][1], day, day, words[0][2]))
    return out


_DASHES = ("-", "–", "—")
_RANGE_TO = frozenset({"to", "through", "thru", "till", "until"})


def _joined(text: str, tokens: list[tuple[int, int, str]], at: int, step: int) -> int | None:
    """The token a range joins to the one at ``at`` (``step`` 1: after it, -1: before it) by a dash ("27-30",
    "27 – 30") or a range word ("27 to 30"), skipping a "the"; None when nothing joins them."""
    k = at + step
    if not 0 <= k < len(tokens):
        return None
    gap = text[tokens[min(at, k)][1]:tokens[max(at, k)][0]].strip()
    if gap in _DASHES:
        return k
    if gap or tokens[k][2] not in _RANGE_TO:
        return None
    k += step
    if 0 <= k < len(tokens) and tokens[k][2] == "the" and not text[tokens[min(k, k - step)][1]:
                                                                       tokens[max(k, k - step)][0]].strip():
        k += step
    return k if 0 <= k < len(tokens) and not text[tokens[min(k, k - step)][1]:tokens[max(k, k - step)][0]].strip() \
        else None


def _bare_ends(text: str, tokens: list[tuple[int, int, str]], days: list[Written],
               taken: list[tuple[int, int]]) -> list[Written]:
    """The other end of a range that writes its month once beside a day: "Nov 27-30", "Nov 26 to 29", "27–30 Nov",
    "26 to 29 November" (a first end after "from" or "between" is :func:`_shared_month`'s)."""
    out = []
    starts = {t[0]: i for i, t in enumerate(tokens)}
    for w in days:
        at = starts.get(w.start)
        if at is None or w.first != w.last or not tokens[at][2]:
            continue
        month_first = tokens[at][2] in _MONTH_WORDS or tokens[at][2][:3] in MONTHS
        if not month_first and not (at + 1 < len(tokens) and (tokens[at + 1][2] in _MONTH_WORDS or tokens[at + 1][2]
                                                                in ("of", *MONTHS))):
            continue  # a day written with digits only ("2026-11-12") takes no bare end
        end = next((i for i, t in enumerate(tokens) if t[1] == w.end), None) if month_first else at
        k = _joined(text, tokens, end, 1) if month_first and end is not None else _joined(text, tokens, at, -1)
        if k is None or (number := _day_number(tokens[k][2])) is None or \
                any(s <= tokens[k][0] < e for s, e in [*taken, *((d.start, d.end) for d in days)]):
            continue
        if month_first and text[tokens[k][1]:tokens[k][1] + 1] in ("-", "/", ".", ":"):
            continue  # "Nov 27 - 30.5 μs", "Nov 27-30/11": no day
        day = _calendar_day(w.first[:-6] or None, int(w.first[-5:-3]), number)
        if day is not None and (day > w.first if month_first else day < w.first):
            out.append(Written(tokens[k][0], tokens[k][1], day, day, w.before))
    return out


def _word_before(tokens: list[tuple[int, int, str]], start: int) -> str:
    words = [w for s, _, w in tokens if s < start and not w.isdigit()]
    return words[-1] if words else ""


def _shifted(day: str, by: int) -> str:
    """``day`` moved by ``by`` days, written as it was (with or without its year)."""
    if len(day) == 10:
        return (date.fromisoformat(day) + timedelta(days=by)).isoformat()
    moved = date(2001, int(day[:2]), int(day[3:])) + timedelta(days=by)  # a year without 29 February
    return f"{moved:%m-%d}"


_WEEKEND = frozenset({"weekend", "weekends"})


def written_window(text: str) -> tuple[str | None, str | None] | None:
    """The window of whole days ``text`` writes as dates, both ends included (None: open): two dates are its ends
    ("between 1 and 15 November 2026", "2026-11-01 to 2026-11-10"); one date after "since"/"from"/"after" opens its
    end, after "before"/"until" its start, otherwise it is that one day or month ("on 3 Nov", "in October 2026"); a
    weekday after "on" or "last" is that one day ("on Tuesday"), two after "between ... and" or "from ... to" are its
    ends.  None when it writes none."""
    days = written_days(text)
    if len(days) >= 2:
        return days[0].first, days[1].last
    if len(days) == 1:
        one = days[0]
        if one.before in _OPEN_END:
            return (_shifted(one.last, 1) if one.before == "after" else one.first), None
        if one.before in _OPEN_START:
            return None, _shifted(one.first, -1) if one.before == "before" else one.last
        return one.first, one.last
    tokens = tokens_of(text)
    if (back := _days_back([w for _, _, w in tokens])) is not None:  # "the day before yesterday": that one day
        return back, back
    if any(word in _WEEKEND for _, _, word in tokens):  # a weekend word: the latest Saturday and the Sunday after
        return "saturday", "sunday"
    words = [w for _, _, w in tokens]
    for i, word in enumerate(words):  # "between Monday and Wednesday", "from Tuesday to Thursday": the latest ones
        if word in WEEKDAY_WORDS and i and words[i - 1] in ("between", "from") and words[i + 1:i + 2] and \
                (words[i + 1], words[i - 1]) in _RANGE_WORDS and words[i + 2:i + 3] and words[i + 2] in WEEKDAY_WORDS:
            return word, words[i + 2]
    for i, (_, _, word) in enumerate(tokens):
        if word in WEEKDAY_WORDS and i and tokens[i - 1][2] in ("on", "last") and \
                tokens[max(0, i - 2)][2] not in ("since", "from"):  # "since last Friday": from it on
            return word, word
    return None


def _days_back(words: list[str]) -> str | None:
    """One day written by how far it lies before the data's today ("the day before yesterday": ``-2``, "3 days
    ago": ``-3``), as :func:`~copilot_core.domain.windows.written_day` reads it; None when none is."""
    for i in range(len(words) - 2):
        if words[i:i + 3] == ["day", "before", "yesterday"]:
            return "-2"
        if words[i + 1] in ("days", "day") and words[i + 2] == "ago" and (n := _small_count(words[i])) is not None:
            return f"-{n}" if 0 < n <= 99 else None
    return None


def _small_count(word: str) -> int | None:
    return int(word) if word.isdigit() else NUMBER_WORDS.get(word)


def date_spans(text: str) -> list[tuple[int, int]]:
    """Where ``text`` writes a date whose digits are no qubit, count or limit (:func:`written_days`, ISO included)."""
    iso = [(f.start, f.end) for f in found(DATES, text, "iso")]
    return iso + [(w.start, w.end) for w in written_days(text)]
