"""Cached reads for the comparison page and the Overview's report button (keyed like ``ui.data``)."""

from __future__ import annotations

import html

import streamlit as st

from copilot_core.analysis.compare import Comparison, compare
from copilot_core.data.runs import RunReader
from copilot_core.report import ReportError, chip_report
from copilot_core.errors import user_message
from copilot_core.figures import available_root
from ui import data


@st.cache_data(ttl=data.TTL, show_spinner=False)
def _runs(key: str, chip_id: str) -> list[dict]:
    return RunReader(data.repository()).executions_between(chip_id)


def runs(chip_id: str) -> list[dict]:
    """Every execution of the chip, newest first."""
    return _runs(data.target_key(data.settings()), chip_id)


@st.cache_data(ttl=data.TTL, show_spinner=False, max_entries=16)
def _comparison(key: str, chip_id: str, before: str, after: str) -> Comparison:
    chip = data.chip(chip_id)
    if chip is None:
        raise ValueError(f"chip {chip_id!r} was not found in the database")
    return compare(RunReader(data.repository()), chip, before, after)


def comparison(chip_id: str, before: str, after: str) -> Comparison:
    """``analysis.compare.compare`` through the cache (raises ``CompareError`` for points that do not exist)."""
    return _comparison(data.target_key(data.settings()), chip_id, before, after)


@st.cache_data(ttl=data.TTL, show_spinner=False, max_entries=4)
def _report(key: str, chip_id: str) -> str:
    chip = data.chip(chip_id)
    if chip is None:
        raise ValueError(f"chip {chip_id!r} was not found in the database")
    return chip_report(data.repository(), chip, figures=available_root(data.settings())).html


def report_html(chip_id: str) -> str:
    """The daily report of the chip's last run as one self-contained HTML page (a short page saying why
    when there is nothing to report)."""
    try:
        return _report(data.target_key(data.settings()), chip_id)
    except ReportError as exc:
        return f"<!DOCTYPE html><meta charset='utf-8'><title>No report</title><p>{html.escape(user_message(exc))}</p>"
