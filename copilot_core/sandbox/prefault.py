"""Copy-on-write faults taken ahead of time: a spare copies the worker pages a typical job writes.

A forked job shares the worker's warmed heap until it writes to it; every first write to a shared
page costs a fault and a 4 KiB copy, several thousand of them in a pandas + plotly figure job
(15-20 ms here).  The worker learns once, with a trusted probe job in a throwaway child, which of
its pages such a job writes (``/proc/self/pagemap`` marks them exclusive to the child afterwards);
each spare then copies exactly those pages with ``madvise(MADV_POPULATE_WRITE)`` before it waits,
which costs a quarter of the CPU of running a warm-up job and needs no idle time first.
"""

from __future__ import annotations

import array
import ctypes
import os
import resource
from collections.abc import Callable

import numpy as np

MADV_POPULATE_WRITE = 23  # Linux >= 5.14
PAGE = resource.getpagesize()
_PRESENT, _EXCLUSIVE = np.uint64(1 << 63), np.uint64(1 << 56)
_SKIP_MAPPINGS = ("[stack]", "[vvar]", "[vvar_vclock]", "[vdso]", "[vsyscall]")
MAX_RUNS = 1 << 16

_libc = ctypes.CDLL(None, use_errno=True)
_libc.madvise.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int)
_libc.madvise.restype = ctypes.c_int

Runs = list[tuple[int, int]]  # (start address, length in bytes), page aligned


def writable_private_ranges() -> Runs:
    """This process's private writable mappings (heap, arenas, library data), from ``/proc/self/maps``."""
    ranges = []
    with open("/proc/self/maps", encoding="ascii", errors="replace") as fh:
        for line in fh:
            parts = line.split()
            name = parts[5] if len(parts) > 5 else ""
            if parts[1][:2] != "rw" or parts[1][3] != "p" or name in _SKIP_MAPPINGS:
                continue
            lo, hi = (int(x, 16) for x in parts[0].split("-"))
            ranges.append((lo, hi - lo))
    return ranges


def exclusive_runs(ranges: Runs) -> Runs:
    """The pages of ``ranges`` this process holds alone (written since the fork), merged into runs."""
    runs: Runs = []
    with open("/proc/self/pagemap", "rb", buffering=0) as fh:
        for start, length in ranges:
            table = np.frombuffer(os.pread(fh.fileno(), length // PAGE * 8, start // PAGE * 8), dtype="<u8")
            mine = np.flatnonzero((table & _PRESENT != 0) & (table & _EXCLUSIVE != 0))
            if not mine.size:
                continue
            breaks = np.flatnonzero(np.diff(mine) != 1)  # run i ends at breaks[i], the next starts after it
            firsts = np.concatenate(([mine[0]], mine[breaks + 1]))
            lasts = np.concatenate((mine[breaks], [mine[-1]]))
            runs.extend((start + int(a) * PAGE, (int(b) - int(a) + 1) * PAGE) for a, b in zip(firsts, lasts))
    return runs


def populate(runs: Runs) -> int:
    """Write-fault ``runs`` in now (copying shared pages); returns the pages done.  Failures are skipped."""
    done = 0
    for start, length in runs:
        if _libc.madvise(start, length, MADV_POPULATE_WRITE) == 0:
            done += length // PAGE
    return done


def learn(probe: Callable[[], object]) -> Runs:
    """Fork a child that runs ``probe`` (trusted code) and report the worker pages it wrote; [] if unsupported."""
    ranges = writable_private_ranges()
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            os.close(read_fd)
            if _libc.madvise(ranges[0][0], PAGE, MADV_POPULATE_WRITE) == 0:  # the kernel supports it
                probe()
                runs = exclusive_runs(ranges)[:MAX_RUNS]
                payload = array.array("Q", [value for run in runs for value in run]).tobytes()
                view = memoryview(payload)
                while view:
                    view = view[os.write(write_fd, view):]
            code = 0
        finally:
            os._exit(code)
    os.close(write_fd)
    chunks = []
    with os.fdopen(read_fd, "rb") as fh:
        chunks.append(fh.read(MAX_RUNS * 16 + 16))
    _, status = os.waitpid(pid, 0)
    payload = b"".join(chunks)
    if not os.WIFEXITED(status) or os.WEXITSTATUS(status) != 0 or len(payload) % 16:
        return []
    values = array.array("Q")
    values.frombytes(payload)
    allowed = [(lo, lo + length) for lo, length in ranges]
    runs = [(values[i], values[i + 1]) for i in range(0, len(values), 2)]
    return [(start, length) for start, length in runs
            if start % PAGE == 0 and length % PAGE == 0 and length > 0
            and any(lo <= start and start + length <= hi for lo, hi in allowed)]
