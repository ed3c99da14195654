"""Cached access to the calibration data for every page.

One repository per database target for the whole process (``st.cache_resource``), and cached reads
(``st.cache_data`` with a TTL) keyed by the target and every argument that changes the result, so
a rerun (a click, a slider move) costs no database round trip.  The target key is a hash of the
settings: two apps (or tests) pointing at different databases never share cached results.
"""

from __future__ import annotations

import hashlib
from datetime import timedelta

import pandas as pd
import streamlit as st

from copilot_core.analysis.chip_health import MetricHealth, chip_health
from copilot_core.analysis.chip_metrics import ChipMetric, Mode, chip_metric
from copilot_core.analysis.drift import DriftFlag, drift_flags, reference_time
from copilot_core.analysis.health import HealthReport, qubit_health
from copilot_core.analysis.overview import default_chip
from copilot_core.analysis.timeseries import median_band, timeseries_frame
from copilot_core.data.connection import describe_target, open_database
from copilot_core.data.repository import CalibrationRepository
from copilot_core.data.rows import ChipRow, ChipSeriesRow, ExecutionRow, Params, SeriesPoint, TaskRow
from copilot_core.data.warmup import LONG_WAIT_DOCUMENTS, IndexWarmUp
from copilot_core.domain.metrics import Kind, metric
from copilot_core.errors import CopilotError
from copilot_core.settings import Settings, current_settings, reload_settings

TTL = timedelta(seconds=60)


def settings() -> Settings:
    """The process's settings (read once; see :func:`settings_reload_button`)."""
    return current_settings()


def settings_reload_button() -> None:
    """Sidebar button: read ``.streamlit/secrets.toml`` again after it was edited (the environment is always
    current)."""
    if st.sidebar.button("Reload settings", key="reload_settings", icon=":material/refresh:",
                         help="Read .streamlit/secrets.toml again after editing it."):
        reload_settings()
        st.cache_data.clear()
        st.rerun()


def target_key(s: Settings) -> str:
    """Cache key of a database target (hashed: the URI may hold a password)."""
    raw = "|".join([s.mongodb_uri or "", s.mongo_db_name, str(s.data_dir), s.project_id or ""])
    return hashlib.sha256(raw.encode()).hexdigest()[:16]


def target_description() -> str:
    """Where the data comes from, without secrets (host shown, password masked)."""
    return describe_target(settings())


@st.cache_resource(show_spinner=False)
def _repository(key: str, _s: Settings) -> CalibrationRepository:
    return CalibrationRepository(open_database(_s), project_id=_s.project_id)


def repository() -> CalibrationRepository:
    """The process-wide repository for the configured database (raises ``DatabaseUnavailable``)."""
    s = settings()
    return _repository(target_key(s), s)


@st.cache_resource(show_spinner=False)
def _index_warm_up(key: str, _s: Settings) -> IndexWarmUp | None:
    repo = _repository(key, _s)
    return repo.plan.index_warm_up(repo.db)


def index_warm_up() -> IndexWarmUp | None:
    """The embedded store's index build, shared by the server's start-up hook and every session (None on
    MongoDB, whose indexes live in the server)."""
    s = settings()
    return _index_warm_up(target_key(s), s)


def wait_for_store() -> None:
    """Before a page reads data: make sure the embedded store's indexes are built, showing a progress bar
    while that takes long (a server started without its start-up hook, or a large imported database)
    rather than a blank page.  Errors are left to the page, which words them."""
    try:
        warm = index_warm_up()
    except CopilotError:  # a bad setting or an unreachable database: the page's own guard words it
        return
    if warm is None or warm.finished:
        return
    long_wait = warm.pending_documents() >= LONG_WAIT_DOCUMENTS
    warm.start()
    if not long_wait:
        warm.wait()
        return
    progress = warm.progress()
    bar = st.progress(progress.fraction, text=progress.text)
    while not warm.wait(0.25):  # wakes as soon as the build ends; the timeout only refreshes the bar
        progress = warm.progress()
        bar.progress(progress.fraction, text=progress.text)
    bar.empty()


DEFAULT_DRIFT_PCT = 20  # the Overview's drift slider starts here (the start-up hook reads that view ahead)


def warm_first_page() -> None:
    """Fill the caches the default page (Overview of the first chip) reads, so the first view after a
    server start comes from memory (the server's start-up hook calls this; entries live ``TTL``)."""
    first = default_chip(chips())
    if first:
        chip_id = first["chip_id"]
        health(chip_id)
        executions(chip_id, limit=10)
        drift(chip_id, DEFAULT_DRIFT_PCT / 100)  # the key the page's slider asks for


def _key() -> str:
    return target_key(settings())


# ---- cached reads: the first argument is the target key so results never cross databases ----------
@st.cache_data(ttl=TTL, show_spinner=False)
def _chips(key: str) -> list[ChipRow]:
    return repository().list_chips()


def chips() -> list[ChipRow]:
    """Every chip, most recently installed first."""
    return _chips(_key())


def chip(chip_id: str) -> ChipRow | None:
    return next((c for c in chips() if c["chip_id"] == chip_id), None)


@st.cache_data(ttl=TTL, show_spinner=False)
def _qubit_params(key: str, chip_id: str) -> dict[str, Params]:
    return repository().all_qubit_params(chip_id)


def qubit_params(chip_id: str) -> dict[str, Params]:
    """``qubit.data`` of every qubit: {qid: {param: {...}}}."""
    return _qubit_params(_key(), chip_id)


@st.cache_data(ttl=TTL, show_spinner=False)
def _coupling_params(key: str, chip_id: str) -> dict[str, Params]:
    return repository().all_coupling_params(chip_id)


def coupling_params(chip_id: str) -> dict[str, Params]:
    return _coupling_params(_key(), chip_id)


@st.cache_data(ttl=TTL, show_spinner=False)
def _chip_metric(key: str, chip_id: str, metric_name: str, mode: Mode, within_hours: float | None,
                 kind: Kind | None) -> ChipMetric:
    return chip_metric(repository(), chip_id, metric_name, mode=mode, within_hours=within_hours, kind=kind)


def cached_chip_metric(chip_id: str, metric_name: str, *, mode: Mode = "latest", within_hours: float | None = None,
                       kind: Kind | None = None) -> ChipMetric:
    """``analysis.chip_metrics.chip_metric`` through the cache."""
    return _chip_metric(_key(), chip_id, metric_name, mode, within_hours, kind)


@st.cache_data(ttl=TTL, show_spinner=False)
def _chip_timeseries(key: str, chip_id: str, parameter: str, days: int) -> list[ChipSeriesRow]:
    """Rows of one parameter for every qubit over the ``days`` before the chip's last execution."""
    since = reference_time(chip(chip_id) or {}) - timedelta(days=days)
    return repository().chip_parameter_timeseries(chip_id, parameter, since=since)


@st.cache_data(ttl=TTL, show_spinner=False)
def _chip_timeseries_frame(key: str, chip_id: str, parameter: str, days: int,
                           size: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    frame = timeseries_frame(_chip_timeseries(key, chip_id, parameter, days), metric(parameter), size)
    return frame, median_band(frame)


def chip_timeseries_frame(chip_id: str, parameter: str, *, days: int, size: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Every qubit's values of one parameter in display units with outlier flags, and the chip's daily median
    band: the same for every person viewing that chip, so built once per cache period, not per view."""
    return _chip_timeseries_frame(_key(), chip_id, parameter, days, size)


@st.cache_data(ttl=TTL, show_spinner=False)
def _qubit_timeseries(key: str, chip_id: str, parameter: str, qid: str, last_n: int) -> list[SeriesPoint]:
    return repository().parameter_timeseries(chip_id, parameter, qid, last_n=last_n)


def qubit_timeseries(chip_id: str, parameter: str, qid: str, *, last_n: int = 30) -> list[SeriesPoint]:
    return _qubit_timeseries(_key(), chip_id, parameter, qid, last_n)


@st.cache_data(ttl=TTL, show_spinner=False)
def _task_results(key: str, chip_id: str, qid: str | None, limit: int) -> list[TaskRow]:
    return repository().task_results(chip_id, qid=qid, limit=limit)


def task_results(chip_id: str, *, qid: str | None = None, limit: int = 20) -> list[TaskRow]:
    return _task_results(_key(), chip_id, qid, limit)


@st.cache_data(ttl=TTL, show_spinner=False)
def _executions(key: str, chip_id: str, limit: int) -> list[ExecutionRow]:
    return repository().executions(chip_id, limit=limit)


def executions(chip_id: str, *, limit: int = 10) -> list[ExecutionRow]:
    return _executions(_key(), chip_id, limit)


@st.cache_data(ttl=TTL, show_spinner=False)
def _health(key: str, chip_id: str) -> list[MetricHealth]:
    c = chip(chip_id)
    return chip_health(c, qubit_params(chip_id), coupling_params(chip_id)) if c else []


def health(chip_id: str) -> list[MetricHealth]:
    """Chip health per scored metric (from the latest merged parameters)."""
    return _health(_key(), chip_id)


@st.cache_data(ttl=TTL, show_spinner=False)
def _drift(key: str, chip_id: str, threshold: float) -> list[DriftFlag]:
    c = chip(chip_id)
    return drift_flags(repository(), c, threshold=threshold) if c else []


def drift(chip_id: str, threshold: float) -> list[DriftFlag]:
    return _drift(_key(), chip_id, round(threshold, 3))


@st.cache_data(ttl=TTL, show_spinner=False)
def _qubit_health(key: str, chip_id: str, qid: str, window_days: int) -> HealthReport:
    return qubit_health(repository(), chip_id, qid, window_days=window_days)


def cached_qubit_health(chip_id: str, qid: str, *, window_days: int = 7) -> HealthReport:
    return _qubit_health(_key(), chip_id, qid, window_days)
