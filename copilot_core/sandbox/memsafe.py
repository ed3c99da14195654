"""The memory-unsafe class of library calls, refused by what a call *takes*, not by a list of functions.

pandas and numpy trust some arguments to describe memory correctly: a switch that skips their own checks
(``Categorical.from_codes(validate=False)``, ``MultiIndex(verify_integrity=False)``,
``ndarray.resize(refcheck=False)``) or raw layout (``buffer=``, ``strides=``).  A wrong value reads or writes
outside an object, which lets code forge objects and step past every other guard.  So any callable model
code reaches, constructors included, is refused when it is handed such a parameter with a value that skips a
check, however the call is spelled (keyword, positional, ``**kwargs``, an alias of the function); and the
functions whose whole job is raw memory (``frombuffer``, ``as_strided``, ``getfield``, ...) are refused by name.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from functools import lru_cache

# A parameter that turns a check off: the value passed must be ``True`` (or, for pandas' merge, a check's name).
CHECK_SWITCHES = frozenset({"validate", "verify_integrity", "refcheck", "integrity", "check_integrity",
                            "validate_indices", "check"})
# A parameter that turns a check off when true.
SKIP_SWITCHES = frozenset({"fastpath", "unsafe", "skip_checks", "no_check", "assume_valid", "trusted"})
# A parameter that hands the library raw memory or its layout: refused whatever its value (except None).
RAW_MEMORY = frozenset({"buffer", "strides", "buf", "address", "ptr", "pointer"})
# Callables whose whole job is to reinterpret raw memory.
RAW_MEMORY_NAMES = frozenset({"frombuffer", "from_buffer", "from_buffer_copy", "as_strided", "getfield", "setfield",
                              "byte_bounds", "from_dlpack", "ctypes", "from_address", "fromstring", "memmap",
                              "sliding_window_view", "ndarray"})


class SecurityError(Exception):
    """Model code tried something the sandbox refuses; the message says what and what to use instead."""


@lru_cache(maxsize=4096)
def _python_signature(fn: Callable[..., object]) -> inspect.Signature | None:
    try:
        return inspect.signature(fn)
    except (TypeError, ValueError):
        return None


def _cached_signature(fn: Callable[..., object]) -> inspect.Signature | None:
    """The signature of a Python function, method or class (cached by function, so bound methods of new objects
    do not fill the cache); None for builtins, whose text signatures only ``compile`` could read (the job's audit
    hook refuses that) and whose switches are keyword-only anyway (``ndarray.resize(*shape, refcheck=)``)."""
    func = getattr(fn, "__func__", fn)
    if not (isinstance(func, type) or inspect.isfunction(func)):
        return None
    try:
        signature = _python_signature(func)
    except TypeError:  # unhashable
        return None
    if signature is not None and inspect.ismethod(fn):  # bound (to an object or, for a classmethod, its class)
        signature = signature.replace(parameters=list(signature.parameters.values())[1:])
    return signature


def takes_unsafe_parameter(fn: Callable[..., object]) -> bool:
    """Whether ``fn``'s signature has a parameter of the class (what the scan of reachable callables looks for)."""
    signature = _cached_signature(fn)
    names = set(signature.parameters) if signature is not None else set()
    return bool(names & (CHECK_SWITCHES | SKIP_SWITCHES | RAW_MEMORY))


def _arguments(fn: Callable[..., object] | None, args: tuple, kwargs: Mapping[str, object]) -> dict[str, object]:
    """Every argument by parameter name where the signature tells it (positional ones included), else keywords."""
    signature = _cached_signature(fn) if fn is not None else None
    if signature is not None:
        try:
            return dict(signature.bind_partial(*args, **kwargs).arguments)
        except TypeError:
            pass
    return dict(kwargs)


def _skips_check(name: str, value: object) -> bool:
    if name in CHECK_SWITCHES:
        return not (value is True or isinstance(value, str) and value != "" or type(value).__name__ == "bool_"
                    and bool(value))
    if name in SKIP_SWITCHES:
        return value is not False and value is not None
    return name in RAW_MEMORY and value is not None


def check_memory_safety(method: str, args: tuple, kwargs: Mapping[str, object],
                        fn: Callable[..., object] | None = None) -> None:
    """SecurityError when this call would take memory layout from the job or skip the library's own checks."""
    if method in RAW_MEMORY_NAMES or getattr(fn, "__name__", None) in RAW_MEMORY_NAMES:
        raise SecurityError(f"{method}() reinterprets raw memory and is not available in the sandbox; "
                            "build arrays with np.array, np.zeros or DataFrame operations")
    for name, value in _arguments(fn, args, kwargs).items():
        if _skips_check(name, value):
            raise SecurityError(f"{method}(): {name}={str(value)[:40]} is not allowed in the sandbox (it skips the "
                                "library's own memory checks or passes raw memory); leave it out")
    if fn is not None:  # ``f(**{'verify_integrity': False})`` with a signature that takes ``**kwargs``
        for name, value in kwargs.items():
            if _skips_check(name, value):
                raise SecurityError(f"{method}(): {name}= is not allowed in the sandbox; leave it out")


class _CheckedType(type):
    """Metaclass of a stand-in for a library class whose constructor takes a parameter of the class: ``isinstance``
    and attributes are the real class's, a call is checked first."""

    _real: type

    def __instancecheck__(cls, instance: object) -> bool:
        return isinstance(instance, cls._real)

    def __subclasscheck__(cls, subclass: type) -> bool:
        return issubclass(subclass, cls._real)

    def __call__(cls, *args: object, **kwargs: object) -> object:
        check_memory_safety(cls._real.__name__, args, kwargs, cls._real)
        return cls._real(*args, **kwargs)

    def __getattr__(cls, name: str) -> object:
        return getattr(cls._real, name)


_STAND_INS: dict[type, type] = {}


def checked_class(cls: type) -> type:
    """``cls`` itself, or (when its constructor takes a parameter of the class) its checked stand-in."""
    if isinstance(cls, _CheckedType) or not takes_unsafe_parameter(cls):
        return cls
    stand_in = _STAND_INS.get(cls)
    if stand_in is None:
        stand_in = _CheckedType(cls.__name__, (), {"_real": cls, "__module__": cls.__module__,
                                                   "__doc__": cls.__doc__, "__slots__": ()})
        _STAND_INS[cls] = stand_in
    return stand_in
