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
import math
import os
import pickle
import selectors
import signal
import sys
import time

from copilot_core.sandbox import job, job_process, prefault, protocol, tznames, warmup
from copilot_core.sandbox.job_replies import Job, reply_header
from copilot_core.sandbox.policy_compile import compile_analysis
from copilot_core.sandbox.proxies import build_namespaces
from copilot_core.sandbox.request_reader import RequestReader
from copilot_core.sandbox.spare_pool import SparePool

MAX_SPARE_REQUEST_BYTES = 64 * 1024 * 1024  # larger data is loaded before a direct fork (limits count it alike)
LONG_JOB_S = 1.0  # a job running this long yields the CPU to newer jobs (fair share with looping sessions)
LONG_JOB_NICE = 10


class Worker:
    """Selector loop: requests on ``in_fd``, replies on ``out_fd``, one entry per running job."""

    def __init__(self, in_fd: int, out_fd: int, spares: int = protocol.SPARES) -> None:
        self.in_fd, self.out_fd = in_fd, out_fd
        self.namespaces = build_namespaces()
        self.selector = selectors.DefaultSelector()
        self.jobs: dict[int, Job] = {}
        self.requests = RequestReader(in_fd)
        self.layers: list[str] = []  # what the probe job reported; used when a job dies before replying
        self.layers_missing: list[str] = []  # what it ran without (only layers the operator gave up by name)
        self.spares = SparePool(self.selector, self.namespaces, spares)
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
        if self.spares.count:
            self.spares.hot_pages = prefault.learn(self._probe_typical_job)
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
        reply = job.run_job(compile_analysis(source), source, self.namespaces, warmup.spare_data())
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
        spare = self.spares.take() if spare_ok and body.size <= MAX_SPARE_REQUEST_BYTES else None
        if spare is not None:
            body.hide_from_forks()
            if not self.spares.hand_over(spare, body):
                spare = None
        now = time.monotonic()
        if spare is not None:
            entry = Job(job_id, spare.pid, spare.pidfd, spare.result_fd, timeout_s,
                        now + timeout_s + protocol.HANDOVER_S, now, request=body, acked=False)
        else:
            read_fd, write_fd = os.pipe()
            body.hide_from_forks(False)
            try:
                pid = os.fork()
                if pid == 0:
                    os.close(read_fd)
                    job_process.run_direct(body, self.namespaces, write_fd)
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
            self.spares.fork()  # the replacement gets ready while this job runs, not after its reply

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
        if byte in (job_process.SPARE_WARMING, job_process.SPARE_WARM):
            return
        entry.acked = True
        entry.started = time.monotonic()  # the job's own time: its limit and its fair share count from here
        entry.deadline = entry.started + entry.timeout_s
        if entry.request is not None:
            entry.request.close()
            entry.request = None
        if byte == job_process.SPARE_TOOK_JOB:
            self.spares.failures = 0
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

    def poll(self, deliver) -> None:
        """Wait for the next event (or the nearest deadline) and handle it."""
        now = time.monotonic()
        timeout = min([j.deadline for j in self.jobs.values() if math.isfinite(j.deadline)]
                      + [j.started + LONG_JOB_S for j in self.jobs.values() if j.acked and not j.yielded],
                      default=None)
        events = self.selector.select(None if timeout is None else max(0.0, timeout - now))
        for key, _ in events:
            kind, entry = key.data
            if kind == "request":
                request = self.requests.read()
                if request is not None:
                    self._dispatch(*request, deliver)
            elif kind == "result" and entry.pid in self.jobs:
                self._on_result(entry)
            elif kind == "exit" and entry.pid in self.jobs:
                self._on_exit(entry)
            elif kind == "spare-exit":
                self.spares.on_exit(entry)
        now = time.monotonic()
        for entry in list(self.jobs.values()):
            if entry.status is not None and entry.eof and entry.request is not None and not entry.timed_out:
                # the spare died before it read the request: the job never started, run it on a direct fork
                body, entry.request = entry.request, None
                self._cleanup(entry)
                self.spares.failures += 1
                self.start_job(entry.id, entry.timeout_s, body, spare_ok=False)
                continue
            if entry.status is None and now >= entry.deadline and not entry.timed_out:
                entry.timed_out = entry.acked  # a spare that never took the job: killed, the job forked directly
                if not entry.acked:
                    entry.deadline = float("inf")  # killed once; its exit event ends the wait, not a spinning poll
                self._kill(entry)
            if entry.status is None and entry.acked and not entry.yielded and now >= entry.started + LONG_JOB_S:
                entry.yielded = True
                try:  # lower only: any process may do that to its own children
                    os.setpriority(os.PRIO_PROCESS, entry.pid, LONG_JOB_NICE)
                except OSError:
                    pass
            if entry.eof and not entry.delivered:  # reply as soon as it is complete; reap when it exits
                reply = reply_header(entry, entry.status is not None, self.layers)
                if reply is not None:
                    entry.delivered = True
                    deliver(reply, entry.out if "reply" in reply else None)
                    entry.out.drop()  # sent: a job still exiting must not keep its reply in the worker's memory
                    self.spares.fork()  # tops up after a direct fork or a spare that failed
            if entry.status is not None and entry.eof:
                self._cleanup(entry)

    def _dispatch(self, header: dict, body: protocol.OffHeap | None, deliver) -> None:
        if header.get("op") == "cancel":
            self.cancel_job(header.get("target"))
            return
        if header.get("op") in ("pause", "resume"):
            self.pause_job(header.get("target"), header.get("op") == "pause")
            return
        if header.get("op") == "status":
            deliver({"id": header.get("id"), "pid": os.getpid(), "running": len(self.jobs),
                     "spare_pids": self.spares.pids(),
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

        for _ in range(self.spares.count):
            self.spares.fork()
        deliver({"id": 0, "ready": True, "pid": os.getpid(), "layers": layers, "layers_missing": self.layers_missing})
        try:
            while True:
                self.poll(deliver)
        except (EOFError, BrokenPipeError):
            pass
        finally:
            for entry in list(self.jobs.values()):
                self._kill(entry)
            self.spares.close()


def main(spares: int = protocol.SPARES, weaker: tuple[str, ...] = ()) -> None:
    """Entry point of the worker process (stdin: requests, stdout: replies); ``weaker``: the operator's named
    weaker modes (``isolation.WEAKER_MODES``), the only missing layers a job may run without."""
    job_process.allow_missing(weaker)
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
