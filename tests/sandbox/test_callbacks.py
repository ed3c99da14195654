"""Model callbacks never hold what model code may not: every ``def`` and ``lambda`` model code writes checks what
it is called with, whoever calls it (its own code or a library calling it back), so a library that handed it a
module, a frame, a system function or an unchecked library function would be refused, and library functions and
classes arrive guarded.  Cases written after the guard."""

from __future__ import annotations

import inspect
import os
import posix
import sys

import numpy as np
import pandas as pd
import pytest

from copilot_core.sandbox import run_analysis
from copilot_core.sandbox.memsafe import SecurityError
from copilot_core.sandbox.policy_compile import compile_analysis
from copilot_core.sandbox.policy_guards import GuardedCall, ModelFunction, check_value, guard_value
from copilot_core.sandbox.policy_namespace import PrintBuffer, build_globals
from copilot_core.sandbox.proxies import build_namespaces
from tests.sandbox.test_memory_unsafe import _reachable

_NAMESPACES = build_namespaces()


def _model(source: str, **data: object) -> dict:
    """Model code compiled and run under the policy as a job runs it (without the job's process layers)."""
    env = build_globals(_NAMESPACES, data, PrintBuffer())
    exec(compile_analysis(source), env)  # noqa: S102 - the policy-compiled code under test
    return env


SHAPES = ("def f(x):\n    return x\n"
          "g = lambda x: x\n"
          "def outer():\n    def inner(x):\n        return x\n    return inner\n"
          "h = outer()\n"
          "k = [lambda x: x for n in [1]][0]\n"
          "def gen(x):\n    yield x\n"
          "def kw(x=None, **more):\n    return x\n")


def test_every_function_model_code_writes_checks_its_arguments():
    env = _model(SHAPES)
    for name in ("f", "g", "h", "k", "gen", "kw"):
        assert isinstance(env[name], ModelFunction), name
    forbidden = {"module os": os, "module posix": posix, "os.stat": os.stat, "posix.stat": posix.stat,
                 "a frame": sys._getframe(), "builtins.open": open, "eval": eval,
                 "a module in a list": [1, os], "a module dict": vars(os), "code": (lambda: 0).__code__}
    for label, value in forbidden.items():
        for name in ("f", "g", "h", "k"):
            with pytest.raises(SecurityError):
                env[name](value)
        with pytest.raises(SecurityError):
            list(env["gen"](value))
        with pytest.raises(SecurityError):
            env["kw"](x=value)
        with pytest.raises(SecurityError):
            env["kw"](1, other=value)
        assert label


def test_a_library_function_or_class_reaches_a_callback_guarded():
    env = _model(SHAPES)
    frombuffer = env["f"](np.frombuffer)
    assert isinstance(frombuffer, GuardedCall)
    with pytest.raises(SecurityError, match="reinterprets raw memory"):
        frombuffer(b"\0" * 8)
    multi = env["g"](pd.MultiIndex)
    assert multi is not pd.MultiIndex and isinstance(pd.MultiIndex.from_arrays([[1]]), multi)
    with pytest.raises(SecurityError, match="verify_integrity"):
        multi(levels=[["a"]], codes=[[5]], verify_integrity=False)
    as_strided = env["h"](np.lib.stride_tricks.as_strided)
    with pytest.raises(SecurityError, match="reinterprets raw memory"):
        as_strided(np.zeros(2), shape=(10**6,), strides=(0,))
    frame = pd.DataFrame({"a": [1.0, 2.0]})
    assert env["k"](frame) is frame and env["k"](3) == 3  # data and numbers pass as they are


# Callbacks through the API inside a real job; each prints what the test recomputes from the data below.
JOBS = {
    "apply-rows": ("print(int(data['t1'].apply(lambda row: row['value'] > 50, axis=1).sum()))",
                   lambda t1: int((t1["value"] > 50).sum())),
    "groupby-apply": ("print(round(float(data['t1'].groupby('qid').apply(lambda g: g['value'].max(), "
                      "include_groups=False).sum()), 3))",
                      lambda t1: round(float(t1.groupby("qid")["value"].max().sum()), 3)),
    "map": ("print(int(data['t1']['qid'].map(lambda q: len(q)).sum()))",
            lambda t1: int(t1["qid"].map(len).sum())),
    "pipe": ("def rows(d):\n    return len(d)\nprint(data['t1'].pipe(rows))", lambda t1: len(t1)),
    "agg-named": ("def spread(s):\n    return s.max() - s.min()\n"
                  "print(round(float(data['t1'].groupby('qid')['value'].agg(spread).max()), 3))",
                  lambda t1: round(float((t1.groupby("qid")["value"].max() - t1.groupby("qid")["value"].min()).max()), 3)),
    "transform": ("print(round(float(data['t1'].groupby('qid')['value'].transform(lambda s: s - s.mean()).abs().max()), 3))",
                  lambda t1: round(float((t1["value"] - t1.groupby("qid")["value"].transform("mean")).abs().max()), 3)),
    "filter": ("print(len(data['t1'].groupby('qid').filter(lambda g: g['value'].mean() > 50)))",
               lambda t1: len(t1.groupby("qid").filter(lambda g: g["value"].mean() > 50))),
    "sort-key": ("print(data['t1'].sort_values('qid', key=lambda s: s.astype(int))['qid'].iloc[-1])",
                 lambda t1: t1.sort_values("qid", key=lambda s: s.astype(int))["qid"].iloc[-1]),
    "rename": ("print(list(data['t1'].rename(columns=lambda c: c.upper()).columns))",
               lambda t1: [c.upper() for c in t1.columns]),
    "str-replace-repl": ("print(data['t1']['unit'].str.replace('s', lambda m: m.group(0).upper(), regex=True).iloc[0])",
                         lambda t1: t1["unit"].str.replace("s", "S").iloc[0]),
    "json-object-hook": ("print(json.loads('{\"a\": 1}', object_hook=lambda d: len(d)))", lambda t1: 1),
    "figure-for-each-trace": ("fig = px.line(data['t1'].head(10), x='calibrated_at', y='value', color='qid')\n"
                              "n = []\nfig.for_each_trace(lambda t: n.append(t.name))\nprint(len(n))",
                              lambda t1: t1.head(10)["qid"].nunique()),
}


def test_callbacks_through_the_api_compute_as_they_should(store):
    t1 = store["t1"]
    for name, (code, expected) in JOBS.items():
        result = run_analysis(code, store)
        assert result.error is None, (name, result.error)
        assert result.output == str(expected(t1)), (name, result.output)


def test_a_callback_reads_no_internals_of_what_it_is_given(store):
    for code in ("print(data['t1'].pipe(lambda d: getattr(d, '_mgr')))",
                 "print(data['t1'].groupby('qid').apply(lambda g: getattr(g, '_mgr'), include_groups=False))",
                 "print(data['t1']['qid'].map(lambda q: getattr(q, 'mro')))",
                 "print(data['t1'].apply(lambda r: r.values.ctypes, axis=1))"):
        result = run_analysis(code, store)
        assert result.error and ("SecurityError" in result.error or "AttributeError" in result.error), (code, result.error)
        assert result.output == ""


# Parameters of the reachable API that take a callable (pandas, numpy, plotly and json spellings).
CALLBACK_PARAMS = frozenset({"func", "f", "function", "fn", "key", "aggfunc", "mapper", "arg", "cond", "other",
                             "repl", "default", "default_handler", "object_hook", "object_pairs_hook", "parse_float",
                             "parse_int", "parse_constant", "callback", "call", "selector", "formatters",
                             "float_format", "by", "index", "columns", "values"})


def test_every_reachable_callback_parameter_hands_the_callback_only_guarded_values():
    """Calls each reachable callable that has a callback parameter with a model probe there and, where the call
    works with that argument alone, checks everything the probe received."""
    received: list[object] = []
    env = _model("def probe(*args, **kwargs):\n    seen.append(args)\n    seen.append(kwargs)\n    return args[0] "
                 "if args else 0\n", seen=received)
    env["seen"] = received
    probe, called = env["probe"], []
    for name, fn in _reachable():
        try:
            params = set(inspect.signature(fn).parameters)
        except (TypeError, ValueError):
            continue
        for param in sorted(params & CALLBACK_PARAMS):
            before = len(received)
            try:
                guard_value(fn, name.rsplit(".", 1)[-1])(**{param: probe})  # type: ignore[operator]
            except SecurityError:
                raise
            except Exception:  # noqa: BLE001 - most need further arguments; those that ran are what counts
                pass
            if len(received) > before:
                called.append(f"{name}({param})")
    print(len(called), "callback parameters called:", called)
    assert len(called) >= 15, called
    for expected in ("DataFrame.apply(func)", "DataFrame.pipe(func)", "DataFrame.agg(func)", "Series.apply(func)",
                     "DataFrame.transform(func)", "DataFrameGroupBy.apply(func)"):
        assert expected in called, (expected, called)
    for item in received:
        values = list(item.values()) if isinstance(item, dict) else list(item)
        for value in values:
            check_value(value)
            assert not callable(value) or isinstance(value, (GuardedCall, ModelFunction, type)), value
