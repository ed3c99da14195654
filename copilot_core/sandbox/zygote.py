"""The worker ("zygote"): a clean-env process that imports the analysis stack once and forks per job.

Started by ``host`` with ``env={PATH, LANG}`` and an empty working directory, so nothing a job can
reach holds an API key or database URI.  Fork-per-job means no job can change state for the next:
each gets a copy of the warmed-up interpreter.  The worker enforces the wall-clock deadline by
killing the job's process group (the job swallows in-process timeouts; SIGALRM cannot even be used
from Streamlit's threads), and relays each job's JSON reply; it never unpickles job output.
"""

from __future__ import annotations

import gc
import os
import pickle
import selectors
import signal
import sys
import time
from dataclasses import dataclass, field

from copilot_core.sandbox import audit, isolation, job, policy, protocol, warmup
from copilot_core.sandbox.proxies import build_namespaces

MEMORY_HEADROOM_MB = 1024
MAX_REQUEST_BYTES = 512 * 1024 * 1024


@dataclass
class Job:
    """A forked job the worker is waiting on."""

    id: int
    pid: int
    pidfd: int
    result_fd: int
    timeout_s: float
    deadline: float
    started: float
    chunks: list[bytes] = field(default_factory=list)
    size: int = 0
    eof: bool = False
    status: int | None = None
    overflow: bool = False
    timed_out: bool = False
    delivered: bool = False


def _child(source: str, data: dict, namespaces: dict, result_fd: int, timeout_s: float) -> None:
    """Runs in the forked process; never returns."""
    code = 1
    try:
        gc.disable()
        layers, missing = isolation.harden(result_fd, timeout_s, MEMORY_HEADROOM_MB)
        layers.insert(0, "policy:restrictedpython")
        try:
            compiled = policy.compile_analysis(source)
        except SyntaxError as exc:
            compiled = None
            reply = {"output": "", "charts": [], "error": f"SyntaxError: {exc}\nHint: {job.HINTS['SyntaxError']}"}
        if compiled is not None:
            audit.install(isolation.read_roots())
            layers.append("audit-hook")
            reply = job.run_job(compiled, source, namespaces, data)
        reply["layers"] = layers
        if missing:
            reply["layers_missing"] = missing
        payload = protocol.encode_reply(reply)
        if len(payload) > protocol.MAX_REPLY_BYTES:
            payload = protocol.encode_reply({"output": reply["output"][:job.MAX_OUTPUT_CHARS], "charts": [],
                                             "error": "The reply exceeded 8 MiB; charts were dropped. Plot "
                                                      "aggregates or fewer points.", "layers": layers})
        view = memoryview(payload)
        while view:
            view = view[os.write(isolation.RESULT_FD, view):]
        # EOF now: the worker relays the reply without waiting for this process's (COW-heavy) teardown
        os.close(isolation.RESULT_FD)
        code = 0
    except BaseException as exc:  # nothing may escape a job process; report what broke if we still can
        code = 3
        try:
            os.write(isolation.RESULT_FD, protocol.encode_reply(
                {"output": "", "charts": [], "error": f"sandbox internal error: {type(exc).__name__}: "
                                                      f"{str(exc)[:500]}", "layers": []}))
        except BaseException:
            pass
    finally:
        os._exit(code)


def _describe_exit(status: int | None, timeout_s: float) -> str:
    if status is None:
        return "The analysis job ended without a reply."
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        if sig == signal.SIGXCPU:
            return "The analysis job used too much CPU time and was stopped. Hint: vectorise, avoid huge loops."
        if sig == signal.SIGKILL:
            return ("The analysis job was killed (memory or CPU limit). Hint: aggregate before building "
                    "large arrays or loops.")
        return f"The analysis job crashed ({signal.Signals(sig).name}). Hint: avoid deep recursion and huge objects."
    return f"The analysis job exited unexpectedly (code {os.WEXITSTATUS(status)})."


class Worker:
    """Selector loop: requests on ``in_fd``, replies on ``out_fd``, one entry per running job."""

    def __init__(self, in_fd: int, out_fd: int) -> None:
        self.in_fd, self.out_fd = in_fd, out_fd
        self.namespaces = build_namespaces()
        self.selector = selectors.DefaultSelector()
        self.jobs: dict[int, Job] = {}
        self.inbuf = bytearray()
        self.layers: list[str] = []  # what the probe job reported; used when a job dies before replying

    # -------------------------------------------------------------------------------------- warm-up
    def warm_up(self) -> list[str]:
        """Run the typical jobs in-process (trusted code), then one forked probe to learn the layers."""
        data = warmup.synthetic_timeseries()
        for snippet in warmup.WARMUP_SNIPPETS:
            reply = job.compile_and_run(snippet, self.namespaces, data)
            if reply["error"]:
                raise RuntimeError(f"sandbox warm-up failed: {reply['error']}")
        gc.collect()
        gc.freeze()  # keep the warmed heap shared copy-on-write with every job
        probe = self.run_blocking("result = {'output': 'probe'}", {}, 10.0)
        if probe.get("output") != "probe":
            raise RuntimeError(f"sandbox probe job failed: {probe.get('error')}")
        self.layers = probe.get("layers", [])
        return self.layers

    def run_blocking(self, source: str, data: dict, timeout_s: float) -> dict:
        """Fork one job and wait for it (used for the probe before the loop starts)."""
        replies: list[dict] = []
        self.start_job(-1, source, data, timeout_s)
        while self.jobs:
            self.poll(replies.append)
        return replies[0]

    # ----------------------------------------------------------------------------------------- jobs
    def start_job(self, job_id: int, source: str, data: dict, timeout_s: float) -> None:
        read_fd, write_fd = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(read_fd)
            _child(source, data, self.namespaces, write_fd, timeout_s)
        os.close(write_fd)
        os.set_blocking(read_fd, False)
        now = time.monotonic()
        entry = Job(job_id, pid, os.pidfd_open(pid), read_fd, timeout_s, now + timeout_s, now)
        self.jobs[pid] = entry
        self.selector.register(read_fd, selectors.EVENT_READ, ("result", entry))
        self.selector.register(entry.pidfd, selectors.EVENT_READ, ("exit", entry))

    def _kill(self, entry: Job) -> None:
        for target in (lambda: os.killpg(entry.pid, signal.SIGKILL), lambda: os.kill(entry.pid, signal.SIGKILL)):
            try:
                target()
                return
            except ProcessLookupError:
                continue
            except PermissionError:
                continue

    def _on_result(self, entry: Job) -> None:
        try:
            chunk = os.read(entry.result_fd, 1 << 20)
        except BlockingIOError:
            return
        if not chunk:
            entry.eof = True
            self.selector.unregister(entry.result_fd)
            return
        entry.size += len(chunk)
        if entry.size > protocol.MAX_REPLY_BYTES:
            entry.overflow = True
            self._kill(entry)
            entry.eof = True
            self.selector.unregister(entry.result_fd)
            return
        entry.chunks.append(chunk)

    def _on_exit(self, entry: Job) -> None:
        self.selector.unregister(entry.pidfd)
        self._kill(entry)  # its process group, in case anything outlived it
        _, entry.status = os.waitpid(entry.pid, 0)
        if not entry.eof:  # drain whatever the job wrote before it exited
            while True:
                try:
                    chunk = os.read(entry.result_fd, 1 << 20)
                except BlockingIOError:
                    break
                if not chunk or entry.size + len(chunk) > protocol.MAX_REPLY_BYTES:
                    break
                entry.chunks.append(chunk)
                entry.size += len(chunk)
            self.selector.unregister(entry.result_fd)
            entry.eof = True

    def _cleanup(self, entry: Job) -> None:
        os.close(entry.result_fd)
        os.close(entry.pidfd)
        del self.jobs[entry.pid]

    def _reply(self, entry: Job, final: bool) -> dict | None:
        """The reply for the app; before the job has been reaped (``final=False``) only a complete JSON one."""
        reply = None
        error: str | None
        if entry.timed_out:
            error = (f"Time limit exceeded: the job ran longer than {entry.timeout_s:g} s and was stopped. "
                     "Hint: vectorise loops, aggregate first, avoid catastrophic regexes.")
        elif entry.overflow:
            error = "The job's reply exceeded 8 MiB and was discarded. Hint: return aggregates, not raw data."
        else:
            try:
                reply = protocol.decode_reply(b"".join(entry.chunks)) if entry.chunks else None
            except (ValueError, protocol.ProtocolError):
                reply = None
            error = None if reply is not None else _describe_exit(entry.status, entry.timeout_s)
        if reply is None:
            if not final:
                return None
            reply = {"output": "", "charts": [], "error": error, "layers": self.layers}
        return {"output": str(reply.get("output", ""))[: job.MAX_OUTPUT_CHARS + 200],
                "charts": reply.get("charts") if isinstance(reply.get("charts"), list) else [],
                "error": reply.get("error") if isinstance(reply.get("error"), (str, type(None))) else "bad error",
                "layers": [str(x) for x in reply.get("layers", [])] if isinstance(reply.get("layers"), list) else [],
                "layers_missing": reply.get("layers_missing", []),
                "elapsed_s": round(time.monotonic() - entry.started, 4), "id": entry.id}

    def poll(self, deliver) -> None:
        """Wait for the next event (or the nearest deadline) and handle it."""
        now = time.monotonic()
        timeout = min((j.deadline for j in self.jobs.values()), default=None)
        events = self.selector.select(None if timeout is None else max(0.0, timeout - now))
        for key, _ in events:
            kind, entry = key.data
            if kind == "request":
                self._on_request(deliver)
            elif kind == "result" and entry.pid in self.jobs:
                self._on_result(entry)
            elif kind == "exit" and entry.pid in self.jobs:
                self._on_exit(entry)
        now = time.monotonic()
        for entry in list(self.jobs.values()):
            if entry.status is None and now >= entry.deadline and not entry.timed_out:
                entry.timed_out = True
                self._kill(entry)
            if entry.eof and not entry.delivered:  # reply as soon as it is complete; reap when it exits
                reply = self._reply(entry, final=entry.status is not None)
                if reply is not None:
                    entry.delivered = True
                    deliver(reply)
            if entry.status is not None and entry.eof:
                self._cleanup(entry)

    # ------------------------------------------------------------------------------------ requests
    def _on_request(self, deliver) -> None:
        chunk = os.read(self.in_fd, 1 << 20)
        if not chunk:
            raise EOFError("app closed the request stream")
        self.inbuf += chunk
        while len(self.inbuf) >= protocol.HEADER.size:
            (size,) = protocol.HEADER.unpack_from(self.inbuf)
            if size > MAX_REQUEST_BYTES:
                raise protocol.ProtocolError("request too large")
            if len(self.inbuf) < protocol.HEADER.size + size:
                break
            payload = bytes(self.inbuf[protocol.HEADER.size: protocol.HEADER.size + size])
            del self.inbuf[: protocol.HEADER.size + size]
            request = pickle.loads(payload)  # trusted direction: built by the app
            if request.get("op") == "status":
                deliver({"id": request["id"], "pid": os.getpid(), "running": len(self.jobs)})
            else:
                try:
                    self.start_job(request["id"], request["code"], request["data"], float(request["timeout_s"]))
                except (OSError, KeyError, TypeError, ValueError) as exc:
                    deliver({"id": request.get("id"), "output": "", "charts": [], "layers": self.layers,
                             "error": f"The sandbox could not start the job: {exc}"})

    def serve(self, layers: list[str]) -> None:
        self.selector.register(self.in_fd, selectors.EVENT_READ, ("request", None))

        def deliver(reply: dict) -> None:
            protocol.write_frame(self.out_fd, protocol.encode_reply(reply))

        deliver({"id": 0, "ready": True, "pid": os.getpid(), "layers": layers})
        try:
            while True:
                self.poll(deliver)
        except (EOFError, BrokenPipeError):
            pass
        finally:
            for entry in list(self.jobs.values()):
                self._kill(entry)


def main() -> None:
    """Entry point of the worker process (stdin: requests, stdout: replies)."""
    in_fd, out_fd = os.dup(0), os.dup(1)
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)
    os.dup2(2, 1)  # stray prints from libraries go to stderr, never into the reply stream
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    worker = Worker(in_fd, out_fd)
    try:
        layers = worker.warm_up()
    except Exception as exc:  # tell the app why instead of dying silently
        protocol.write_frame(out_fd, protocol.encode_reply({"id": 0, "ready": False, "error": str(exc)[:2000]}))
        sys.exit(1)
    worker.serve(layers)
