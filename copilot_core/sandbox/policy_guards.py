"""The policy's run-time guards: RestrictedPython's hooks (``_getattr_``, ``_getitem_``, ``_getiter_``,
``_write_``, ``_inplacevar_``, ``_apply_``) and the wrappers every callable model code reaches is handed in
(``GuardedCall`` for library functions, ``ModelFunction`` for its own), each applying the value, name and
argument rules (``policy_denied``, ``policy_calls``); and the sandbox's own builtins, guarded alike."""

from __future__ import annotations

import operator
import types
from collections.abc import Callable, Iterable
from typing import Protocol, cast

import numpy as np
import pandas as pd
from pandas.core.groupby.indexing import GroupByNthSelector
from plotly.basedatatypes import BaseFigure, BasePlotlyType
from RestrictedPython import safe_builtins
from RestrictedPython.Guards import safer_getattr_raise

from copilot_core.render_safety.addresses import scrub_addresses
from copilot_core.sandbox.memsafe import SecurityError, checked_class
from copilot_core.sandbox.policy_calls import MAX_NAME_SCAN, check_call, check_name
from copilot_core.sandbox.policy_denied import (
    CALLABLE_TYPES,
    DANGEROUS_MODULES,
    DENIED_IDS,
    DENIED_TYPES,
    MAX_CONTAINER_SCAN,
    SCALAR_TYPES,
    SCAN_DEPTH,
    is_plain_builtin,
    module_root,
)
from copilot_core.sandbox.proxies import Namespace


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
        if type(item) in SCALAR_TYPES:
            continue
        check_value(item, depth + 1, budget)


def check_value(value: object, depth: int = 0, budget: list[int] | None = None) -> object:
    """``value`` if model code may hold it; SecurityError for modules, frames, code and system functions,
    module namespaces, and plain containers holding any of them."""
    if type(value) in SCALAR_TYPES or id(value) in _SANDBOX_BUILTIN_IDS:  # builtins model code was given
        return value
    if isinstance(value, (list, tuple, dict, set, frozenset)):
        if depth >= SCAN_DEPTH:
            raise SecurityError("containers nested this deeply cannot be checked in the sandbox")
        _check_contents(value, [MAX_CONTAINER_SCAN] if budget is None else budget, depth)
        return value
    if isinstance(value, DENIED_TYPES):
        raise SecurityError(f"{type(value).__name__} objects are not available in the sandbox")
    if id(value) in DENIED_IDS:
        raise SecurityError(f"{getattr(value, '__name__', 'this builtin')} is not available in the sandbox")
    if isinstance(value, CALLABLE_TYPES):
        owner = getattr(value, "__self__", None)
        if isinstance(owner, types.ModuleType) and owner.__name__.split(".", 1)[0] in DANGEROUS_MODULES:
            raise SecurityError(f"{owner.__name__} functions are not available in the sandbox")
        if module_root(value) in DANGEROUS_MODULES and not is_plain_builtin(value):
            raise SecurityError(f"{getattr(value, '__qualname__', 'this object')} is not available in the sandbox")
    return value


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
            if type(value) not in SCALAR_TYPES:
                break
        else:
            if not kwargs:  # numbers and strings (``map``/``apply`` over values): nothing to check
                return self._fn(*args)
        return self._fn(*[a if type(a) in SCALAR_TYPES else guard_value(a) for a in args],
                        **{k: v if type(v) in SCALAR_TYPES else guard_value(v) for k, v in kwargs.items()})

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


class _Subscriptable(Protocol):
    def __getitem__(self, key: object, /) -> object: ...


def guarded_getitem(obj: object, key: object) -> object:
    """``_getitem_``: ordinary indexing, then the value check."""
    check_value(obj)
    return guard_value(cast(_Subscriptable, obj)[key])  # Python raises TypeError for what is not


class CheckedIterator:
    """Iteration that checks every item (no generator frame to walk)."""

    __slots__ = ("_it",)

    def __init__(self, iterable: Iterable[object]) -> None:
        self._it = iter(iterable)

    def __iter__(self) -> "CheckedIterator":
        return self

    def __next__(self) -> object:
        return guard_value(next(self._it))


def guarded_iter(obj: object) -> CheckedIterator:
    check_value(obj)
    return CheckedIterator(cast(Iterable[object], obj))  # iter() raises TypeError for what is not


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


def apply_call(fn: Callable[..., object], *args: object, **kwargs: object) -> object:
    """A call written with ``*args``/``**kwargs`` (RP routes it here): the same checks as any other call."""
    if not _is_model_function(fn):
        fn = cast(Callable[..., object], guard_value(fn))
        if not isinstance(fn, GuardedCall):  # a class or ufunc: check what goes in, and what comes out
            check_call(getattr(fn, "__name__", "call"), args, kwargs, fn)
            return guard_value(fn(*args, **kwargs))
    return fn(*args, **kwargs)


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


def guarded_map(fn: object, *iterables: Iterable[object]) -> CheckedIterator:
    return CheckedIterator(map(cast(Callable[..., object], _callback(fn)), *iterables))


def guarded_filter(fn: object, iterable: Iterable[object]) -> CheckedIterator:
    return CheckedIterator(filter(_callback(fn), iterable))


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


# The builtins model code gets (``__import__`` is added per job); built once, so they are known by identity.
SANDBOX_BUILTINS: dict[str, object] = {
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
_SANDBOX_BUILTIN_IDS = frozenset(id(v) for v in SANDBOX_BUILTINS.values())
