"""Every tool on the demo chips, checked against values computed here from the database itself."""

from __future__ import annotations

import json

import numpy as np

from copilot_core.domain.metrics import QUBIT_METRICS, metric
from copilot_core.domain.topology import qubit_label, topology_for
from copilot_core.tools.compact import compact_number, compact_timestamp, to_model_json
from tests.expected import shown as display


def shown(name: str, param: dict | None, kind: str = "qubit"):
    """What the model should see for a stored parameter: display units, 4 significant figures."""
    return compact_number(display(name, (param or {}).get("value")))


def qubit_doc(db, chip_id: str, qid: str) -> dict:
    return db["qubit"].find_one({"chip_id": chip_id, "qid": qid})


def completed_results(db, chip_id: str, **match) -> list[dict]:
    query = {"chip_id": chip_id, "status": "completed", "excluded": {"$ne": True}, **match}
    return list(db["task_result_history"].find(query).sort([("start_at", -1), ("task_id", 1)]))


def usable_history(db, chip_id: str, name: str, **match) -> dict[str, list[tuple[object, float]]]:
    """qid -> [(calibrated_at, display value)] newest first: the stored history of one parameter without
    NaN/NaN-as-0 values, read with pymongo."""
    out: dict[str, list[tuple[object, float]]] = {}
    for doc in completed_results(db, chip_id, output_parameter_names=name, **match):
        model = doc["output_parameters"][name]
        value = display(name, model["value"])
        if value is not None:
            out.setdefault(doc["qid"], []).append((model.get("calibrated_at"), value))
    return out


def latest_values(db, chip_id: str, name: str) -> dict[str, float | None]:
    """qid -> display value of the newest completed, non-excluded result (None when it is NaN/NaN-as-0)."""
    out: dict[str, float | None] = {}
    for doc in completed_results(db, chip_id, output_parameter_names=name):
        out.setdefault(doc["qid"], display(name, doc["output_parameters"][name]["value"]))
    return out


class TestQubitParams:
    def test_values_in_display_units(self, call, db, chip64, live64):
        qid = live64[3]
        outcome, payload = call("get_qubit_params", chip_id=chip64, qid=f"Q{int(qid):02d}")
        data = qubit_doc(db, chip64, qid)["data"]
        assert outcome.ok and outcome.args["qid"] == qid and payload["label"] == f"Q{int(qid):02d}"
        assert set(payload["parameters"]) == set(data)
        for name, param in data.items():
            assert payload["parameters"][name]["value"] == shown(name, param), name
            assert payload["parameters"][name]["unit"] == metric(name, param.get("unit", "")).unit
        assert payload["parameters"]["x90_gate_fidelity"]["unit"] == "%"
        assert payload["parameters"]["anharmonicity"]["unit"] == "MHz"

    def test_band_matches_thresholds(self, call, db, chip64, live64):
        def t1_band(us: float) -> str:  # the lab's T1 thresholds, written out: bad < 20, good >= 50, excellent >= 100
            return "excellent" if us >= 100 else "good" if us >= 50 else "fair" if us >= 20 else "bad"

        seen = set()
        for qid in live64[:12]:
            _, payload = call("get_qubit_params", chip_id=chip64, qid=qid)
            t1_us = qubit_doc(db, chip64, qid)["data"]["t1"]["value"]  # stored in μs
            assert payload["parameters"]["t1"]["band"] == t1_band(t1_us), (qid, t1_us)
            seen.add(t1_band(t1_us))
        assert len(seen) >= 2  # the check covers more than one band

    def test_unknown_chip_and_qubit_out_of_range(self, call, chip64, demo_chip_ids):
        outcome, payload = call("get_qubit_params", chip_id="nochip", qid="1")
        assert not outcome.ok and "not found" in payload["error"]
        assert all(c in payload["hint"] for c in demo_chip_ids)
        outcome, payload = call("get_qubit_params", chip_id=chip64, qid="64")
        assert not outcome.ok and payload["hint"] == f"{chip64} has qubits Q00..Q63"


def test_compare_qubits_returns_qubit_data(call, db, chip64):
    qids = ["0", "1", "2", "3", "4", "5", "6", "7"]  # dead qubits included: their values are None
    outcome, payload = call("compare_qubits", chip_id=chip64, qids=qids)
    docs = {q: qubit_doc(db, chip64, q)["data"] for q in qids}
    present = set().union(*(d.keys() for d in docs.values()))
    assert payload["parameters"] == [n for n in QUBIT_METRICS if n in present]
    for row in payload["qubits"]:
        for name in payload["parameters"]:
            assert row[name] == shown(name, docs[row["qid"]].get(name)), (row["qid"], name)


class TestChipSummary:
    def test_statistics_equal_numpy_over_display_values(self, call, kit, db, chip144):
        outcome, payload = call("get_chip_summary", chip_id=chip144)
        docs = list(db["qubit"].find({"chip_id": chip144}))
        for name in ("t1", "x90_gate_fidelity", "anharmonicity"):
            values = [display(name, (d["data"].get(name) or {}).get("value")) for d in docs]
            finite = np.array([v for v in values if v is not None])
            stats = payload["statistics"][name]
            assert stats["median"] == compact_number(float(np.median(finite)))
            assert stats["count"] == len(finite) and stats["min"] == compact_number(float(finite.min()))
            assert stats["unit"] == metric(name).unit
        assert outcome.data_keys == ["chip_summary"]
        frame = kit.store.frame("chip_summary")
        assert len(frame) == 144 and list(frame.columns[:2]) == ["qid", "label"]

    def test_model_gets_the_seed_002_summary(self, call, chip144):
        outcome, payload = call("get_chip_summary", chip_id=chip144)
        assert payload["qubits"]["_rows"] == 144 and "t1" in payload["qubits"]["_schema"]
        assert payload["data_key"] == "chip_summary"
        assert payload["_note"] == ("Full data available as data['chip_summary'] in execute_python_analysis. "
                                    "Do NOT pass data manually.")
        # one row per qubit vs one statistics block per parameter: ~17x here; the 50x target is for timeseries
        assert len(to_model_json(outcome.full)) >= 10 * len(outcome.model_text)


class TestChipTimeseries:
    def test_stored_rows_and_latest_stats(self, call, kit, db, chip144):
        outcome, payload = call("get_chip_parameter_timeseries", chip_id=chip144, parameter_name="t1", last_n=30)
        history = {q: points[:30] for q, points in usable_history(db, chip144, "t1").items()}
        frame = kit.store.frame("t1")
        rows = sorted((q, at.isoformat(), v) for q, points in history.items() for at, v in points)
        assert outcome.data_keys == ["t1"] and len(frame) == len(rows) == payload["rows"]["_rows"]
        assert list(frame.columns[:3]) == ["qid", "calibrated_at", "value"]
        # full ISO timestamps and full precision values
        assert sorted(zip(frame["qid"], frame["calibrated_at"], frame["value"])) == rows
        latest = [points[0][1] for points in history.values()]
        expected = compact_number(float(np.median([compact_number(v) for v in latest])))
        assert payload["num_qubits"] == len(latest) and payload["latest_statistics"]["median"] == expected

    def test_summary_is_at_least_50x_smaller(self, call, chip144):
        outcome, payload = call("get_chip_parameter_timeseries", chip_id=chip144, parameter_name="t1", last_n=30)
        assert payload["rows"] == {"_schema": list(outcome.full["rows"][0]), "_rows": len(outcome.full["rows"])}
        assert "Full data available as data['t1'] in execute_python_analysis" in payload["_note"]
        assert len(to_model_json(outcome.full)) >= 50 * len(outcome.model_text)

    def test_subset_of_qubits(self, call, kit, chip64):
        _, payload = call("get_chip_parameter_timeseries", chip_id=chip64, parameter_name="t2_echo", qids=["Q01", "2"])
        assert sorted(kit.store.frame("t2_echo")["qid"].unique()) == ["1", "2"] and payload["num_qubits"] == 2


class TestQubitTimeseries:
    def test_points_equal_the_stored_history(self, call, db, chip64, live64):
        outcome, payload = call("get_parameter_timeseries", chip_id=chip64, parameter_name="t1", qid=live64[6], last_n=5)
        rows = usable_history(db, chip64, "t1", qid=live64[6])[live64[6]][:5][::-1]  # oldest first
        assert outcome.ok and len(rows) == 5
        assert [p["value"] for p in payload["points"]] == [compact_number(v) for _, v in rows]
        assert [p["calibrated_at"] for p in payload["points"]] == [compact_timestamp(at) for at, _ in rows]
        assert payload["unit"] == "μs"

    def test_throttled_to_three_calls_per_request(self, call, kit, chip64, live64):
        for qid in live64[:3]:
            assert call("get_parameter_timeseries", chip_id=chip64, parameter_name="t1", qid=qid)[0].ok
        outcome, payload = call("get_parameter_timeseries", chip_id=chip64, parameter_name="t1", qid=live64[3])
        assert not outcome.ok and "3 calls per request" in payload["error"]
        assert "get_chip_parameter_timeseries" in payload["hint"]
        kit.begin_request()
        assert call("get_parameter_timeseries", chip_id=chip64, parameter_name="t1", qid=live64[3])[0].ok


class TestHeatmap:
    def test_stats_equal_the_newest_stored_values(self, call, db, chip144):
        outcome, payload = call("generate_chip_heatmap", chip_id=chip144, metric_name="t1")
        values = list(latest_values(db, chip144, "t1").values())
        finite = np.array([v for v in values if v is not None])
        stats = payload["stats"]
        assert stats["count"] == len(finite) and stats["total"] == 144
        assert stats["median"] == compact_number(float(np.median(finite)))
        assert stats["mean"] == compact_number(float(finite.mean()))
        assert (stats["min"], stats["max"]) == (compact_number(float(finite.min())), compact_number(float(finite.max())))
        assert stats["unit"] == "μs" and payload["missing"] == 144 - len(finite)

    def test_chart_goes_to_the_answer_not_the_model(self, call, chip144):
        outcome, payload = call("generate_chip_heatmap", chip_id=chip144, metric_name="x90_gate_fidelity")
        assert len(outcome.charts) == 1 and {"data", "layout"} <= set(outcome.charts[0])
        assert outcome.charts[0]["data"][0]["type"] == "heatmap"
        assert '"layout"' not in outcome.model_text and "heatmap" not in outcome.model_text.lower().replace(
            "chip_heatmap", "")
        assert payload["chart"].startswith("Chart generated; it will be appended to your answer.")
        assert payload["stats"]["unit"] == "%" and 90 < payload["stats"]["median"] <= 100

    def test_coupling_metric_and_missing_metric(self, call, chip64):
        outcome, payload = call("generate_chip_heatmap", chip_id=chip64, metric_name="zx90_gate_fidelity")
        assert outcome.ok and payload["kind"] == "coupling" and payload["stats"]["total"] == 112
        outcome, payload = call("generate_chip_heatmap", chip_id=chip64, metric_name="no_such_metric")
        assert not outcome.ok and "list_available_parameters" in payload["hint"] and not outcome.charts


class TestTaskResults:
    def test_latest_task_result(self, call, db, chip64):
        outcome, payload = call("get_latest_task_result", chip_id=chip64, task_name="CheckT1", qid="5")
        newest = completed_results(db, chip64, name="CheckT1", qid="5")[0]
        assert payload["result"]["task_id"] == newest["task_id"]
        assert payload["result"]["output_parameters"]["t1"]["value"] == shown("t1", newest["output_parameters"]["t1"])

    def test_task_history_newest_first(self, call, db, chip64):
        _, payload = call("get_task_history", chip_id=chip64, task_name="CheckT2Echo", qid="9", last_n=4)
        expected = [r["task_id"] for r in db["task_result_history"].find(
            {"chip_id": chip64, "name": "CheckT2Echo", "qid": "9", "status": "completed"}).sort("start_at", -1)][:4]
        assert [r["task_id"] for r in payload["results"]] == expected and payload["count"] == len(expected)

    def test_search_failed_results_fence_messages(self, call, db, chip144):
        outcome, payload = call("search_task_results", chip_id=chip144, status="failed", last_n=20)
        failed = db["task_result_history"].count_documents({"chip_id": chip144, "status": "failed"})
        assert payload["count"] == min(20, failed) > 0
        assert all(r["status"] == "failed" for r in payload["results"])
        with_message = [r for r in payload["results"] if "message" in r]
        assert with_message and all(set(r["message"]) == {"untrusted_text"} for r in with_message)
        assert "_untrusted" in payload

    def test_execution_history(self, call, db, chip64):
        _, payload = call("get_execution_history", chip_id=chip64, last_n=5)
        expected = [e["execution_id"] for e in db["execution_history"].find({"chip_id": chip64})
                    .sort("start_at", -1).limit(5)]
        assert [e["execution_id"] for e in payload["executions"]] == expected

    def test_execution_history_answer_sentence_matches_the_database(self, call, db, chip64):
        """The sentence a small model quotes (and the page shows when the model writes nothing)."""
        runs = list(db["execution_history"].find({"chip_id": chip64}).sort("start_at", -1).limit(10))
        assert len(runs) == 10
        counts: dict[str, int] = {}
        for r in runs:
            counts[r["status"]] = counts.get(r["status"], 0) + 1
        statuses = ", ".join(f"{n} {s}" for s, n in sorted(counts.items(), key=lambda kv: -kv[1]))
        _, payload = call("get_execution_history", chip_id=chip64)
        assert payload["answer"] == (
            f"The 10 latest executions on {chip64} started between {runs[-1]['start_at']:%Y-%m-%d %H:%M} and "
            f"{runs[0]['start_at']:%Y-%m-%d %H:%M} UTC: {statuses}; the newest is "
            f"{runs[0]['execution_id']} ({runs[0]['status']}).")
        _, one = call("get_execution_history", chip_id=chip64, last_n=1)
        assert one["answer"] == (f"The latest execution on {chip64} is {runs[0]['execution_id']}, started "
                                 f"{runs[0]['start_at']:%Y-%m-%d %H:%M} UTC (1 {runs[0]['status']}).")

    def test_execution_filters_that_match_nothing_say_the_chip_has_runs(self, call, db, chip64):
        """What the local model did: it invented a tag, read "0 executions" and asked again the same way."""
        tag = "no-such-tag"
        assert db["execution_history"].count_documents({"chip_id": chip64, "tags": tag}) == 0
        assert db["execution_history"].count_documents({"chip_id": chip64}) > 0
        outcome, payload = call("get_execution_history", chip_id=chip64, tags=[tag])
        assert payload["count"] == 0 and "without those filters" in payload["hint"] and "answer" not in payload
        assert outcome.summary == f"0 executions on {chip64} with tags ['{tag}'] (the chip has others)"

    def test_budget_degrades_to_valid_json(self, repo, store, chip144):
        from copilot_core.tools import Toolkit
        small = Toolkit(repo, store=store, max_result_chars=2_000)
        outcome = small.execute("search_task_results", {"chip_id": chip144, "last_n": 50})
        payload = json.loads(outcome.model_text)
        assert outcome.ok and len(outcome.model_text) <= 2_000
        assert payload["_truncated"]["rows_dropped"]["results"] == 50 - len(payload["results"])
        assert payload["chip_id"] == chip144 and payload["count"] == 50


def test_coupling_params_of_a_qubit(call, db, chip64, live64):
    qid = int(live64[5])
    _, payload = call("get_coupling_params", chip_id=chip64, qubit_id=f"Q{qid:02d}")
    topo = topology_for(64)
    assert [c["coupling_id"] for c in payload["couplings"]] == [c.id for c in topo.couplings_of(qid)]
    with_data = [row for row in payload["couplings"] if row["stored_as"]]
    assert with_data and all(not row["parameters"] for row in payload["couplings"] if not row["stored_as"])
    for row in with_data:
        doc = db["coupling"].find_one({"chip_id": chip64, "qid": row["stored_as"]})
        for name, param in doc["data"].items():
            assert row["parameters"][name]["value"] == shown(name, param, "coupling")


def test_coupling_given_in_reverse_direction(call, repo, chip64):
    cid = next(c for c, data in repo.all_coupling_params(chip64).items() if data.get("zx90_gate_fidelity"))
    control, target = cid.split("-")
    _, payload = call("get_coupling_params", chip_id=chip64, coupling_id=f"{target}-{control}")
    assert payload["couplings"][0]["coupling_id"] == f"{control}-{target}"
    assert payload["couplings"][0]["parameters"]["zx90_gate_fidelity"]["unit"] == "%"


def test_topology(call, chip144):
    _, payload = call("get_chip_topology", chip_id=chip144)
    topo = topology_for(144)
    assert payload["grid_size"] == 12 and len(payload["couplings"]) == len(topo.couplings) == 264
    assert payload["qubit_positions"]["13"] == list(topo.positions[13])
    _, one = call("get_chip_topology", chip_id=chip144, qid="13")
    assert one["neighbours"] == [str(n) for n in topo.neighbours(13)] and one["label"] == "Q013"


class TestCalibrationNotes:
    def _injected(self, db) -> dict:
        for doc in db["calibration_note"].find({}).sort("timestamp", -1):
            if "Ignore previous instructions" in json.dumps(doc["note"], default=str):
                return doc
        raise AssertionError("the demo holds an injected calibration note")

    @staticmethod
    def _strings_outside_untrusted(obj, inside=False, path=""):
        if isinstance(obj, dict):
            for k, v in obj.items():
                yield from TestCalibrationNotes._strings_outside_untrusted(v, inside or "untrusted" in k, f"{path}.{k}")
        elif isinstance(obj, list):
            for v in obj:
                yield from TestCalibrationNotes._strings_outside_untrusted(v, inside, path)
        elif isinstance(obj, str) and not inside:
            yield path, obj

    def test_injection_stays_fenced_and_notes_do_not_flood(self, call, db):
        doc = self._injected(db)
        outcome, payload = call("get_calibration_notes", chip_id=doc["chip_id"], execution_id=doc["execution_id"])
        assert outcome.ok and "Ignore previous instructions" in outcome.model_text
        leaks = [p for p, s in self._strings_outside_untrusted(payload) if "Ignore previous" in s]
        assert leaks == []
        assert len(outcome.model_text) < 6_000  # a 64-qubit note is outlined, not dumped
        assert payload["_untrusted"].startswith("Fields named untrusted_text")

    def test_one_qubit_entries(self, call, db):
        doc = self._injected(db)
        size = db["chip"].find_one({"chip_id": doc["chip_id"]})["size"]
        qid = next(int(label[1:]) for label in doc["note"]["rabi_params"])
        _, payload = call("get_calibration_notes", chip_id=doc["chip_id"], execution_id=doc["execution_id"],
                          qid=str(qid))
        note = payload["notes"][0]["untrusted_data"]
        label = qubit_label(qid, size)
        assert note["rabi_params"][label]["amplitude"] == compact_number(doc["note"]["rabi_params"][label]["amplitude"])


class TestProvenance:
    def test_lineage_versions(self, call, repo, chip64):
        _, payload = call("get_parameter_lineage", chip_id=chip64, parameter_name="t1", qid="5", last_n=5)
        versions = repo.parameter_versions(chip64, "t1", "5", limit=5)
        assert [v["version"] for v in payload["versions"]] == [v["version"] for v in versions]
        assert [v["value"] for v in payload["versions"]] == [shown("t1", v) for v in versions]
        assert [v["current"] for v in payload["versions"]] == [v["valid_until"] is None for v in versions]

    def test_lineage_graph(self, call, repo, chip64):
        entity = repo.parameter_versions(chip64, "x90_gate_fidelity", "5", limit=1)[0]["entity_id"]
        outcome, payload = call("get_provenance_lineage_graph", chip_id=chip64, entity_id=entity, max_depth=3)
        graph = repo.lineage_graph(chip64, entity, max_depth=3)
        assert payload["node_count"] == len(graph["nodes"]) > 0 and payload["edge_count"] == len(graph["edges"])


def test_list_available_parameters(call, repo, chip64):
    _, payload = call("list_available_parameters", chip_id=chip64)
    assert payload["parameters"] == repo.output_parameter_names(chip64)
    assert "t1" in payload["with_thresholds"] and payload["display_units"]["x90_gate_fidelity"] == "%"


class TestPythonAnalysis:
    def test_without_a_sandbox_the_error_is_clear(self, repo, store):
        from copilot_core.tools import Toolkit
        outcome = Toolkit(repo, store=store, sandbox=None).execute("execute_python_analysis", {"code": "print(1)"})
        assert not outcome.ok and json.loads(outcome.model_text)["error"] == \
            "the Python sandbox is not available in this session"

    def test_stored_data_reaches_the_sandbox_and_charts_do_not_reach_the_model(self, call, kit, chip64):
        call("get_chip_parameter_timeseries", chip_id=chip64, parameter_name="t1", last_n=5)
        code = ("import plotly.express as px\n"
                "df = data['t1']\n"
                "med = df.groupby('qid')['value'].median()\n"
                "result = {'output': f'{len(df)} rows, {med.size} qubits', 'chart': px.line(df, x='calibrated_at', "
                "y='value', color='qid')}\n")
        outcome, payload = call("execute_python_analysis", code=code)
        frame = kit.store.frame("t1")
        assert outcome.ok, payload
        assert payload["output"] == f"{len(frame)} rows, {frame['qid'].nunique()} qubits"
        assert len(outcome.charts) == 1 and '"layout"' not in outcome.model_text
        assert payload["charts"].endswith("they will be appended to your answer.")
