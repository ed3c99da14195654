"""Process layer: what a forked job process does to itself before running model code.

Policy checks cannot stop denial of service and new library gadgets keep appearing, so the job also
runs in its own session with resource limits, no network, no privileges, a Landlock filesystem view
of the Python installation only, and an audit hook.  A step the kernel refuses is recorded as missing;
the job then does not run (``refusal``) unless an operator named that weaker mode (``WEAKER_MODES``).
"""

from __future__ import annotations

import ctypes
import math
import os
import resource
import signal
import sys
from collections.abc import Iterable
from dataclasses import dataclass

NOBODY_UID = 65534
NOBODY_GID = 65534
RESULT_FD = 3  # the job's reply pipe after fd cleanup
REQUEST_FD = 4  # a pre-forked spare's request pipe (closed once the request is read)

_libc = ctypes.CDLL(None, use_errno=True)
_libc.syscall.restype = ctypes.c_long
_libc.prctl.restype = ctypes.c_int

PR_SET_PDEATHSIG = 1
PR_SET_NO_NEW_PRIVS = 38
CLONE_NEWUSER = 0x10000000
CLONE_NEWNET = 0x40000000

# Landlock (include/uapi/linux/landlock.h); the syscall numbers are the same on every architecture.
SYS_LANDLOCK_CREATE_RULESET, SYS_LANDLOCK_ADD_RULE, SYS_LANDLOCK_RESTRICT_SELF = 444, 445, 446
LANDLOCK_CREATE_RULESET_VERSION = 1
LANDLOCK_RULE_PATH_BENEATH = 1
FS_READ_FILE, FS_READ_DIR = 1 << 2, 1 << 3
_FS_ABI1 = (1 << 13) - 1          # execute … make_sym
_FS_BY_ABI = {1: _FS_ABI1, 2: _FS_ABI1 | 1 << 13, 3: _FS_ABI1 | 1 << 13 | 1 << 14}
_FS_LATEST = _FS_ABI1 | 1 << 13 | 1 << 14 | 1 << 15  # + refer, truncate, ioctl_dev (ABI >= 5)
NET_BIND_TCP, NET_CONNECT_TCP = 1 << 0, 1 << 1
SCOPE_ABSTRACT_UNIX, SCOPE_SIGNAL = 1 << 0, 1 << 1


class _RulesetAttr(ctypes.Structure):
    _fields_ = [("handled_access_fs", ctypes.c_uint64), ("handled_access_net", ctypes.c_uint64),
                ("scoped", ctypes.c_uint64)]


class _PathBeneathAttr(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def _errno_error(what: str) -> OSError:
    err = ctypes.get_errno()
    return OSError(err, f"{what}: {os.strerror(err)}")


def landlock_abi() -> int:
    """Landlock ABI version of the running kernel, 0 when unavailable."""
    abi = _libc.syscall(SYS_LANDLOCK_CREATE_RULESET, None, ctypes.c_size_t(0),
                        ctypes.c_uint32(LANDLOCK_CREATE_RULESET_VERSION))
    return max(int(abi), 0)


def read_roots() -> list[str]:
    """Directories a job may read: the Python installation and its packages, plus the time-zone database."""
    roots = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix, "/usr/share/zoneinfo"}
    roots.update(p for p in sys.path if p.endswith("site-packages"))
    return sorted(r for r in roots if r and os.path.isdir(r))


def apply_landlock(roots: Iterable[str]) -> str:
    """Read-only access beneath ``roots``, nothing else; no TCP; signals and abstract sockets scoped."""
    abi = landlock_abi()
    if abi < 1:
        raise OSError("Landlock is not available in this kernel")
    attr = _RulesetAttr(handled_access_fs=_FS_BY_ABI.get(abi, _FS_LATEST))
    size = 8
    if abi >= 4:
        attr.handled_access_net, size = NET_BIND_TCP | NET_CONNECT_TCP, 16
    if abi >= 6:
        attr.scoped, size = SCOPE_ABSTRACT_UNIX | SCOPE_SIGNAL, 24
    ruleset = _libc.syscall(SYS_LANDLOCK_CREATE_RULESET, ctypes.byref(attr), ctypes.c_size_t(size),
                            ctypes.c_uint32(0))
    if ruleset < 0:
        raise _errno_error("landlock_create_ruleset")
    try:
        for root in roots:
            fd = os.open(root, os.O_PATH | os.O_CLOEXEC)
            try:
                rule = _PathBeneathAttr(allowed_access=FS_READ_FILE | FS_READ_DIR, parent_fd=fd)
                if _libc.syscall(SYS_LANDLOCK_ADD_RULE, ctypes.c_int(ruleset),
                                 ctypes.c_int(LANDLOCK_RULE_PATH_BENEATH), ctypes.byref(rule), ctypes.c_uint32(0)) < 0:
                    raise _errno_error(f"landlock_add_rule({root})")
            finally:
                os.close(fd)
        if _libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
            raise _errno_error("prctl(NO_NEW_PRIVS)")
        if _libc.syscall(SYS_LANDLOCK_RESTRICT_SELF, ctypes.c_int(ruleset), ctypes.c_uint32(0)) < 0:
            raise _errno_error("landlock_restrict_self")
    finally:
        os.close(ruleset)
    return f"landlock:abi{abi}"


def isolate_fds(result_fd: int, request_fd: int | None = None) -> None:
    """stdio to /dev/null, the reply pipe on fd 3 (a spare's request pipe on fd 4), every other descriptor closed."""
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    keep = RESULT_FD
    if request_fd is not None:
        if request_fd == RESULT_FD:  # move it out of the way before the reply pipe lands on fd 3
            request_fd = os.dup(request_fd)
        if result_fd != RESULT_FD:
            os.dup2(result_fd, RESULT_FD)
        if request_fd != REQUEST_FD:
            os.dup2(request_fd, REQUEST_FD)
        os.set_inheritable(REQUEST_FD, False)
        keep = REQUEST_FD
    elif result_fd != RESULT_FD:
        os.dup2(result_fd, RESULT_FD)
    os.set_inheritable(RESULT_FD, False)
    os.closerange(keep + 1, 1 << 16)


def _vm_bytes(statm_fd: int) -> int:
    """Virtual memory size from an already open ``/proc/self/statm`` (Landlock hides ``/proc`` later)."""
    return int(os.pread(statm_fd, 256, 0).split()[0]) * resource.getpagesize()


def apply_rlimits(timeout_s: float, memory_headroom_mb: int, statm_fd: int | None = None) -> str:
    """Memory = size now + headroom, CPU ≈ deadline from now, no file writes, no new processes, few fds, no core."""
    if statm_fd is None:
        with open("/proc/self/statm", "rb") as fh:
            vm_bytes = int(fh.read().split()[0]) * resource.getpagesize()
    else:
        vm_bytes = _vm_bytes(statm_fd)
    address_space = vm_bytes + memory_headroom_mb * 1024 * 1024
    used = resource.getrusage(resource.RUSAGE_SELF)
    cpu = math.ceil(used.ru_utime + used.ru_stime) + max(1, math.ceil(timeout_s)) + 1
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write fails with EFBIG instead of killing silently
    limits = {resource.RLIMIT_AS: address_space, resource.RLIMIT_CPU: cpu, resource.RLIMIT_FSIZE: 0,
              resource.RLIMIT_NPROC: 0, resource.RLIMIT_NOFILE: 64, resource.RLIMIT_CORE: 0}
    for which, value in limits.items():
        hard = value + 1 if which == resource.RLIMIT_CPU else value
        resource.setrlimit(which, (value, hard))
    return "rlimits"


def new_network_namespace() -> str:
    """An empty network namespace: not even loopback is up, so no TCP, UDP or DNS leaves the job."""
    flags = CLONE_NEWNET if os.geteuid() == 0 else CLONE_NEWUSER | CLONE_NEWNET
    if _libc.unshare(ctypes.c_int(flags)) != 0:  # os.unshare needs Python 3.12
        raise _errno_error("unshare(CLONE_NEWNET)")
    return "netns"


def drop_privileges() -> str:
    """Run as nobody when started as root (clears capabilities, makes RLIMIT_NPROC bite)."""
    if os.geteuid() != 0:
        return "unprivileged"
    os.setgroups([])
    os.setgid(NOBODY_GID)
    os.setuid(NOBODY_UID)
    return "uid:nobody"


def die_with_parent() -> None:
    """SIGKILL when the worker dies (after the uid change, which clears this setting)."""
    _libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


# The weaker modes an operator may allow by name (COPILOT_SANDBOX_WEAKER_MODE), and the layer each gives up.
WEAKER_MODES = {"no-landlock": "landlock", "no-netns": "netns", "no-rlimits": "rlimits",
                "no-privilege-drop": "privileges"}


def allowed_missing(modes: Iterable[str]) -> frozenset[str]:
    """The layer names the named weaker modes give up (unknown names give up nothing)."""
    return frozenset(WEAKER_MODES[m] for m in modes if m in WEAKER_MODES)


def refusal(missing: Iterable[str], allowed: frozenset[str]) -> str | None:
    """Why a job must not run with these missing layers (notes like ``"landlock: ..."``), or None."""
    refused = [note for note in missing if note.split(":", 1)[0] not in allowed]
    if not refused:
        return None
    names = sorted({note.split(":", 1)[0] for note in refused})
    modes = ",".join(m for m, layer in WEAKER_MODES.items() if layer in names)
    return (f"The sandbox refused to run the job: isolation layer(s) missing on this host: {'; '.join(refused)}. "
            f"An operator can accept this weaker sandbox by setting COPILOT_SANDBOX_WEAKER_MODE={modes}.")


@dataclass
class Hardening:
    """What ``prepare`` applied, and the ``/proc/self/statm`` descriptor ``limit`` still needs."""

    layers: list[str]
    missing: list[str]
    statm_fd: int | None


def prepare(result_fd: int, request_fd: int | None = None) -> Hardening:
    """Every layer that does not depend on the job: session, fds, netns, uid, Landlock, death signal.

    A pre-forked spare runs this before it waits for its request; a directly forked job runs it
    right before ``limit``.  Either way model code only starts after both.
    """
    layers, missing = ["fork"], []
    os.setsid()
    layers.append("setsid")
    isolate_fds(result_fd, request_fd)
    statm_fd: int | None = os.open("/proc/self/statm", os.O_RDONLY | os.O_CLOEXEC)
    steps = (
        ("netns", new_network_namespace),
        ("privileges", drop_privileges),
        ("landlock", lambda: apply_landlock(read_roots())),
    )
    for name, step in steps:
        try:
            layers.append(step())
        except OSError as exc:
            missing.append(f"{name}: {exc}")
        if name == "privileges":
            die_with_parent()
    return Hardening(layers, missing, statm_fd)


def limit(hardening: Hardening, timeout_s: float, memory_headroom_mb: int) -> tuple[list[str], list[str]]:
    """Resource limits sized for this job (its data is loaded by now); returns (active layers, missing notes)."""
    layers, missing = list(hardening.layers), list(hardening.missing)
    try:
        layers.insert(2, apply_rlimits(timeout_s, memory_headroom_mb, hardening.statm_fd))
    except (OSError, ValueError) as exc:
        missing.append(f"rlimits: {exc}")
    finally:
        if hardening.statm_fd is not None:
            os.close(hardening.statm_fd)
            hardening.statm_fd = None
    return layers, missing


def harden(result_fd: int, timeout_s: float, memory_headroom_mb: int) -> tuple[list[str], list[str]]:
    """Apply every OS layer in order; returns (active layers, notes on layers that could not be applied)."""
    return limit(prepare(result_fd), timeout_s, memory_headroom_mb)
