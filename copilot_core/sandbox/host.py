"""App side of the sandbox: one lazily started worker per process, a core-count semaphore, JSON replies.

Safe to call from Streamlit's ScriptRunner threads and from several threads at once: requests are
written under a lock, a reader thread routes replies by id, and each caller waits on its own slot.
Nothing here forks the app process (its memory holds API keys); the worker is a fresh interpreter.
"""

from __future__ import annotations

import atexit
import itertools
import os
import pickle
import re
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from copilot_core.cancel import CancelToken
from copilot_core.errors import CopilotError
from copilot_core.render_safety.addresses import scrub_addresses
from copilot_core.render_safety import UnsafeFigure, validate_figure
from copilot_core.sandbox import isolation, protocol
from copilot_core.sandbox.fairshare import Admission, FairShare, SandboxBusy, current_session
from copilot_core.settings import current_settings

PROJECT_ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT_S = 60.0
REPLY_GRACE_S = 10.0          # worker deadline + this = the app gives up on the worker
MAX_TIMEOUT_S = 120.0
MAX_CONCURRENT = max(1, os.cpu_count() or 1)
# Slots beyond the cores, so sessions that loop do not hold every slot (see fairshare); each job may use
# zygote.MEMORY_HEADROOM_MB, so the reserve is what the host's memory allows, not unbounded.
RESERVE_SLOTS = MAX_CONCURRENT + 2
QUEUE_WAIT_S = 5.0            # the longest a job waits for its session's turn and a slot
_BOOTSTRAP = ("import sys; sys.path.insert(0, {root!r}); "
              "from copilot_core.sandbox.zygote import main; main(spares={spares!r}, weaker={weaker!r})")
SPARES_SETTING = "COPILOT_SANDBOX_SPARES"
WEAKER_MODE_SETTING = "COPILOT_SANDBOX_WEAKER_MODE"
MALLOC_PERTURB = "165"


class SandboxUnavailable(CopilotError, RuntimeError):
    """The worker could not be started or stopped answering."""


class WorkerGone(SandboxUnavailable):
    """The worker had died before the request was sent (safe to retry on a fresh worker)."""


@dataclass(frozen=True)
class SandboxResult:
    """What a job produced: text, validated Plotly JSON figures, an error with line and hint, active layers."""

    output: str
    charts: list[dict] = field(default_factory=list)
    error: str | None = None
    layers: list[str] = field(default_factory=list)
    elapsed_s: float = 0.0
    waited_s: float = 0.0  # of elapsed_s, the wait for this session's turn and a free slot


class _Pending:
    __slots__ = ("event", "reply")

    def __init__(self) -> None:
        self.event = threading.Event()
        self.reply: dict | None = None


def clean_environment() -> dict[str, str]:
    """The worker's whole environment: no API keys, no database URI, single-threaded BLAS, perturbed frees."""
    return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": os.environ.get("LANG", "C.UTF-8"),
            "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
            # freed heap memory is overwritten, so memory a job gets uninitialised never holds earlier bytes
            "MALLOC_PERTURB_": MALLOC_PERTURB}


MAX_OUTPUT_CHARS = protocol.MAX_OUTPUT_CHARS + 200  # the job's cap plus its truncation note
MAX_ERROR_CHARS = 4_000  # a job's error text as the app shows it
MAX_CHARTS = 8  # charts the app takes from one job (the job's own cap; a forged reply may claim more)
_LAYER_NAME = re.compile(r"policy:restrictedpython|fork|setsid|rlimits|netns|uid:nobody|unprivileged|audit-hook"
                         r"|landlock:abi[1-9][0-9]?")


def known_layers(claimed: object) -> list[str]:
    """The isolation layer names in ``claimed`` that this code base applies; anything else is dropped."""
    if not isinstance(claimed, list):
        return []
    return [x for x in claimed[:16] if isinstance(x, str) and _LAYER_NAME.fullmatch(x)]


def _shown_text(value: object, limit: int) -> str:
    """Job text as the app shows it: a string, clipped, valid UTF-8, every link and memory address removed (again)."""
    text = value if isinstance(value, str) else ""
    if len(text) > limit:
        text = text[:limit] + f"\n... [truncated at {limit:,} of {len(text):,} characters]"
    return scrub_addresses(protocol.strip_links(text)[0])


def _job_reply(meta: dict[str, object], body: bytes) -> dict[str, object]:
    """A job's reply as the app uses it: every field of its JSON checked as hostile whatever the worker or job
    claims (sizes, links, layer names, chart count), the worker's header for the rest."""
    try:
        job = protocol.decode_reply(body)
    except (ValueError, protocol.ProtocolError):
        return {**meta, "output": "", "charts": [], "error": "The analysis job's reply was not valid JSON."}
    error = job.get("error")
    sent_charts, sent_notes = job.get("charts"), job.get("layers_missing")
    charts: list[object] = sent_charts[:MAX_CHARTS] if isinstance(sent_charts, list) else []
    notes: list[object] = sent_notes[:8] if isinstance(sent_notes, list) else []
    worker_layers = known_layers(meta.get("layers"))
    claimed = known_layers(job.get("layers"))
    return {**meta, "output": _shown_text(job.get("output"), MAX_OUTPUT_CHARS),
            "charts": protocol.valid_json(charts),  # lone surrogates would break every encoder after this point
            "error": None if error is None else _shown_text(error, MAX_ERROR_CHARS) if isinstance(error, str)
            else "The analysis job sent a malformed error.",
            # a job can only show fewer layers than the worker's probe found, never made-up or extra ones
            "layers": [x for x in claimed if x in worker_layers] if "layers" in job else worker_layers,
            "layers_missing": [_shown_text(x, 300) for x in notes]}


class _WorkerHandle:
    """A running worker process and the thread that reads its replies."""

    def __init__(self, spares: int, weaker: tuple[str, ...] = ()) -> None:
        self.workdir = tempfile.TemporaryDirectory(prefix="sandbox-cwd-")
        self.weaker = weaker
        bootstrap = _BOOTSTRAP.format(root=str(PROJECT_ROOT), spares=int(spares), weaker=tuple(map(str, weaker)))
        self.proc = subprocess.Popen(
            [sys.executable, "-I", "-c", bootstrap],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            cwd=self.workdir.name, env=clean_environment(), close_fds=True)
        self.pending: dict[int, _Pending] = {0: _Pending()}
        self.ids = itertools.count(1)
        self.write_lock = threading.Lock()
        self.alive = True
        self.stderr_tail = b""
        self.layers: list[str] = []
        threading.Thread(target=self._read_replies, name="sandbox-replies", daemon=True).start()
        threading.Thread(target=self._drain_stderr, name="sandbox-stderr", daemon=True).start()
        ready = self.pending[0]
        if not ready.event.wait(START_TIMEOUT_S) or not (ready.reply or {}).get("ready"):
            detail = (ready.reply or {}).get("error") or self.stderr_tail.decode("utf-8", "replace")[-800:]
            self.close()
            raise SandboxUnavailable(f"sandbox worker did not start: {detail or 'no reply'}")
        self.layers = known_layers((ready.reply or {}).get("layers"))
        self.layers_missing = [_shown_text(str(note), 300)
                               for note in list((ready.reply or {}).get("layers_missing") or [])[:8]]

    @property
    def pid(self) -> int:
        return self.proc.pid

    def _drain_stderr(self) -> None:
        assert self.proc.stderr is not None  # started with stderr=PIPE
        for line in self.proc.stderr:  # keep the tail for start-up errors; never parsed
            self.stderr_tail = (self.stderr_tail + line)[-4096:]

    def _read_replies(self) -> None:
        assert self.proc.stdout is not None  # started with stdout=PIPE
        fd = self.proc.stdout.fileno()
        try:
            while True:
                payload = protocol.read_frame(fd, protocol.MAX_FRAME_BYTES)
                if payload is None:
                    break
                reply = protocol.decode_reply(payload)
                size = reply.pop("reply", None)
                if isinstance(size, int) and size > 0:  # the job's own JSON follows, relayed unparsed by the worker
                    body = protocol.read_frame(fd, protocol.MAX_FRAME_BYTES)
                    reply = _job_reply(reply, body or b"")
                reply_id = reply.get("id")
                slot = self.pending.pop(reply_id, None) if isinstance(reply_id, int) else None
                if slot is not None:
                    slot.reply = reply
                    slot.event.set()
        except (OSError, ValueError, protocol.ProtocolError):
            pass
        finally:
            self.alive = False
            for slot in list(self.pending.values()):
                slot.event.set()
            self.pending.clear()

    def cancel_job(self, job_id: int) -> None:
        """Ask the worker to kill a running job (its reply then says it was stopped); no reply of its own."""
        self.control_job("cancel", job_id)

    def control_job(self, op: str, job_id: int) -> None:
        """``cancel``, ``pause`` or ``resume`` a running job (no reply of its own); a gone worker is left alone."""
        try:
            with self.write_lock:
                assert self.proc.stdin is not None  # started with stdin=PIPE
                protocol.write_request(self.proc.stdin.fileno(), {"op": op, "target": job_id, "id": next(self.ids)})
        except OSError:
            self.alive = False

    def submit(self, request: dict[str, object], wait_s: float, cancel: CancelToken | None = None,
               admission: Admission | None = None) -> dict:
        """Send a request and wait for its reply; SandboxUnavailable if the worker dies or hangs.  ``cancel``: the
        user's stop kills the job, whose reply then comes at once.  ``admission``: told how to pause the job."""
        slot = _Pending()
        job_id = next(self.ids)
        self.pending[job_id] = slot
        header = {"id": job_id, **{k: v for k, v in request.items() if k in ("op", "timeout_s")}}
        body = pickle.dumps(request, protocol=pickle.HIGHEST_PROTOCOL) if "code" in request else b""
        try:
            with self.write_lock:
                assert self.proc.stdin is not None  # started with stdin=PIPE
                protocol.write_request(self.proc.stdin.fileno(), header, body)
        except OSError as exc:
            self.pending.pop(job_id, None)
            self.alive = False
            raise WorkerGone(f"sandbox worker is gone: {exc}") from None
        if not self.alive and slot.reply is None:  # died while we were writing
            self.pending.pop(job_id, None)
            raise WorkerGone("sandbox worker is gone")
        if admission is not None:
            admission.running(lambda: self.control_job("pause", job_id), lambda: self.control_job("resume", job_id))
        if cancel is not None:
            with cancel.hook(lambda: self.cancel_job(job_id)):
                answered = slot.event.wait(wait_s)
        else:
            answered = slot.event.wait(wait_s)
        if not answered:
            self.pending.pop(job_id, None)
            self.close()
            raise SandboxUnavailable("sandbox worker stopped answering; it will be restarted")
        if slot.reply is None:
            raise SandboxUnavailable("sandbox worker died during the job; it will be restarted")
        return slot.reply

    def is_running(self) -> bool:
        return self.alive and self.proc.poll() is None

    def close(self) -> None:
        self.alive = False
        if self.proc.poll() is None:
            self.proc.kill()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if stream is None:
                continue
            try:
                stream.close()
            except OSError:
                pass
        self.workdir.cleanup()


_worker: _WorkerHandle | None = None
_worker_lock = threading.Lock()
_share = FairShare(MAX_CONCURRENT, RESERVE_SLOTS)
_restarts = 0
_spares: int | None = None  # None: COPILOT_SANDBOX_SPARES, else protocol.SPARES


def _ensure_worker() -> _WorkerHandle:
    global _worker, _restarts
    with _worker_lock:
        if _worker is not None and not _worker.is_running():
            _worker.close()
            _worker, _restarts = None, _restarts + 1
        if _worker is None:
            try:
                _worker = _WorkerHandle(configured_spares() if _spares is None else _spares, configured_weaker_mode())
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
            return _ensure_worker().submit(request, timeout + REPLY_GRACE_S, cancel, admission)
        except WorkerGone:  # died between jobs: one fresh worker, one retry
            return _ensure_worker().submit(request, timeout + REPLY_GRACE_S, cancel, admission)
    except SandboxUnavailable as exc:
        return _failure(f"The sandbox is unavailable: {exc}", started)
    except (pickle.PicklingError, TypeError, AttributeError) as exc:
        return _failure(f"Bad input: the data could not be sent to the sandbox ({exc})", started)


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
            problems.append(_shown_text(f"Chart {i + 1} rejected: {exc}", MAX_ERROR_CHARS))
    error = reply.get("error")
    error = _shown_text(error, MAX_ERROR_CHARS) if isinstance(error, str) else None if error is None else \
        "The analysis job sent a malformed error."
    if problems:
        error = "\n".join(([error] if error else []) + problems)
    return SandboxResult(output=_shown_text(reply.get("output"), MAX_OUTPUT_CHARS), charts=charts,
                         error=error, layers=known_layers(reply.get("layers")),
                         elapsed_s=time.perf_counter() - started, waited_s=waited)
