"""Claims in the model's own words that no tool result supports, replayed through ``Copilot.ask`` (the page's path:
clarification on, the chip in view) with a scripted model over real HTTP.

Before: "Q05 has no T1 data" passed unmarked while the tool had just returned Q05's T1 (an absence states no digit,
so the number check had nothing to read); a value listed as "Q27: 25.5 μs" or "1. Q27: 25.5 μs" was held to no
qubit (the colon cut the name off its clause, and the list's "1." was read as a number and marked the right items);
so a top-N list could give one qubit another's value.  Run ids no tool returned, another task's count and another
coupling's value are attacked here too.  Each wrong answer must end replaced (the right value shown), corrected, or
visibly marked where it stands; each right one is kept as written with no mark.

Expected values are pymongo reads of the demo documents, computed here by hand, never the tools' output.
"""

from __future__ import annotations

import statistics
from collections import Counter

import pytest

from copilot_core.checking.marks import LEFT_OUT, NOT_CHECKED
from tests.agent.page_turn import SMALL, page_turn
from tests.fakes.scripted_openai import text
from tests.public_eval import CHIP, latest_values


def _ask(repo, server, tmp_path, question: str, answer: str) -> tuple[str, str]:
    """What the person reads and the claim check's action."""
    server.smart = lambda request: text(answer)
    turn = page_turn(repo, server, tmp_path, question, SMALL)
    assert turn.answer is not None and turn.result is not None
    return turn.answer.text, turn.result.claims


def _held(wrong: str, shown: str, right: str) -> bool:
    """The wrong claim does not reach the person as written: a list's wrong item (``right`` is then a line of
    ``wrong``) is marked on its line; a sentence is marked where it stands, or gone with the right value shown."""
    if "\n" in wrong and right in wrong:
        line = next(line for line in shown.splitlines() if right in line or "left out" in line) \
            if right in shown else "left out"
        return NOT_CHECKED in line or "left out" in line
    at = shown.find(wrong)
    if at >= 0:
        return shown[at + len(wrong):].lstrip().startswith(NOT_CHECKED)
    return right in shown or LEFT_OUT in shown


@pytest.fixture(scope="module")
def t(demo_db) -> dict:
    """Every figure the answers below are written from, by hand from the demo documents."""
    t1 = latest_values(demo_db, CHIP, "t1")
    t2 = latest_values(demo_db, CHIP, "t2_echo")
    qid = next(q for q in sorted(t1, key=int) if t1[q] is not None and t2.get(q) is not None and int(q) > 3)
    size = int(demo_db["chip"].find_one({"chip_id": CHIP})["size"])
    no_t1 = next(str(q) for q in range(size) if t1.get(str(q)) is None)
    ranked = sorted((v, q) for q, v in t1.items() if v is not None)
    median = statistics.median(v for v, _ in ranked)
    zx = {k: v for k, v in latest_values(demo_db, CHIP, "zx90_gate_fidelity", "coupling").items() if v is not None}
    pair = next(k for k in sorted(zx) if k.startswith("4-"))
    other_pair = next(k for k in sorted(zx) if k != pair and abs(zx[k] - zx[pair]) > 0.5)
    docs = list(demo_db["task_result_history"].find({"chip_id": CHIP}))
    newest = max(docs, key=lambda d: d["start_at"])
    eid = newest["execution_id"]
    run = [d for d in docs if d["execution_id"] == eid]
    by_task = Counter(d["name"] for d in run if d["status"] == "failed")
    earlier = sorted({d["execution_id"] for d in docs} - {eid})
    low = min(sorted(by_task), key=lambda k: by_task[k])
    top = max(sorted(by_task), key=lambda k: by_task[k])
    out = {"q": f"Q{int(qid):02d}", "t1": t1[qid], "t2": t2[qid], "no_t1": f"Q{int(no_t1):02d}",
           "median": median, "lowest": [(f"Q{int(q):02d}", v) for v, q in ranked[:3]], "far": ranked[-1][0],
           "pair": pair, "other_pair": other_pair, "zx": zx[pair], "other_zx": zx[other_pair], "eid": eid,
           "prev": earlier[-1],
           "failed": sum(by_task.values()), "in_run": len(run), "low": low, "low_n": by_task[low],
           "top": top, "top_n": by_task[top]}
    # the answers below are written for these shapes of the data
    assert out["low_n"] != out["top_n"] and len({round(v, 1) for _, v in out["lowest"]}) == 3
    assert t2[qid] != t1[qid] and (no_t1 not in t1 or t1[no_t1] is None)
    return out


def _fill(template: str, t: dict) -> str:
    (a, av), (b, bv), (c, cv) = t["lowest"]
    return template.format(**t, a=a, b=b, c=c, av=f"{av:.1f}", bv=f"{bv:.1f}", cv=f"{cv:.1f}", farv=f"{t['far']:.1f}",
                           zxv=f"{t['zx']:.2f}", otherv=f"{t['other_zx']:.2f}", t1v=f"{t['t1']:.1f}",
                           t2v=f"{t['t2']:.1f}", made="20250101-007")


T1_Q = "What is {q}'s T1?"
T2_Q = "What is the T2 echo of {q}?"
LOW_Q = "Which 3 qubits have the lowest T1?"
PAIR_Q = "What is the ZX90 gate fidelity of coupling {pair}?"
MEDIAN_Q = "What is the median T1 of the chip?"
RUN_Q = "How many tasks failed in the latest run?"

# (question, wrong answer, what the right answer shows; for a list, the wrong item instead, which must be marked)
WRONG = {
    "absent": [
        (T1_Q, "There is no T1 data for {q}.", "{t1v} μs"),
        (T1_Q, "{q}'s T1 has not been measured.", "{t1v} μs"),
        (T1_Q, "T1 is not available for {q}.", "{t1v} μs"),
        (T1_Q, "{q} has no T1 measurement on record.", "{t1v} μs"),
        (T2_Q, "No T2 echo value was found for {q}.", "{t2v} μs"),
        (T2_Q, "{q}'s T2 echo is missing from the data.", "{t2v} μs"),
        (T2_Q, "The T2 echo of {q} is unavailable.", "{t2v} μs"),
        (T2_Q, "I couldn't find any T2 echo result for {q}.", "{t2v} μs"),
        (MEDIAN_Q, "{q} has no T1 data.", "{t1:.4g}"),  # no tool of the turn read the qubit: the database holds it
        (MEDIAN_Q, "The median is {median:.1f} μs; T1 was not measured on {q}.", "{t1:.4g}"),
    ],
    "task count": [
        (RUN_Q, "{low} failed {top_n} times.", "{low_n}"),
        (RUN_Q, "There were {top_n} {low} failures.", "{low_n}"),
        (RUN_Q, "{low} had {top_n} failed results in the run.", "{low_n}"),
        (RUN_Q, "{low}: {top_n} failures.", "{low_n}"),
        (RUN_Q, "The run had {failed} failures; {low} accounted for {top_n} of them.", "{low_n}"),
        (RUN_Q, "{top} failed {low_n} times and {low} failed {top_n} times.", "{low_n}"),
    ],
    "run id": [
        (RUN_Q, "{failed} tasks failed in run {prev}.", "{eid}"),
        (RUN_Q, "The latest run, {prev}, had {failed} failed tasks.", "{eid}"),
        (RUN_Q, "Execution {made} had {failed} failures.", "{eid}"),
        (RUN_Q, "{failed} failures in execution ID {prev}.", "{eid}"),
        (RUN_Q, "In {made}, {failed} tasks failed.", "{eid}"),
        (RUN_Q, "The run with id {prev} is the latest; {failed} tasks failed there.", "{eid}"),
    ],
    "coupling": [
        (PAIR_Q, "Coupling {pair} has a ZX90 gate fidelity of {otherv}%.", "{zxv}%"),
        (PAIR_Q, "The ZX90 gate fidelity of {pair} is {otherv}%.", "{zxv}%"),
        (PAIR_Q, "{pair}: {otherv}%", "{zxv}%"),
        (PAIR_Q, "ZX90 fidelity for coupling {pair} = {otherv}%.", "{zxv}%"),
        (PAIR_Q, "It is {otherv}% for coupling {pair}.", "{zxv}%"),
        (PAIR_Q, "Coupling {pair} reaches {otherv}% ZX90 gate fidelity, which is good.", "{zxv}%"),
        (PAIR_Q, "{pair} is at {otherv}%.", "{zxv}%"),
        (PAIR_Q, "The ZX90 gate fidelity of {pair} is {zxv}%, while {other_pair} has {zxv}% too.", "{zxv}%"),
    ],
    "top-N": [
        (LOW_Q, "1. {a}: {av} μs\n2. {b}: {cv} μs\n3. {c}: {bv} μs", "{c}: {bv} μs"),
        (LOW_Q, "- {a}: {bv} μs\n- {b}: {av} μs\n- {c}: {cv} μs", "{a}: {bv} μs"),
        (LOW_Q, "The lowest are {a} ({av} μs), {b} ({bv} μs) and {c} ({farv} μs).", "{cv} μs"),
        (LOW_Q, "{a} {av} μs, {b} {bv} μs, {c} 12.0 μs.", "{cv} μs"),
        (LOW_Q, "| qubit | T1 |\n|---|---|\n| {a} | {av} μs |\n| {b} | {cv} μs |\n| {c} | {bv} μs |",
         "| {c} | {bv} μs |"),
        (LOW_Q, "{a}: {av} μs; {b}: {bv} μs; {c}: 19.4 μs", "{cv} μs"),
        (LOW_Q, "1. {a} – {bv} μs\n2. {b} – {av} μs\n3. {c} – {cv} μs", "{a} – {bv} μs"),
        (LOW_Q, "{a}, {b} and {c}, with {av}, {cv} and {bv} μs respectively.", "{bv} μs"),
    ],
}

RIGHT = {
    "absent": [
        (T1_Q, "{q}'s T1 is {t1v} μs."),
        (T2_Q, "The T2 echo of {q} is {t2v} μs."),
        ("What are the parameters of {no_t1}?", "There is no T1 value for {no_t1}."),
        ("What are the parameters of {no_t1}?", "{no_t1}'s T1 is not available."),
        (MEDIAN_Q, "The median is {median:.1f} μs; {no_t1} has no T1 value."),
    ],
    "task count": [
        (RUN_Q, "{low} failed {low_n} times."),
        (RUN_Q, "There were {top_n} {top} failures."),
        (RUN_Q, "{top}: {top_n} failures."),
        (RUN_Q, "The run had {failed} failures; {top} accounted for {top_n} of them."),
    ],
    "run id": [
        (RUN_Q, "{failed} tasks failed in run {eid}."),
        (RUN_Q, "Execution {eid} had {failed} failed tasks."),
        (RUN_Q, "In {eid}, {failed} of {in_run} tasks failed."),
        (RUN_Q, "The latest run is {eid}, with {failed} failures."),
    ],
    "coupling": [
        (PAIR_Q, "Coupling {pair} has a ZX90 gate fidelity of {zxv}%."),
        (PAIR_Q, "The ZX90 gate fidelity of {pair} is {zxv}%."),
        (PAIR_Q, "{pair}: {zxv}%"),
        (PAIR_Q, "It is {zxv}% for coupling {pair}."),
        (PAIR_Q, "{pair} is at {zxv}%."),
    ],
    "top-N": [
        (LOW_Q, "1. {a}: {av} μs\n2. {b}: {bv} μs\n3. {c}: {cv} μs"),
        (LOW_Q, "- {a}: {av} μs\n- {b}: {bv} μs\n- {c}: {cv} μs"),
        (LOW_Q, "The lowest are {a} ({av} μs), {b} ({bv} μs) and {c} ({cv} μs)."),
        (LOW_Q, "{a}: {av} μs; {b}: {bv} μs; {c}: {cv} μs"),
        (LOW_Q, "{a}, {b} and {c}, with {av}, {bv} and {cv} μs respectively."),
    ],
}


@pytest.mark.parametrize("question, template, right", [c for cases in WRONG.values() for c in cases],
                         ids=[f"{k}-{i}" for k, cases in WRONG.items() for i in range(len(cases))])
def test_an_unsupported_claim_is_replaced_or_marked(question, template, right, t, repo, scripted_openai, tmp_path):
    wrong = _fill(template, t)
    shown, _ = _ask(repo, scripted_openai, tmp_path, _fill(question, t), wrong)
    assert _held(wrong, shown, _fill(right, t)), shown


@pytest.mark.parametrize("question, template", [c for cases in RIGHT.values() for c in cases],
                         ids=[f"{k}-{i}" for k, cases in RIGHT.items() for i in range(len(cases))])
def test_a_supported_claim_in_own_words_is_kept_unmarked(question, template, t, repo, scripted_openai, tmp_path):
    right = _fill(template, t)
    shown, claims = _ask(repo, scripted_openai, tmp_path, _fill(question, t), right)
    assert shown.strip() == right and claims == "kept", shown
