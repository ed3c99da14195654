"""One-click qubit analysis: the deterministic health report at once, then one model round that reviews it.

The report is the floor: it is built without the model, handed to the front end before the model is asked
(:class:`ReportListener`), and is the answer's first block whatever the model does.  The model gets the
report's facts for this qubit only, in the prompt (no tools, so one round), with a short timeout and a small
output budget; its review is checked against the report (:mod:`~copilot_core.review.review_check`) and shown
after it, or replaced by the report's summary line, or said to be missing with the reason.
"""

from __future__ import annotations

import logging
import math

import time
from dataclasses import replace
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from copilot_core.data.observed import observed
from copilot_core.tools.compact import inline_from_database
from copilot_core.tools.taint import DatabaseText, mark_line
from copilot_core.answer.parse import parse_answer
from copilot_core.language.dates import DATES
from copilot_core.language.forms import found
from copilot_core.answer.blocks import Block, TextBlock, answer_text
from copilot_core.agent.context import resolve_target
from copilot_core.agent.contracts import NULL_TRACER, AgentRequest, AgentResult, SilentListener, Tracer, TurnListener
from copilot_core.guardrails import sanitize_output
from copilot_core.llm.calls import call_model
from copilot_core.llm.turns import ModelTurn
from copilot_core.llm.conversation import start_conversation
from copilot_core.agent.plan import turn_secrets
from copilot_core.agent.prompts import render_prompt
from copilot_core.llm.provider import ProviderConfig, make_client
from copilot_core.llm.budget import estimate_tokens
from copilot_core.review.qubit_facts import (
    MAX_PROBLEMS,
    failure_reasons,
    problem_lines,
    report_block,
    report_facts,
    rerun_tasks,
    summary_line,
)
from copilot_core.review.review_check import ReviewCheck, check_review
from copilot_core.analysis.health import HealthReport, qubit_health
from copilot_core.cancel import STOPPED_MESSAGE, CancelToken, TurnCancelled
from copilot_core.errors import CopilotError, CutReply, ProviderError

if TYPE_CHECKING:
    from openai import OpenAI

    from copilot_core.data.repository import CalibrationRepository

log = logging.getLogger(__name__)
REVIEW_TIMEOUT_S = 50.0  # the report is already on screen; a review later than this is not worth the wait
REVIEW_TOKENS = 160  # three short lines; a small model on a shared CPU writes a few tokens a second
MAX_REVIEW_TOKENS = 640  # a long list of problems still ends in well under a minute
WORDING_ROOM = 1.5  # a small model's own wording and its tokenizer: room over the copied lines' estimate
ASSESSMENT = {"bad": "bad", "fair": "warning", "good": "good", "excellent": "good"}


@runtime_checkable
class ReportListener(Protocol):
    """A front end that shows the report as soon as it exists (before the model is asked)."""

    def report(self, markdown: str) -> None: ...


def review_tokens(report: HealthReport) -> int:
    """The output budget for the list this review writes: the problem lines it copies, their dates and the tasks
    to re-run, with room for the model's wording; never below ``REVIEW_TOKENS``, never above the ceiling."""
    problems = problem_lines(report)[:MAX_PROBLEMS]
    dates = sorted({m.text[:10] for m in found(DATES, " ".join(problems), "iso")})
    expected = (f"What is wrong: {' '.join(problems)}\nSince when: {', '.join(dates)}\n"
                f"What to re-run: {', '.join(rerun_tasks(report))}")
    return max(REVIEW_TOKENS, min(MAX_REVIEW_TOKENS, math.ceil(estimate_tokens(expected) * WORDING_ROOM)))


def review_provider(provider: ProviderConfig, timeout_s: float = REVIEW_TIMEOUT_S,
                    tokens: int = REVIEW_TOKENS) -> ProviderConfig:
    """The provider with the review's budget: one answer of ``tokens`` at most, no long waits, no retries (the
    report stands)."""
    timeout = min(provider.timeout_s, timeout_s)
    tokens = min(provider.max_output_tokens or tokens, tokens)
    return replace(provider, timeout_s=timeout, max_output_tokens=tokens, max_retries=0)


def cut_note(limit: int) -> str:
    """The visible end of a review the server stopped at its output limit."""
    return (f"_Cut: the review reached its {limit}-token output limit and stops here; the report above is "
            "complete._")


def reasons_block(report: HealthReport) -> str:
    """Why the failed tasks failed, from their stored messages (empty when nothing failed)."""
    reasons = failure_reasons(report)
    if not reasons:
        return ""
    return "**Why the tasks failed** (the stored task messages):\n" + "\n".join(f"- {line}" for line in reasons)


def review_block(report: HealthReport, check: ReviewCheck, model: str, *, cut_at: int | None = None) -> str:
    """The review as shown after the report, followed by why each failed task failed (stored messages) and, when
    the server stopped the review at its output limit (``cut_at``), a visible "Cut" note."""
    shown = _review_text(report, check, model)
    if check.status == "stopped":
        return shown
    if cut_at is not None:
        shown += "\n\n" + cut_note(cut_at)
    reasons = reasons_block(report)
    return f"{shown}\n\n{reasons}" if reasons else shown


def _review_text(report: HealthReport, check: ReviewCheck, model: str) -> str:
    """Checked lines as a list (else the summary line), the report's lines the check added, and the reason for
    every change."""
    head = f"**Review of {report.label}** by {model or 'the model'}"
    if check.status == "missing":
        return f"**Review missing**: {(check.reason or 'no review').rstrip('.')}. The report above stands."
    if check.status == "stopped":
        return "**Review stopped** by the user. The report above stands."
    body = "\n".join(f"- {line.strip().lstrip('-*• ').strip()}" for line in (check.text or "").splitlines()
                     if line.strip())
    if check.added:
        body += "\n\n_Added by the check, from the report (the review did not name them):_\n" + "\n".join(
            f"- {line}" for line in check.added)
    if check.status == "checked" and not check.added:
        return f"{head}, checked against the report:\n\n{body}"
    return f"{head}:\n\n{body}\n\n_{(check.reason or '').rstrip('.')}._"


def review_ask(report: HealthReport) -> str:
    """The three asks (what is wrong, since when, what to re-run) as a form to fill in from the facts."""
    if not problem_lines(report):
        return (f"Review {report.label} in exactly these three lines:\nWhat is wrong: {report.label} is healthy: "
                f"nothing stands out.\nSince when: {report.window or 'the window'}\nWhat to re-run: nothing")
    return (f"Review {report.label} in exactly these three lines:\nWhat is wrong: copy problem 1 word for word, "
            "then problem 2 if there is one\nSince when: the date(s) in those problem lines\n"
            "What to re-run: the tasks after \"Re-run:\"")


def _notify(listener: TurnListener, markdown: str) -> None:
    if isinstance(listener, ReportListener):
        try:
            listener.report(markdown)
        except Exception:  # noqa: BLE001  (a UI hook must not end the request)
            log.exception("report listener failed")


def run_qubit_review(request: AgentRequest, *, provider: ProviderConfig, repo: CalibrationRepository,
                     listener: TurnListener | None = None, tracer: Tracer | None = None,
                     client: OpenAI | None = None, timeout_s: float = REVIEW_TIMEOUT_S,
                     cancel: CancelToken | None = None, secrets: tuple[str, ...] | None = None) -> AgentResult:
    """Report first, then the checked review; never raises (a failed report or model is in the blocks/error).
    ``timeout_s``: how long the review may take (the provider's own timeout caps it).  ``cancel``: the user's
    stop; the model call is streamed so a stop closes it at once, and the answer is the report plus "Review
    stopped".  ``secrets``: the turn's, when the caller collected them already (else collected here)."""
    started = time.perf_counter()
    listener = listener or SilentListener()
    tracer = tracer or NULL_TRACER
    secrets = turn_secrets(provider) if secrets is None else secrets
    repo = repo.for_turn()  # the chip's layout is read once (the target's check and the report both need it)
    base = AgentResult(answer="", blocks=[], model=provider.model, api_style=provider.api_style,
                       flags=list(request.flags))
    listener.phase("building the health report")
    database_text = DatabaseText()  # the fact sheet is the user turn: database text in it goes marked
    try:
        with observed(database_text):
            chip_id, qid, _ = resolve_target(repo, request.chip_id, request.qid)
            if chip_id is None or qid is None:
                raise CopilotError("analysis needs a chip and a qubit")
            with tracer.span("health_report", chip_id=chip_id, qid=qid):
                report = qubit_health(repo, chip_id, qid)
    except CopilotError as exc:
        message = f"The health report could not be built: {exc}"
        return replace(base, answer=message, blocks=[TextBlock(message)], error=message,
                       elapsed_s=time.perf_counter() - started)
    first = report_block(report)
    _notify(listener, first)
    review = review_provider(provider, timeout_s, review_tokens(report))
    facts = "\n".join(mark_line(line, database_text) for line in report_facts(report).split("\n"))
    error: str | None = None
    text: str | None = None
    stopped = False
    cut_at: int | None = None
    rounds: list[dict] = []
    listener.phase("reviewing")
    try:
        if cancel is not None:
            cancel.check()
        chat = (client.with_options(timeout=review.timeout_s) if client is not None else make_client(review))
        system = render_prompt("qubit_review", label=report.label, chip_id=inline_from_database(report.chip_id))
        conversation = start_conversation(chat, review, system, [], f"{facts}\n\n{review_ask(report)}")
        with tracer.span("llm.call", round=1, model=review.model, tools=False):
            try:
                turn = call_model(conversation, None, provider=review, dropped=set(),
                                  on_retry=lambda phase: listener.phase(phase),
                                  on_text=(lambda _: None) if cancel is not None else None, cancel=cancel)
            except CutReply as cut:  # stopped at its cap: what it wrote, said to be cut below
                turn = ModelTurn(cut.partial, [], output_tokens=review.max_output_tokens or 0)
            tracer.record_usage(turn.input_tokens, turn.output_tokens, review.model)
        rounds.append({"input_tokens": turn.input_tokens, "cached_tokens": turn.cached_tokens,
                       "output_tokens": turn.output_tokens, "tools": 0, "final": True})
        blocks, _ = parse_answer(turn.text)
        text = answer_text(blocks) if blocks else None
        limit = review.max_output_tokens
        if limit and turn.output_tokens >= limit:  # the server stopped it mid-list: say so, never cut silently
            cut_at = limit
    except TurnCancelled:
        stopped, error = True, STOPPED_MESSAGE
    except ProviderError as exc:
        error = str(exc)
    except Exception as exc:  # noqa: BLE001  (the report stands; a bug in the review must not hide it)
        log.exception("qubit review failed")
        error = f"the review hit an internal error ({type(exc).__name__})"
    if stopped:
        check = ReviewCheck(None, "stopped", STOPPED_MESSAGE)
    elif error is not None:
        check = ReviewCheck(None, "missing", f"the model call failed: {error}")
    else:
        check = check_review(text, report, facts, summary_line(report))
    shown: list[Block] = [TextBlock(first), TextBlock(sanitize_output(review_block(report, check, review.model,
                                                                                   cut_at=cut_at), secrets))]
    listener.phase("done")
    return replace(base, answer=answer_text(shown), blocks=shown, assessment=ASSESSMENT.get(report.verdict or ""),
                   error=sanitize_output(error, secrets) if error else None, rounds=rounds,
                   elapsed_s=time.perf_counter() - started, review=check, stopped=stopped)
