"""Waiting for a signalled process with the kernel's word for it, not a sleep: a SIGKILL is delivered at once but
the process is still listed (and its pipes still open) until it has exited."""

from __future__ import annotations

import os
import select
import signal


def kill_and_wait(pids: list[int], timeout_s: float = 60) -> None:
    """SIGKILL each process and wait until the kernel says it has exited (its pidfd turns readable)."""
    pidfds = [os.pidfd_open(pid) for pid in pids]
    try:
        for pid in pids:
            os.kill(pid, signal.SIGKILL)
        for fd in pidfds:
            readable, _, _ = select.select([fd], [], [], timeout_s)
            assert readable, f"a SIGKILLed process did not exit within {timeout_s:g} s"
    finally:
        for fd in pidfds:
            os.close(fd)
