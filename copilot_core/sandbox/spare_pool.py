"""The worker's spares: job processes forked and hardened ahead of time, each serving exactly one request.

A spare is forked from the worker (never from an earlier job) and gets ready at low priority; the job that
takes it gets normal priority back.  A spare that does not take its request in time, or dies unused, is
discarded; after ``MAX_SPARE_FAILURES`` in a row the worker stops forking them and forks each job directly.
"""

from __future__ import annotations

import os
import selectors
import signal
import time
from dataclasses import dataclass

from copilot_core.sandbox import prefault, protocol
from copilot_core.sandbox.job_process import SPARE_WARMING, run_spare

SPARE_SEND_TIMEOUT_S = 2.0  # a spare that does not take its request by then is replaced by a direct fork
MAX_SPARE_FAILURES = 5
SPARE_NICE = 10  # a spare gets ready at low priority; the worker restores normal priority when it hands over a job


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


class SparePool:
    """The spares waiting for a job, oldest first: the next job takes the one that had longest to get ready."""

    def __init__(self, selector: selectors.BaseSelector, namespaces: dict, count: int) -> None:
        self.selector = selector  # a spare's exit is reported on it as ("spare-exit", spare)
        self.namespaces = namespaces
        self.count = max(0, min(int(count), protocol.MAX_SPARES))
        self.spares: list[Spare] = []
        self.hot_pages: prefault.Runs = []  # what a typical job writes of the worker's memory (see prefault)
        self.nice = SPARE_NICE if os.geteuid() == 0 else 0  # only root may raise a priority back
        self.failures = 0  # spares that died unused in a row; spares stop after MAX_SPARE_FAILURES

    def fork(self) -> None:
        """Fork one more job process ahead of time (see ``job_process.run_spare``), up to ``count`` waiting."""
        if len(self.spares) >= self.count or self.failures >= MAX_SPARE_FAILURES:
            return
        req_r, req_w = os.pipe()
        res_r, res_w = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(req_w)
            os.close(res_r)
            run_spare(req_r, res_w, self.namespaces, self.hot_pages)
        os.close(req_r)
        os.close(res_w)
        if self.nice:
            try:
                os.setpriority(os.PRIO_PROCESS, pid, self.nice)
            except OSError:
                pass
        spare = Spare(pid, os.pidfd_open(pid), req_w, res_r)
        self.spares.append(spare)
        self.selector.register(spare.pidfd, selectors.EVENT_READ, ("spare-exit", spare))

    def take(self) -> Spare | None:
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
                self.discard(spare, reaped=True)
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

    def on_exit(self, spare: Spare) -> None:
        """A spare died before it was used (killed, crashed): reap it and prepare another."""
        if spare not in self.spares:
            return
        self.spares.remove(spare)
        self.selector.unregister(spare.pidfd)
        self.discard(spare)
        self.failures += 1
        self.fork()

    def discard(self, spare: Spare, reaped: bool = False) -> None:
        """Close a spare's pipes and, unless it has been reaped already, kill and reap it."""
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

    def hand_over(self, spare: Spare, body: protocol.OffHeap) -> bool:
        """Give a taken spare its request at normal priority; False (the spare discarded) if it does not read it."""
        if self.nice:
            try:
                os.setpriority(os.PRIO_PROCESS, spare.pid, 0)
            except OSError:
                pass
        if not _send(spare.request_fd, body, SPARE_SEND_TIMEOUT_S):
            self.discard(spare)
            return False
        os.close(spare.request_fd)
        return True

    def pids(self) -> list[int]:
        return [spare.pid for spare in self.spares]

    def close(self) -> None:
        """Kill every waiting spare (the worker is stopping)."""
        for spare in self.spares:
            self.discard(spare)
