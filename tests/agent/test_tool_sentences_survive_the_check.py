"""A sentence a tool wrote, quoted word for word by the model, is never struck or "corrected" by the claim check:
every registered tool, called with typical arguments on the demo's 144-qubit chip, has its ``answer`` sentence run
through the check as the model's whole answer, and the answer shown is that sentence unchanged."""

from __future__ import annotations

import pytest

from copilot_core.checking.claims import check_claims
from copilot_core.checking.verify import checked_blocks
from copilot_core.answer.blocks import TextBlock
from copilot_core.tools import DataStore, Toolkit
from copilot_core.tools.toolkit import answer_line

CHIP = "144Qv2"


@pytest.fixture(scope="module")
def kit(repo):
    return Toolkit(repo, store=DataStore())


def test_every_tool_is_called_here(kit):
    """A tool added to the registry without a call here fails this test."""
    assert set(kit.names()) == {n for n, _ in CALLS} | {n for n, _ in NO_SENTENCE} | {
        "execute_python_analysis", "get_provenance_lineage_graph"}


CALLS: list[tuple[str, dict]] = [
    ("get_qubit_params", {"qid": "70"}),
    ("get_parameter_timeseries", {"parameter_name": "t1", "qid": "70", "days": 7}),
    ("get_chip_summary", {}),
    ("get_execution_history", {"last_n": 5}),
    ("compare_chips", {"metric_name": "t1"}),
    ("compare_qubits", {"qids": ["69", "70"]}),
    ("get_parameter_lineage", {"parameter_name": "t1", "qid": "70"}),
    ("generate_chip_heatmap", {"metric_name": "t1"}),
    ("get_chip_parameter_timeseries", {"parameter_name": "t1", "qids": ["21", "69"], "days": 14}),
    ("compare_calibrations", {}),
    ("rank_metric", {"metric_name": "t1", "order": "lowest", "n": 5}),
    ("filter_metric", {"metric_name": "t1", "below": 30}),
    ("filter_metric", {"metric_name": "t2_echo", "above": 40}),
    ("missing_metric", {"metric_name": "t1"}),
    ("get_run_failures", {}),
    ("filter_metrics", {"conditions": [{"metric_name": "t1", "below": 40}, {"metric_name": "t2_echo", "below": 40}]}),
    ("metric_spread", {"metric_name": "qubit_frequency"}),
    ("correlate_metrics", {"metric_a": "t1", "metric_b": "t2_echo"}),
    ("count_in_window", {"what": "failed tasks", "days": 7}),
    ("failure_ranking", {"by": "task", "days": 7}),
    ("failure_ranking", {"by": "run", "days": 7}),
    ("failure_ranking", {"by": "qubit", "qids": ["69", "70"], "days": 14}),
    ("get_coupling_params", {"coupling_id": "0-1"}),
    ("get_coupling_params", {"qubit_id": "70", "param_names": ["zx90_gate_fidelity"]}),
    ("check_target", {"qid": "70", "metric_name": "t1"}),
]

# Tools whose result is a table or a listing, with no answer sentence for the model to quote: the check has nothing
# of theirs to strike (asserted below, so a sentence added to one of them moves it to CALLS).
NO_SENTENCE: list[tuple[str, dict]] = [
    ("get_latest_task_result", {"task_name": "CheckT1", "qid": "70"}),
    ("get_task_history", {"task_name": "CheckT1", "qid": "70"}),
    ("get_chip_topology", {"qid": "70"}),
    ("search_task_results", {"task_name": "CheckT1", "qid": "70"}),
    ("get_calibration_notes", {"qid": "70"}),
    ("list_available_parameters", {"qid": "70"}),
]


@pytest.mark.parametrize(("name", "args"), CALLS, ids=[f"{n}-{i}" for i, (n, _) in enumerate(CALLS)])
def test_a_tool_sentence_quoted_word_for_word_is_kept_unchanged(kit, name, args):
    kit.begin_request(CHIP)
    out = kit.execute(name, args if name == "compare_chips" else {"chip_id": CHIP, **args})  # every chip, no chip_id
    assert out.ok, out.summary
    line = answer_line(out)
    assert line is not None, f"{name} wrote no answer sentence ({out.summary[:80]})"
    report = check_claims(line, [out], question="")
    assert report.wrong == [], (line, [c.reason for c in report.wrong])
    shown, _, action = checked_blocks([TextBlock(line)], "", [out])
    assert action == "kept" and [b.text for b in shown if isinstance(b, TextBlock)] == [line], (line, shown)


@pytest.mark.parametrize(("name", "args"), NO_SENTENCE, ids=[n for n, _ in NO_SENTENCE])
def test_a_tool_without_a_sentence_gives_the_check_nothing_to_strike(kit, name, args):
    kit.begin_request(CHIP)
    out = kit.execute(name, {"chip_id": CHIP, **args})
    assert out.ok, out.summary
    assert answer_line(out) is None


def test_the_sandbox_and_the_provenance_graph_write_no_sentence(kit, demo_db):
    """The two tools whose arguments are not a chip's: model code, and a stored entity id."""
    kit.begin_request(CHIP)
    ran = kit.execute("execute_python_analysis", {"code": "print(1)"})
    entity = demo_db["parameter_versions"].find_one({"chip_id": CHIP})["entity_id"]
    graph = kit.execute("get_provenance_lineage_graph", {"chip_id": CHIP, "entity_id": entity})
    assert graph.ok, graph.summary
    assert answer_line(graph) is None
    assert answer_line(ran) is None
