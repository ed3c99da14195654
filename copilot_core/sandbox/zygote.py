"""The worker ("zygote"): a clean-env process that imports the analysis stack once and forks per job.

Started by ``host`` with ``env={PATH, LANG}`` and an empty working directory, so nothing a job can
reach holds an API key or database URI.  Fork-per-job means no job can change state for the next:
each gets a copy of the warmed-up interpreter.  To take the fork and the OS hardening off a job's
wait, the worker keeps *spares* ready: job processes forked and hardened ahead of time, each of which
serves exactly one request; a replacement is forked as soon as a spare takes its job, so it gets
ready while that job runs instead of between its reply and the next request.  The worker enforces
the wall-clock deadline by killing the job's process group (the job swallows in-process timeouts;
SIGALRM cannot even be used from Streamlit's threads), and relays each job's JSON reply; it never
unpickles job output.
"""

from __future__ import annotations

import collections
import gc
import os
import pickle
import selectors
import signal
import sys
import time
from dataclasses import dataclass, field

from copilot_core.sandbox import audit, isolation, job, policy, prefault, protocol, tznames, warmup
from copilot_core.sandbox.proxies import build_namespaces

MEMORY_HEADROOM_MB = 1024
MAX_REQUEST_BYTES = 512 * 1024 * 1024
MAX_SPARE_REQUEST_BYTES = 64 * 1024 * 1024  # larger data is loaded before a direct fork (limits count it alike)
SPARE_IDLE_BEFORE_WARMUP_S = 0.25  # without prefaulting, a spare handed a job sooner skips its warm-up job
SPARE_SEND_TIMEOUT_S = 2.0  # a spare that does not take its request by then is replaced by a direct fork
MAX_SPARE_FAILURES = 5
SPARE_NICE = 10  # a spare gets ready at low priority; the worker restores normal priority when it hands over a job
LONG_JOB_S = 1.0  # a job running this long yields the CPU to newer jobs (fair share with looping sessions)
LONG_JOB_NICE = 10
# A spare's reply pipe carries its state before the reply: WARMING and WARM around its warm-up
# (prefaulting, or an idle warm-up job), then TOOK_JOB once it has read its request.
SPARE_WARMING, SPARE_WARM, SPARE_TOOK_JOB = b"W", b"R", b"+"


def _reply_buffer() -> protocol.OffHeap:
    """Where a job's reply is collected: off the worker's heap and never inherited by a later fork."""
    buffer = protocol.OffHeap(protocol.MAX_REPLY_BYTES + 1)
    buffer.hide_from_forks()
    return buffer


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
    out: protocol.OffHeap = field(default_factory=lambda: _reply_buffer())
    eof: bool = False
    status: int | None = None
    overflow: bool = False
    timed_out: bool = False
    delivered: bool = False
    request: protocol.OffHeap | None = None  # kept (hidden from forks) until a spare confirms it took the job
    acked: bool = True
    cancelled: bool = False  # the user stopped the turn: killed, and the reply says so
    yielded: bool = False  # runs at LONG_JOB_NICE: it has had LONG_JOB_S of wall time


def _child(body: protocol.OffHeap, namespaces: dict, result_fd: int) -> None:
    """A directly forked job process: it, not the worker, unpickles its request; never returns."""
    try:
        gc.disable()
        hardening = isolation.prepare(result_fd)
        request = body.loads()  # trusted direction: built by the app, relayed unread by the worker
        body.close()
        source, data, timeout_s = request["code"], request["data"], float(request["timeout_s"])
    except BaseException:
        os._exit(3)
    _run(source, data, namespaces, hardening, timeout_s)


def _spare(request_fd: int, result_fd: int, namespaces: dict, hot_pages: prefault.Runs) -> None:
    """A pre-forked job process: every layer but the job-sized limits first, then exactly one request; never returns.

    Forked from the worker (never from an earlier job) and hardened before it waits, it holds nothing
    a job process would not.  It then copies the worker pages a typical job writes (``hot_pages``)
    so those copy-on-write faults happen now instead of inside the user's job; where the kernel
    cannot prefault, it runs a trusted figure job on synthetic data once it has been idle a while.
    The worker lowers its priority meanwhile (see ``fork_spare``) so it does not slow a running job.
    """
    try:
        gc.disable()
        hardening = isolation.prepare(result_fd, request_fd)
        if hot_pages:
            os.write(isolation.RESULT_FD, SPARE_WARMING)
            prefault.populate(hot_pages)
            os.write(isolation.RESULT_FD, SPARE_WARM)
        elif not _readable(isolation.REQUEST_FD, SPARE_IDLE_BEFORE_WARMUP_S):
            os.write(isolation.RESULT_FD, SPARE_WARMING)
            job.compile_and_run(warmup.SPARE_SNIPPET, namespaces, warmup.spare_data())
            os.write(isolation.RESULT_FD, SPARE_WARM)
        payload = protocol.read_frame(isolation.REQUEST_FD, MAX_REQUEST_BYTES)
        if payload is None:  # the worker is shutting down or replaced this spare
            os._exit(0)
        request = pickle.loads(payload)  # trusted direction: built by the app, relayed by the worker
        del payload
        os.close(isolation.REQUEST_FD)
        os.write(isolation.RESULT_FD, SPARE_TOOK_JOB)
        source, data, timeout_s = request["code"], request["data"], float(request["timeout_s"])
    except BaseException:
        os._exit(4)
    _run(source, data, namespaces, hardening, timeout_s)


def _readable(fd: int, timeout_s: float) -> bool:
    with selectors.DefaultSelector() as sel:
        sel.register(fd, selectors.EVENT_READ)
        return bool(sel.select(timeout_s))


_ALLOWED_MISSING: list[frozenset[str]] = [frozenset()]  # layers the operator's weaker mode gives up (set by main)


def _run(source: str, data: dict, namespaces: dict, hardening: isolation.Hardening, timeout_s: float) -> None:
    """Limits, policy compile, audit hook, the job, one JSON reply on the result pipe; never returns.
    A job whose process lacks a layer the operator did not give up by name does not run."""
    code = 1
    try:
        layers, missing = isolation.limit(hardening, timeout_s, MEMORY_HEADROOM_MB)
        layers.insert(0, "policy:restrictedpython")
        _seed_random()
        refused = isolation.refusal(missing, _ALLOWED_MISSING[0])
        compiled = None
        if refused:
            reply = {"output": "", "charts": [], "error": refused}
        else:
            try:
                compiled = policy.compile_analysis(source)
            except SyntaxError as exc:
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


def _seed_random() -> None:
    """Fresh random state per job: every job forks from one warmed interpreter, so without this every job in
    every session would draw the same ``np.random`` values."""
    import numpy as np

    np.random.seed(int.from_bytes(os.urandom(4), "little"))


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


@dataclass
class Spare:
    """A pre-forked, hardened job process waiting for its one request."""

    pid: int
    pidfd: int
    request_fd: int
    result_fd: int
    state: bytes = b""  # what it has reported so far: SPARE_WARMING, then SPARE_WARM


def _send(fd: int, body: protocol.OffHeap, timeout_s: float) -> bool:
    """Write the request body as one frame to a spare; False if it is gone or does not read it within ``timeout_s``."""
    os.set_blocking(fd, False)
    header = protocol.HEADER.pack(body.size)
    sent, total = 0, len(header) + body.size
    deadline = time.monotonic() + timeout_s
    with selectors.DefaultSelector() as sel:
        sel.register(fd, selectors.EVENT_WRITE)
        while sent < total:
            try:
                if sent < len(header):
                    sent += os.write(fd, header[sent:])
                else:
                    sent += body.write_to(fd, sent - len(header))
            except BlockingIOError:
                left = deadline - time.monotonic()
                if left <= 0 or not sel.select(left):
                    return False
            except OSError:
                return False
    return True


class Worker:
    """Selector loop: requests on ``in_fd``, replies on ``out_fd``, one entry per running job."""

    def __init__(self, in_fd: int, out_fd: int, spares: int = protocol.SPARES) -> None:
        self.in_fd, self.out_fd = in_fd, out_fd
        self.namespaces = build_namespaces()
        self.selector = selectors.DefaultSelector()
        self.jobs: dict[int, Job] = {}
        self.head = bytearray()  # the request header being read (ids and sizes only, never data)
        self.incoming: tuple[dict, protocol.OffHeap] | None = None  # a request whose body is being read
        self.layers: list[str] = []  # what the probe job reported; used when a job dies before replying
        self.layers_missing: list[str] = []  # what it ran without (only layers the operator gave up by name)
        self.spare_count = max(0, min(int(spares), protocol.MAX_SPARES))
        self.spares: list[Spare] = []  # oldest first: the next job takes the one that had longest to get ready
        self.hot_pages: prefault.Runs = []  # what a typical job writes of the worker's memory (see prefault)
        self.spare_nice = SPARE_NICE if os.geteuid() == 0 else 0  # only root may raise a priority back
        self.spare_failures = 0  # spares that died unused in a row; spares stop after MAX_SPARE_FAILURES
        self.recent_job_pids: collections.deque[int] = collections.deque(maxlen=8)  # for the status op

    # -------------------------------------------------------------------------------------- warm-up
    def warm_up(self) -> list[str]:
        """Run the typical jobs in-process (trusted code), then one forked probe to learn the layers."""
        data = warmup.synthetic_timeseries()
        warmup.warm_lazy_imports()
        tznames.guard_lookups()
        for snippet in warmup.WARMUP_SNIPPETS:
            reply = job.compile_and_run(snippet, self.namespaces, data)
            if reply["error"]:
                raise RuntimeError(f"sandbox warm-up failed: {reply['error']}")
        gc.collect()
        gc.freeze()  # keep the warmed heap shared copy-on-write with every job
        if self.spare_count:
            self.hot_pages = prefault.learn(self._probe_typical_job)
        probe = self.run_blocking("result = {'output': 'probe'}", {}, 10.0)
        if probe.get("output") != "probe":
            raise RuntimeError(f"sandbox probe job failed: {probe.get('error')}")
        self.layers = probe.get("layers", [])
        self.layers_missing = list(probe.get("layers_missing", []))
        return self.layers

    def _probe_typical_job(self) -> None:
        """What a spare's job does after its request arrives, on synthetic data (trusted; in a throwaway child)."""
        gc.disable()
        source = warmup.SPARE_SNIPPET
        reply = job.run_job(policy.compile_analysis(source), source, self.namespaces, warmup.spare_data())
        protocol.encode_reply(reply)

    def run_blocking(self, source: str, data: dict, timeout_s: float) -> dict:
        """Fork one job and wait for it (used for the probe before the loop starts)."""
        replies: list[dict] = []

        def keep(meta: dict, body: protocol.OffHeap | None = None) -> None:
            replies.append({**meta, **(body.json() if body is not None else {})})

        payload = pickle.dumps({"code": source, "data": data, "timeout_s": timeout_s})
        body = protocol.OffHeap(len(payload))
        assert body.map is not None
        body.map[:len(payload)] = payload
        body.filled = len(payload)
        self.start_job(-1, timeout_s, body, spare_ok=False)
        while self.jobs:
            self.poll(keep)
        return replies[0]

    # ----------------------------------------------------------------------------------------- jobs
    def start_job(self, job_id: int, timeout_s: float, body: protocol.OffHeap, spare_ok: bool = True) -> None:
        """Hand the request body to a spare when there is one, else fork a job that reads it; the worker never does.

        A body handed to a spare stays mapped (hidden from every later fork) until the spare confirms it
        took the job, so a spare that dies first can be replaced by a direct fork; otherwise it is
        unmapped as soon as the job has it.
        """
        spare = self._take_spare() if spare_ok and body.size <= MAX_SPARE_REQUEST_BYTES else None
        if spare is not None:
            body.hide_from_forks()
            if self.spare_nice:
                try:
                    os.setpriority(os.PRIO_PROCESS, spare.pid, 0)
                except OSError:
                    pass
            if not _send(spare.request_fd, body, SPARE_SEND_TIMEOUT_S):
                self._discard_spare(spare)
                spare = None
            else:
                os.close(spare.request_fd)
        now = time.monotonic()
        if spare is not None:
            entry = Job(job_id, spare.pid, spare.pidfd, spare.result_fd, timeout_s, now + timeout_s, now,
                        request=body, acked=False)
        else:
            read_fd, write_fd = os.pipe()
            body.hide_from_forks(False)
            try:
                pid = os.fork()
                if pid == 0:
                    os.close(read_fd)
                    _child(body, self.namespaces, write_fd)
            finally:
                body.close()
            os.close(write_fd)
            entry = Job(job_id, pid, os.pidfd_open(pid), read_fd, timeout_s, now + timeout_s, now)
        os.set_blocking(entry.result_fd, False)
        self.recent_job_pids.append(entry.pid)
        self.jobs[entry.pid] = entry
        self.selector.register(entry.result_fd, selectors.EVENT_READ, ("result", entry))
        self.selector.register(entry.pidfd, selectors.EVENT_READ, ("exit", entry))
        if spare is not None:
            self.fork_spare()  # the replacement gets ready while this job runs, not after its reply

    # -------------------------------------------------------------------------------- spare process
    def fork_spare(self) -> None:
        """Fork one more job process ahead of time (see ``_spare``), up to ``spare_count`` waiting."""
        if len(self.spares) >= self.spare_count or self.spare_failures >= MAX_SPARE_FAILURES:
            return
        req_r, req_w = os.pipe()
        res_r, res_w = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(req_w)
            os.close(res_r)
            _spare(req_r, res_w, self.namespaces, self.hot_pages)
        os.close(req_r)
        os.close(res_w)
        if self.spare_nice:
            try:
                os.setpriority(os.PRIO_PROCESS, pid, self.spare_nice)
            except OSError:
                pass
        spare = Spare(pid, os.pidfd_open(pid), req_w, res_r)
        self.spares.append(spare)
        self.selector.register(spare.pidfd, selectors.EVENT_READ, ("spare-exit", spare))

    def _take_spare(self) -> Spare | None:
        """The oldest live spare that is not in its warm-up, else the oldest warming one (None: fork directly).

        A warming spare finishes its warm-up (prefaulting, or a short trusted job) before it reads the
        request, so it is only the last choice before forking.
        """
        for spare in list(self.spares):
            try:
                done, _ = os.waitpid(spare.pid, os.WNOHANG)
            except ChildProcessError:
                done = spare.pid
            if done:
                self.spares.remove(spare)
                self.selector.unregister(spare.pidfd)
                self._discard_spare(spare, reaped=True)
                continue
            os.set_blocking(spare.result_fd, False)
            try:
                spare.state += os.read(spare.result_fd, 16)
            except BlockingIOError:
                pass
        idle = [spare for spare in self.spares if not spare.state.endswith(SPARE_WARMING)]
        candidates = idle or self.spares
        if not candidates:
            return None
        chosen = candidates[0]
        self.spares.remove(chosen)
        self.selector.unregister(chosen.pidfd)
        return chosen

    def _on_spare_exit(self, spare: Spare) -> None:
        """A spare died before it was used (killed, crashed): reap it and prepare another."""
        if spare not in self.spares:
            return
        self.spares.remove(spare)
        self.selector.unregister(spare.pidfd)
        self._discard_spare(spare)
        self.spare_failures += 1
        self.fork_spare()

    def _discard_spare(self, spare: Spare, reaped: bool = False) -> None:
        for fd in (spare.request_fd, spare.result_fd, spare.pidfd):
            try:
                os.close(fd)
            except OSError:
                pass
        if not reaped:
            try:
                os.kill(spare.pid, signal.SIGKILL)
                os.waitpid(spare.pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass

    def _kill(self, entry: Job) -> None:
        for target in (lambda: os.killpg(entry.pid, signal.SIGKILL), lambda: os.kill(entry.pid, signal.SIGKILL)):
            try:
                target()
                return
            except ProcessLookupError:
                continue
            except PermissionError:
                continue

    def cancel_job(self, job_id: object) -> None:
        """Kill the running job the app asked about (a job that already replied is left alone)."""
        for entry in self.jobs.values():
            if entry.id == job_id and entry.status is None and not entry.delivered:
                entry.cancelled = True
                if entry.request is not None:  # never retried on a fresh fork
                    entry.request.close()
                    entry.request = None
                self._kill(entry)

    def pause_job(self, job_id: object, pause: bool) -> None:
        """Stop (``SIGSTOP``) or continue a running job the app lent its slot from (``fairshare``); its deadline
        keeps running, and a paused job can still be cancelled or killed at its deadline."""
        for entry in self.jobs.values():
            if entry.id == job_id and entry.status is None and not entry.delivered:
                for target in (os.killpg, os.kill):
                    try:
                        target(entry.pid, signal.SIGSTOP if pause else signal.SIGCONT)
                        break
                    except (ProcessLookupError, PermissionError):
                        continue

    def _on_result(self, entry: Job) -> bool:
        """Read what the job wrote next into its off-heap reply buffer; False when nothing was there."""
        try:
            if not entry.acked:  # a spare's state bytes, one at a time, until it says it took the job
                chunk = os.read(entry.result_fd, 1)
                if chunk:
                    self._ack(entry, chunk)
                count = len(chunk)
            else:
                count = entry.out.read_from(entry.result_fd)
        except BlockingIOError:
            return False
        if not count:
            entry.eof = True
            self.selector.unregister(entry.result_fd)
            return False
        if entry.out.filled > protocol.MAX_REPLY_BYTES:
            entry.overflow = True
            self._kill(entry)
            entry.eof = True
            self.selector.unregister(entry.result_fd)
            return False
        return True

    def _ack(self, entry: Job, byte: bytes) -> None:
        """A spare's job stream starts with SPARE_TOOK_JOB (after any warm-up state); until then it may be retried."""
        if byte in (SPARE_WARMING, SPARE_WARM):
            return
        entry.acked = True
        if entry.request is not None:
            entry.request.close()
            entry.request = None
        if byte == SPARE_TOOK_JOB:
            self.spare_failures = 0
        else:
            entry.out.put(byte)

    def _on_exit(self, entry: Job) -> None:
        self.selector.unregister(entry.pidfd)
        self._kill(entry)  # its process group, in case anything outlived it
        _, entry.status = os.waitpid(entry.pid, 0)
        while not entry.eof and self._on_result(entry):  # drain whatever the job wrote before it exited
            pass
        if not entry.eof:
            self.selector.unregister(entry.result_fd)
            entry.eof = True

    def _cleanup(self, entry: Job) -> None:
        if entry.request is not None:
            entry.request.close()
            entry.request = None
        entry.out.close()
        os.close(entry.result_fd)
        os.close(entry.pidfd)
        del self.jobs[entry.pid]

    def _reply(self, entry: Job, final: bool) -> dict | None:
        """The reply header for the app; before the job has been reaped (``final=False``) only with a whole reply.

        The job's JSON itself is relayed unparsed (``deliver`` sends ``entry.out`` after this header);
        the app decodes and checks it.  A header with ``error`` and no ``reply`` stands for the job.
        """
        meta: dict = {"id": entry.id, "elapsed_s": round(time.monotonic() - entry.started, 4), "layers": self.layers}
        if entry.cancelled:
            if not final:  # said once the job is reaped: a stopped job is gone when the app hears of it
                return None
            meta["error"] = "Stopped by the user: the analysis job was killed."
        elif entry.timed_out:
            meta["error"] = (f"Time limit exceeded: the job ran longer than {entry.timeout_s:g} s and was stopped. "
                             "Hint: vectorise loops, aggregate first, avoid catastrophic regexes.")
        elif entry.overflow:
            meta["error"] = "The job's reply exceeded 8 MiB and was discarded. Hint: return aggregates, not raw data."
        elif entry.out.framed():
            meta["reply"] = entry.out.filled
        elif not final:
            return None
        else:
            meta["error"] = _describe_exit(entry.status, entry.timeout_s)
        return meta

    def poll(self, deliver) -> None:
        """Wait for the next event (or the nearest deadline) and handle it."""
        now = time.monotonic()
        timeout = min([j.deadline for j in self.jobs.values()]
                      + [j.started + LONG_JOB_S for j in self.jobs.values() if not j.yielded], default=None)
        events = self.selector.select(None if timeout is None else max(0.0, timeout - now))
        for key, _ in events:
            kind, entry = key.data
            if kind == "request":
                self._on_request(deliver)
            elif kind == "result" and entry.pid in self.jobs:
                self._on_result(entry)
            elif kind == "exit" and entry.pid in self.jobs:
                self._on_exit(entry)
            elif kind == "spare-exit":
                self._on_spare_exit(entry)
        now = time.monotonic()
        for entry in list(self.jobs.values()):
            if entry.status is not None and entry.eof and entry.request is not None and not entry.timed_out:
                # the spare died before it read the request: the job never started, run it on a direct fork
                body, entry.request = entry.request, None
                self._cleanup(entry)
                self.spare_failures += 1
                self.start_job(entry.id, entry.timeout_s, body, spare_ok=False)
                continue
            if entry.status is None and now >= entry.deadline and not entry.timed_out:
                entry.timed_out = True
                self._kill(entry)
            if entry.status is None and not entry.yielded and now >= entry.started + LONG_JOB_S:
                entry.yielded = True
                try:  # lower only: any process may do that to its own children
                    os.setpriority(os.PRIO_PROCESS, entry.pid, LONG_JOB_NICE)
                except OSError:
                    pass
            if entry.eof and not entry.delivered:  # reply as soon as it is complete; reap when it exits
                reply = self._reply(entry, final=entry.status is not None)
                if reply is not None:
                    entry.delivered = True
                    deliver(reply, entry.out if "reply" in reply else None)
                    entry.out.drop()  # sent: a job still exiting must not keep its reply in the worker's memory
                    self.fork_spare()  # tops up after a direct fork or a spare that failed
            if entry.status is not None and entry.eof:
                self._cleanup(entry)

    # ------------------------------------------------------------------------------------ requests
    def _on_request(self, deliver) -> None:
        """Read a little more of the current request: its header (a few bytes at a time), then its body.

        The body goes straight from the pipe into its own mapping (``protocol.OffHeap``); the
        worker never unpickles it, so a request's data never lands in the heap later jobs fork from.
        """
        if self.incoming is not None:
            header, body = self.incoming
            if not body.read_from(self.in_fd):
                raise EOFError("app closed the request stream inside a request")
            if body.complete:
                self.incoming = None
                self._dispatch(header, body, deliver)
            return
        have = len(self.head)
        size = protocol.HEADER.unpack_from(self.head)[0] if have >= protocol.HEADER.size else 0
        if size > protocol.MAX_HEADER_BYTES:
            raise protocol.ProtocolError("request header too large")
        need = protocol.HEADER.size - have if have < protocol.HEADER.size else protocol.HEADER.size + size - have
        chunk = os.read(self.in_fd, need)
        if not chunk:
            raise EOFError("app closed the request stream")
        self.head += chunk
        if len(self.head) < protocol.HEADER.size:
            return
        size = protocol.HEADER.unpack_from(self.head)[0]
        if size > protocol.MAX_HEADER_BYTES:
            raise protocol.ProtocolError("request header too large")
        if len(self.head) < protocol.HEADER.size + size:
            return
        header = protocol.decode_header(bytes(self.head[protocol.HEADER.size:]), MAX_REQUEST_BYTES)
        self.head.clear()
        if header["body"]:
            body = protocol.OffHeap(header["body"])
            body.hide_from_forks()  # a spare forked while it is being read must not inherit it
            self.incoming = (header, body)
        else:
            self._dispatch(header, None, deliver)

    def _dispatch(self, header: dict, body: protocol.OffHeap | None, deliver) -> None:
        if header.get("op") == "cancel":
            self.cancel_job(header.get("target"))
            return
        if header.get("op") in ("pause", "resume"):
            self.pause_job(header.get("target"), header.get("op") == "pause")
            return
        if header.get("op") == "status":
            deliver({"id": header.get("id"), "pid": os.getpid(), "running": len(self.jobs),
                     "spare_pids": [spare.pid for spare in self.spares],
                     "recent_job_pids": list(self.recent_job_pids)})
            return
        try:
            if body is None:
                raise ValueError("the request has no code")
            self.start_job(int(header["id"]), float(header["timeout_s"]), body)
        except (OSError, KeyError, TypeError, ValueError) as exc:
            if body is not None:
                body.close()
            deliver({"id": header.get("id"), "output": "", "charts": [], "layers": self.layers,
                     "error": f"The sandbox could not start the job: {exc}"})

    def serve(self, layers: list[str]) -> None:
        self.selector.register(self.in_fd, selectors.EVENT_READ, ("request", None))

        def deliver(reply: dict, body: protocol.OffHeap | None = None) -> None:
            protocol.write_frame(self.out_fd, protocol.encode_reply(reply))
            if body is not None:
                body.write_all(self.out_fd)

        for _ in range(self.spare_count):
            self.fork_spare()
        deliver({"id": 0, "ready": True, "pid": os.getpid(), "layers": layers, "layers_missing": self.layers_missing})
        try:
            while True:
                self.poll(deliver)
        except (EOFError, BrokenPipeError):
            pass
        finally:
            for entry in list(self.jobs.values()):
                self._kill(entry)
            for spare in self.spares:
                self._discard_spare(spare)


def main(spares: int = protocol.SPARES, weaker: tuple[str, ...] = ()) -> None:
    """Entry point of the worker process (stdin: requests, stdout: replies); ``weaker``: the operator's named
    weaker modes (``isolation.WEAKER_MODES``), the only missing layers a job may run without."""
    _ALLOWED_MISSING[0] = isolation.allowed_missing(weaker)
    in_fd, out_fd = os.dup(0), os.dup(1)
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)
    os.dup2(2, 1)  # stray prints from libraries go to stderr, never into the reply stream
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    worker = Worker(in_fd, out_fd, spares)
    try:
        layers = worker.warm_up()
    except Exception as exc:  # tell the app why instead of dying silently
        protocol.write_frame(out_fd, protocol.encode_reply({"id": 0, "ready": False, "error": str(exc)[:2000]}))
        sys.exit(1)
    worker.serve(layers)
