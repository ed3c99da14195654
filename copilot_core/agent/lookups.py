"""Data questions are never answered from thin air.

Three rules, each a plain function of the question's words:

- the call a question in words plainly needs: a time window ("over the last 14 days") is a window of days, never a
  count of points; several named qubits are fetched together (and drawn as one chart, a line each); "why did Q69's
  tasks fail" reads the qubit's failed task results with their stored messages;
- a data question whose turn made no tool call and whose answer states values, ranks, or names qubits, couplings, tasks
  or runs (or explains a failure) gets the call
  made by the turn service, or a plain "could not look it up"; an earlier answer in the chat is context, never
  evidence for a new one;
- the answer to a why-it-failed question quotes the stored messages of the failed tasks.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from copilot_core.agent.ledger import CallLedger
from copilot_core.checking.absence import unread_absences
from copilot_core.checking.marks import states_something
from copilot_core.checking.top_list import ranking_plan, re_ranked, unranked
from copilot_core.llm.turns import ToolCall
from copilot_core.language.numbers import answer_numbers
from copilot_core.language.subjects import subjects
from copilot_core.routing.planned import PlannedCall
from copilot_core.routing.prefetch import plan_prefetch
from copilot_core.language.question import Question, parse
from copilot_core.domain.metrics import CATALOGUE
from copilot_core.render_safety.markdown import escape
from copilot_core.answer.blocks import answer_text
from copilot_core.answer.parse import parse_answer
from copilot_core.checking.verify import answer_line
from copilot_core.tools.compact import to_model_json
from copilot_core.language.sentences import split_after_marks
from copilot_core.tools.registry import runs_code
from copilot_core.tools.toolkit import ToolOutcome

COULD_NOT = ("I could not look this up: no tool was called for this question, so there is no data to answer it from "
             "(an earlier answer in this chat is not evidence for a new question). Please ask again; naming the chip, "
             "the qubit and the metric helps.")
MAX_QUOTES = 10


def window_days(question: str) -> int | None:
    """Days of a window written in words ("last 14 days" 14, "past two weeks" 14, "last week" 7, "today" and
    "yesterday" 1: one whole day), else None (a window of hours is no window of days)."""
    window = parse(question).window
    if window is None or window.unit == "hour":
        return None
    return max(1, min(365, round(window.days)))


def _qubit_metric(asked: Question) -> str | None:
    named = asked.metrics
    if len(named) != 1 or named[0] is None or CATALOGUE[named[0]].kind != "qubit":
        return None
    return named[0]


def _plot_or_show(asked: Question) -> bool:
    """A chart word, or "show" (several qubits' history shown is drawn as one chart)."""
    return asked.chart or asked.has("show")


def history_plan(question: str, chip_id: str) -> PlannedCall | None:
    """One clear qubit metric of named qubits, over a window in words or drawn for several qubits."""
    asked = parse(question)
    qubits = sorted(set(asked.ends), key=int)
    metric = _qubit_metric(asked)
    days = window_days(question)
    if asked.shape in ("window count", "qubit pair"):  # a count, or two qubits compared: the prefetch's call
        return None
    if not qubits or metric is None or len(qubits) > 12 or (days is None and not (len(qubits) > 1 and
                                                                                   _plot_or_show(asked))):
        return None
    args: dict = {"parameter_name": metric, "chip_id": chip_id}
    if days is not None:
        args["days"] = 2 if asked.window is not None and asked.window.yesterday else days  # whole days only
    if len(qubits) == 1:
        return PlannedCall("get_parameter_timeseries", {**args, "qid": qubits[0], "last_n": 100},
                           f"{metric} of the qubit asked about over {days} days")
    return PlannedCall("get_chip_parameter_timeseries", {**args, "qids": qubits, "last_n": 365 if days else 10},
                       f"{metric} of {len(qubits)} qubits" + (f" over {days} days" if days else ""))


def why_failed_plan(question: str, chip_id: str) -> PlannedCall | None:
    """"Why did Q69's tasks fail?": that qubit's failed task results, whose stored messages say why."""
    asked = parse(question)
    qubits = set(asked.ends)
    if len(qubits) != 1 or not asked.has("why failed"):
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
    asked = parse(question)
    return asked.names_lab_data and not asked.has("definition")


_COUNTED_SHAPES = frozenset({"window count", "fails most"})


def answered_from_thin_air(question: str, answer: str | None, follow_up: bool = False) -> bool:
    """A data question whose answer (written with no tool call) states values, or explains why something failed:
    what the model wrote can only come from earlier turns or from nowhere.  ``follow_up``: the chat has earlier
    turns, so a question with no data words of its own ("and how does that compare?") asks about the same data."""
    if not (needs_data(question) or (follow_up and not parse(question).has("definition"))):
        return False
    if parse(question).has("why failed") or parse(question).shape in _COUNTED_SHAPES and (answer or "").strip():
        return True  # a count or a ranking over a window: "none failed" is a count too, never from nowhere
    text = answer or ""
    try:  # a number, a ranking or a value in words, or a qubit, coupling, task or run named ("Q05 and Q07 are flagged")
        return bool(answer_numbers(text)) or states_something(text) or any(
            s.kind in ("qubit", "coupling", "task", "run") for s in subjects(text))
    except Exception:  # noqa: BLE001 - numbers that cannot be read are not evidence either
        return True


def fallback_plan(question: str, *, chip_id: str | None, qid: str | None,
                  available: Sequence[str] | None, chips: Sequence[str] = ()) -> PlannedCall | None:
    """The call to make when the model made none for a data question (``chips``: the installed ones, so "per chip"
    and "which chip" are read against them)."""
    return lookup_plan(question, chip_id, available) or plan_prefetch(question, chip_id=chip_id, qid=qid,
                                                                      available=available, chips=chips)


def absence_call(answer: str, ledger: CallLedger, chip_id: str | None, question: str) -> PlannedCall | None:
    """An answer that says a qubit's or coupling's value is absent when no call of the turn read that subject: the
    call that reads it, so the claim check holds the absence to the database, never to nothing.  The ledger's
    facts are the turn's, built once."""
    asked, outcomes = parse(question), ledger.outcomes
    try:
        unread = unread_absences(answer, outcomes, (*asked.qubits, *asked.couplings), ledger.facts())
    except Exception:  # noqa: BLE001 - results the check cannot read: the claim check after it fails closed on them
        return None
    if chip_id is None or not unread or any(runs_code(o.name) for o in outcomes):
        return None
    subject = unread[0]
    if "-" in subject:
        return PlannedCall("get_coupling_params", {"chip_id": chip_id, "coupling_id": subject}, "an absence said")
    return PlannedCall("get_qubit_params", {"chip_id": chip_id, "qid": subject}, "an absence said")


def checked_calls(text: str, ledger: CallLedger, chip_id: str | None, chips: Sequence[str], question: str,
                  record: Callable[[PlannedCall, str], tuple[ToolCall, ToolOutcome]]) -> str:
    """The answer after the calls its claims need: an absence said of a subject no call read is held to the
    database (the call made, the claim check judges it); a top-N list that is not the ranking the question asks
    for is replaced by the router's ranking (:mod:`~copilot_core.checking.top_list`)."""
    if (read := absence_call(text, ledger, chip_id, question)) is not None:
        record(read, "call_check_absent")
        return text
    exact = parse(question).extreme_n is not None  # a size the person wrote is held; the router's default is not
    if (ranks := ranking_plan(question, chip_id, chips)) is not None and unranked(text, ledger.outcomes, ranks, exact):
        return re_ranked(text, record(ranks, "call_check_ranking")[1], ranks, exact)
    return text


def failure_quotes(question: str, outcomes: Sequence[ToolOutcome]) -> str | None:
    """For a why-it-failed question: each failed task with its stored message, quoted (markdown escaped)."""
    if not parse(question).has("why failed"):
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


def only_asks(text: str) -> bool:
    """The reply's words are only questions back to the person ("Which chip do you mean?"), with no figure in them:
    on a question the data answers, no answer at all."""
    words = answer_text(parse_answer(text)[0])
    said = [s.rstrip(" *_") for line in words.split("\n") for s in split_after_marks(line) if s.strip(" *_")]
    return bool(said) and all(s.endswith("?") for s in said) and not any(c.isdigit() for c in words)


def already_made(outcome: ToolOutcome) -> str:
    """The reply to a repeat: the earlier call's answer sentence again, and what to do next."""
    body: dict[str, object] = {"note": "This call was already made; its result is above. Answer the user's question "
                                    "from it now, quoting its numbers."}
    line = answer_line(outcome)
    if line:
        body = {"answer": line, **body}
    return to_model_json(body)
