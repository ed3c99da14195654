"""The copilot's tool loop: ask the model, run the tools it calls, repeat, then shape the answer.

Explicit and bounded: at most ``MAX_TOOL_ROUNDS`` tool rounds.  The tools are read-only, so a call the model
already made this turn is never run again: it gets the earlier result back with a hint, and the tool rounds end
(small models otherwise circle between two calls until the limit).  A repeat, or running out of rounds, ends with
one forced "finalize" call.  Every round of a request sends the same prefix (system prompt, the same tools in the
same order, the earlier turns unchanged) so llama.cpp's slot cache and hosted prompt caches reuse it; the finalize
call keeps the tools and sets ``tool_choice="none"``.  With the router on, the tools offered are the routed few plus
``more_tools``, and a call the question plainly fixes is made before the first round
(:mod:`~copilot_core.agent.prefetch`); the model then writes its answer in that round, as in a finalize call: a
small model given a free round after the call asks for it again or wanders off to other tools, and each extra round
costs it seconds.  That round offers every tool (not callable), the same list for every question, so the prompt
cache keeps the tools across questions too.  A tool call a small model wrote as text is run like a structured one,
and never shown as the answer; when the model writes no final answer at all, the tools' own answer sentences are
shown, labelled so.
Nothing raises out of :func:`run_copilot`: API failures become ``AgentResult.error`` plus a partial
answer built from what the tools returned.  The question arrives checked (``copilot_core.session`` runs the
input check once per turn).  Charts from tools bypass the model and are appended to
the answer; every text block is passed through the output sanitizer here, whatever the model wrote.
"""

from __future__ import annotations

import json
import logging
import time
from dataclasses import replace
from functools import partial
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from openai import OpenAI

from copilot_core.agent.answer import holds_no_answer, parse_answer, vet_model_charts
from copilot_core.agent.blocks import AskBlock, Block, ChartBlock, TextBlock, answer_text
from copilot_core.agent.clarify import ASK_SCHEMA, ASK_TOOL, ask_from_call
from copilot_core.agent.contracts import NULL_TRACER, AgentRequest, AgentResult, SilentListener, Tracer, TurnListener
from copilot_core.agent.grounding import answer_numbers, unverified_numbers
from copilot_core.agent.guardrails import configured_secrets, sanitize_output
from copilot_core.agent.history import prepare_history
from copilot_core.agent.models import Conversation, ModelTurn, ToolCall, call_model, start_conversation
from copilot_core.agent.lookups import (COULD_NOT, answered_from_thin_air, failure_quotes, fallback_plan, figure_answer,
                                        lookup_plan)
from copilot_core.agent.prefetch import PlannedCall, plan_prefetch
from copilot_core.agent.prompts import build_prompt, render_prompt
from copilot_core.agent.provider import ProviderConfig, make_client
from copilot_core.agent.router import MORE_TOOLS, Route, all_tools, more_tools_reply, offered_tools, route
from copilot_core.agent.streaming import draft_text, without_markup
from copilot_core.agent.textcalls import is_call_shaped, text_tool_calls
from copilot_core.cancel import CancelToken, TurnCancelled
from copilot_core.agent.verify import (NO_ANSWER, answer_line, asked_chart, checked_blocks, deterministic_answer,
                                       retry_invented)
from copilot_core.domain.metrics import thresholds_prompt
from copilot_core.domain.vocabulary import chip_named
from copilot_core.errors import CopilotError, ProviderError
from copilot_core.tools.compact import to_model_json
from copilot_core.tools.tabular import tabular_json
from copilot_core.tools.toolkit import ToolLayer, ToolOutcome

if TYPE_CHECKING:
    from copilot_core.data.repository import CalibrationRepository

log = logging.getLogger(__name__)
MAX_TOOL_ROUNDS = 10
LOOKED_UP = "The model answered without looking anything up, so its answer is not shown; the data says:"


def _parse(raw: str) -> dict | None:
    """The call's arguments as a JSON object, parsed once per call; None when they are not one (the toolkit then
    gets the raw text and answers with its own error)."""
    try:
        value = json.loads(raw) if raw else {}
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _covers(planned: PlannedCall, name: str, args: dict) -> bool:
    """The model's call asks for nothing the planned call did not (omitted arguments take the planned values)."""
    return name == planned.name and all(
        key in planned.args and json.dumps(value, sort_keys=True, default=str).lower()
        == json.dumps(planned.args[key], sort_keys=True, default=str).lower() for key, value in args.items())


def _loop_outcome(name: str, args: dict, message: str, hint: str) -> ToolOutcome:
    """An outcome the loop makes itself (call not run)."""
    return ToolOutcome(name=name, args=args, ok=False, model_text=to_model_json({"error": message, "hint": hint}),
                       summary=f"{name}: {message}", error=message)


class _Run:
    """State of one request (kept out of the public function so each step stays small)."""

    def __init__(self, provider: ProviderConfig, toolkit: ToolLayer | None, *, tracer: Tracer,
                 listener: TurnListener, stream: Callable[[str], None] | None = None,
                 cancel: CancelToken | None = None, secrets: tuple[str, ...] = ()):
        self.provider, self.toolkit, self.tracer, self.listener = provider, toolkit, tracer, listener
        self.stream, self.cancel, self.secrets = stream, cancel, secrets
        self.draft = ""  # the answer text streamed so far in the current round (kept when the user stops)
        self.clarify = False  # offer ask_user: the model may end the turn with a question and options
        self.asked: AskBlock | None = None
        self.dropped: set[str] = set()
        self.rounds: list[dict] = []  # per model call: input, cached and output tokens, tools offered
        self.route: Route | None = None
        self.expanded = False  # the model called more_tools: every tool from the next round
        self.outcomes: list[ToolOutcome] = []
        self.charts: list[dict] = []
        self.interim: list[str] = []  # text the model wrote next to its tool calls
        self.made: dict[str, ToolOutcome] = {}  # call signature -> its outcome, for repeats
        self.known: set[str] = set()  # tool names a call written as text may use
        self.prefetched: tuple[PlannedCall, ToolOutcome] | None = None
        self.tabular = False  # the model reads tool results as tables (a small model: fewer tokens to read)
        self.computed = False  # the answer is the tools' own sentences (the model wrote nothing usable)

    def notify(self, callback: Callable[..., None], *args: object) -> None:
        try:
            callback(*args)
        except Exception:  # noqa: BLE001  (a UI hook must not end the request)
            log.exception("listener %r failed", callback)

    def ask(self, conversation: Conversation, tools: list[dict] | None, *, final: bool = False) -> ModelTurn:
        self.notify(self.listener.phase, "finalizing" if final else "thinking")
        with self.tracer.span("llm.call", round=len(self.rounds) + 1, model=self.provider.model,
                              tools=bool(tools)):
            self.show_draft("")
            conversation.charts_drawn = bool(self.charts)
            turn = call_model(conversation, tools, provider=self.provider, dropped=self.dropped,
                              on_retry=lambda phase: self.notify(self.listener.phase, phase),
                              tool_choice="none" if final and tools else None,
                              on_text=self.streamed if self.stream is not None else None, cancel=self.cancel)
            self.tracer.record_usage(turn.input_tokens, turn.output_tokens, self.provider.model)
        self.rounds.append({"input_tokens": turn.input_tokens, "cached_tokens": turn.cached_tokens,
                            "output_tokens": turn.output_tokens, "tools": len(tools or []), "final": final})
        return turn

    def streamed(self, raw: str) -> None:
        """A round's text so far: its answer part, secrets redacted, to the stream listener."""
        self.show_draft(sanitize_output(draft_text(raw), self.secrets))

    def show_draft(self, text: str) -> None:
        if self.stream is not None and text != self.draft:
            self.draft = text
            self.notify(self.stream, text)

    def run_calls(self, conversation: Conversation, calls: list[ToolCall]) -> str | None:
        """Run one turn's calls (every call gets an output); why the loop should stop for the final answer (a call
        already made this turn), else None."""
        repeated: str | None = None
        self.notify(self.listener.phase, "running tools")
        for call in calls:
            if self.cancel is not None:
                self.cancel.check()
            parsed = _parse(call.arguments)
            args = parsed if parsed is not None else {"_raw": call.arguments[:200]}
            signature = call.name + "\x00" + json.dumps(args, sort_keys=True, default=str)
            earlier = self.made.get(signature)
            if earlier is None and self.prefetched is not None and _covers(self.prefetched[0], call.name, args):
                earlier = self.prefetched[1]
            if call.name == ASK_TOOL and self.clarify:
                self.asked = self.asked or ask_from_call(call.arguments)
                conversation.add_tool_result(call, to_model_json(
                    {"note": "The user will answer in their next message."} if self.asked else
                    {"error": "ask_user needs a question and 2-4 distinct options", "hint": "answer instead"}))
                continue
            if earlier is not None:
                conversation.add_tool_result(call, self.already_made(earlier))
                repeated = "You asked again for a tool call that was already made; its result is above."
                continue
            if call.name == MORE_TOOLS and self.route is not None:
                self.expanded = True
                outcome = ToolOutcome(name=MORE_TOOLS, args={}, ok=True, model_text=more_tools_reply(
                    self.toolkit.schemas() if self.toolkit else [], self.route), summary="asked for every tool")
            else:
                self.notify(self.listener.tool_call, call.name, args)
                outcome = self.execute(call, args, parsed)
                if parsed is not None:
                    outcome = retry_invented(partial(self.execute_args, call), call.name, args, outcome)
            self.made[signature] = outcome
            self.outcomes.append(outcome)
            self.charts.extend(outcome.charts or [])
            conversation.add_tool_result(call, outcome.model_text)
            self.notify(self.listener.tool_result, outcome)
        return repeated

    @staticmethod
    def already_made(outcome: ToolOutcome) -> str:
        """The reply to a repeat: the earlier call's answer sentence again, and what to do next."""
        body: dict[str, object] = {"note": "This call was already made; its result is above. Answer the user's question "
                                        "from it now, quoting its numbers."}
        line = answer_line(outcome)
        if line:
            body = {"answer": line, **body}
        return to_model_json(body)

    def prefetch(self, conversation: Conversation, planned: PlannedCall) -> None:
        """Make the router's call and put it in the conversation as if the model had made it."""
        self.notify(self.listener.phase, "running tools")
        self.notify(self.listener.tool_call, planned.name, dict(planned.args))
        call = ToolCall("call_router_1", planned.name, json.dumps(planned.args))
        outcome = replace(self.execute(call, dict(planned.args), dict(planned.args)), origin="router")
        self.outcomes.append(outcome)
        self.charts.extend(outcome.charts or [])
        conversation.add_calls([call])
        conversation.add_tool_result(call, outcome.model_text)
        self.notify(self.listener.tool_result, outcome)
        if outcome.ok:
            self.prefetched = (planned, outcome)

    def look_up(self, request: AgentRequest, chip_id: str | None) -> str:
        """A data question the model answered without a tool call: the call it needed, made now and answered from
        the tool's own sentence (or the failed tasks' messages), else a plain "could not look it up"."""
        names = [t["name"] for t in self.toolkit.schemas()] if self.toolkit is not None else []
        planned = fallback_plan(request.message, chip_id=chip_id, qid=request.qid, available=names)
        if planned is None:
            return COULD_NOT
        self.notify(self.listener.tool_call, planned.name, dict(planned.args))
        call = ToolCall("call_router_lookup", planned.name, json.dumps(planned.args))
        outcome = replace(self.execute(call, dict(planned.args), dict(planned.args)), origin="router")
        self.outcomes.append(outcome)
        self.charts.extend(outcome.charts or [])
        self.notify(self.listener.tool_result, outcome)
        if not outcome.ok:
            return f"{COULD_NOT}\n\n{outcome.summary}"
        found = failure_quotes(request.message, [outcome]) or answer_line(outcome) or outcome.summary
        return f"{LOOKED_UP}\n\n{found}" if found else COULD_NOT

    def text_calls(self, text: str | None) -> list[ToolCall]:
        """Tool calls the model wrote as text, as calls the loop can run."""
        return [ToolCall(f"call_text_{len(self.rounds)}_{i}", name, args)
                for i, (name, args) in enumerate(text_tool_calls(text, self.known))]

    def execute_args(self, call: ToolCall, args: dict) -> ToolOutcome:
        """``call`` run with other arguments (the corrected retry of invented ones)."""
        return self.execute(call, args, args)

    def execute(self, call: ToolCall, args: dict, parsed: dict | None) -> ToolOutcome:
        outcome = self.run_tool(call, args, parsed)
        return replace(outcome, model_text=tabular_json(outcome.model_text)) if self.tabular else outcome

    def run_tool(self, call: ToolCall, args: dict, parsed: dict | None) -> ToolOutcome:
        with self.tracer.span(f"tool:{call.name}", tool=call.name):
            if self.toolkit is None:
                return _loop_outcome(call.name, args, "no tools in this session", "answer without tools")
            try:
                return self.toolkit.execute(call.name, dict(parsed) if parsed is not None else call.arguments)
            except Exception as exc:  # noqa: BLE001  (the toolkit promises not to raise; hold it to that)
                log.exception("toolkit raised for %s", call.name)
                return _loop_outcome(call.name, args, f"internal error in {call.name} ({type(exc).__name__})",
                                     "try another tool")

    def offered(self, tools: list[dict]) -> list[dict] | None:
        """This round's tools: all of them, or the routed few (+ ``more_tools``) until the model asks for more."""
        ask = [ASK_SCHEMA] if self.clarify and tools else []
        if self.route is None or not tools:
            return [*tools, *ask] or None
        return [*(all_tools(tools, self.route) if self.expanded else offered_tools(tools, self.route)), *ask]

    def loop(self, conversation: Conversation, tools: list[dict]) -> str | None:
        """The rounds; returns the model's final text (None when it stayed empty)."""
        if self.prefetched is not None:  # the call the question needs is made: the model answers from it
            return self.final(conversation, tools, shared=True)
        reason = f"You have used all {MAX_TOOL_ROUNDS} tool rounds."
        for _ in range(MAX_TOOL_ROUNDS):
            turn = self.ask(conversation, self.offered(tools))
            calls = turn.calls
            if calls or self.text_calls(turn.text):
                self.show_draft("")  # what streamed was the model's note next to its calls, not the answer
            if not calls:
                calls = self.text_calls(turn.text)
                if not calls:
                    empty = not turn.text or holds_no_answer(turn.text)
                    if not empty and not is_call_shaped(turn.text or ""):
                        return turn.text
                    reason = ("Your previous reply was empty." if empty else
                              "Your previous reply called a tool that does not exist.")
                    break
                conversation.add_calls(calls)  # replayed as a structured call, so its result has a call to answer
            else:
                if turn.text:
                    self.interim.append(turn.text)
                conversation.add_turn(turn)
            stop = self.run_calls(conversation, calls)
            if self.asked is not None:  # the model asked the user: the turn ends with the question
                return None
            if stop:
                reason = stop
                break
        conversation.add_user_note(render_prompt("finalize", reason=reason))
        return self.final(conversation, tools)

    def final(self, conversation: Conversation, tools: list[dict], *, shared: bool = False) -> str | None:
        """The answer round: tools kept (the cached prefix holds) but not callable.  ``shared``: it is the turn's
        only model call (the router made the call), so no earlier round's prefix needs the routed few, and it offers
        every tool in the toolkit's order instead: the same list for every such question, so a prompt cache keeps
        the system text and the tools from one question to the next."""
        offered = ([*tools, *([ASK_SCHEMA] if self.clarify and tools else [])] or None) if shared \
            else self.offered(tools)
        text = self.ask(conversation, offered, final=True).text
        if (not (text or "").strip() or is_call_shaped(text) or self.text_calls(text)  # a call is never the answer
                or holds_no_answer(text or "")):
            return self.tool_answers()
        return text

    def tool_answers(self) -> str | None:
        """The tools' own answer sentences, for a model that wrote no final answer or a tool call instead."""
        found = deterministic_answer(self.outcomes)
        self.computed = found is not None
        return f"{found}\n\n_{NO_ANSWER}_" if found else None

    def partial_blocks(self, headline: str, question: str = "") -> list[Block]:
        """What we can still show when the model did not answer: the failure, the answer text streamed before a
        stop or a broken stream (checked like any answer), and the tool results."""
        lines = [headline]
        if self.draft.strip():
            checked, _, _ = checked_blocks([TextBlock(self.draft)], question, self.outcomes)
            lines.append("\n\n".join(b.text for b in checked if isinstance(b, TextBlock)))
        if self.interim:
            lines.append("\n".join(self.interim))
        if self.outcomes:
            lines.append("What the tools returned before that:\n" +
                         "\n".join(f"- {o.summary}" for o in self.outcomes if o.summary))
        return [TextBlock("\n\n".join(lines))]


def run_copilot(request: AgentRequest, *, provider: ProviderConfig, toolkit: ToolLayer | None,
                repo: CalibrationRepository | None, listener: TurnListener | None = None,
                tracer: Tracer | None = None, prompt_extras: Sequence[str] = (),
                client: OpenAI | None = None, router: bool = False, stream: Callable[[str], None] | None = None,
                cancel: CancelToken | None = None, clarify: bool = False, skills: Sequence[str] = ()) -> AgentResult:
    """Answer one checked request with the tool loop; never raises (failures are in ``AgentResult.error``).
    ``router``: offer only the tools :func:`~copilot_core.agent.router.route` picks for the question.
    ``stream``: every model round is streamed and ``stream`` gets its answer text so far ("" when a round turns
    out to be tool calls).  ``cancel``: the user's stop; the result then has ``stopped`` set and keeps what was
    streamed and what the tools returned.  ``clarify``: offer ``ask_user``; a model that calls it ends the turn
    with an :class:`AskBlock` (question and options) as the answer.  ``skills``: procedures for choosing and using
    tools, put in the prompt before ``prompt_extras``; left out when the router made the question's call (the model
    then only writes the answer, and a small model reads every token before its first word).  With ``router`` on
    (a small model) tool results reach the model as tables (:mod:`~copilot_core.tools.tabular`)."""
    started = time.perf_counter()
    tracer = tracer or NULL_TRACER
    listener = listener or SilentListener()
    secrets = tuple(s for s in (*configured_secrets(), provider.api_key) if s)
    run = _Run(provider, toolkit, tracer=tracer, listener=listener, stream=stream, cancel=cancel, secrets=secrets)
    run.clarify, run.tabular = clarify, router
    error: str | None = None
    stopped = False
    final_text: str | None = None
    claims = "kept"
    skills_sent = False
    try:
        with tracer.span("copilot.request", mode=request.mode, chip_id=request.chip_id, qid=request.qid,
                         model=provider.model, api_style=provider.api_style, flags=",".join(request.flags)):
            run.notify(listener.phase, "building context")
            tools: list[dict] = []
            planned: PlannedCall | None = None
            chip_id = _question_chip(request, repo)
            if toolkit is not None:
                toolkit.begin_request(chip_id)
                tools = toolkit.schemas()
                run.known = {t["name"] for t in tools} | ({MORE_TOOLS} if router else set()) | (
                    {ASK_TOOL} if clarify else set())
                if router and tools:
                    names = [t["name"] for t in tools]
                    chosen = route(request.message, qid=request.qid, mode=request.mode, available=names)
                    planned = (lookup_plan(request.message, chip_id, names) or plan_prefetch(
                        request.message, chip_id=chip_id, qid=request.qid, available=names)) \
                        if request.mode == "chat" else None
                    if planned is not None and planned.name not in chosen.names:
                        chosen = Route(tuple(n for n in names if n in {*chosen.names, planned.name}),
                                       (*chosen.reasons, planned.reason))
                    run.route = chosen if len(chosen.names) < len(tools) else None  # nothing left out: no escape
            sent = list(skills) if planned is None else []
            with tracer.span("build_prompt"):
                prompt = build_prompt(mode=request.mode, repo=repo, chip_id=chip_id, qid=request.qid,
                                      context=request.context, api_style=provider.api_style,
                                      extras=[*sent, *prompt_extras], tools=bool(tools), question=request.message)
            skills_sent = bool(sent)
            conversation = start_conversation(client or make_client(provider), provider, prompt.system,
                                              prepare_history(request.history), request.message, prompt.context)
            if planned is not None:
                run.prefetch(conversation, planned)
            final_text = run.loop(conversation, tools)
            if run.asked is None and not run.outcomes and toolkit is not None and \
                    answered_from_thin_air(request.message, final_text):
                final_text = run.look_up(request, chip_id)  # a data question answered with no call: never shown
            if cancel is not None:
                cancel.check()
    except TurnCancelled as exc:
        error, stopped = str(exc), True
    except ProviderError as exc:
        error = str(exc)
    except Exception as exc:  # noqa: BLE001  (last resort: a bug must not become a traceback for the user)
        log.exception("agent loop failed")
        error = f"The copilot hit an internal error ({type(exc).__name__}); see the server log."
    blocks, assessment = parse_answer(without_markup(final_text))
    if run.asked is not None and error is None:
        blocks, assessment = [run.asked], None
    if error is not None:
        blocks, assessment = run.partial_blocks(error, request.message), None
    elif not blocks:
        error = "The model returned an empty answer."
        blocks = run.partial_blocks(error)
    elif run.computed:
        claims = "computed"
    elif run.asked is None:
        blocks, _, claims = checked_blocks(blocks, request.message, run.outcomes)
        if (quotes := failure_quotes(request.message, run.outcomes)) is not None:
            blocks = [*blocks, TextBlock(quotes)]
        blocks = figure_answer(blocks, run.outcomes)
    if run.asked is None:
        run.charts.extend(asked_chart(request.message, run.outcomes, run.charts))
    blocks = [_sanitized(b, secrets) for b in vet_model_charts(blocks)] + [ChartBlock(chart) for chart in run.charts]
    run.notify(listener.phase, "done")
    answer = answer_text(blocks)
    return AgentResult(answer=answer, blocks=blocks, assessment=assessment, tool_calls=run.outcomes,
                       error=sanitize_output(error, secrets) if error else None,
                       elapsed_s=time.perf_counter() - started, model=provider.model,
                       api_style=provider.api_style, flags=list(request.flags), rounds=run.rounds,
                       routed_tools=list(run.route.names) if run.route is not None else None,
                       unverified_numbers=_unverified(answer, request, run.outcomes), stopped=stopped,
                       claims=claims, skills_sent=skills_sent)


def _sanitized(block: Block, secrets: tuple[str, ...]) -> Block:
    """Secrets redacted from every text the model wrote (text blocks, a question and its options)."""
    if isinstance(block, TextBlock):
        return TextBlock(sanitize_output(block.text, secrets))
    if isinstance(block, AskBlock):
        return AskBlock(sanitize_output(block.question, secrets),
                        tuple(sanitize_output(o, secrets) for o in block.options), block.answer)
    return block


def _question_chip(request: AgentRequest, repo: CalibrationRepository | None) -> str | None:
    """The chip this request is about: the one installed chip its question names, else the chip in view."""
    if repo is None:
        return request.chip_id
    try:
        named = chip_named(request.message, repo.chip_ids())
    except CopilotError:  # an unreachable database is reported by the tools themselves
        named = None
    return named or request.chip_id


def _unverified(answer: str, request: AgentRequest, outcomes: list[ToolOutcome]) -> list[str]:
    """Numbers in the answer that no tool result, no user turn and no stated threshold backs; every number of the
    answer when the sources cannot be read (the check cannot decide, so it backs nothing)."""
    sources = [part for o in outcomes for part in (o.model_text, o.full, o.summary)]
    said = [request.message, *(str(t.get("content") or "") for t in request.history if t.get("role") == "user")]
    try:
        return unverified_numbers(answer, sources, allowed_text=[*said, thresholds_prompt()])
    except Exception:  # noqa: BLE001  (a result the check cannot walk must not end the question)
        log.exception("the grounding check failed on an answer")
        return list(dict.fromkeys(written for written, derived in answer_numbers(answer) if not derived))
