"""Whether an answer covers the scope its question states: a time window, one task, one qubit.

A count or a ranking over every stored run, every task or the whole chip holds numbers the claim check finds in the
tool results, so the check passes it; yet it answers a wider question than the one asked.  Here the question's
restrictions (:class:`~copilot_core.language.question.Question`: window, weekday, task, one qubit) are held against
the arguments of each call the turn made.  When every number of the answer comes from calls wider than the question,
the person reads a note saying what the answer covers and what was asked; when the router's own call has the scope
asked, its sentence is shown instead, with that note.  An answer resting on a call of the right scope is left as it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from copilot_core.answer.blocks import Block, TextBlock
from copilot_core.checking.grounding import unverified_numbers
from copilot_core.checking.matcher import written_value
from copilot_core.language.question import Question, parse
from copilot_core.render_safety.markdown import escape
from copilot_core.tools.registry import TOOLS_BY_NAME, runs_code
from copilot_core.tools.toolkit import ToolOutcome, answer_line

# Tools that read no measured data (a name check, the chip's layout, notes, memory): no scope to judge.
NO_DATA = frozenset({"check_target", "list_available_parameters", "get_chip_topology", "recall_memory",
                     "get_calibration_notes"})
_WINDOW_ARGS = ("days", "day", "since_weekday", "from_date", "to_date")  # restate_elements.call_window's keys


@dataclass(frozen=True)
class Scope:
    """The restrictions a question states, as shown to the person (None: not stated)."""

    window: str | None = None  # "the last 7 days", "since Monday", "today"
    task: str | None = None  # "CheckT1"
    qubit: str | None = None  # "5"

    def stated(self) -> dict[str, str]:
        return {k: v for k, v in (("window", self.window), ("task", self.task), ("qubit", self.qubit)) if v}


def window_words(asked: Question) -> str | None:
    """The question's window, rebuilt from its parsed parts (never the question's own characters)."""
    if asked.since_weekday is not None:
        return "this week" if asked.has("this week") else f"since {asked.since_weekday.capitalize()}"
    if asked.dates is not None:  # as written: "11-03", "2026-11-05"
        first, last = asked.dates
        return f"from {first} to {last}" if first and last else f"since {first}" if first else f"up to {last}"
    window = asked.window
    if window is not None:
        if window.unit in ("today", "yesterday"):
            return window.unit
        return f"the last {window.n} {window.unit}{'s' if window.n != 1 else ''}"
    return "this month" if asked.has("this month") else None


def asked_scope(asked: Question) -> Scope:
    """The window, task and single qubit ``asked`` restricts its answer to."""
    qubit = asked.qubits[0] if len(asked.qubits) == 1 and not asked.couplings else None
    return Scope(window_words(asked), asked.task_name, qubit)


def wider(outcome: ToolOutcome, scope: Scope) -> list[str]:
    """The restrictions of ``scope`` the call did not narrow its result to ("window", "task", "qubit")."""
    args = outcome.args if isinstance(outcome.args, dict) else {}
    params = (TOOLS_BY_NAME[outcome.name].parameters.get("properties") or {}) if outcome.name in TOOLS_BY_NAME else {}
    out = []
    if scope.window and not any(args.get(k) is not None for k in _WINDOW_ARGS):
        out.append("window")
    if scope.task and "task_name" in params and str(args.get("task_name") or "").lower() != scope.task.lower():
        out.append("task")
    if scope.qubit and ("qid" in params or "qids" in params) and not _names_qubit(args, scope.qubit):
        out.append("qubit")
    return out


def _names_qubit(args: dict, qubit: str) -> bool:
    one = str(args.get("qid") or "").lstrip("Qq")
    listed = args.get("qids")
    return (one.isdigit() and int(one) == int(qubit)) or (
        isinstance(listed, list) and len(listed) == 1 and str(listed[0]).lstrip("Qq").isdigit()
        and int(str(listed[0]).lstrip("Qq")) == int(qubit))


def scope_note(covered: Sequence[str], scope: Scope, replaced: bool = False) -> str:
    """The visible note: what the answer's figures cover vs what the question asked about."""
    stated = scope.stated()
    asked = " and ".join(asked_words(k, stated[k]) for k in covered)
    if replaced:
        return (f"The model's answer used figures not limited to {asked}, which the question asked about; the "
                "answer computed from the data for that scope is shown instead.")
    return f"Scope: the figures above are not limited to {asked}, which the question asked about."


def asked_words(kind: str, value: str) -> str:
    if kind == "qubit":
        return f"qubit {int(value)}"
    return escape(value)


def _held(text: str, asked: Question, outcomes: Sequence[ToolOutcome]) -> set[str]:
    """The numbers of ``text`` (not the question's own) that the results of ``outcomes`` hold."""
    own = {written_value(w) for w in asked.values}
    numbers = {w for w in unverified_numbers(text, []) if written_value(w) not in own}
    sources = [part for o in outcomes for part in (o.model_text, o.full, o.summary)]
    return numbers - set(unverified_numbers(text, sources)) if outcomes else set()


def scoped_blocks(blocks: list[Block], question: str, outcomes: Sequence[ToolOutcome]) -> list[Block]:
    """``blocks`` as shown, or with the scope note (see the module docstring): the one rule for every answer."""
    asked = parse(question)
    scope = asked_scope(asked)
    data = [o for o in outcomes if o.ok and o.name not in NO_DATA]
    if not scope.stated() or not data or any(runs_code(o.name) for o in data):
        return blocks
    judged = [(o, wider(o, scope)) for o in data]
    right = [o for o, missing in judged if not missing]
    wide = [(o, missing) for o, missing in judged if missing]
    if not wide:
        return blocks
    text = "\n".join(b.text for b in blocks if isinstance(b, TextBlock))
    by_right, by_wide = (_held(text, asked, calls) for calls in (right, [o for o, _ in wide]))
    if by_right - by_wide or not by_wide - by_right:
        return blocks  # the answer states a figure only the right-scope call holds, or none only a wider one holds
    covered = [k for k in ("window", "task", "qubit") if any(k in missing for _, missing in wide)]
    routed = next((line for o in right if o.origin == "router" and (line := answer_line(o))), None)
    if routed is not None:
        charts = [b for b in blocks if not isinstance(b, TextBlock)]
        return [TextBlock(routed), TextBlock(f"_{scope_note(covered, scope, replaced=True)}_"), *charts]
    return [*blocks, TextBlock(f"_{scope_note(covered, scope)}_")]
