"""The policy's name and argument rules: no evaluator, reader, writer, pickler or option setter by name; no
``__`` strings, paths or buffers, path-like time zones or method names handed to pandas' by-name dispatch in
a call's arguments; and the memory-unsafe class (``memsafe``)."""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Iterable, Mapping

import numpy as np
import pandas as pd

from copilot_core.sandbox import tznames
from copilot_core.sandbox.memsafe import SecurityError, check_memory_safety
from copilot_core.sandbox.policy_denied import SCAN_DEPTH

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
    if depth >= SCAN_DEPTH:
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
