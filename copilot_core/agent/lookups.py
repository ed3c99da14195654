"""Data questions are never answered from thin air.

Three rules, each a plain function of the question's words:

- the call a question in words plainly needs: a time window ("over the last 14 days") is a window of days, never a
  count of points; several named qubits are fetched together (and drawn as one chart, a line each); "why did Q69's
  tasks fail" reads the qubit's failed task results with their stored messages;
- a data question whose turn made no tool call and whose answer states values (or explains a failure) gets the call
  made by the turn service, or a plain "could not look it up"; an earlier answer in the chat is context, never
  evidence for a new one;
- the answer to a why-it-failed question quotes the stored messages of the failed tasks.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from copilot_core.agent.blocks import Block, TextBlock
from copilot_core.agent.grounding import answer_numbers
from copilot_core.agent.prefetch import PlannedCall, _qubits, plan_prefetch
from copilot_core.domain.metrics import CATALOGUE
from copilot_core.domain.vocabulary import NUMBER_WORDS, metrics_named
from copilot_core.render_safety.markdown import escape
from copilot_core.tools.toolkit import ToolOutcome

COULD_NOT = ("I could not look this up: no tool was called for this question, so there is no data to answer it from "
             "(an earlier answer in this chat is not evidence for a new question). Please ask again; naming the chip, "
             "the qubit and the metric helps.")
MAX_QUOTES = 10
_N = r"(\d{1,3}|" + "|".join(sorted(NUMBER_WORDS, key=len, reverse=True)) + r")"
_WINDOW = re.compile(rf"\b(?:last|past|previous|recent)\s+(?:{_N}\s+)?(days?|weeks?|months?)\b|\b(today|yesterday)\b",
                     re.I)
_UNIT_DAYS = {"day": 1, "week": 7, "month": 30}
_PLOT = re.compile(r"\b(plot\w*|graph\w*|chart\w*|draw|visuali[sz]e\w*|show)\b", re.I)
_WHY_FAILED = re.compile(r"\bwhy\b.*\b(fail\w*|errors?|broke|broken)\b|\bwhat (went wrong|happened)\b", re.I)
_DATA = re.compile(r"\b(q\s?\d{1,3}|qubits?|chips?|couplings?|median|mean|average|latest|current\w*|now|today|trend\w*"
                   r"|histor\w*|over time|chang\w*|fail\w*|worst|best|lowest|highest|how many|values?|measured"
                   r"|plot\w*|graph\w*|chart\w*|runs?|executions?|calibrat\w*)\b|\d{1,4}Q\w*", re.I)
_DEFINITION = re.compile(r"^\s*(what (is|are|does)|define|explain|meaning of)\b(?!.*\b(q\s?\d|qubit \d|chip|our|my"
                         r"|the latest|current))", re.I)


def window_days(question: str) -> int | None:
    """Days of a window written in words ("last 14 days" 14, "past two weeks" 14, "last week" 7), else None."""
    found = _WINDOW.search(question)
    if found is None:
        return None
    if found.group(3):
        return 1 if found.group(3).lower() == "today" else 2
    count = found.group(1)
    n = 1 if count is None else (int(count) if count.isdigit() else NUMBER_WORDS.get(count.lower(), 1))
    return max(1, min(365, n * _UNIT_DAYS[found.group(2).lower().rstrip("s")]))


def _qubit_metric(question: str) -> str | None:
    named = metrics_named(question)
    if len(named) != 1 or named[0] is None or CATALOGUE[named[0]].kind != "qubit":
        return None
    return named[0]


def history_plan(question: str, chip_id: str) -> PlannedCall | None:
    """One clear qubit metric of named qubits, over a window in words or drawn for several qubits."""
    qubits = sorted(_qubits(question), key=int)
    metric = _qubit_metric(question)
    days = window_days(question)
    if not qubits or metric is None or len(qubits) > 12 or (days is None and not (len(qubits) > 1 and
                                                                                   _PLOT.search(question))):
        return None
    args: dict = {"parameter_name": metric, "chip_id": chip_id}
    if days is not None:
        args["days"] = days
    if len(qubits) == 1:
        return PlannedCall("get_parameter_timeseries", {**args, "qid": qubits[0], "last_n": 100},
                           f"{metric} of Q{qubits[0]} over {days} days")
    return PlannedCall("get_chip_parameter_timeseries", {**args, "qids": qubits, "last_n": 365 if days else 10},
                       f"{metric} of {len(qubits)} qubits" + (f" over {days} days" if days else ""))


def why_failed_plan(question: str, chip_id: str) -> PlannedCall | None:
    """"Why did Q69's tasks fail?": that qubit's failed task results, whose stored messages say why."""
    qubits = _qubits(question)
    if len(qubits) != 1 or not _WHY_FAILED.search(question):
        return None
    return PlannedCall("search_task_results", {"chip_id": chip_id, "qid": next(iter(qubits)), "status": "failed",
                                               "last_n": MAX_QUOTES}, "why tasks failed: their stored messages")


def lookup_plan(question: str, chip_id: str | None, available: Sequence[str] | None = None) -> PlannedCall | None:
    """The call for a question in words that the generic prefetch would get wrong (a window, several qubits, a why)."""
    if not chip_id:
        return None
    plan = why_failed_plan(question, chip_id) or history_plan(question, chip_id)
    return plan if plan is not None and (available is None or plan.name in available) else None


def needs_data(question: str) -> bool:
    """A question about the lab's data (not a definition or a greeting): it must be answered from a tool call."""
    return bool(_DATA.search(question)) and not _DEFINITION.search(question)


def answered_from_thin_air(question: str, answer: str | None) -> bool:
    """A data question whose answer (written with no tool call) states values, or explains why something failed:
    what the model wrote can only come from earlier turns or from nowhere."""
    if not needs_data(question):
        return False
    if _WHY_FAILED.search(question):
        return True
    try:
        return bool(answer_numbers(answer or ""))
    except Exception:  # noqa: BLE001 - numbers that cannot be read are not evidence either
        return True


def fallback_plan(question: str, *, chip_id: str | None, qid: str | None,
                  available: Sequence[str] | None) -> PlannedCall | None:
    """The call to make when the model made none for a data question."""
    return lookup_plan(question, chip_id, available) or plan_prefetch(question, chip_id=chip_id, qid=qid,
                                                                      available=available)


def failure_quotes(question: str, outcomes: Sequence[ToolOutcome]) -> str | None:
    """For a why-it-failed question: each failed task with its stored message, quoted (markdown escaped)."""
    if not _WHY_FAILED.search(question):
        return None
    lines: list[str] = []
    for outcome in outcomes:
        full = outcome.full if outcome.ok and isinstance(outcome.full, dict) else {}
        for row in full.get("results") or []:
            if not isinstance(row, dict) or str(row.get("status")) != "failed":
                continue
            message = _text(row.get("message"))
            when = str(row.get("start_at") or "")[:16].replace("T", " ")
            said = f"“{escape(message)}”" if message else "no message was stored"
            lines.append(f"- {escape(_text(row.get('name')) or 'task')}"
                         + (f" ({escape(when)})" if when else "") + f": {said}")
    if not lines:
        return None
    shown = list(dict.fromkeys(lines))[:MAX_QUOTES]
    return "**Why they failed, from the stored task messages:**\n" + "\n".join(shown)


def _text(value: object) -> str:
    """A stored message as text: the fenced untrusted text the tools return, or a plain string."""
    if isinstance(value, dict):
        value = value.get("untrusted_text", "")
    return " ".join(str(value or "").split())[:300]


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def _without_questions(text: str) -> str:
    """The text with every sentence that asks something taken out (line breaks kept)."""
    lines = []
    for line in text.split("\n"):
        kept = " ".join(s for s in _SENTENCE_END.split(line) if not s.rstrip(" *_").endswith("?"))
        if kept.strip() or not line.strip():
            lines.append(kept)
    return "\n".join(lines).strip()


def figure_answer(blocks: Sequence[Block], outcomes: Sequence[ToolOutcome]) -> list[Block]:
    """A turn that drew a lab figure answers in a sentence with it, never with a question back ("Would you like
    me to…?"): questions are taken out of its text, and a text left empty is the figure tool's own line."""
    lines = [str(o.full.get("answer")) for o in outcomes
             if o.ok and o.name == "get_task_figure" and o.charts and isinstance(o.full, dict) and o.full.get("answer")]
    if not lines:
        return list(blocks)
    out: list[Block] = []
    for block in blocks:
        if isinstance(block, TextBlock):
            kept = _without_questions(block.text)
            if kept:
                out.append(TextBlock(kept))
        else:
            out.append(block)
    if not any(isinstance(b, TextBlock) for b in out):
        out.insert(0, TextBlock("Here is the " + escape(lines[0])))
    return out
