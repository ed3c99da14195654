"""Audit hook installed in a job process just before model code runs (defence in depth).

Hooks can be bypassed through ctypes, so this backs up Landlock, the network namespace and rlimits
rather than replacing them.  It refuses writes, reads and path queries (``stat``, ``access``, ...: Landlock
does not cover them) outside the Python installation, sockets,
processes, ctypes, new imports outside the analysis stack, a second ``exec``/``compile``, and any
frame lookup that would hand pandas' ``eval``/``query`` the model's own frame.
"""

from __future__ import annotations

import collections
import os
import sys
from collections.abc import Callable, Iterable

from copilot_core.sandbox.policy_compile import FILENAME

ALLOWED_IMPORT_ROOTS = frozenset({
    "pandas", "numpy", "plotly", "_plotly_utils", "narwhals", "dateutil", "pytz", "tzdata", "zoneinfo",
    "_strptime", "json", "_json", "datetime", "_datetime", "collections", "math", "statistics", "encodings",
    "decimal", "_decimal", "fractions", "numbers", "re", "unicodedata", "locale", "calendar", "time", "copy",
    "functools", "itertools", "operator", "random", "bisect", "heapq", "typing", "abc", "enum", "dataclasses",
    "contextlib", "textwrap", "pprint", "warnings", "weakref", "codecs", "array", "struct", "base64",
    "binascii", "zlib", "PIL", "pyarrow", "string", "_string", "difflib", "csv", "_csv", "cmath",
})
DENIED_EVENT_PREFIXES = (
    "os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork", "os.forkpty", "os.kill", "os.killpg",
    "os.remove", "os.unlink", "os.rename", "os.rmdir", "os.mkdir", "os.chmod", "os.chown", "os.truncate",
    "os.link", "os.symlink", "os.putenv", "os.unsetenv", "os.chdir", "os.chroot", "os.setxattr",
    "os.removexattr", "os.utime", "os.startfile", "subprocess.", "socket.", "ctypes.", "shutil.",
    "urllib.", "http.client.", "ftplib.", "smtplib.", "imaplib.", "poplib.", "nntplib.", "telnetlib.",
    "webbrowser.", "pickle.find_class", "marshal.", "code.__new__", "function.__new__", "sys.settrace",
    "sys.setprofile", "sys._current_frames", "sys.addaudithook", "sys.setrecursionlimit", "_thread.",
    "threading.", "mmap.", "gc.get_", "resource.", "signal.", "builtins.input", "cpython.run_",
    "cpython._PySys_ClearAuditHooks", "tempfile.", "glob.", "syslog.", "sqlite3.", "fcntl.", "msvcrt.",
    "winreg.", "os.add_dll_directory", "compile",
)
# Path queries CPython does not audit (``os.listdir``/``scandir``/``open`` raise events; these do not) and that
# Landlock does not cover either (it rules reads and writes, not metadata): ``install`` makes them raise an
# event of the same name, so the hook's read rule applies to them too.
PATH_QUERIES = ("stat", "lstat", "access", "readlink", "statvfs", "pathconf", "listxattr", "getxattr")
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_TRUNC


_QUERY_EVENTS = frozenset(f"os.{name}" for name in PATH_QUERIES)
_NAMEDTUPLE_CODE = collections.namedtuple.__code__


class AuditDenied(PermissionError):
    """Raised inside the job when an audited operation is refused."""


def _inside(path: str, roots: tuple[str, ...]) -> bool:
    full = os.path.abspath(path)
    return any(full == r or full.startswith(r + os.sep) for r in roots)


def _audited(name: str, query: Callable[..., object]) -> Callable[..., object]:
    event = f"os.{name}"

    def audited_query(path: object, *args: object, **kwargs: object) -> object:
        sys.audit(event, path, kwargs.get("dir_fd"))
        return query(path, *args, **kwargs)

    audited_query.__name__ = name
    return audited_query


def audit_path_queries() -> None:
    """Make ``posix``'s unaudited path queries (and ``os``'s names for them) raise audit events; in a job only."""
    import posix

    for name in PATH_QUERIES:
        query = getattr(posix, name, None)
        if query is None or getattr(query, "__name__", "") != name or not isinstance(query, type(len)):
            continue  # absent on this platform, or already wrapped
        wrapped = _audited(name, query)
        setattr(posix, name, wrapped)
        if getattr(os, name, None) is query:
            setattr(os, name, wrapped)


def install(roots: Iterable[str], exec_allowance: int = 1) -> None:
    """Add the hook; it cannot be removed.  ``exec_allowance``: the job's own ``exec`` of model code."""
    allowed = tuple(os.path.normpath(r) for r in roots)
    execs = [exec_allowance]
    # Events neither special-cased below nor denied, remembered by name: pandas/plotly fire thousands of
    # ``builtins.id`` (deepcopy) per figure, and a prefix scan for each one costs more than the job's fork.
    passed: set[str] = set()

    def deny(event: str, detail: str = "") -> None:
        raise AuditDenied(f"blocked by the sandbox: {event}{' ' + detail if detail else ''}")

    def hook(event: str, args: tuple) -> None:
        if event in passed:
            return
        if event in ("compile", "exec") and sys._getframe(1).f_code is _NAMEDTUPLE_CODE:
            return  # pandas' itertuples builds a namedtuple from a fixed, identifier-checked template
        if event == "open":
            path, mode, flags = args
            if isinstance(mode, str) and any(c in mode for c in "wax+"):
                deny("open for writing")
            if isinstance(flags, int) and flags & _WRITE_FLAGS:
                deny("open for writing")
            if isinstance(path, bytes):
                path = os.fsdecode(path)
            if isinstance(path, str) and not _inside(path, allowed):
                deny("open", "outside the Python installation")
            if not isinstance(path, str):
                deny("open of a file descriptor")
        elif event in ("os.listdir", "os.scandir"):
            path = args[0]
            if isinstance(path, bytes):
                path = os.fsdecode(path)
            if not isinstance(path, str) or not _inside(path, allowed):
                deny(event)
        elif event in _QUERY_EVENTS:
            path, dir_fd = args
            if hasattr(path, "__fspath__"):
                path = os.fspath(path)
            if isinstance(path, bytes):
                path = os.fsdecode(path)
            if isinstance(path, int) and not isinstance(path, bool):  # an open descriptor: already allowed
                return
            if dir_fd is not None or not isinstance(path, str) or not _inside(path, allowed):
                deny(event, "outside the Python installation")
        elif event == "import":
            if str(args[0]).split(".", 1)[0] not in ALLOWED_IMPORT_ROOTS:
                deny("import", str(args[0]))
        elif event == "exec":
            if execs[0] <= 0:
                deny("exec")
            execs[0] -= 1
        elif event == "sys._getframe":
            frame = args[0]
            if frame is not None and frame.f_code.co_filename == FILENAME:
                deny("frame access to model code")
        elif event.startswith(DENIED_EVENT_PREFIXES):
            deny(event)
        else:
            passed.add(event)

    audit_path_queries()
    sys.addaudithook(hook)
