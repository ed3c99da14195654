"""Policy layer: RestrictedPython compilation plus the guards every attribute, item, call and write passes.

RestrictedPython only guards what is written in the model's source; pandas, numpy and plotly do their
own ``getattr``/``open``/``eval``.  So besides RP's name rules we check *values* (no module, frame,
code object or dangerous builtin ever reaches model code), *names* (no evaluator, reader, writer,
pickler or option setter), and *arguments* (no ``__`` strings, no paths or buffers, no method names
handed to pandas' by-name dispatch).  The OS layer (``isolation``) backs this up.
"""

from __future__ import annotations

import ast
import builtins
import inspect
import operator
import re
import types
import warnings
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Protocol, cast

import numpy as np
import pandas as pd
from pandas.core.groupby.indexing import GroupByNthSelector
from plotly.basedatatypes import BaseFigure, BasePlotlyType
from RestrictedPython import RestrictingNodeTransformer, compile_restricted, safe_builtins
from RestrictedPython.Guards import guarded_iter_unpack_sequence, guarded_unpack_sequence, safer_getattr_raise

from copilot_core.render_safety.addresses import scrub_addresses
from copilot_core.sandbox import tznames
from copilot_core.sandbox.memsafe import SecurityError, check_memory_safety, checked_class
from copilot_core.sandbox.proxies import PRELOADED, Namespace

FILENAME = "<llm>"
MAX_SOURCE_CHARS = 20_000
MAX_PRINT_CHARS = 64 * 1024


class PrintLimitExceeded(SecurityError):
    """Model code printed more than the cap."""


# ---------------------------------------------------------------------------------------------- compile
MODEL_FUNCTION = "_model_function_"  # every ``def`` and ``lambda`` model code writes is made a ``ModelFunction``


class AnalysisPolicy(RestrictingNodeTransformer):
    """RP's rules plus ours: no classes, decorators or ``global`` (nothing that outlives a call); every function
    model code writes checks what it is called with (``ModelFunction``)."""

    def visit_ClassDef(self, node: ast.ClassDef) -> ast.AST:
        self.error(node, "Class definitions are not allowed; use functions, dicts and DataFrames.")
        return node

    def _no_decorators(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        if node.decorator_list:
            self.error(node, "Decorators are not allowed.")

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        self._no_decorators(node)
        node = super().visit_FunctionDef(node)  # type: ignore[assignment]
        node.decorator_list = [ast.copy_location(ast.Name(MODEL_FUNCTION, ast.Load()), node)]
        return node

    def visit_Lambda(self, node: ast.Lambda) -> ast.AST:
        node = super().visit_Lambda(node)  # type: ignore[assignment]
        return ast.copy_location(ast.Call(ast.copy_location(ast.Name(MODEL_FUNCTION, ast.Load()), node), [node], []),
                                 node)

    def visit_Global(self, node: ast.Global) -> ast.AST:
        self.error(node, "'global' is not allowed; return values instead.")
        return node

    def visit_Nonlocal(self, node: ast.Nonlocal) -> ast.AST:
        self.error(node, "'nonlocal' is not allowed; return values instead.")
        return node


def compile_analysis(source: str) -> types.CodeType:
    """Compile model code under the policy; SyntaxError lists every refused construct with its line."""
    if not isinstance(source, str):
        raise SyntaxError("code must be a string")
    if len(source) > MAX_SOURCE_CHARS:
        raise SyntaxError(f"code is {len(source)} characters; the limit is {MAX_SOURCE_CHARS}")
    with warnings.catch_warnings():  # RP warns "prints but never reads 'printed'": expected here
        warnings.simplefilter("ignore", SyntaxWarning)
        try:
            return compile_restricted(source, filename=FILENAME, mode="exec", policy=AnalysisPolicy)
        except SyntaxError as exc:
            details = exc.args[0] if exc.args and isinstance(exc.args[0], (tuple, list)) else [str(exc)]
            raise SyntaxError("; ".join(map(str, details))) from None


# ------------------------------------------------------------------------------------------ value rules
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
_DENIED_BUILTINS = ("eval", "exec", "compile", "open", "getattr", "setattr", "delattr", "hasattr", "globals",
                    "locals", "vars", "dir", "__import__", "breakpoint", "input", "help", "exit", "quit",
                    "super", "type", "object", "memoryview", "classmethod", "staticmethod", "property",
                    "__build_class__", "print", "id")
_DENIED_IDS = frozenset(id(getattr(builtins, n)) for n in _DENIED_BUILTINS if hasattr(builtins, n))
_DENIED_TYPES = (types.ModuleType, types.FrameType, types.CodeType, types.TracebackType, types.CellType,
                 types.MappingProxyType)
_CALLABLE_TYPES = (types.FunctionType, types.BuiltinFunctionType, types.MethodType, types.WrapperDescriptorType,
                   types.MethodWrapperType, types.MethodDescriptorType, types.ClassMethodDescriptorType, type)


def _module_root(obj: object) -> str:
    module = getattr(obj, "__module__", None)
    if not isinstance(module, str):
        owner = getattr(obj, "__self__", None)
        module = owner.__name__ if isinstance(owner, types.ModuleType) else ""
    return module.split(".", 1)[0]


MAX_CONTAINER_SCAN = 2_000_000
_SCAN_DEPTH = 16  # nesting checked in values and arguments (plotly layouts nest about ten deep)
_SCALAR_TYPES = frozenset({int, float, complex, str, bytes, bool, type(None), np.float64, np.int64, np.bool_})


def _is_module_dict(value: dict) -> bool:
    """A module's ``__dict__`` (or a function's globals): it holds the module's imports and builtins."""
    return "__builtins__" in value or ("__name__" in value and ("__spec__" in value or "__loader__" in value))


def _check_contents(value: Iterable[object], budget: list[int], depth: int = 0) -> None:
    """Refuse a plain container that holds (at any depth) a module, frame, code, module dict or system function."""
    if isinstance(value, dict) and _is_module_dict(value):
        raise SecurityError("module namespaces are not available in the sandbox")
    items = value.values() if isinstance(value, dict) else value
    for item in items:
        budget[0] -= 1
        if budget[0] < 0:
            raise SecurityError(f"a container with more than {MAX_CONTAINER_SCAN:,} items cannot be checked; "
                                "keep large data in DataFrames or arrays")
        if type(item) in _SCALAR_TYPES:
            continue
        check_value(item, depth + 1, budget)


def check_value(value: object, depth: int = 0, budget: list[int] | None = None) -> object:
    """``value`` if model code may hold it; SecurityError for modules, frames, code and system functions,
    module namespaces, and plain containers holding any of them."""
    if type(value) in _SCALAR_TYPES or id(value) in _SANDBOX_BUILTIN_IDS:  # builtins model code was given
        return value
    if isinstance(value, (list, tuple, dict, set, frozenset)):
        if depth >= _SCAN_DEPTH:
            raise SecurityError("containers nested this deeply cannot be checked in the sandbox")
        _check_contents(value, [MAX_CONTAINER_SCAN] if budget is None else budget, depth)
        return value
    if isinstance(value, _DENIED_TYPES):
        raise SecurityError(f"{type(value).__name__} objects are not available in the sandbox")
    if id(value) in _DENIED_IDS:
        raise SecurityError(f"{getattr(value, '__name__', 'this builtin')} is not available in the sandbox")
    if isinstance(value, _CALLABLE_TYPES):
        owner = getattr(value, "__self__", None)
        if isinstance(owner, types.ModuleType) and owner.__name__.split(".", 1)[0] in DANGEROUS_MODULES:
            raise SecurityError(f"{owner.__name__} functions are not available in the sandbox")
        if _module_root(value) in DANGEROUS_MODULES and not _is_plain_builtin(value):
            raise SecurityError(f"{getattr(value, '__qualname__', 'this object')} is not available in the sandbox")
    return value


_PLAIN_BUILTIN_TYPES = (int, float, complex, str, bytes, bool, list, tuple, dict, set, frozenset, slice, range)


def _is_plain_builtin(value: object) -> bool:
    """Methods of str/list/dict and those types themselves are fine even though they live in ``builtins``."""
    if isinstance(value, type):
        return value in _PLAIN_BUILTIN_TYPES or issubclass(value, BaseException)
    owner = getattr(value, "__self__", None)
    if owner is not None and not isinstance(owner, types.ModuleType):
        return isinstance(owner, _PLAIN_BUILTIN_TYPES) or owner in _PLAIN_BUILTIN_TYPES
    objclass = getattr(value, "__objclass__", None)
    return objclass in _PLAIN_BUILTIN_TYPES


# ------------------------------------------------------------------------------------------- name rules
DENIED_NAMES = frozenset({
    "eval", "query", "style", "plot", "hist", "boxplot", "show", "ctypes", "set_option", "reset_option",
    "option_context", "options", "describe_option", "set_eng_float_format", "tofile", "fromfile", "memmap",
    "to_clipboard", "to_excel", "to_parquet", "to_feather", "to_hdf", "to_sql", "to_pickle", "to_stata",
    "to_gbq", "to_orc", "to_xml", "to_latex", "to_markdown", "to_image", "full_figure_for_development",
    "mro", "obj", "system", "popen", "environ", "builtins", "modules", "import_module", "pio", "io",
    "register_dataframe_accessor", "register_series_accessor", "api", "core", "compat", "errors", "util",
    "lib", "f2py", "testing", "distutils", "ctypeslib", "imshow_utils", "optional_imports", "open",
    "trendline_functions", "basedatatypes", "validators", "subprocess", "os", "sys", "shutil", "pickle",
})
# ``json.loads``/``dumps`` stay usable; every other load*/dump*/save*/read_*/write_* does not.
_DENIED_NAME_RE = re.compile(r"^(read_|write_|save|load(?!s$)|dump(?!s$)|to_pickle|from_pickle|exec|compile"
                             # function, frame, generator and code internals (Cython functions spell them func_*)
                             r"|func_|im_|gi_|cr_|ag_|tb_|co_|f_(back|globals|locals|code|builtins|trace|lasti|lineno)$)")

WRITER_METHODS = frozenset({"to_csv", "to_json", "to_string", "to_html"})
PATH_KWARGS = ("buf", "path_or_buf", "path", "file", "filename", "fname", "excel_writer", "con")
# pandas looks these methods' string arguments up as method names (``df.agg("eval", ...)``).
BY_NAME_METHODS = frozenset({"agg", "aggregate", "apply", "transform"})
BY_NAME_KWARGS = ("func", "aggfunc")
# Method names pandas may look up by string: reducers and transforms only.
BY_NAME_ALLOWED = frozenset({
    "sum", "mean", "median", "min", "max", "std", "var", "sem", "count", "size", "first", "last", "nunique",
    "prod", "skew", "kurt", "kurtosis", "quantile", "describe", "idxmin", "idxmax", "cumsum", "cumprod",
    "cummax", "cummin", "rank", "diff", "pct_change", "shift", "abs", "round", "ffill", "bfill", "nlargest",
    "nsmallest", "unique", "value_counts", "any", "all", "mode", "ohlc", "cumcount", "ngroup", "head", "tail",
    "corr", "cov", "sqrt", "exp", "log", "log10", "square", "fillna", "len", "list", "sorted", "tuple",
})
MAX_ARG_SCAN = 1_000_000  # items looked at for "__" in one call's arguments (data lists included)
MAX_NAME_SCAN = 10_000  # items looked at for method names (funcs are a handful, not data)


def check_name(name: object) -> str:
    """The attribute name if allowed; refuses evaluators, readers/writers, pickling, options, internals."""
    if type(name) is not str:
        raise SecurityError("attribute names must be plain strings")
    if name.startswith("_"):
        raise SecurityError(f'"{name}" starts with "_"; private and dunder attributes are not available')
    if name in DENIED_NAMES or _DENIED_NAME_RE.match(name):
        raise SecurityError(f'"{name}" is not available in the sandbox (no evaluators, files, options or '
                            f"internals); compute with DataFrame/NumPy operations on data[...] instead")
    return name


_LIST_LIKES = (pd.Index, pd.Series, np.ndarray, pd.api.extensions.ExtensionArray)


def _scan_strings(value: object, budget: list[int], depth: int = 0, list_likes: bool = False):
    """Yield strings inside ``value`` and its nested lists/tuples/sets/dicts (keys and values) and, with
    ``list_likes``, inside Index/Series/ndarray/ExtensionArray values; SecurityError rather than stop early.
    ``budget``: [items left, items allowed]."""
    if isinstance(value, str):
        yield value
        return
    if isinstance(value, (list, tuple, set, frozenset, dict)):
        items: Iterable[object] = [*value.keys(), *value.values()] if isinstance(value, dict) else value
    elif list_likes and isinstance(value, _LIST_LIKES):
        if isinstance(value, np.ndarray) and value.dtype.kind not in "OUS":
            return  # numbers and dates only: no names in there
        items = value.tolist() if not isinstance(value, pd.api.extensions.ExtensionArray) else list(value)
    else:
        return
    if depth >= _SCAN_DEPTH:
        raise SecurityError("arguments nested this deeply cannot be checked in the sandbox")
    for item in items:
        budget[0] -= 1
        if budget[0] < 0:
            raise SecurityError(f"an argument with more than {budget[1]:,} items cannot be checked; "
                                "pass fewer values or names, or filter with DataFrame operations first")
        yield from _scan_strings(item, budget, depth + 1, list_likes)


# Parameters pandas resolves as method names when given strings, by method; bound by signature, so a
# positional ``aggfunc`` (``pd.pivot_table(df, 'v', 'q', None, 'x')``) is found as well as a keyword one.
BY_NAME_PARAMS = {"pivot_table": ("aggfunc",), "crosstab": ("aggfunc",)}


def _bound_params(fn: Callable[..., object] | None, args: tuple, kwargs: Mapping[str, object],
                  names: tuple[str, ...]) -> list[object]:
    if fn is None:
        return [*args, *kwargs.values()]
    try:
        bound = inspect.signature(fn).bind_partial(*args, **kwargs)
    except (TypeError, ValueError):
        return [*args, *kwargs.values()]  # cannot tell which argument is which: check them all
    return [bound.arguments[n] for n in names if n in bound.arguments]


def _by_name_candidates(method: str, args: tuple, kwargs: Mapping[str, object],
                        fn: Callable[..., object] | None = None) -> list[object]:
    """Arguments pandas would resolve as method names: funcs (positional or keyword, list-likes and
    dict values included), named-aggregation tuples, a positional ``aggfunc``."""
    found: list[object] = []
    if method in BY_NAME_METHODS:
        found += [*args, *(kwargs[k] for k in BY_NAME_KWARGS if k in kwargs)]
        found += [v[1:] for v in kwargs.values() if isinstance(v, tuple) and len(v) == 2]  # agg(c=("v", "mean"))
        found += [[v.aggfunc, v.args, v.kwargs] for v in kwargs.values() if isinstance(v, pd.NamedAgg)]
    elif method in BY_NAME_PARAMS:
        found += _bound_params(fn, args, kwargs, BY_NAME_PARAMS[method])
    found += [kwargs[k] for k in BY_NAME_KWARGS if k in kwargs and method not in BY_NAME_METHODS]
    return [list(v.values()) if isinstance(v, dict) else v for v in found]  # {column: func}: the funcs


TZ_KWARGS = ("tz", "tzinfo")
TZ_METHODS = frozenset({"tz_convert", "tz_localize", "now", "today", "astimezone"})


def _check_time_zones(method: str, args: tuple, kwargs: Mapping[str, object]) -> None:
    names = [kwargs[k] for k in TZ_KWARGS if k in kwargs] + (list(args[:1]) if method in TZ_METHODS else [])
    for name in names:
        if isinstance(name, str):
            try:
                tznames.check_name(name.removeprefix("dateutil/"))
            except tznames.UnsafeTimeZone as exc:
                raise SecurityError(f"{method}(): {exc}") from None


def check_call(method: str, args: tuple, kwargs: Mapping[str, object], fn: Callable[..., object] | None = None) -> None:
    """Refuse ``__`` strings, write destinations, path-like time zones, by-name dispatch to anything but
    reducers, and the memory-unsafe class (``memsafe``); an argument too large to check is refused, never passed
    unchecked."""
    check_memory_safety(method, args, kwargs, fn)
    for text in _scan_strings((args, dict(kwargs)), [MAX_ARG_SCAN, MAX_ARG_SCAN]):
        if "__" in text:
            raise SecurityError(f'{method}(): strings containing "__" are not allowed as arguments')
    if method in WRITER_METHODS:
        if args and args[0] is not None:
            raise SecurityError(f"{method}() may only return text here; do not pass a path or buffer")
        for key in PATH_KWARGS:
            if kwargs.get(key) is not None:
                raise SecurityError(f"{method}(): the {key}= argument is not allowed (no file output)")
    _check_time_zones(method, args, kwargs)
    candidates = _by_name_candidates(method, args, kwargs, fn)
    for text in _scan_strings(candidates, [MAX_NAME_SCAN, MAX_NAME_SCAN], list_likes=True):
        if text not in BY_NAME_ALLOWED:
            raise SecurityError(f"{method}({text!r}): only these names may be passed as strings: "
                                f"{', '.join(sorted(BY_NAME_ALLOWED))}")


class GuardedCall:
    """A function or method that checks its arguments and its return value."""

    __slots__ = ("_fn", "_method")

    def __init__(self, fn: Callable[..., object], method: str) -> None:
        self._fn = fn
        self._method = method

    def __call__(self, *args: object, **kwargs: object) -> object:
        check_call(self._method, args, kwargs, self._fn)
        return guard_value(self._fn(*args, **kwargs), self._method)

    @property
    def __name__(self) -> str:  # pandas names aggregation columns after the function
        return getattr(self._fn, "__name__", self._method)

    def __repr__(self) -> str:
        return f"<sandboxed {self._method}>"


class ModelFunction:
    """A function model code wrote, as every caller gets it: its own code, or a library calling it back
    (``apply``, ``map``, ``pipe``, ``agg``, ``key=``, ``object_hook=``, ...).  Each argument passes the value rules
    first and callables arrive guarded, so whoever calls it, no parameter holds a module, a frame, a system
    function or an unchecked library function; attribute reads inside are guarded as everywhere in model code."""

    __slots__ = ("_fn",)

    def __init__(self, fn: Callable[..., object]) -> None:
        self._fn = fn

    def __call__(self, *args: object, **kwargs: object) -> object:
        for value in args:
            if type(value) not in _SCALAR_TYPES:
                break
        else:
            if not kwargs:  # numbers and strings (``map``/``apply`` over values): nothing to check
                return self._fn(*args)
        return self._fn(*[a if type(a) in _SCALAR_TYPES else guard_value(a) for a in args],
                        **{k: v if type(v) in _SCALAR_TYPES else guard_value(v) for k, v in kwargs.items()})

    @property
    def __name__(self) -> str:  # pandas names aggregation columns after the function ("<lambda>" too)
        return str(getattr(self._fn, "__name__", "function"))

    def __repr__(self) -> str:
        return f"<function {self.__name__}>"


def _is_model_function(value: object) -> bool:
    return isinstance(value, ModelFunction)


def guard_value(value: object, name: str = "") -> object:
    """``check_value``, then any callable model code did not write itself and that is not a class comes back
    as a ``GuardedCall`` (Python, builtin and Cython functions alike), so its arguments are checked too."""
    if id(value) in _SANDBOX_BUILTIN_IDS:  # ``for f in [min, max, len]``: as model code was given them
        return value
    check_value(value)
    if isinstance(value, type):  # a class whose constructor could skip its memory checks is called checked
        return checked_class(value)
    if callable(value) and not isinstance(value, _UNWRAPPED_CALLABLES) and not _is_model_function(value):
        return GuardedCall(value, name or getattr(value, "__name__", "call"))
    return value


def guarded_getattr(obj: object, name: str) -> object:
    """``_getattr_``: RP's rules, then ours on the object, the name and the value."""
    check_value(obj)
    check_name(name)
    return guard_value(safer_getattr_raise(obj, name), name)


def guarded_getattr_builtin(obj: object, name: str, *default: object) -> object:
    """``getattr()`` for model code: same checks as attribute syntax, with an optional default."""
    if default:
        try:
            return guarded_getattr(obj, name)
        except AttributeError:
            return default[0]
    return guarded_getattr(obj, name)


def guarded_hasattr(obj: object, name: str) -> bool:
    try:
        guarded_getattr(obj, name)
    except (AttributeError, SecurityError):
        return False
    return True


class _Subscriptable(Protocol):
    def __getitem__(self, key: object, /) -> object: ...


def guarded_getitem(obj: object, key: object) -> object:
    """``_getitem_``: ordinary indexing, then the value check."""
    check_value(obj)
    return guard_value(cast(_Subscriptable, obj)[key])  # Python raises TypeError for what is not


class _CheckedIterator:
    """Iteration that checks every item (no generator frame to walk)."""

    __slots__ = ("_it",)

    def __init__(self, iterable: Iterable[object]) -> None:
        self._it = iter(iterable)

    def __iter__(self) -> "_CheckedIterator":
        return self

    def __next__(self) -> object:
        return guard_value(next(self._it))


def guarded_iter(obj: object) -> _CheckedIterator:
    check_value(obj)
    return _CheckedIterator(cast(Iterable[object], obj))  # iter() raises TypeError for what is not


_INDEXER_TYPES = tuple({type(getattr(pd.DataFrame(), n)) for n in ("loc", "iloc", "at", "iat")})
# Callables model code gets as they are: classes (their calls build data), calls already guarded, numpy's
# element-wise and array functions (allowlisted by name, no by-name dispatch), pandas indexers (``loc[...]``).
_UNWRAPPED_CALLABLES = (type, GuardedCall, Namespace, np.ufunc, type(np.mean), np.poly1d, *_INDEXER_TYPES,
                        GroupByNthSelector)
_WRITABLE_TYPES = (dict, list, set, bytearray, pd.DataFrame, pd.Series, np.ndarray, BaseFigure, BasePlotlyType,
                   *_INDEXER_TYPES, __import__("collections").deque)


def guarded_write(obj: object) -> object:
    """``_write_``: attribute/item assignment only on data containers, never on modules, classes or functions."""
    if isinstance(obj, type) or not isinstance(obj, _WRITABLE_TYPES):
        raise SecurityError(f"cannot modify {type(obj).__name__} objects in the sandbox")
    return obj


_INPLACE_OPS = {"+=": operator.iadd, "-=": operator.isub, "*=": operator.imul, "/=": operator.itruediv,
                "//=": operator.ifloordiv, "%=": operator.imod, "**=": operator.ipow, "<<=": operator.ilshift,
                ">>=": operator.irshift, "&=": operator.iand, "|=": operator.ior, "^=": operator.ixor,
                "@=": operator.imatmul}


def guarded_inplacevar(op: str, target: object, value: object) -> object:
    try:
        fn = _INPLACE_OPS[op]
    except KeyError:
        raise SecurityError(f"operator {op} is not allowed") from None
    return fn(target, value)


class PrintBuffer:
    """One buffer per job shared by every ``print`` (RP makes a collector per function; we share one)."""

    def __init__(self, limit: int = MAX_PRINT_CHARS) -> None:
        self.parts: list[str] = []
        self.size = 0
        self.limit = limit

    def __call__(self) -> str:  # RP compiles the ``printed`` name to ``_print()``
        return self.text()

    def write(self, text: str) -> None:
        if self.size + len(text) > self.limit:
            raise PrintLimitExceeded(f"printed output exceeded {self.limit // 1024} KiB; print a summary instead")
        self.parts.append(text)
        self.size += len(text)

    def _call_print(self, *objects: object, **kwargs: Any) -> None:  # print's own keywords (sep, end, flush)
        if kwargs.pop("file", None) is not None:
            raise SecurityError("print(file=...) is not allowed")
        builtins.print(*objects, **kwargs, file=self)

    def text(self) -> str:
        return "".join(self.parts)


def _checked_result(fn: Callable[..., object]) -> Callable[..., object]:
    """A builtin whose callbacks (``key=``) are guarded and whose result is checked."""
    def wrapper(*args: object, **kwargs: object) -> object:
        if "key" in kwargs:
            kwargs["key"] = _callback(kwargs["key"])
        return guard_value(fn(*args, **kwargs))
    wrapper.__name__ = fn.__name__
    return wrapper


def _callback(fn: object) -> Callable[..., object] | None:
    """A callable handed to ``map``/``filter``/``sorted``/``min``/``max``: one of the sandbox's own builtins
    (``len``, ``abs``, ...), or checked and guarded like any other value."""
    if fn is None or id(fn) in _SANDBOX_BUILTIN_IDS:
        return cast(Callable[..., object] | None, fn)
    return cast(Callable[..., object], guard_value(fn, getattr(fn, "__name__", "callback")))


def guarded_map(fn: object, *iterables: Iterable[object]) -> _CheckedIterator:
    return _CheckedIterator(map(cast(Callable[..., object], _callback(fn)), *iterables))


def guarded_filter(fn: object, iterable: Iterable[object]) -> _CheckedIterator:
    return _CheckedIterator(filter(_callback(fn), iterable))


_HASHABLE_BY_VALUE = (int, float, complex, str, bytes, bool, type(None), np.generic, pd.Timestamp, pd.Timedelta)


def guarded_hash(value: object) -> int:
    """``hash`` of values hashed by their contents only: an object's default hash is its address, and an address
    is what forging an object from raw memory needs."""
    pending, seen = [value], 0
    while pending:
        item = pending.pop()
        seen += 1
        if seen > MAX_NAME_SCAN:
            raise SecurityError("hash(): the value is too large to check")
        if isinstance(item, (tuple, frozenset)):
            pending.extend(item)
        elif not isinstance(item, _HASHABLE_BY_VALUE):
            raise SecurityError(f"hash() of {type(item).__name__} objects is not available in the sandbox "
                                "(their hash is a memory address); hash numbers, strings or tuples of them")
    return hash(value)


def guarded_repr(value: object) -> str:
    """``repr`` without the memory address an object's default ``repr`` holds (``hash``/``id`` give none either)."""
    return scrub_addresses(repr(value))


def _apply(fn: Callable[..., object], *args: object, **kwargs: object) -> object:
    """A call written with ``*args``/``**kwargs`` (RP routes it here): the same checks as any other call."""
    if not _is_model_function(fn):
        fn = cast(Callable[..., object], guard_value(fn))
        if not isinstance(fn, GuardedCall):  # a class or ufunc: check what goes in, and what comes out
            check_call(getattr(fn, "__name__", "call"), args, kwargs, fn)
            return guard_value(fn(*args, **kwargs))
    return fn(*args, **kwargs)


def make_importer(namespaces: Mapping[str, Namespace]) -> Callable[..., Any]:
    """``__import__`` that hands out curated namespaces, never modules."""

    def sandbox_import(name: str, globals: Any = None, locals: Any = None, fromlist: Any = (), level: int = 0):
        if level:
            raise ImportError("relative imports are not available in the sandbox")
        if name not in namespaces:
            raise ImportError(f"import of {name!r} is not allowed; available: "
                              f"{', '.join(sorted(n for n in namespaces if '.' not in n))}, plotly.graph_objects, "
                              "plotly.express, plotly.subplots")
        if fromlist:
            return namespaces[name]
        return namespaces[name.split(".", 1)[0]]

    return sandbox_import


# The builtins model code gets (``__import__`` is added per job); built once, so they are known by identity.
_FIXED_BUILTINS: dict[str, object] = {
    **{k: v for k, v in safe_builtins.items() if k not in ("setattr", "delattr", "__build_class__", "_getattr_", "id",
                                                           "hash")},
    "list": list, "tuple": tuple, "dict": dict, "set": set, "frozenset": frozenset, "range": range,
    "enumerate": enumerate, "zip": zip, "map": guarded_map, "filter": guarded_filter,
    "sorted": _checked_result(sorted), "reversed": reversed,
    "sum": sum, "any": any, "all": all, "isinstance": isinstance,
    "min": _checked_result(min), "max": _checked_result(max), "next": _checked_result(next),
    "getattr": guarded_getattr_builtin, "hasattr": guarded_hasattr, "hash": guarded_hash, "repr": guarded_repr,
}
# They may be passed around and called back as they are (``sorted(words, key=len)``, ``for f in [min, max]``).
_SANDBOX_BUILTIN_IDS = frozenset(id(v) for v in _FIXED_BUILTINS.values())


def build_globals(namespaces: Mapping[str, Namespace], data: Mapping[str, object], printer: PrintBuffer) -> dict:
    """The complete namespace model code runs in: safe builtins, guards, curated libraries, ``data``."""
    allowed_builtins = {**_FIXED_BUILTINS, "__import__": make_importer(namespaces)}
    env = {
        "__builtins__": allowed_builtins,
        "__name__": "__sandbox__",
        "_getattr_": guarded_getattr,
        "_getitem_": guarded_getitem,
        "_getiter_": guarded_iter,
        "_iter_unpack_sequence_": guarded_iter_unpack_sequence,
        "_unpack_sequence_": guarded_unpack_sequence,
        "_write_": guarded_write,
        "_inplacevar_": guarded_inplacevar,
        "_print_": lambda _getattr_=None: printer,  # RP calls _print_(_getattr_) once per scope
        "_apply_": _apply,
        MODEL_FUNCTION: ModelFunction,
        "data": data,
    }
    env.update({alias: namespaces[module] for alias, module in PRELOADED.items()})
    env["make_subplots"] = namespaces["plotly.subplots"].make_subplots
    return env
