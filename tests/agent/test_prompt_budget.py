"""The prompt budget (a token count, not a timing) and the rule that decides what a chat question needs.

Budgets are checked with the tokenizer-free estimate on the prompt and the schemas as the provider sends
them; ``bench/prompt_budget.py`` prints the served model's own counts next to it.
"""

from __future__ import annotations

import pytest

from copilot_core.llm.budget import (
    CHAT_PROMPT_BUDGET,
    TOOL_SCHEMAS_TARGET,
    estimate_tokens,
    sent_tools_text,
)
from copilot_core.agent.prompts import build_system_prompt, prompt_needs
from copilot_core.tools.registry import TOOLS

CHIP = "64Qv3"
QUBIT = ("qubit_frequency", "anharmonicity", "t1", "t1_average", "t2_echo", "t2_echo_average", "t2_star",
         "average_readout_fidelity", "average_gate_fidelity", "x90_gate_fidelity", "x180_gate_fidelity")
COUPLING = ("zx90_gate_fidelity", "bell_state_fidelity")
EVERY = QUBIT + COUPLING


@pytest.mark.parametrize("api_style", ["responses", "chat_completions"])
@pytest.mark.parametrize("qid, question", [
    ("5", "Is Q05's ZX90 fidelity good?"),  # the largest: every threshold and the qubit's values
    ("5", "Is Q05 healthy?"),
    (None, "What is the median T1 on 64Qv3?"),
    (None, "List the last five calibration runs."),
])
def test_chat_prompt_stays_within_budget(repo, api_style, qid, question):
    prompt = build_system_prompt(mode="chat", repo=repo, chip_id=CHIP, qid=qid, api_style=api_style,
                                 question=question)
    assert estimate_tokens(prompt) <= CHAT_PROMPT_BUDGET


@pytest.mark.parametrize("api_style", ["responses", "chat_completions"])
def test_full_tool_set_as_sent_stays_within_budget(api_style):
    text = sent_tools_text(api_style, [spec.schema() for spec in TOOLS])
    assert text.count("\n") == len(TOOLS) - 1 == 30
    assert estimate_tokens(text) <= TOOL_SCHEMAS_TARGET


def test_estimate_rule():
    assert estimate_tokens("") == 0 and estimate_tokens("abc") == 1 and estimate_tokens("x" * 35) == 10


@pytest.mark.parametrize("question, mode, qid, thresholds, values", [
    (None, "chat", "5", EVERY, True),  # caller did not say: keep everything
    ("Summarise this result.", "analysis", "5", EVERY, True),
    ("What is the median T1 on 144Qv2?", "chat", None, ("t1", "t1_average"), False),
    ("median T2* of the chip", "chat", "5", ("t2_star",), False),
    ("T2 echo trend since Monday", "chat", None, ("t2_echo", "t2_echo_average"), True),
    ("Show x90_gate_fidelity for Q3", "chat", "3", ("x90_gate_fidelity",), True),
    ("Which qubits have the worst readout?", "chat", "5", EVERY, False),
    ("Is Q05 healthy?", "chat", "5", QUBIT, True),
    ("Is Q05's ZX90 fidelity good?", "chat", "5", EVERY, True),
    ("List the last five calibration runs.", "chat", "5", (), True),
    ("Who calibrated the chip last week?", "chat", "5", (), False),
    ("Q5 の T1 は問題ありますか？", "chat", "5", QUBIT, True),
    ("T2_echo and t2* of qubit 7", "chat", "7", ("t2_echo", "t2_echo_average", "t2_star"), True),
    ("Compare Q5 with the chip median", "chat", "5", (), True),
])
def test_what_a_question_needs(question, mode, qid, thresholds, values):
    needs = prompt_needs(question, mode, qid)
    assert set(needs.thresholds) == set(thresholds)
    assert needs.qubit_values is values


def test_a_metric_question_carries_that_metrics_thresholds_only(repo):
    prompt = build_system_prompt(mode="chat", repo=repo, chip_id=CHIP, qid=None, question="median T1 on 64Qv3?")
    thresholds = prompt[prompt.index("## Scoring thresholds"):prompt.index("## Context")]
    assert "- t1, t1_average: bad < 20, good > 50, excellent > 100 μs" in thresholds
    assert "t2_echo" not in thresholds and "bell_state_fidelity" not in thresholds


def test_a_question_without_metric_or_judgement_carries_no_thresholds(repo):
    prompt = build_system_prompt(mode="chat", repo=repo, chip_id=CHIP, qid="5",
                                 question="List the last five calibration runs.")
    assert "## Scoring thresholds" not in prompt and "- target qubit: Q05" in prompt


def test_a_chip_wide_question_leaves_the_selected_qubits_values_to_the_tools(repo):
    t1 = "t1="
    chip_wide = build_system_prompt(mode="chat", repo=repo, chip_id=CHIP, qid="5", question="median T1 of the chip")
    about_it = build_system_prompt(mode="chat", repo=repo, chip_id=CHIP, qid="5", question="T1 of Q5 vs the chip")
    assert "- target qubit: Q05" in chip_wide and t1 not in chip_wide
    assert "- Q05 current parameters:" in about_it and t1 in about_it
