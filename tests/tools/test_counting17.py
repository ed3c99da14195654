"""The counting tools on both engines (the embedded store and the MongoDB plan on mongomock), against hand counts
over the raw documents: a ranking of failures takes N and names N subjects with their counts; the run ranked first
is the execution holding the most failed results, by id; a share of failed results narrowed to a family of tasks and
a set of qubits is counted over that whole, and says so; runs holding a failure narrowed to a family."""

from __future__ import annotations

from collections import Counter

from copilot_core.tools import DataStore, Toolkit

CHIP = "64Qv3"
_READOUT = ("Readout", "Resonator", "Reflection", "Dispersive")


def _failed(db) -> list[dict]:
    return list(db["task_result_history"].find({"chip_id": CHIP, "status": "failed"}))


def _readout_on(doc: dict, qubits: set[str]) -> bool:
    return doc.get("task_type") == "qubit" and any(p in str(doc.get("name")) for p in _READOUT) and \
        str(doc.get("qid")) in qubits


def test_a_ranking_of_failures_names_the_n_asked_with_their_counts(repo, db):
    counts = Counter(d["name"] for d in _failed(db)).most_common()
    n = next(k for k in range(2, 6) if counts[k - 1][1] > counts[k][1])  # no tie at the last place asked
    ranked = Toolkit(repo, store=DataStore()).execute("failure_ranking", {"chip_id": CHIP, "by": "task", "n": n})
    answer = ranked.full["answer"]
    assert ranked.ok and answer.startswith(f"Top {n} tasks"), answer
    assert all(f"{name} {c} (" in answer for name, c in counts[:n]), answer
    assert counts[n][0] not in answer, answer


def test_the_run_ranked_first_is_the_execution_holding_the_most_failed_results(repo, db):
    counts = Counter(d["execution_id"] for d in _failed(db)).most_common()
    ranked = Toolkit(repo, store=DataStore()).execute("failure_ranking", {"chip_id": CHIP, "by": "run"})
    tied = [run for run, n in counts if n == counts[0][1]]
    assert ranked.ok and all(run in ranked.full["answer"] for run in tied), ranked.full["answer"]
    assert f"{counts[0][1]} of {sum(n for _, n in counts)} failed tasks" in ranked.full["answer"]


def test_a_share_narrowed_to_a_family_and_a_set_is_counted_over_that_whole(repo, db):
    qubits = {str(q) for q in range(16)}
    finished = [d for d in db["task_result_history"].find({"chip_id": CHIP, "status": {"$in": ["completed", "failed"]}})
                if _readout_on(d, qubits)]
    failed = sum(1 for d in finished if d["status"] == "failed")
    counted = Toolkit(repo, store=DataStore()).execute("count_in_window", {
        "chip_id": CHIP, "what": "failed tasks", "family": "readout", "qubits": list(range(16))})
    assert counted.ok and (counted.full["count"], counted.full["total"]) == (failed, len(finished)), counted.full
    assert f"{failed} of {len(finished)} finished readout task results" in counted.full["answer"]
    assert counted.full["share_within"].startswith("readout on Q"), counted.full


def test_runs_holding_a_failure_are_narrowed_to_a_family(repo, db):
    held = {d["execution_id"] for d in _failed(db) if d.get("task_type") == "coupling"}
    started = [d for d in db["execution_history"].find({"chip_id": CHIP, "status": {"$ne": "scheduled"}})
               if d["execution_id"] in held]
    counted = Toolkit(repo, store=DataStore()).execute("count_in_window", {
        "chip_id": CHIP, "what": "runs with failures", "family": "coupling"})
    assert counted.ok and counted.full["runs_with_failures"] == len(started), counted.full
