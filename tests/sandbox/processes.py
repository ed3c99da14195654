"""Waiting for a signalled process with the kernel's word for it, not a sleep: a SIGKILL is delivered at once but
the process is still listed (and its pipes still open) until it has exited."""

from __future__ import annotations

import os
import select
import signal


def kill_and_wait(pids: list[int], timeout_s: float = 60, missing_ok: bool = False) -> None:
    """SIGKILL each process and wait until the kernel says it has exited (its pidfd turns readable);
    ``missing_ok``: a process already reaped by its parent is passed over."""
    pidfds = []
    for pid in pids:
        try:
            pidfds.append(os.pidfd_open(pid))
        except ProcessLookupError:
            if not missing_ok:
                raise
    try:
        for fd in pidfds:
            signal.pidfd_send_signal(fd, signal.SIGKILL)
        for fd in pidfds:
            readable, _, _ = select.select([fd], [], [], timeout_s)
            assert readable, f"a SIGKILLed process did not exit within {timeout_s:g} s"
    finally:
        for fd in pidfds:
            os.close(fd)
