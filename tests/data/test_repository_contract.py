"""Contract tests of every repository read on the hand-made fixture (tests/data/conftest.py).

Expectations are computed here from the fixture documents with plain Python (a reference
implementation of QDash's rules), never typed in as numbers.
"""

from __future__ import annotations

import math
import statistics
from datetime import timedelta

import pytest

from copilot_core.data.repository import CalibrationRepository
from tests.data.conftest import CHIP, NOW, OTHER_CHIP, P1, P2

PARAM_KEYS = ("value", "unit", "error", "calibrated_at", "execution_id", "task_id")


@pytest.fixture(scope="module")
def repo1(contract_db) -> CalibrationRepository:
    return CalibrationRepository(contract_db, project_id=P1)


# ---- reference implementation over the raw fixture -------------------------------------------------------
def _history(docs, *, project=P1, chip=CHIP):
    return [d for d in docs["task_result_history"] if d["project_id"] == project and d["chip_id"] == chip]


def _usable_rows(docs, metric, *, kind="qubit", since=None, qid=None):
    rows = []
    for d in _history(docs):
        if d["status"] != "completed" or d["excluded"] or d["task_type"] != kind or metric not in d["output_parameters"]:
            continue
        if since is not None and d["start_at"] < since:
            continue
        if qid is not None and d["qid"] != qid:
            continue
        value = d["output_parameters"][metric]["value"]
        if value and math.isfinite(value):
            rows.append((d["start_at"], d["qid"], value, d))
    return sorted(rows, key=lambda r: r[0])


def _latest_results(docs, metric, *, kind="qubit", since=None):
    """The newest completed, non-excluded result carrying ``metric`` per id, whatever its value."""
    latest: dict[str, dict] = {}
    for d in sorted(_history(docs), key=lambda d: d["start_at"]):
        if d["status"] != "completed" or d["excluded"] or d["task_type"] != kind or metric not in d["output_parameters"]:
            continue
        if since is None or d["start_at"] >= since:
            latest[d["qid"]] = d
    return latest


def _expected_metric(docs, metric, mode, kind="qubit", since=None, higher=True):
    if mode == "latest":  # NaN-as-0 newest result -> missing (None), never the value before it
        out = {}
        for qid, d in _latest_results(docs, metric, kind=kind, since=since).items():
            value = d["output_parameters"][metric]["value"]
            out[qid] = value if value and math.isfinite(value) else None
        return out
    by_id: dict[str, list] = {}
    for _start, qid, value, _doc in _usable_rows(docs, metric, kind=kind, since=since):
        by_id.setdefault(qid, []).append(value)
    if mode == "best":
        return {q: (max if higher else min)(vals) for q, vals in by_id.items()}
    return {q: statistics.fmean(vals) for q, vals in by_id.items()}


# ---- chips --------------------------------------------------------------------------------------------
def test_list_chips_scoped_newest_first_with_counts(repo1, docs):
    chips = repo1.list_chips()
    expected = sorted((c for c in docs["chip"] if c["project_id"] == P1), key=lambda c: c["installed_at"], reverse=True)
    assert [c["chip_id"] for c in chips] == [c["chip_id"] for c in expected]
    chip = chips[0]
    with_data = {q["qid"] for q in docs["qubit"] if q["project_id"] == P1 and q["chip_id"] == CHIP and q["data"]}
    assert chip["qubits_with_data"] == len(with_data) and chip["qubits_total"] == 16
    newest = max((e for e in docs["execution_history"] if e["project_id"] == P1 and e["chip_id"] == CHIP),
                 key=lambda e: e["start_at"])
    assert (chip["last_execution_at"], chip["last_execution_status"]) == (newest["start_at"], newest["status"])
    assert repo1.default_chip_id() == expected[0]["chip_id"]
    assert repo1.get_chip(CHIP)["chip_id"] == CHIP
    assert repo1.get_chip("nope") is None
    assert repo1.get_chip("p2chip") is None  # another project's chip


def test_chip_layout_is_the_newest_chip_documents_size_and_topology(repo1, docs):
    for chip_id in {c["chip_id"] for c in docs["chip"] if c["project_id"] == P1}:
        newest = max((c for c in docs["chip"] if c["project_id"] == P1 and c["chip_id"] == chip_id),
                     key=lambda c: c["installed_at"])
        size = newest["size"] if isinstance(newest.get("size"), int) else 64
        assert repo1.chip_layout(chip_id) == {"chip_id": chip_id, "size": size,
                                              "topology_id": newest.get("topology_id") or f"square-lattice-mux-{size}"}
    assert repo1.chip_layout("nope") is None
    assert repo1.chip_layout("p2chip") is None  # another project's chip


def test_a_turn_keeps_what_it_read_and_hands_out_copies(repo1, docs):
    turn = repo1.for_turn()
    assert turn.for_turn() is turn and repo1.for_turn() is not turn
    ids = turn.chip_ids()
    ids.append("edited by a caller")
    layout = turn.chip_layout(CHIP)
    assert layout is not None
    layout["size"] = -1
    assert turn.chip_ids() == sorted({c["chip_id"] for c in docs["chip"] if c["project_id"] == P1})
    assert turn.chip_layout(CHIP) == repo1.chip_layout(CHIP) and turn.get_chip(CHIP) == repo1.get_chip(CHIP)


def test_unscoped_repository_sees_every_project(contract_db):
    ids = {c["chip_id"] for c in CalibrationRepository(contract_db).list_chips()}
    assert "p2chip" in ids


# ---- qubit.data / coupling.data -------------------------------------------------------------------------
def test_qubit_params_equal_stored_data(repo1, docs):
    stored = next(q for q in docs["qubit"] if q["project_id"] == P1 and q["chip_id"] == CHIP and q["qid"] == "0")
    got = repo1.qubit_params(CHIP, "0")
    assert got == {p: {k: m.get(k) for k in PARAM_KEYS} for p, m in sorted(stored["data"].items())}
    assert repo1.qubit_params(CHIP, "3") == {}  # exists, never calibrated
    assert repo1.qubit_params(CHIP, "99") is None
    everything = repo1.all_qubit_params(CHIP)
    assert list(everything) == [str(q) for q in range(16)]  # numeric order, not "0","1","10"
    assert everything["0"] == got


def test_coupling_params_both_directions(repo1, docs):
    forward = repo1.coupling_params(CHIP, "0-1")
    expected = next(c for c in docs["coupling"] if c["qid"] == "0-1")["data"]
    assert forward["zx90_gate_fidelity"]["value"] == expected["zx90_gate_fidelity"]["value"]
    assert repo1.coupling_params(CHIP, "1-0") == {}  # reverse direction exists, data under control-target
    assert repo1.coupling_params(CHIP, "5-6") is None
    assert set(repo1.all_coupling_params(CHIP)) == {"0-1", "1-0", "3-2", "2-3"}


# ---- task results -----------------------------------------------------------------------------------------
def test_task_results_filters_and_order(repo1, docs):
    history = _history(docs)
    newest_first = sorted(history, key=lambda d: d["start_at"], reverse=True)
    got = repo1.task_results(CHIP, limit=5)
    assert [r["task_id"] for r in got] == [d["task_id"] for d in newest_first[:5]]
    t1_q0 = repo1.task_results(CHIP, task_name="CheckT1", qid="0", limit=100)
    assert [r["task_id"] for r in t1_q0] == [d["task_id"] for d in newest_first
                                              if d["name"] == "CheckT1" and d["qid"] == "0"]
    failed = repo1.task_results(CHIP, status="failed", limit=100)
    assert {r["task_id"] for r in failed} == {d["task_id"] for d in history if d["status"] == "failed"}
    exec_id = history[0]["execution_id"]
    assert {r["task_id"] for r in repo1.task_results(CHIP, execution_id=exec_id, limit=100)} == \
        {d["task_id"] for d in history if d["execution_id"] == exec_id}
    since, until = NOW - timedelta(days=3, hours=1), NOW - timedelta(days=1, hours=1)
    window = repo1.task_results(CHIP, since=since, until=until, limit=100)
    assert {r["task_id"] for r in window} == {d["task_id"] for d in history if since <= d["start_at"] < until}
    excluded = [r for r in t1_q0 if r["excluded"]]
    assert excluded and excluded[0]["output_parameters"]["t1"]["value"] > 100


def test_latest_task_result_skips_failed_and_excluded(repo1, docs):
    got = repo1.latest_task_result(CHIP, "CheckT1", "0")
    expected = max((d for d in _history(docs) if d["name"] == "CheckT1" and d["qid"] == "0"
                    and d["status"] == "completed" and not d["excluded"]), key=lambda d: d["start_at"])
    assert got["task_id"] == expected["task_id"]
    assert repo1.latest_task_result(CHIP, "CheckT1", "2") is None  # only failures


# ---- metrics ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("mode", ["latest", "best", "average"])
@pytest.mark.parametrize("metric", ["t1", "t2_star", "x90_gate_fidelity"])
def test_metric_values_modes(repo1, docs, metric, mode):
    got = repo1.metric_values(CHIP, metric, mode=mode)
    expected = _expected_metric(docs, metric, mode)
    assert set(got) == set(expected)
    for qid, value in expected.items():
        assert got[qid]["value"] == (None if value is None else pytest.approx(value))
    if mode == "average":
        for qid in expected:
            vals = [r[2] for r in _usable_rows(docs, metric, qid=qid)]
            assert got[qid]["count"] == len(vals)
            assert got[qid]["stddev"] == pytest.approx(statistics.stdev(vals) if len(vals) > 1 else 0.0)


def test_latest_is_missing_when_newest_result_is_nan(repo1, docs):
    t1 = repo1.metric_values(CHIP, "t1")
    assert "2" not in t1 and "3" not in t1  # only failures / no history
    # qid 0: newest usable-status result is NaN-as-0 (the excluded 300 and the failure are skipped)
    nan_doc = _latest_results(docs, "t1")["0"]
    assert nan_doc["output_parameters"]["t1"]["value"] == 0
    assert t1["0"]["value"] is None
    assert t1["0"]["missing_since"] == nan_doc["output_parameters"]["t1"]["calibrated_at"]
    assert t1["1"]["missing_since"] is None
    t2 = repo1.metric_values(CHIP, "t2_star")["1"]  # its only value is 0 (NaN)
    assert t2["value"] is None and t2["missing_since"] is not None
    # best and average still use the usable values
    assert repo1.metric_values(CHIP, "t1", mode="best")["0"]["value"] == max(
        r[2] for r in _usable_rows(docs, "t1", qid="0"))


def test_metric_values_best_uses_better_direction(repo1, docs):
    # anharmonicity-style "lower is better" has no data here; x90 is higher-is-better
    best = repo1.metric_values(CHIP, "x90_gate_fidelity", mode="best")
    assert best["0"]["value"] == max(r[2] for r in _usable_rows(docs, "x90_gate_fidelity", qid="0"))


def test_metric_values_window(repo1, docs):
    hours = 36
    since = NOW - timedelta(hours=hours)
    got = repo1.metric_values(CHIP, "t1", mode="average", within_hours=hours)
    expected = _expected_metric(docs, "t1", "average", since=since)
    assert {q: g["value"] for q, g in got.items()} == pytest.approx(expected)


def test_coupling_metric_keyed_control_target(repo1, docs):
    got = repo1.metric_values(CHIP, "zx90_gate_fidelity", kind="coupling")
    expected = _expected_metric(docs, "zx90_gate_fidelity", "latest", kind="coupling")
    assert {k: g["value"] for k, g in got.items()} == expected
    assert got["3-2"]["value"] is None  # NaN-as-0 only: missing, with its date


def test_project_scope_never_leaks(repo1, contract_db, docs):
    p2_values = {d["output_parameters"]["t1"]["value"] for d in docs["task_result_history"] if d["project_id"] == P2}
    assert not p2_values & {g["value"] for g in repo1.metric_values(CHIP, "t1").values()}
    assert not p2_values & {r["value"] for r in repo1.chip_parameter_timeseries(CHIP, "t1")}
    assert all(r["task_id"] not in {d["task_id"] for d in docs["task_result_history"] if d["project_id"] == P2}
               for r in repo1.task_results(CHIP, limit=100))
    assert all(n["note"].get("secret") != "p2" for n in repo1.calibration_notes(CHIP, limit=100))
    assert all(v["value"] != 999.0 for v in repo1.parameter_versions(CHIP, "t1", "0", limit=100))
    assert all(e["execution_id"].endswith("-001") for e in repo1.executions(CHIP, limit=100))
    assert repo1.qubit_params(CHIP, "0")["t1"]["value"] not in p2_values
    # the unscoped view does see the other project's newer value: scoping is what hides it
    unscoped = CalibrationRepository(contract_db).metric_values(CHIP, "t1")
    assert unscoped["0"]["value"] in p2_values
    p2 = CalibrationRepository(contract_db, project_id=P2)
    assert {c["chip_id"] for c in p2.list_chips()} == {c["chip_id"] for c in docs["chip"] if c["project_id"] == P2}


# ---- timeseries ---------------------------------------------------------------------------------------------
def test_parameter_timeseries_oldest_first(repo1, docs):
    rows = repo1.parameter_timeseries(CHIP, "t1", "1", last_n=10)
    expected = [r[2] for r in _usable_rows(docs, "t1", qid="1")]
    assert [r["value"] for r in rows] == expected
    assert [r["calibrated_at"] for r in rows] == sorted(r["calibrated_at"] for r in rows)
    assert [r["value"] for r in repo1.parameter_timeseries(CHIP, "t1", "1", last_n=1)] == expected[-1:]
    assert repo1.parameter_timeseries(CHIP, "t1", "3") == []


def test_chip_parameter_timeseries(repo1, docs):
    rows = repo1.chip_parameter_timeseries(CHIP, "t1")
    expected = [(r[1], r[2]) for r in _usable_rows(docs, "t1")]
    assert [(r["qid"], r["value"]) for r in rows] == expected
    last1 = repo1.chip_parameter_timeseries(CHIP, "t1", last_n=1)
    newest_usable = {qid: value for _, qid, value, _ in _usable_rows(docs, "t1")}
    assert sorted((r["qid"], r["value"]) for r in last1) == sorted(newest_usable.items())
    only1 = repo1.chip_parameter_timeseries(CHIP, "t1", qids=["1"])
    assert {r["qid"] for r in only1} == {"1"}


# ---- executions, notes, provenance ---------------------------------------------------------------------------
def test_executions(repo1, docs):
    mine = sorted((e for e in docs["execution_history"] if e["project_id"] == P1 and e["chip_id"] == CHIP),
                  key=lambda e: e["start_at"], reverse=True)
    assert [e["execution_id"] for e in repo1.executions(CHIP, limit=3)] == [e["execution_id"] for e in mine[:3]]
    assert [e["execution_id"] for e in repo1.executions(CHIP, status="failed")] == \
        [e["execution_id"] for e in mine if e["status"] == "failed"]
    assert [e["execution_id"] for e in repo1.executions(CHIP, tags=["daily", "weekly"])] == \
        [e["execution_id"] for e in mine if "weekly" in e["tags"]]


def test_calibration_notes(repo1, docs):
    mine = sorted((n for n in docs["calibration_note"] if n["project_id"] == P1), key=lambda n: n["timestamp"],
                  reverse=True)
    got = repo1.calibration_notes(CHIP, limit=2)
    assert [n["version"] for n in got] == [n["version"] for n in mine[:2]]
    assert got[0]["note"] == mine[0]["note"]  # verbatim, injection text included (callers must fence it)
    one = repo1.calibration_notes(CHIP, execution_id=mine[-1]["execution_id"], task_id="master")
    assert [n["version"] for n in one] == [mine[-1]["version"]]


def test_parameter_versions_desc(repo1, docs):
    got = repo1.parameter_versions(CHIP, "t1", "0")
    mine = sorted((v for v in docs["parameter_versions"] if v["project_id"] == P1 and v["parameter_name"] == "t1"),
                  key=lambda v: v["version"], reverse=True)
    assert [v["entity_id"] for v in got] == [v["entity_id"] for v in mine]


def test_lineage_graph(repo1, docs):
    sources = {r["source_id"] for r in docs["provenance_relations"]}
    root = max((v for v in docs["parameter_versions"] if v["project_id"] == P1 and v["parameter_name"] == "t1"
                and v["entity_id"] in sources), key=lambda v: v["version"])["entity_id"]
    graph = repo1.lineage_graph(CHIP, root, max_depth=5)
    # every ancestor reachable through relations, computed by walking the fixture
    reach, frontier = {root}, [root]
    while frontier:
        nxt = [r["target_id"] for r in docs["provenance_relations"] if r["source_id"] in frontier]
        frontier = [n for n in nxt if n not in reach]
        reach |= set(frontier)
    assert {n["id"] for n in graph["nodes"]} == reach
    assert len(graph["edges"]) == len([r for r in docs["provenance_relations"] if r["source_id"] in reach])
    shallow = repo1.lineage_graph(CHIP, root, max_depth=1)
    assert {n["id"] for n in shallow["nodes"]} == {root} | {r["target_id"] for r in docs["provenance_relations"]
                                                            if r["source_id"] == root}
    assert {n["type"] for n in graph["nodes"]} == {"entity", "activity"}
    unknown = f"t1:0:{NOW:%Y%m%d}-099:{'0' * 8}"
    assert repo1.lineage_graph(CHIP, unknown) == {"root": unknown, "nodes": [], "edges": [], "truncated": False}
    assert repo1.lineage_graph(OTHER_CHIP, root)["nodes"] == []  # another chip's entity


def test_output_parameter_names(repo1, docs):
    expected = sorted({p for d in _history(docs) for p in d["output_parameter_names"]})
    assert repo1.output_parameter_names(CHIP) == expected
    assert repo1.output_parameter_names(CHIP, "1") == sorted(
        {p for d in _history(docs) if d["qid"] == "1" for p in d["output_parameter_names"]})


def test_ping(repo1):
    assert repo1.ping() is None
