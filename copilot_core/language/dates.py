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
