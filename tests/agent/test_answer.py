"""The answer format: blocks schema, legacy conversion, tolerant parsing, chart vetting."""

from __future__ import annotations

import json

from copilot_core.answer.parse import legacy_to_blocks, parse_answer, vet_model_charts
from copilot_core.answer.blocks import ChartBlock, TextBlock

BLOCKS = {"blocks": [{"type": "text", "content": "T1 is **fine**.", "chart": None}], "assessment": "good"}
FINE = [TextBlock("T1 is **fine**.")]
SAFE_CHART = {"data": [{"type": "scatter", "x": [1, 2], "y": [3, 4]}], "layout": {"title": {"text": "t1"}}}


def test_blocks_json_is_taken_as_is():
    assert parse_answer(json.dumps(BLOCKS)) == (FINE, "good")


def test_code_fenced_json_is_unwrapped():
    fenced = "```json\n" + json.dumps(BLOCKS) + "\n```"
    assert parse_answer(fenced) == (FINE, "good")


def test_first_balanced_object_inside_prose():
    prose = "Here is my answer: " + json.dumps(BLOCKS) + " Hope that helps {not json}"
    assert parse_answer(prose) == (FINE, "good")


def test_braces_inside_strings_do_not_confuse_the_scanner():
    tricky = {"blocks": [{"type": "text", "content": "a } brace and a \" quote {", "chart": None}],
              "assessment": None}
    assert parse_answer("note: " + json.dumps(tricky))[0] == [TextBlock("a } brace and a \" quote {")]


def test_prose_becomes_one_text_block():
    assert parse_answer("  Just words.  ") == ([TextBlock("Just words.")], None)


def test_unrelated_json_is_kept_as_text():
    raw = '{"qid": "5", "t1": 40}'
    blocks, assessment = parse_answer(raw)
    assert blocks == [TextBlock(raw)] and assessment is None


def test_unknown_assessment_is_dropped_and_case_is_folded():
    assert parse_answer(json.dumps({"blocks": ["hi"], "assessment": "excellent"}))[1] is None
    assert parse_answer(json.dumps({"blocks": ["hi"], "assessment": "WARNING"}))[1] == "warning"


def test_legacy_schema_is_converted():
    legacy = {"summary": "T1 dropped", "assessment": "bad", "explanation": "T1 fell from 80 to 20 μs.",
              "potential_issues": ["TLS defect"], "recommendations": ["Re-run CheckT1", "Check Q05's neighbours"]}
    blocks, assessment = parse_answer("```\n" + json.dumps(legacy) + "\n```")
    assert assessment == "bad" and len(blocks) == 1
    assert isinstance(blocks[0], TextBlock)
    text = blocks[0].text
    for part in ("**T1 dropped**", "T1 fell from 80 to 20 μs.", "- TLS defect", "- Re-run CheckT1",
                 "**Recommendations**"):
        assert part in text
    assert legacy_to_blocks({}) == ([], None)


def test_empty_reply_has_no_blocks():
    assert parse_answer(None) == ([], None) and parse_answer("   ") == ([], None)


def test_valid_model_chart_is_kept_after_validation():
    blocks = vet_model_charts([ChartBlock(SAFE_CHART)])
    assert isinstance(blocks[0], ChartBlock) and blocks[0].figure["data"][0]["y"] == [3, 4]


def test_hostile_model_chart_is_dropped_with_a_note():
    hostile = {"data": [{"type": "scatter", "x": [1], "y": [1]}],
               "layout": {"images": [{"source": "https://evil.example/x.png?leak=1"}]}}
    blocks = vet_model_charts([ChartBlock(hostile)])
    assert isinstance(blocks[0], TextBlock) and "dropped" in blocks[0].text
    assert "evil.example" not in repr(blocks)


def test_chart_json_pasted_in_prose_is_removed():
    text = "Look:\n```json\n" + json.dumps(SAFE_CHART) + "\n```\nDone."
    [block] = vet_model_charts([TextBlock(text)])
    assert isinstance(block, TextBlock) and '"layout"' not in block.text and "Done." in block.text


def test_reply_cut_off_mid_json_keeps_its_text():
    cut = '{"blocks": [{"type": "text", "content": "T1 median is 58 \\u03bcs.\\nAll good.", "chart": null}, ' \
          '{"type": "text", "content": "Outliers: Q5'
    blocks, assessment = parse_answer(cut)
    assert blocks == [TextBlock("T1 median is 58 μs.\nAll good.")]
    assert assessment is None
