"""The per-session data store the sandbox reads as ``data``."""

from __future__ import annotations

import io

import pandas as pd
import pytest

from copilot_core.tools import DataStore


def _frame(n: int) -> pd.DataFrame:
    return pd.DataFrame({"qid": [str(i) for i in range(n)], "value": [i * 0.5 for i in range(n)]})


def test_put_get_frames_and_describe():
    store = DataStore()
    store.put("t1", {"chip_id": "64Qv3"}, _frame(4))
    store.put("chip_summary", {"chip_id": "64Qv3"}, _frame(2))
    assert store.keys() == ["t1", "chip_summary"]
    assert store.get("t1") == {"chip_id": "64Qv3"} and store.get("nope") is None
    assert store.frame("t1").equals(_frame(4))
    described = {d["key"]: d for d in store.describe()}
    assert described["t1"]["rows"] == 4 and described["t1"]["columns"] == ["qid", "value"]
    assert described["t1"]["created_at"] is not None


def test_frames_are_copies():
    store = DataStore()
    store.put("t1", {}, _frame(3))
    frames = store.frames()
    frames["t1"].loc[0, "value"] = 999.0
    assert store.frame("t1").loc[0, "value"] == 0.0


def test_csv_round_trip_and_missing_key():
    store = DataStore()
    store.put("t1", {}, _frame(3))
    back = pd.read_csv(io.BytesIO(store.to_csv("t1")), dtype={"qid": str})
    assert back.equals(_frame(3))
    with pytest.raises(KeyError, match="available: t1"):
        store.to_csv("t2")


def test_bounded_and_clear():
    store = DataStore(max_entries=2)
    for key in ("a", "b", "c"):
        store.put(key, {}, _frame(1))
    assert store.keys() == ["b", "c"]
    store.put("b", {"new": True}, _frame(1))  # re-putting refreshes the position
    assert store.keys() == ["c", "b"] and store.get("b") == {"new": True}
    store.clear()
    assert store.keys() == [] and store.frames() == {}
