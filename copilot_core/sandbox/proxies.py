"""Curated, read-only views of the libraries model code may use.

Model code never receives a real module: a module is a doorway to ``os``/``sys`` through public
attribute chains (``go.Figure().layout.re.enum.sys``).  Each :class:`Namespace` exposes an explicit
allowlist; anything else is an ``AttributeError`` that names what *is* available.
"""

from __future__ import annotations

import collections
import datetime
import json
import math
import statistics
from collections.abc import Iterable, Mapping

import numpy as np
import pandas as pd
import plotly.express as px
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from copilot_core.sandbox.figures import copy_registered_templates_unvalidated
from copilot_core.sandbox.memsafe import checked_class


class Namespace:
    """An immutable bag of allowlisted names that looks like a module to model code."""

    __slots__ = ("_label", "_items")
    _label: str
    _items: dict[str, object]

    def __init__(self, label: str, items: Mapping[str, object]) -> None:
        object.__setattr__(self, "_label", label)
        # ``from pandas import MultiIndex`` reads this dict directly: classes are the checked stand-ins here too
        object.__setattr__(self, "_items", {k: checked_class(v) if isinstance(v, type) and not isinstance(
            v, _TypeCheckOnly) else v for k, v in items.items()})

    def __getattr__(self, attr: str) -> object:
        try:
            return self._items[attr]
        except KeyError:
            raise AttributeError(
                f"{self._label}.{attr} is not available in the sandbox "
                f"(available: {', '.join(sorted(self._items)[:40])}...)") from None

    def __setattr__(self, attr: str, value: object) -> None:
        raise AttributeError(f"{self._label} is read-only in the sandbox")

    __delattr__ = __setattr__  # type: ignore[assignment]

    def __dir__(self) -> list[str]:
        return sorted(self._items)

    def __repr__(self) -> str:
        return f"<sandbox namespace {self._label}>"


class _TypeCheckOnly(type):
    """Metaclass of a stand-in that answers ``isinstance``/``issubclass`` for a real type but builds nothing."""

    _real: type

    def __instancecheck__(cls, instance: object) -> bool:
        return isinstance(instance, cls._real)

    def __subclasscheck__(cls, subclass: type) -> bool:
        return issubclass(subclass, cls._real)

    def __call__(cls, *args: object, **kwargs: object) -> object:
        raise TypeError(f"{cls.__name__}(...) is not available in the sandbox (it returns uninitialised memory); "
                        "use np.zeros, np.full or np.array")


class ndarray(metaclass=_TypeCheckOnly):  # noqa: N801 - model code writes ``isinstance(x, np.ndarray)``
    """``np.ndarray`` for ``isinstance`` checks only: calling the real one hands out uninitialised memory."""

    __module__ = "numpy"
    _real = np.ndarray


def _pick(module: object, names: Iterable[str], label: str) -> dict[str, object]:
    """The named attributes of ``module``; a missing name is a bug in this allowlist, so fail loudly."""
    missing = [n for n in names if not hasattr(module, n)]
    if missing:
        raise RuntimeError(f"sandbox allowlist for {label} names missing attributes: {missing}")
    return {n: getattr(module, n) for n in names}


PANDAS_NAMES = (
    "DataFrame", "Series", "Index", "DatetimeIndex", "MultiIndex", "RangeIndex", "CategoricalIndex",
    "Timestamp", "Timedelta", "Period", "Interval", "DateOffset", "Grouper", "NamedAgg", "Categorical",
    "NaT", "NA", "concat", "merge", "merge_asof", "merge_ordered", "pivot", "pivot_table", "crosstab",
    "melt", "wide_to_long", "get_dummies", "cut", "qcut", "factorize", "unique", "to_datetime",
    "to_numeric", "to_timedelta", "date_range", "bdate_range", "timedelta_range", "period_range",
    "interval_range", "isna", "isnull", "notna", "notnull", "json_normalize",
)

NUMPY_NAMES = (
    # construction and shape
    "array", "asarray", "arange", "linspace", "logspace", "geomspace", "zeros", "ones", "full",
    "zeros_like", "ones_like", "full_like", "eye", "identity", "diag", "tri", "triu", "tril",
    "meshgrid", "reshape", "ravel", "transpose", "concatenate", "stack", "vstack", "hstack", "dstack",
    "column_stack", "split", "array_split", "tile", "repeat", "roll", "flip", "fliplr", "flipud",
    "squeeze", "expand_dims", "atleast_1d", "atleast_2d", "broadcast_to", "append", "insert", "delete",
    # reductions and statistics
    "sum", "prod", "mean", "median", "std", "var", "min", "max", "amin", "amax", "ptp", "average",
    "cumsum", "cumprod", "diff", "gradient", "percentile", "quantile", "histogram", "histogram2d",
    "bincount", "digitize", "corrcoef", "cov", "correlate", "convolve", "trapezoid", "count_nonzero",
    "nanmean", "nanmedian", "nanstd", "nanvar", "nanmin", "nanmax", "nansum", "nanprod", "nanpercentile",
    "nanquantile", "nanargmin", "nanargmax", "nancumsum", "argmin", "argmax", "argsort", "sort",
    "searchsorted", "unique", "nonzero", "flatnonzero", "argwhere", "where", "select", "clip", "isin",
    "intersect1d", "union1d", "setdiff1d", "all", "any", "allclose", "isclose", "array_equal",
    "polyfit", "polyval", "poly1d", "interp", "dot", "matmul", "outer", "inner", "cross", "trace",
    "nan_to_num", "round", "around", "errstate",
    # element-wise
    "abs", "absolute", "sign", "sqrt", "cbrt", "square", "exp", "exp2", "expm1", "log", "log2", "log10",
    "log1p", "power", "floor", "ceil", "trunc", "rint", "mod", "fmod", "add", "subtract", "multiply",
    "divide", "true_divide", "floor_divide", "negative", "maximum", "minimum", "fmax", "fmin", "hypot",
    "sin", "cos", "tan", "arcsin", "arccos", "arctan", "arctan2", "sinh", "cosh", "tanh", "deg2rad",
    "rad2deg", "degrees", "radians", "isnan", "isfinite", "isinf", "logical_and", "logical_or",
    "logical_not", "logical_xor", "greater", "less", "equal", "not_equal",
    # constants and types
    "nan", "inf", "pi", "e", "newaxis", "float64", "float32", "int64", "int32", "bool_",
    "datetime64", "timedelta64", "dtype",
)
NUMPY_RANDOM_NAMES = ("default_rng", "seed", "rand", "randn", "random", "normal", "uniform", "choice",
                      "randint", "permutation", "shuffle", "poisson", "exponential", "lognormal")
NUMPY_LINALG_NAMES = ("norm", "inv", "pinv", "solve", "lstsq", "det", "eig", "eigh", "eigvals", "eigvalsh",
                      "svd", "qr", "cholesky", "matrix_rank", "LinAlgError")
NUMPY_FFT_NAMES = ("fft", "ifft", "rfft", "irfft", "fftfreq", "rfftfreq", "fftshift")

GO_NAMES = (
    "Figure", "Layout", "Scatter", "Scattergl", "Bar", "Barpolar", "Heatmap", "Histogram", "Histogram2d",
    "Histogram2dContour", "Box", "Violin", "Pie", "Contour", "Surface", "Scatter3d", "Scatterpolar",
    "Table", "Indicator", "Candlestick", "Ohlc", "Waterfall", "Funnel", "Sunburst", "Treemap", "Sankey",
    "Splom", "Parcoords", "Carpet", "Image",
)
GO_LAYOUT_NAMES = ("Annotation", "Shape", "XAxis", "YAxis", "Title", "Legend", "Margin", "Font", "Grid",
                   "Updatemenu", "Slider")
PX_NAMES = (
    "line", "scatter", "bar", "area", "histogram", "box", "violin", "strip", "ecdf", "density_heatmap",
    "density_contour", "imshow", "pie", "sunburst", "treemap", "funnel", "timeline", "scatter_matrix",
    "parallel_coordinates", "parallel_categories", "scatter_3d", "line_3d", "scatter_polar",
    "line_polar", "bar_polar",
)
MATH_NAMES = tuple(n for n in dir(math) if not n.startswith("_"))
STATISTICS_NAMES = ("mean", "fmean", "geometric_mean", "harmonic_mean", "median", "median_low",
                    "median_high", "median_grouped", "mode", "multimode", "quantiles", "pstdev", "pvariance",
                    "stdev", "variance", "covariance", "correlation", "linear_regression", "StatisticsError")
JSON_NAMES = ("dumps", "loads", "JSONDecodeError")
DATETIME_NAMES = ("date", "datetime", "time", "timedelta", "timezone", "MINYEAR", "MAXYEAR")
COLLECTIONS_NAMES = ("Counter", "defaultdict", "OrderedDict", "deque", "ChainMap")


def _colors_view() -> Namespace:
    """``px.colors`` as plain data: colour lists only, never the submodules behind them."""
    groups = {}
    for group in ("sequential", "diverging", "qualitative", "cyclical"):
        module = getattr(px.colors, group)
        lists = {n: list(v) for n, v in vars(module).items()
                 if not n.startswith("_") and isinstance(v, list) and all(isinstance(c, str) for c in v)}
        groups[group] = Namespace(f"px.colors.{group}", lists)
    groups["DEFAULT_PLOTLY_COLORS"] = list(px.colors.DEFAULT_PLOTLY_COLORS)  # type: ignore[assignment]
    return Namespace("px.colors", groups)


def build_namespaces() -> dict[str, Namespace]:
    """The importable names, keyed by the dotted module name model code writes in ``import``."""
    copy_registered_templates_unvalidated()  # every sandbox interpreter builds px figures the same, cheaper way
    random_ns = Namespace("numpy.random", _pick(np.random, NUMPY_RANDOM_NAMES, "numpy.random"))
    linalg_ns = Namespace("numpy.linalg", _pick(np.linalg, NUMPY_LINALG_NAMES, "numpy.linalg"))
    np_ns = Namespace("numpy", {
        **_pick(np, NUMPY_NAMES, "numpy"),
        "ndarray": ndarray,
        "random": random_ns,
        "linalg": linalg_ns,
        "fft": Namespace("numpy.fft", _pick(np.fft, NUMPY_FFT_NAMES, "numpy.fft")),
    })
    go_ns = Namespace("plotly.graph_objects", {
        **_pick(go, GO_NAMES, "plotly.graph_objects"),
        "layout": Namespace("plotly.graph_objects.layout", _pick(go.layout, GO_LAYOUT_NAMES, "go.layout")),
    })
    px_ns = Namespace("plotly.express", {**_pick(px, PX_NAMES, "plotly.express"), "colors": _colors_view()})
    subplots_ns = Namespace("plotly.subplots", {"make_subplots": make_subplots})
    plotly_ns = Namespace("plotly", {"graph_objects": go_ns, "express": px_ns, "subplots": subplots_ns})
    return {
        "pandas": Namespace("pandas", _pick(pd, PANDAS_NAMES, "pandas")),
        "numpy": np_ns,
        "numpy.random": random_ns,
        "numpy.linalg": linalg_ns,
        "plotly": plotly_ns,
        "plotly.graph_objects": go_ns,
        "plotly.graph_objs": go_ns,
        "plotly.express": px_ns,
        "plotly.subplots": subplots_ns,
        "math": Namespace("math", _pick(math, MATH_NAMES, "math")),
        "statistics": Namespace("statistics", _pick(statistics, STATISTICS_NAMES, "statistics")),
        "json": Namespace("json", _pick(json, JSON_NAMES, "json")),
        "datetime": Namespace("datetime", _pick(datetime, DATETIME_NAMES, "datetime")),
        "collections": Namespace("collections", _pick(collections, COLLECTIONS_NAMES, "collections")),
    }


# Names bound before the code runs, so the usual ``pd``/``np``/``go``/``px`` idiom works without imports.
PRELOADED = {"pd": "pandas", "np": "numpy", "go": "plotly.graph_objects", "px": "plotly.express",
             "math": "math", "statistics": "statistics", "json": "json"}
