"""App side of the sandbox: one lazily started worker per process (``worker_handle``), its settings and status,
fair shares of the job slots, and ``run_analysis``, whose result is checked again (``reply_checks``).

Safe to call from Streamlit's ScriptRunner threads and from several threads at once: each caller waits on
its own slot.  Nothing here forks the app process (its memory holds API keys); the worker is a fresh interpreter.
"""

from __future__ import annotations

import atexit
import os
import pickle
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, field

import pandas as pd

from copilot_core.cancel import CancelToken
from copilot_core.render_safety import UnsafeFigure, validate_figure
from copilot_core.sandbox import isolation, protocol
from copilot_core.sandbox.fairshare import Admission, FairShare, SandboxBusy, current_session
from copilot_core.sandbox.reply_checks import MAX_CHARTS, MAX_ERROR_CHARS, MAX_OUTPUT_CHARS, known_layers, shown_text
from copilot_core.sandbox.worker_handle import SandboxUnavailable, WorkerGone, WorkerHandle
from copilot_core.settings import current_settings

REPLY_GRACE_S = 10.0          # worker deadline + this = the app gives up on the worker
MAX_TIMEOUT_S = 120.0
MAX_CONCURRENT = max(1, os.cpu_count() or 1)
# Slots beyond the cores, so sessions that loop do not hold every slot (see fairshare); each job may use
# job_process.MEMORY_HEADROOM_MB, so the reserve is what the host's memory allows, not unbounded.
RESERVE_SLOTS = MAX_CONCURRENT + 2
QUEUE_WAIT_S = 5.0            # the longest a job waits for its session's turn and a slot
SPARES_SETTING = "COPILOT_SANDBOX_SPARES"
WEAKER_MODE_SETTING = "COPILOT_SANDBOX_WEAKER_MODE"


@dataclass(frozen=True)
class SandboxResult:
    """What a job produced: text, validated Plotly JSON figures, an error with line and hint, active layers."""

    output: str
    charts: list[dict] = field(default_factory=list)
    error: str | None = None
    layers: list[str] = field(default_factory=list)
    elapsed_s: float = 0.0
    waited_s: float = 0.0  # of elapsed_s, the wait for this session's turn and a free slot


_worker: WorkerHandle | None = None
_worker_lock = threading.Lock()
_share = FairShare(MAX_CONCURRENT, RESERVE_SLOTS)
_restarts = 0
_spares: int | None = None  # None: COPILOT_SANDBOX_SPARES, else protocol.SPARES


def _ensure_worker() -> WorkerHandle:
    global _worker, _restarts
    with _worker_lock:
        if _worker is not None and not _worker.is_running():
            _worker.close()
            _worker, _restarts = None, _restarts + 1
        if _worker is None:
            try:
                _worker = WorkerHandle(configured_spares() if _spares is None else _spares, configured_weaker_mode())
            except OSError as exc:
                raise SandboxUnavailable(f"sandbox worker could not be started: {exc}") from None
        return _worker


def warm_up() -> dict:
    """Start the worker now (e.g. at app start) instead of on the first job."""
    _ensure_worker()
    return sandbox_status()


def configured_spares() -> int:
    """COPILOT_SANDBOX_SPARES: how many hardened job processes wait ready (0 = fork each job on arrival)."""
    raw = current_settings().get(SPARES_SETTING)
    if raw is None or not raw.strip():
        return protocol.SPARES
    try:
        count = int(raw)
    except ValueError:
        count = -1
    if not 0 <= count <= protocol.MAX_SPARES:
        raise SandboxUnavailable(f"{SPARES_SETTING} must be a whole number from 0 to {protocol.MAX_SPARES}, not {raw!r}")
    return count


def configured_weaker_mode() -> tuple[str, ...]:
    """COPILOT_SANDBOX_WEAKER_MODE: the isolation layers an operator accepts a job running without, by name
    (comma-separated ``isolation.WEAKER_MODES``); empty: a job with any layer missing does not run."""
    raw = current_settings().get(WEAKER_MODE_SETTING) or ""
    modes = tuple(sorted({m.strip() for m in raw.split(",") if m.strip()}))
    unknown = [m for m in modes if m not in isolation.WEAKER_MODES]
    if unknown:
        raise SandboxUnavailable(f"{WEAKER_MODE_SETTING} names unknown modes {unknown}; the modes are "
                                 f"{', '.join(isolation.WEAKER_MODES)}")
    return modes


def use_spare(count: int | bool | None = None) -> None:
    """Spare job processes kept ready between jobs (True/None: COPILOT_SANDBOX_SPARES, False: none); restarts the worker."""
    global _spares
    shutdown()
    if count is None or count is True:
        _spares = None
    else:
        _spares = max(0, min(int(count), protocol.MAX_SPARES))


def worker_status(timeout_s: float = 10.0) -> dict:
    """Ask the running worker itself: its pid, jobs running, the waiting spares and the last jobs' process ids."""
    reply = _ensure_worker().submit({"op": "status"}, timeout_s)
    return {"pid": reply.get("pid"), "running": reply.get("running"),
            "spare_pids": list(reply.get("spare_pids") or []), "recent_job_pids": list(reply.get("recent_job_pids") or [])}


def shutdown() -> None:
    """Stop the worker (tests, process exit)."""
    global _worker
    with _worker_lock:
        if _worker is not None:
            _worker.close()
            _worker = None


atexit.register(shutdown)


def sandbox_status() -> dict:
    """For the UI/health check: is the worker alive, its pid, the isolation layers a job gets, the weaker mode an
    operator allowed (``weaker_mode``, empty when none) and what jobs run without (``layers_missing``)."""
    worker = _worker
    alive = worker is not None and worker.is_running()
    running = worker if alive else None
    return {"alive": alive, "pid": running.pid if running else None, "layers": list(running.layers) if running else [],
            "layers_missing": list(running.layers_missing) if running else [],
            "weaker_mode": list(running.weaker) if running else [],
            "max_concurrent": _share.slots, "paused_jobs": _share.paused_jobs(), "restarts": _restarts}


def weaker_mode_notice() -> str | None:
    """One line for the app when the running sandbox is weaker than it should be (None when it is not)."""
    status = sandbox_status()
    if not status["weaker_mode"]:
        return None
    missing = "; ".join(status["layers_missing"]) or "none so far"
    return (f"Sandbox running in a weaker mode an operator allowed ({', '.join(status['weaker_mode'])}); "
            f"missing layers: {missing}.")


def _as_frames(data: object) -> dict[str, pd.DataFrame]:
    """The data store as DataFrames (lists of row dicts are converted); ValueError names a bad entry."""
    if data is None:
        return {}
    if not isinstance(data, Mapping):
        raise ValueError(f"data must be a dict of DataFrames, not {type(data).__name__}")
    frames = {}
    for key, value in data.items():
        if isinstance(value, pd.DataFrame):
            frames[str(key)] = value
        elif isinstance(value, list) and all(isinstance(r, Mapping) for r in value):
            frames[str(key)] = pd.DataFrame(list(value))
        else:
            raise ValueError(f"data[{key!r}] must be a DataFrame or a list of row dicts, not {type(value).__name__}")
    return frames


def _failure(message: str, started: float, layers: list[str] | None = None) -> SandboxResult:
    return SandboxResult(output="", charts=[], error=message, layers=layers or [],
                         elapsed_s=time.perf_counter() - started)


def _exchange(request: dict[str, object], timeout: float, started: float,
              cancel: CancelToken | None, admission: Admission | None = None) -> dict | SandboxResult:
    """Send one job and wait for its reply (a failed result if the worker cannot take it)."""
    try:
        try:
            return _ensure_worker().submit(request, _reply_wait(timeout), cancel, admission)
        except WorkerGone:  # died between jobs: one fresh worker, one retry
            return _ensure_worker().submit(request, _reply_wait(timeout), cancel, admission)
    except SandboxUnavailable as exc:
        return _failure(f"The sandbox is unavailable: {exc}", started)
    except (pickle.PicklingError, TypeError, AttributeError) as exc:
        return _failure(f"Bad input: the data could not be sent to the sandbox ({exc})", started)


def _reply_wait(timeout: float) -> float:
    """How long the app waits for a job's reply: a spare's hand-over allowance (then a direct fork's whole limit)
    and the job's limit, plus the grace for a worker that is slow to answer."""
    return protocol.HANDOVER_S + 2 * timeout + REPLY_GRACE_S


def run_analysis(code: str, data: dict[str, pd.DataFrame], *, timeout_s: float = 10.0, session: str | None = None,
                 wait_s: float = QUEUE_WAIT_S, cancel: CancelToken | None = None) -> SandboxResult:
    """Run model-written analysis code in the sandbox.  Never raises for anything the code does.

    ``session``: the chat session the job counts against (default: ``fairshare.current_session()``);
    one job per session runs at a time, and a job that cannot start within ``wait_s`` comes back as
    "Sandbox busy" with the wait, without running.  ``cancel``: the user's stop kills a running job (its
    result's error says so).
    """
    started = time.perf_counter()
    if not isinstance(code, str) or not code.strip():
        return _failure("No code was given. Hint: set result = {'output': ..., 'chart': fig} or print.", started)
    try:
        frames = _as_frames(data)
        timeout = min(max(float(timeout_s), 0.5), MAX_TIMEOUT_S)
    except (TypeError, ValueError) as exc:
        return _failure(f"Bad input: {exc}", started)
    request = {"code": code, "data": frames, "timeout_s": timeout}
    try:
        with _share.admit(session or current_session(), wait_s) as admission:
            waited = admission.waited_s
            reply = _exchange(request, timeout, started, cancel, admission)
    except SandboxBusy as exc:
        return SandboxResult(output="", error=str(exc), elapsed_s=time.perf_counter() - started, waited_s=exc.waited_s)
    if isinstance(reply, SandboxResult):
        return reply
    charts, problems = [], []
    for i, chart in enumerate((reply.get("charts") or [])[:MAX_CHARTS]):
        try:
            charts.append(validate_figure(chart))
        except UnsafeFigure as exc:
            problems.append(shown_text(f"Chart {i + 1} rejected: {exc}", MAX_ERROR_CHARS))
    error = reply.get("error")
    error = shown_text(error, MAX_ERROR_CHARS) if isinstance(error, str) else None if error is None else \
        "The analysis job sent a malformed error."
    if problems:
        error = "\n".join(([error] if error else []) + problems)
    return SandboxResult(output=shown_text(reply.get("output"), MAX_OUTPUT_CHARS), charts=charts,
                         error=error, layers=known_layers(reply.get("layers")),
                         elapsed_s=time.perf_counter() - started, waited_s=waited)
