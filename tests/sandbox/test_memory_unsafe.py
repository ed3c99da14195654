"""The memory-unsafe class: any callable model code can reach that takes a switch skipping pandas'/numpy's own
checks, or raw memory layout, is refused with that value however it is called; raw-memory functions by name.
The cases below were written after the guard (``memsafe``), as an attacker would spell them."""

from __future__ import annotations

import inspect

import numpy as np
import pandas as pd
import pytest

from copilot_core.sandbox import run_analysis
from copilot_core.sandbox.memsafe import CHECK_SWITCHES, RAW_MEMORY, SKIP_SWITCHES, SecurityError
from copilot_core.sandbox.policy_guards import guard_value
from copilot_core.sandbox.proxies import build_namespaces

REFUSED = "is not allowed in the sandbox (it skips the library's own memory checks or passes raw memory)"
CASES = [
    ("from-codes-keyword", "c = pd.Categorical.from_codes([5, 10**6], categories=['a', 'b'], validate=False)"),
    ("from-codes-positional", "c = pd.Categorical.from_codes([5], ['a', 'b'], None, None, False)"),
    ("from-codes-none", "c = pd.Categorical.from_codes([5], ['a', 'b'], validate=None)"),
    ("from-codes-numpy-false", "c = pd.Categorical.from_codes([5], ['a', 'b'], validate=np.bool_(False))"),
    ("from-codes-star-star", "c = pd.Categorical.from_codes(*[[5], ['a']], **{'validate': False})"),
    ("from-codes-through-map", "print(list(map(pd.Categorical.from_codes, [[5]], [['a']], [None], [None], [0])))"),
    ("multiindex-keyword", "m = pd.MultiIndex(levels=[[pd.Series([1])]], codes=[[5]], verify_integrity=False)"),
    ("multiindex-positional", "m = pd.MultiIndex([['a']], [[5]], None, None, False, None, False)"),
    ("multiindex-imported-alias", "from pandas import MultiIndex as M\nm = M(levels=[['a']], codes=[[7]], "
                                  "verify_integrity=False)"),
    ("multiindex-in-a-list", "g = [pd.MultiIndex][0]\nm = g(levels=[['a']], codes=[[5]], verify_integrity=0)"),
    ("multiindex-star-star", "kw = {'verify_integrity': False}\nm = pd.MultiIndex(levels=[['a']], codes=[[5]], **kw)"),
    ("set-codes", "m = pd.MultiIndex.from_arrays([['a', 'b'], [1, 2]])\n"
                  "m = m.set_codes([9, 9], level=0, verify_integrity=False)"),
    ("set-index", "d = data['t1'].set_index('qid', verify_integrity=False)"),
    ("resize-view", "a = np.zeros(10)\nb = a[2:]\na.resize(100, refcheck=False)"),
    ("resize-values", "v = data['t1']['value'].to_numpy()\nv.resize(10**6, refcheck=False)"),
]
RAW = [
    ("getfield", "print(np.zeros(3).getfield(np.float64, 0))"),
    ("setfield", "a = np.zeros(3)\na.setfield(1.0, np.float64, 8)"),
]


@pytest.mark.parametrize(("name", "code"), CASES, ids=[n for n, _ in CASES])
def test_a_call_that_skips_a_memory_check_is_refused(name, code, store, planted):
    result = run_analysis(code, store, timeout_s=10)
    assert "SecurityError: " in (result.error or "") and REFUSED.split(" (")[0] in result.error, result.error
    assert "crashed" not in result.error and result.output == ""


@pytest.mark.parametrize(("name", "code"), RAW, ids=[n for n, _ in RAW])
def test_raw_memory_functions_are_refused_by_name(name, code, store, planted):
    result = run_analysis(code, store, timeout_s=10)
    assert "reinterprets raw memory and is not available in the sandbox" in (result.error or ""), result.error


def test_the_checked_calls_still_work_with_their_checks_on(store, planted):
    code = ("m = pd.MultiIndex(levels=[['a']], codes=[[0]])\n"
            "print(list(pd.Categorical.from_codes([0, 1], ['a', 'b'])), len(m), isinstance(m, pd.MultiIndex),\n"
            "      len(pd.merge(data['t1'], data['t1'].head(1), on='qid', validate='many_to_one')),\n"
            "      pd.MultiIndex.from_arrays([['a'], [1]]).set_codes([0], level=0).tolist())\n"
            "a = np.zeros(3)\na.resize(5)\nprint(a.shape)")
    result = run_analysis(code, store)
    t1 = store["t1"]
    merged = len(t1[t1["qid"] == t1["qid"].iloc[0]])
    assert result.error is None
    assert result.output == f"['a', 'b'] 1 True {merged} [('a', 1)]\n(5,)"


def _reachable() -> list[tuple[str, object]]:
    """Every public callable model code reaches from its namespaces, their classes, and typical instances."""
    found: list[tuple[str, object]] = []
    seen: set[int] = set()
    samples = [pd.DataFrame({"a": [1]}), pd.Series([1]), pd.Index([1]), pd.MultiIndex.from_arrays([[1], [2]]),
               pd.Categorical(["a"]), np.zeros(2), pd.Timestamp("2026-01-01"), pd.Series(["a"]).str,
               pd.Series(pd.to_datetime(["2026-01-01"])).dt, pd.DataFrame({"a": [1]}).groupby("a")]
    roots: list[tuple[str, object]] = [(f"{label}.{k}", getattr(v, "_real", v))  # a stand-in's real class
                                       for label, ns in build_namespaces().items() for k, v in ns._items.items()]
    roots += [(type(s).__name__, s) for s in samples]
    for label, root in roots:
        for name, value in [(label, root)] + [(f"{label}.{a}", _attribute(root, a)) for a in dir(root)
                                              if not a.startswith("_")]:
            if callable(value) and id(value) not in seen:
                seen.add(id(value))
                found.append((name, value))
    return found


def _attribute(obj: object, name: str) -> object:
    try:
        return getattr(obj, name)
    except Exception:  # noqa: BLE001 - properties that raise for this sample (MultiIndex.array)
        return None


def _unsafe_value(param: str) -> object:
    return False if param in CHECK_SWITCHES else True if param in SKIP_SWITCHES else b"\0" * 64


def test_every_reachable_callable_taking_a_parameter_of_the_class_refuses_it():
    checked = []
    for name, fn in _reachable():
        try:
            params = set(inspect.signature(fn).parameters)
        except (TypeError, ValueError):
            continue
        for param in sorted(params & (CHECK_SWITCHES | SKIP_SWITCHES | RAW_MEMORY)):
            guarded = guard_value(fn, name.rsplit(".", 1)[-1])
            with pytest.raises(SecurityError, match=f"{param}=|reinterprets raw memory"):
                guarded(**{param: _unsafe_value(param)})  # type: ignore[operator]
            checked.append(f"{name}({param})")
    for expected in ("pandas.MultiIndex(verify_integrity)", "pandas.Categorical.from_codes(validate)",
                     "MultiIndex.set_codes(verify_integrity)", "ndarray.resize(refcheck)",
                     "DataFrame.set_index(verify_integrity)", "pandas.concat(verify_integrity)"):
        assert expected in checked, (expected, checked)
