"""What model code may never hold: functions and classes of dangerous modules, denied builtins, modules,
frames and code; ``policy_guards.check_value`` applies this to every value wherever it is held."""

from __future__ import annotations

import builtins
import types

import numpy as np

# Top-level modules whose functions and classes must never reach model code.
DANGEROUS_MODULES = frozenset({
    "os", "posix", "nt", "sys", "subprocess", "_posixsubprocess", "builtins", "io", "_io", "shutil",
    "ctypes", "_ctypes", "socket", "_socket", "ssl", "_ssl", "select", "selectors", "pickle", "_pickle",
    "marshal", "importlib", "_imp", "_frozen_importlib", "_frozen_importlib_external", "runpy", "code",
    "codeop", "pty", "signal", "_signal", "resource", "gc", "inspect", "threading", "_thread",
    "multiprocessing", "concurrent", "asyncio", "mmap", "fcntl", "urllib", "http", "ftplib", "smtplib",
    "webbrowser", "tempfile", "glob", "pathlib", "fileinput", "zipfile", "tarfile", "gzip", "bz2", "lzma",
    "sqlite3", "dbm", "shelve", "faulthandler", "sysconfig", "site", "platform", "pydoc", "linecache",
    "tracemalloc", "atexit", "string", "_string", "operator", "_operator", "functools", "pkgutil", "zipimport",
    "requests", "urllib3", "httpx", "pyarrow", "PIL", "pwd", "grp", "pymongo", "openai", "streamlit",
    "copilot_core", "RestrictedPython", "warnings", "logging", "traceback", "dis", "ast",
})
DENIED_BUILTINS = ("eval", "exec", "compile", "open", "getattr", "setattr", "delattr", "hasattr", "globals",
                    "locals", "vars", "dir", "__import__", "breakpoint", "input", "help", "exit", "quit",
                    "super", "type", "object", "memoryview", "classmethod", "staticmethod", "property",
                    "__build_class__", "print", "id")
DENIED_IDS = frozenset(id(getattr(builtins, n)) for n in DENIED_BUILTINS if hasattr(builtins, n))
DENIED_TYPES = (types.ModuleType, types.FrameType, types.CodeType, types.TracebackType, types.CellType,
                types.MappingProxyType)
CALLABLE_TYPES = (types.FunctionType, types.BuiltinFunctionType, types.MethodType, types.WrapperDescriptorType,
                  types.MethodWrapperType, types.MethodDescriptorType, types.ClassMethodDescriptorType, type)


def module_root(obj: object) -> str:
    module = getattr(obj, "__module__", None)
    if not isinstance(module, str):
        owner = getattr(obj, "__self__", None)
        module = owner.__name__ if isinstance(owner, types.ModuleType) else ""
    return module.split(".", 1)[0]


MAX_CONTAINER_SCAN = 2_000_000
SCAN_DEPTH = 16  # nesting checked in values and arguments (plotly layouts nest about ten deep)
SCALAR_TYPES = frozenset({int, float, complex, str, bytes, bool, type(None), np.float64, np.int64, np.bool_})


PLAIN_BUILTIN_TYPES = (int, float, complex, str, bytes, bool, list, tuple, dict, set, frozenset, slice, range)


def is_plain_builtin(value: object) -> bool:
    """Methods of str/list/dict and those types themselves are fine even though they live in ``builtins``."""
    if isinstance(value, type):
        return value in PLAIN_BUILTIN_TYPES or issubclass(value, BaseException)
    owner = getattr(value, "__self__", None)
    if owner is not None and not isinstance(owner, types.ModuleType):
        return isinstance(owner, PLAIN_BUILTIN_TYPES) or owner in PLAIN_BUILTIN_TYPES
    objclass = getattr(value, "__objclass__", None)
    return objclass in PLAIN_BUILTIN_TYPES
