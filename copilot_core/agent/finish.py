"""The answer, assembled after the model loop: parsed, checked against the tool results, charts appended, secrets
redacted.  Pure: no model call, no database read, no listener; the same loop end always gives the same answer.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass

from copilot_core.answer.parse import parse_answer, vet_model_charts
from copilot_core.answer.blocks import AskBlock, Block, ChartBlock, TextBlock, answer_text
from copilot_core.agent.contracts import AgentResult
from copilot_core.checking.grounding import unverified_numbers
from copilot_core.language.numbers import answer_numbers
from copilot_core.language.sentences import split_after_marks
from copilot_core.guardrails import sanitize_output
from copilot_core.agent.lookups import failure_quotes
from copilot_core.agent.plan import TurnPlan
from copilot_core.language.misspelled import reading_note
from copilot_core.routing.limits import (error_note, unapplied_set_note, unbound_note, unfit_note, unit_refusals,
                                         unread_side_note, unread_value_note)
from copilot_core.llm.streaming import without_markup
from copilot_core.language.window_words import unread_window, window_reading
from copilot_core.checking.restate import restated_blocks
from copilot_core.checking.scope import scoped_blocks
from copilot_core.checking.coverage import covered_blocks
from copilot_core.checking.chip_lead import chip_lead_blocks
from copilot_core.checking.verdicts import verdict_blocks
from copilot_core.checking.missing import missing_blocks
from copilot_core.checking.verify import asked_chart, checked_blocks
from copilot_core.domain.metrics import thresholds_prompt
from copilot_core.render_safety.markdown import escape
from copilot_core.tools.toolkit import ToolOutcome

log = logging.getLogger(__name__)
EMPTY = "The model returned an empty answer."


@dataclass(frozen=True)
class LoopEnd:
    """What the model loop leaves behind.  ``text``: the final text (None: none); ``computed``: it is the tools' own
    sentences; ``draft``: what was streamed of the last round; ``interim``: what the model wrote next to its calls."""

    text: str | None
    outcomes: tuple[ToolOutcome, ...]
    rounds: tuple[dict, ...] = ()
    error: str | None = None
    stopped: bool = False
    asked: AskBlock | None = None
    computed: bool = False
    draft: str = ""
    interim: tuple[str, ...] = ()
    repeats: int = 0  # calls the turn's ledger answered instead of running them again


def finish(plan: TurnPlan, end: LoopEnd, *, model: str, api_style: str) -> AgentResult:
    """The turn's result from its plan and the loop's end (``elapsed_s`` is the caller's to set)."""
    question = plan.request.message
    outcomes = list(end.outcomes)
    charts = [chart for o in outcomes for chart in (o.charts or [])]
    error, claims = end.error, "kept"
    blocks, assessment = parse_answer(without_markup(end.text))
    if end.asked is not None and error is None:
        blocks, assessment = [end.asked], None
    if error is not None:
        blocks, assessment = _partial(end, error, question), None
    elif not blocks:
        error = EMPTY
        blocks = _partial(end, error)
    elif end.computed:
        claims = "computed"
    elif end.asked is None:
        blocks, _, claims = checked_blocks(blocks, question, outcomes)
        if (quotes := failure_quotes(question, outcomes)) is not None:
            blocks = [*blocks, TextBlock(quotes)]
        if (refused := unit_refusals(outcomes)) is not None and refused not in answer_text(blocks):
            blocks = [*blocks, TextBlock(refused)]
        blocks = figure_answer(blocks, outcomes)
    if end.asked is None and error is None:
        blocks = scoped_blocks(restated_blocks(blocks, plan.asked, outcomes), question, outcomes)
        blocks = covered_blocks(blocks, plan.asked, outcomes)  # every answer kind: model's, fallback, re-made
        blocks = chip_lead_blocks(blocks, plan.asked, outcomes)  # "which chip had fewer ...": that chip first
        blocks = verdict_blocks(blocks, plan.asked, outcomes)  # "is Q5's T1 over 50 μs?": its yes or no first
    if end.asked is None and (read := _window_read(plan, outcomes)) is not None and read not in answer_text(blocks):
        blocks = [*blocks, TextBlock(read)]  # how a window was read, or that it was not: on every answer, even none
    if end.asked is None and (unfit := unfit_note(plan.asked)) is not None and unfit not in answer_text(blocks):
        blocks = [*blocks, TextBlock(unfit)]  # a limit no metric named can hold: said, whatever else was answered
    if end.asked is None and (held := error_note(plan.asked)) is not None and held not in answer_text(blocks):
        blocks = [*blocks, TextBlock(held)]  # an error's limit read as its fidelity's: said in both terms
    if end.asked is None and (slip := reading_note(plan.asked.read_as)) is not None:
        blocks = [*blocks, TextBlock(slip)]  # a slipped word read as the lab word meant: said how it was read
    for loose in (unbound_note(plan.asked, outcomes), unread_side_note(plan.asked, outcomes),
                  unread_value_note(plan.asked, outcomes)) if end.asked is None else ():
        if loose is not None and loose not in answer_text(blocks):
            blocks = [*blocks, TextBlock(loose)]  # a limit bound to no metric or side, or a value unread: said
    wide = unapplied_set_note(plan.asked, outcomes, plan.layout["size"] if plan.layout else 0) if end.asked is None else None
    if wide is not None and wide not in answer_text(blocks):
        blocks = [*blocks, TextBlock(wide)]  # a set of qubits asked, a chip-wide figure: said so
    if end.asked is None:  # a named subject the data lacks: said first, and no value stands as its answer
        blocks = missing_blocks(blocks, plan.missing, only_missing=not plan.holds_named, chips=plan.chips)
        charts.extend(asked_chart(question, outcomes, charts))
    blocks = [_sanitized(b, plan.secrets) for b in vet_model_charts(blocks)] + [ChartBlock(c) for c in charts]
    answer = answer_text(blocks)
    return AgentResult(answer=answer, blocks=blocks, assessment=assessment, tool_calls=outcomes,
                       error=sanitize_output(error, plan.secrets) if error else None, model=model,
                       api_style=api_style, flags=list(plan.request.flags), rounds=list(end.rounds),
                       routed_tools=list(plan.route.names) if plan.route is not None else None,
                       unverified_numbers=_unverified(answer, plan, outcomes), stopped=end.stopped,
                       claims=claims, skills_sent=bool(plan.skills))


_WINDOW_TOOLS = frozenset({"count_in_window", "failure_ranking", "get_parameter_timeseries",
                           "get_chip_parameter_timeseries"})
_WINDOW_ARGS = frozenset({"days", "day", "since_weekday", "from_date", "to_date", "execution_id"})


def _window_read(plan: TurnPlan, outcomes: Sequence[ToolOutcome]) -> str | None:
    """How a window in hours or with no number was read, when a call read it that way: the person sees the days."""
    asked, window = plan.asked, plan.asked.window
    if window is None and asked.dates is None and asked.since_weekday is None:
        said = asked.unplaced[0] if asked.unplaced else None  # a window no reading took: never silently every run
        return unread_window(said) if said is not None and not any(
            o.ok and _WINDOW_ARGS & set(o.args) for o in outcomes) else None  # no call read a window of its own
    if window is None or not any(o.ok and o.name in _WINDOW_TOOLS and o.args.get("days") == window.whole_days
                                 for o in outcomes):
        return None
    return window_reading(window)


def _partial(end: LoopEnd, headline: str, question: str = "") -> list[Block]:
    """What we can still show when the model did not answer: the failure, the answer text streamed before a stop or
    a broken stream (checked like any answer), and the tool results."""
    lines = [headline]
    if end.draft.strip():
        checked, _, _ = checked_blocks([TextBlock(end.draft)], question, list(end.outcomes))
        lines.append("\n\n".join(b.text for b in checked if isinstance(b, TextBlock)))
    if end.interim:
        lines.append("\n".join(end.interim))
    if end.outcomes:
        lines.append("What the tools returned before that:\n" +
                     "\n".join(f"- {o.summary}" for o in end.outcomes if o.summary))
    return [TextBlock("\n\n".join(lines))]


def _sanitized(block: Block, secrets: tuple[str, ...]) -> Block:
    """Secrets redacted from every text the model wrote (text blocks, a question and its options)."""
    if isinstance(block, TextBlock):
        return TextBlock(sanitize_output(block.text, secrets))
    if isinstance(block, AskBlock):
        return AskBlock(sanitize_output(block.question, secrets),
                        tuple(sanitize_output(o, secrets) for o in block.options), block.answer)
    return block


def _unverified(answer: str, plan: TurnPlan, outcomes: list[ToolOutcome]) -> list[str]:
    """Numbers in the answer that no tool result, no user turn and no stated threshold backs; every number of the
    answer when the sources cannot be read (the check cannot decide, so it backs nothing)."""
    sources = [part for o in outcomes for part in (o.model_text, o.full, o.summary)]
    request = plan.request
    said = [request.message, *(str(t.get("content") or "") for t in request.history if t.get("role") == "user")]
    try:
        return unverified_numbers(answer, sources, allowed_text=[*said, thresholds_prompt()])
    except Exception:  # noqa: BLE001  (a result the check cannot walk must not end the question)
        log.exception("the grounding check failed on an answer")
        return list(dict.fromkeys(written for written, derived in answer_numbers(answer) if not derived))


def _without_questions(text: str) -> str:
    """The text with every sentence that asks something taken out (line breaks kept)."""
    lines = []
    for line in text.split("\n"):
        kept = " ".join(s for s in split_after_marks(line) if not s.rstrip(" *_").endswith("?"))
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
