"""The app's handle on the worker process: a fresh interpreter started with a clean environment (no API key,
no database URI), requests written under a lock, and a reader thread that routes replies by id to the caller
waiting on each.  Nothing here forks the app process (its memory holds API keys)."""

from __future__ import annotations

import itertools
import os
import pickle
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

from copilot_core.cancel import CancelToken
from copilot_core.errors import CopilotError
from copilot_core.sandbox import protocol
from copilot_core.sandbox.fairshare import Admission
from copilot_core.sandbox.reply_checks import job_reply, known_layers, shown_text

PROJECT_ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT_S = 60.0
_BOOTSTRAP = ("import sys; sys.path.insert(0, {root!r}); "
              "from copilot_core.sandbox.zygote import main; main(spares={spares!r}, weaker={weaker!r})")
MALLOC_PERTURB = "165"


class SandboxUnavailable(CopilotError, RuntimeError):
    """The worker could not be started or stopped answering."""


class WorkerGone(SandboxUnavailable):
    """The worker had died before the request was sent (safe to retry on a fresh worker)."""


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


class WorkerHandle:
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
        self.layers_missing = [shown_text(str(note), 300)
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
                    reply = job_reply(reply, body or b"")
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
