"""Two users on one worker: nothing of user A's request is left where user B's job could find it.

User A's data carries marker values (a note string and floats in a range nothing else produces).  The
long-lived worker's memory is read directly (/proc/<pid>/mem, as its parent) after A's jobs, and user
B's job allocates through every constructor it can reach and searches what it got for A's markers.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import struct

import numpy as np
import pandas as pd
import pytest

from copilot_core.sandbox import host, run_analysis
from copilot_core.sandbox.host import worker_status
from copilot_core.sandbox.warmup import synthetic_timeseries

LOW, HIGH = 987654.0, 987655.0  # user A's values; nothing in B's data or the worker comes near them


def _user_a_store(token: str) -> dict[str, pd.DataFrame]:
    rng = np.random.default_rng(7)
    values = LOW + rng.random(20_000)
    t1 = pd.DataFrame({"qid": [str(i % 144) for i in range(len(values))], "value": values})
    notes = pd.DataFrame({"qid": [str(i) for i in range(200)],
                          "note": [f"zqxj-marker-{token}-{i:04d} patient record" for i in range(200)]})
    return {"t1": t1, "notes": notes}


A_JOB = ("g = data['t1'].groupby('qid')['value'].agg(['mean', 'max'])\n"
         "n = data['notes'].merge(g.reset_index(), on='qid')\n"
         "result = {'output': str(len(n)), 'chart': px.scatter(n, x='mean', y='max', hover_name='note')}\n")


def _float_patterns(store: dict[str, pd.DataFrame]) -> list[bytes]:
    return [struct.pack("<d", v) for v in store["t1"]["value"].to_numpy()[:64]]


def _resident_runs(pagemap, start: int, end: int) -> list[tuple[int, int]]:
    """(start, end) address runs of the pages in [start, end) that are in memory (bit 63 of /proc/pid/pagemap)."""
    page = os.sysconf("SC_PAGE_SIZE")
    pagemap.seek(start // page * 8)
    entries = np.frombuffer(pagemap.read((end - start) // page * 8), dtype="<u8")
    present = (entries >> np.uint64(63)).astype(bool)
    edges = np.flatnonzero(np.diff(np.concatenate([[0], present.astype(np.int8), [0]])))
    return [(start + a * page, start + b * page) for a, b in zip(edges[::2], edges[1::2], strict=True)]


def _worker_memory(pid: int) -> bytes:
    """Every resident page of the worker's private writable mappings (heap, arenas), read as its parent."""
    chunks = []
    with open(f"/proc/{pid}/maps") as maps, open(f"/proc/{pid}/mem", "rb", buffering=0) as mem, \
            open(f"/proc/{pid}/pagemap", "rb", buffering=0) as pagemap:
        for line in maps:
            parts = line.split()
            perms, path = parts[1], parts[5] if len(parts) > 5 else ""
            if not perms.startswith("rw") or perms[3] != "p" or (path and path != "[heap]"):
                continue
            start, end = (int(x, 16) for x in parts[0].split("-"))
            for run_start, run_end in _resident_runs(pagemap, start, end):
                try:
                    mem.seek(run_start)
                    chunks.append(mem.read(run_end - run_start))
                except (OSError, ValueError, OverflowError):
                    continue
    return b"\n".join(chunks)


@pytest.fixture(params=[0, 2], ids=["direct-fork", "spares"])
def worker(request, planted):
    host.use_spare(request.param)
    host.warm_up()
    yield request.param
    host.use_spare()


def test_the_worker_never_holds_a_request_s_data(worker, store):
    token = secrets.token_hex(6)
    user_a = _user_a_store(token)
    for _ in range(3):
        result = run_analysis(A_JOB, user_a)
        assert result.error is None, result.error
        assert result.output == "144" and len(result.charts) == 1
    memory = _worker_memory(worker_status()["pid"])
    assert len(memory) > 10_000_000, "the worker's heap was read"
    note_found = b"zqxj-marker-" + token.encode() in memory
    values_found = sum(p in memory for p in _float_patterns(user_a))
    assert not note_found, "user A's note is in the worker's memory"
    assert values_found == 0, f"{values_found} of user A's values are in the worker's memory"


B_JOB = """
needle = ('zqxj' + '-marker-' + TOKEN).encode()
found = {}
base = np.arange(4096.0)
def check(name, make):
    try:
        arr = make()
    except Exception as exc:
        found[name] = 'refused'
        return
    arr = np.asarray(arr)
    if arr.dtype == np.dtype('O'):
        arr = np.asarray([str(x) for x in arr.ravel()], dtype='U')
    raw = arr.tobytes()
    leak = needle in raw
    if arr.dtype.kind == 'f' and arr.dtype.itemsize == 8:
        leak = leak or bool(((arr >= LOW) & (arr < HIGH)).any())
    if arr.nbytes % 8 == 0 and arr.nbytes:
        as_float = arr.ravel().view('uint8').view('float64')
        leak = leak or bool(((as_float >= LOW) & (as_float < HIGH)).any())
    found[name] = 'LEAK' if leak else 'ok'
for size in [16, 512, 4096, 131072]:
    check(f'empty-{size}', lambda: np.empty(size))
    check(f'empty_like-{size}', lambda: np.empty_like(np.zeros(size)))
    check(f'ndarray-{size}', lambda: np.ndarray((size,)))
    check(f'ndarray-bytes-{size}', lambda: np.ndarray((size,), dtype='S8'))
    check(f'zeros-{size}', lambda: np.zeros(size))
    check(f'ones-{size}', lambda: np.ones(size))
    check(f'full-{size}', lambda: np.full(size, 2.0))
    check(f'zeros_like-{size}', lambda: np.zeros_like(np.ones(size)))
    check(f'full_like-{size}', lambda: np.full_like(np.ones(size), 3.0))
    check(f'series-index-{size}', lambda: pd.Series(index=range(size), dtype='float64').to_numpy())
    check(f'frame-index-{size}', lambda: pd.DataFrame(index=range(size), columns=['a', 'b'], dtype='float64').to_numpy())
    check(f'object-frame-{size}', lambda: pd.DataFrame(index=range(size), columns=['a']).to_numpy())
    check(f'reindex-{size}', lambda: pd.Series([1.0]).reindex(range(size)).to_numpy())
    check(f'shift-{size}', lambda: pd.Series(np.arange(float(size))).shift(size // 2).to_numpy())
    check(f'repeat-{size}', lambda: np.repeat(np.zeros(1), size))
    check(f'tile-{size}', lambda: np.tile(np.ones(2), size))
    check(f'concatenate-{size}', lambda: np.concatenate([np.zeros(size), np.ones(size)]))
    check(f'astype-{size}', lambda: np.arange(size).astype('float32'))
    check(f'bytes-dtype-{size}', lambda: np.zeros(size, dtype='S8'))
    check(f'string-series-{size}', lambda: pd.Series(['x'] * size).str.pad(24).to_numpy())
    check(f'categorical-{size}', lambda: pd.Categorical(['a'] * size, categories=['a', 'b']).codes)
    check(f'pivot-{size}', lambda: pd.DataFrame({'a': np.arange(size) % 7, 'b': np.arange(size) % 5,
                                                  'v': np.ones(size)}).pivot_table(index='a', columns='b',
                                                                                   values='v').to_numpy())
    check(f'unstack-{size}', lambda: pd.Series(np.ones(size), index=pd.MultiIndex.from_arrays(
        [np.arange(size) % 3, np.arange(size)])).unstack().to_numpy())
    check(f'where-{size}', lambda: np.where(np.arange(size) > 3, np.arange(size), np.nan))
    check(f'histogram-{size}', lambda: np.histogram(np.arange(size), bins=64)[0])
    check(f'diff-{size}', lambda: np.diff(np.arange(float(size))))
    check(f'groupby-{size}', lambda: pd.Series(np.ones(size)).groupby(np.arange(size) % 9).agg(['min', 'max']).to_numpy())
    check(f'resample-{size}', lambda: pd.Series(np.ones(size), index=pd.date_range('2026-01-01', periods=size,
                                                                                   freq='37s')).resample('1h').mean().to_numpy())
    check(f'agg-name-{size}', lambda: pd.Series(np.ones(size)).agg('empty'))
    check(f'agg-index-{size}', lambda: pd.Series(np.ones(size)).agg(pd.Index(['empty'])))
    check(f'apply-list-{size}', lambda: pd.Series(np.ones(size)).apply(np.array(['empty_like'])))
    check(f'rng-{size}', lambda: np.random.default_rng(0).random(size))
    check(f'resize-{size}', lambda: np.resize(np.ones(3), size))
    check(f'linspace-{size}', lambda: np.linspace(0, 1, size))
result = {'output': json.dumps(found)}
"""


def test_user_b_finds_nothing_of_user_a_through_any_constructor(worker, store):
    token = secrets.token_hex(6)
    user_a = _user_a_store(token)
    for _ in range(3):
        shown = run_analysis(A_JOB.replace("str(len(n))", "n.to_string()"), user_a)  # A's rows pass through
        assert shown.error is None and "zqxj-marker-" + token in shown.output
    code = (B_JOB.replace("TOKEN", repr(token[:6]) + " + " + repr(token[6:]))
            .replace("LOW", repr(LOW)).replace("HIGH", repr(HIGH)))
    for _ in range(2):
        result = run_analysis(code, synthetic_timeseries(12, 5), timeout_s=20)
        assert result.error is None, result.error
        found = json.loads(result.output)
        leaks = sorted(name for name, verdict in found.items() if verdict == "LEAK")
        assert leaks == [], f"user B found user A's data through {leaks}"
        refused = {re.sub(r"-\d+$", "", name) for name, verdict in found.items() if verdict == "refused"}
        assert {"empty", "empty_like", "ndarray", "ndarray-bytes", "agg-name", "agg-index", "apply-list"} <= refused
        usable = {re.sub(r"-\d+$", "", name) for name, verdict in found.items() if verdict == "ok"}
        assert len(usable) >= 25, sorted(refused)


def test_isinstance_of_ndarray_still_works(store, planted):
    result = run_analysis("v = data['t1']['value'].to_numpy()\n"
                          "print(isinstance(v, np.ndarray), isinstance([1], np.ndarray), isinstance(v, (list, np.ndarray)))",
                          store)
    assert result.error is None, result.error
    assert result.output.split() == ["True", "False", "True"]
