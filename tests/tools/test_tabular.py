"""Tool results as tables for a small model: inputs and expected outputs written by hand."""

from __future__ import annotations

import json

from copilot_core.checking.claim_facts import tool_facts
from copilot_core.tools.tabular import tabular_json, tabulate, untabulate


def test_an_object_of_rows_becomes_one_header_and_value_arrays():
    params = {"t1": {"value": 44.02, "unit": "μs", "band": "fair", "execution_id": "20261126-001"},
              "t2_echo": {"value": 65.55, "unit": "μs", "band": "fair", "execution_id": "20261126-001"},
              "readout_frequency": {"value": 7.019, "unit": "GHz", "execution_id": "20261126-001"}}
    assert tabulate({"qid": "14", "parameters": params}) == {"qid": "14", "parameters": {
        "columns": ["name", "value", "unit", "band"],
        "rows": [["t1", 44.02, "μs", "fair"], ["t2_echo", 65.55, "μs", "fair"], ["readout_frequency", 7.019, "GHz", None]],
        "every_row": {"execution_id": "20261126-001"}}}


def test_a_list_of_rows_keeps_its_order_and_a_two_row_table_says_every_column():
    points = [{"calibrated_at": "11-17 20:27", "value": 50.04}, {"calibrated_at": "11-18 20:20", "value": 50.04}]
    assert tabulate({"points": points}) == {"points": {"columns": ["calibrated_at", "value"],
                                                       "rows": [["11-17 20:27", 50.04], ["11-18 20:20", 50.04]]}}


def test_qubit_keys_name_the_first_column_qid():
    assert tabulate({"5": {"t1": 40.1}, "12": {"t1": 61.0}}) == {"columns": ["qid", "t1"],
                                                                  "rows": [["5", 40.1], ["12", 61.0]]}


def test_unrelated_objects_nested_objects_and_single_rows_stay_as_they_are():
    unrelated = {"stats": {"median": 59.91, "mean": 64.61}, "bands": {"bad": 0, "good": 37}}
    nested = [{"id": "1", "tags": ["a"]}, {"id": "2", "tags": ["b"]}]
    one = [{"id": "63", "value": 146.2}]
    assert tabulate(unrelated) == unrelated
    assert tabulate(nested) == nested
    assert tabulate(one) == one
    assert tabulate({"_schema": {"a": 1}, "_rows": {"a": 2}}) == {"_schema": {"a": 1}, "_rows": {"a": 2}}


def test_null_fields_are_left_out_and_every_number_survives():
    body = {"answer": "median 59.9 μs", "within_hours": None, "worst": [
        {"id": "59", "label": "Q59", "value": 21.67}, {"id": "49", "label": "Q49", "value": 25.47},
        {"id": "27", "label": "Q27", "value": 26.71}]}
    shown = tabular_json(json.dumps(body))
    assert json.loads(shown) == {"answer": "median 59.9 μs", "worst": {
        "columns": ["id", "label", "value"],
        "rows": [["59", "Q59", 21.67], ["49", "Q49", 25.47], ["27", "Q27", 26.71]]}}
    assert len(shown) < len(json.dumps(body, separators=(",", ":"), ensure_ascii=False))


def test_text_that_is_not_json_is_returned_unchanged():
    assert tabular_json("not json {") == "not json {"


def test_a_table_read_back_gives_each_value_its_column_name():
    params = {"t1": {"value": 93.83, "unit": "μs", "execution_id": "e1"},
              "readout_frequency": {"value": 7.013, "unit": "GHz", "execution_id": "e1"},
              "qubit_frequency": {"value": 4.696, "unit": "GHz", "execution_id": "e1"}}
    back = untabulate(tabulate({"qid": "1", "parameters": params}))
    assert back == {"qid": "1", "parameters": [{"execution_id": "e1", "name": k, **{f: v for f, v in row.items()
                                                                                  if f != "execution_id"}}
                                               for k, row in params.items()]}


def test_the_claim_check_reads_a_tabulated_result_with_its_metric_names():
    """The model's tabulated copy of a result binds each number to its metric, as the full result does: no
    number of it backs a claim about another metric."""
    params = {"readout_frequency": {"value": 7.013, "unit": "GHz"}, "qubit_frequency": {"value": 4.696, "unit": "GHz"}}
    facts = tool_facts([json.loads(tabular_json(json.dumps({"qid": "1", "parameters": params})))])
    by_value = {(f.value, f.metric) for f in facts if f.role == "value"}
    assert by_value == {(7.013, "readout_frequency"), (4.696, "qubit_frequency")}
