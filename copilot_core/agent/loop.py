"""The copilot's model loop: ask the model, run the tools it calls, repeat.

A turn is three stages: :func:`~copilot_core.agent.plan.plan_turn` decides what the turn will do (once),
:class:`ModelLoop` talks to the model and runs the tools, :func:`~copilot_core.agent.finish.finish` assembles the
answer (pure).  Explicit and bounded: at most ``MAX_TOOL_ROUNDS`` tool rounds.  The tools are read-only, so a call
the turn's ledger (:class:`~copilot_core.agent.ledger.CallLedger`) already answers is never run again: it gets the
earlier result back with a hint, and the tool rounds end (small models otherwise circle between two calls until the
limit).  A repeat, or running out of rounds, ends with one forced "finalize" call.  Every round of a request sends
the same prefix (system prompt, the same tools in the same order, the earlier turns unchanged) so llama.cpp's slot
cache and hosted prompt caches reuse it; the finalize call keeps the tools and sets ``tool_choice="none"``.  With the
router on, the tools offered are the routed few plus ``more_tools``, and a call the question plainly fixes is made
before the first round (:mod:`~copilot_core.routing.prefetch`); the model then writes its answer in that round, as in
a finalize call: a small model given a free round after the call asks for it again or wanders off to other tools,
and each extra round costs it seconds.  That round offers every tool (not callable), the same list for every
question, so the prompt cache keeps the tools across questions too.  A tool call a small model wrote as text is run
like a structured one, and never shown as the answer; when the model writes no final answer at all, the tools' own
answer sentences are shown, labelled so.  Nothing raises out of :meth:`ModelLoop.run`: a provider failure after facts
(or the router's call) ends with the answer computed from them (:mod:`~copilot_core.agent.provider_failure`), else
it is the ``error``.  The question arrives checked; streamed text passes the output sanitizer here."""

from __future__ import annotations

import json
import logging
import time
from dataclasses import replace
from functools import partial
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from openai import OpenAI

from copilot_core.answer.parse import holds_no_answer
from copilot_core.answer.blocks import AskBlock
from copilot_core.routing.clarify import ASK_TOOL, answer_instead, ask_from_call
from copilot_core.agent.contracts import NULL_TRACER, AgentRequest, AgentResult, SilentListener, Tracer, TurnListener
from copilot_core.agent.finish import LoopEnd, finish
from copilot_core.guardrails import sanitize_output
from copilot_core.llm.calls import call_model
from copilot_core.llm.output_budget import OutputBudget
from copilot_core.llm.conversation import start_conversation
from copilot_core.llm.turns import Conversation, ModelTurn, ToolCall
from copilot_core.agent.lookups import (COULD_NOT, answered_from_thin_air, checked_calls, failure_quotes, fallback_plan,
                                        already_made, only_asks)
from copilot_core.agent.plan import TurnPlan, plan_turn
from copilot_core.agent.provider_failure import UNFIT_REASON, computed_after, fall_back, has_facts, reread, unfit_only
from copilot_core.routing.limits import Settled, noted, settle_limits
from copilot_core.routing.planned import PlannedCall
from copilot_core.agent.prompts import build_prompt, render_prompt
from copilot_core.llm.provider import ProviderConfig, make_client
from copilot_core.routing.router import MORE_TOOLS, more_tools_reply
from copilot_core.llm.streaming import draft_text
from copilot_core.llm.textcalls import is_call_shaped, text_tool_calls
from copilot_core.agent.ledger import CallLedger
from copilot_core.cancel import CancelToken, TurnCancelled
from copilot_core.checking.restate import corrected
from copilot_core.checking.verify import NO_ANSWER, answer_line, deterministic_answer, retry_invented
from copilot_core.errors import ProviderError
from copilot_core.tools.compact import to_model_json
from copilot_core.tools.tabular import tabular_json
from copilot_core.tools.toolkit import UNFIT, FailureKind, ToolLayer, ToolOutcome

if TYPE_CHECKING:
    from copilot_core.data.repository import CalibrationRepository

log = logging.getLogger(__name__)
MAX_TOOL_ROUNDS = 10
LOOKED_UP = "The model answered without looking anything up, so its answer is not shown; the data says:"


def _parse(raw: str) -> dict | None:
    """The call's arguments as a JSON object; None when they are not one (the toolkit answers the raw text)."""
    try:
        value = json.loads(raw) if raw else {}
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _loop_outcome(name: str, args: dict, message: str, hint: str, kind: FailureKind = "call",
                  plain: bool = False) -> ToolOutcome:
    """An outcome the loop makes itself (call not run); ``plain``: its message is written for the person too."""
    said = message if plain or kind != "call" else UNFIT
    return ToolOutcome(name=name, args=args, ok=False, model_text=to_model_json({"error": message, "hint": hint}),
                       summary=f"{name} failed: {said}", error=message, error_kind=kind)


class ModelLoop:
    """One planned turn's model loop and its mutable state (what was decided beforehand is the plan): :meth:`run`
    writes the prompt, makes the router's call, runs the rounds and returns the loop's end."""

    def __init__(self, plan: TurnPlan, provider: ProviderConfig, toolkit: ToolLayer | None, *,
                 tracer: Tracer | None = None, listener: TurnListener | None = None,
                 stream: Callable[[str], None] | None = None, cancel: CancelToken | None = None):
        self.plan, self.provider, self.toolkit = plan, provider, toolkit
        self.tracer, self.listener = tracer or NULL_TRACER, listener or SilentListener()
        self.stream, self.cancel = stream, cancel
        self.draft = ""  # the answer text streamed so far in the current round (kept when the user stops)
        self.asked: AskBlock | None = None  # the model ended the turn with a question for the user
        self.dropped: set[str] = set()
        self.rounds: list[dict] = []  # per model call: input, cached and output tokens, tools offered
        self.expanded = False  # the model called more_tools: every tool from the next round
        self.ledger = CallLedger()
        self.interim: list[str] = []  # text the model wrote next to its tool calls
        self.computed = False  # the answer is the tools' own sentences (the model wrote nothing usable)
        self.repeated: str | None = None  # why the rounds end: a call the ledger already answered
        self.refused = 0  # ask_user calls on a question the data answers (each told to answer instead)
        self.budget = OutputBudget.of(provider)  # output tokens per round and for the turn (a cut: CutReply)

    def run(self, repo: CalibrationRepository | None, *, prompt_extras: Sequence[str] = (),
            client: OpenAI | None = None) -> LoopEnd:
        """The prompt, the router's call, the rounds; never raises (a failure is the end's ``error``, a stop its
        ``stopped``).  ``stream`` gets each round's answer text so far ("" when a round turns out to be tool calls);
        ``cancel`` is the user's stop."""
        plan, provider, toolkit, tracer, listener = self.plan, self.provider, self.toolkit, self.tracer, self.listener
        request = plan.request
        try:
            with tracer.span("copilot.request", mode=request.mode, chip_id=request.chip_id, qid=request.qid,
                             model=provider.model, api_style=provider.api_style, flags=",".join(request.flags)):
                self.notify(listener.phase, "building context")
                if toolkit is not None:
                    toolkit.begin_request(plan.chip_id)
                with tracer.span("build_prompt"):
                    prompt = build_prompt(mode=request.mode, repo=repo, chip_id=plan.prompt_chip, chip=plan.layout,
                                          qid=request.qid, context=request.context, api_style=provider.api_style,
                                          extras=[*plan.skills, *prompt_extras], tools=bool(plan.tools),
                                          question=request.message)
                conversation = start_conversation(client or make_client(provider), provider, prompt.system,
                                                  list(plan.history), request.message, prompt.context)
                prefetched = plan.prefetch is not None and self.prefetch(conversation, plan.prefetch)
                settled = prefetched and plan.prefetch is not None and plan.prefetch.settles
                if settled:  # the data answers it (no such qubit): that sentence is the answer, no model round
                    text = deterministic_answer(self.ledger.outcomes)
                    self.computed = text is not None
                else:
                    text = self.loop(conversation, prefetched)
                if self.asked is None and text and not plan.ask_offered and (plan.clarify or plan.prefetch) and \
                        only_asks(text):
                    text = self.tool_answers() or self.look_up()  # a question back on a question the data answers
                elif self.asked is None and not self.ledger.outcomes and toolkit is not None and \
                        answered_from_thin_air(request.message, text, bool(self.plan.history)):
                    text = self.look_up()  # a data question answered with no call: never shown
                elif text:  # "Q05 has no T1 data", a top N of another metric: held to the call they need
                    text = checked_calls(text, self.ledger, plan.chip_id, plan.chips, request.message, self.record)
                if self.cancel is not None:
                    self.cancel.check()
        except TurnCancelled as exc:
            return self.end(None, str(exc), stopped=True)
        except ProviderError as exc:  # after facts (or the router's call), the answer computed from them with a note
            fall_back(self.ledger.outcomes, exc, self.planned_call, lambda c: self.record(c, "call_router_fallback"))
            self.computed = (text := computed_after(self.ledger.outcomes, exc)) is not None
            return self.end(text, None if self.computed else str(exc))
        except Exception as exc:  # noqa: BLE001  (last resort: a bug must not become a traceback for the user)
            log.exception("agent loop failed")
            return self.end(None, f"The copilot hit an internal error ({type(exc).__name__}); see the server log.")
        finally:
            self.notify(listener.phase, "done")
        return self.end(text)

    def end(self, text: str | None, error: str | None = None, stopped: bool = False) -> LoopEnd:
        return LoopEnd(text=text, outcomes=tuple(self.ledger.outcomes), rounds=tuple(self.rounds), error=error,
                       stopped=stopped, asked=self.asked, computed=self.computed, draft=self.draft,
                       interim=tuple(self.interim), repeats=self.ledger.hits)

    def notify(self, callback: Callable[..., None], *args: object) -> None:
        try:
            callback(*args)
        except Exception:  # noqa: BLE001  (a UI hook must not end the request)
            log.exception("listener %r failed", callback)

    def ask(self, conversation: Conversation, tools: list[dict] | None, *, final: bool = False) -> ModelTurn:
        self.notify(self.listener.phase, "finalizing" if final else "thinking")
        with self.tracer.span("llm.call", round=len(self.rounds) + 1, model=self.provider.model, tools=bool(tools)):
            self.show_draft("")
            conversation.charts_drawn, conversation.output_cap = bool(self.ledger.charts), self.budget.next_cap()
            choice = "none" if final and tools else None
            turn = call_model(conversation, tools, provider=self.provider, dropped=self.dropped, tool_choice=choice,
                              on_retry=lambda phase: self.notify(self.listener.phase, phase), cancel=self.cancel,
                              on_text=self.streamed if self.stream is not None else None,
                              reread=reread(conversation, tools, choice, facts=has_facts(self.ledger.outcomes),
                                            restart=lambda: self.show_draft(""), routed=bool(self.planned_call())))
            self.tracer.record_usage(turn.input_tokens, turn.output_tokens, self.provider.model)
            self.budget.spend(turn.output_tokens)
        self.rounds.append({"input_tokens": turn.input_tokens, "cached_tokens": turn.cached_tokens,
                            "output_tokens": turn.output_tokens, "tools": len(tools or []), "final": final})
        return turn

    def streamed(self, raw: str) -> None:
        """A round's text so far: its answer part, secrets redacted, to the stream listener."""
        self.show_draft(sanitize_output(draft_text(raw), self.plan.secrets))

    def show_draft(self, text: str) -> None:
        if self.stream is not None and text != self.draft:
            self.draft = text
            self.notify(self.stream, text)

    def answered_here(self, conversation: Conversation, call: ToolCall, args: dict) -> bool:
        """True when ``call`` needs no tool run and is answered here: ``ask_user`` (the turn ends with the question),
        a call the ledger already answers (the rounds then end: ``repeated``), ``more_tools``.  An ``ask_user`` on a
        question the data answers is refused (:meth:`refuse_ask`)."""
        if call.name == ASK_TOOL and self.plan.clarify and not self.plan.ask_offered:
            self.repeated = self.refuse_ask(conversation, call) or self.repeated
            return True
        if call.name == ASK_TOOL and self.plan.clarify:
            self.asked = self.asked or ask_from_call(call.arguments)
            conversation.add_tool_result(call, to_model_json(
                {"note": "The user will answer in their next message."} if self.asked else
                {"error": "ask_user needs a question and 2-4 distinct options", "hint": "answer instead"}))
            return True
        earlier = self.ledger.earlier(call.name, args)
        if earlier is not None:
            with self.tracer.span(f"tool:{call.name}", tool=call.name, cached=True):
                conversation.add_tool_result(call, already_made(earlier))
            self.repeated = "You asked again for a tool call that was already made; its result is above."
            return True
        if call.name == MORE_TOOLS and self.plan.route is not None:
            self.expanded = True
            reply = more_tools_reply(list(self.plan.tools), self.plan.route)
            self.keep(conversation, call, args, ToolOutcome(name=MORE_TOOLS, args={}, ok=True, model_text=reply,
                                                            summary="asked for every tool"))
            return True
        return False

    def keep(self, conversation: Conversation, call: ToolCall, args: dict, outcome: ToolOutcome) -> None:
        """A call's outcome into the ledger, its answer into the conversation, the listener told."""
        self.ledger.record(outcome, args)
        conversation.add_tool_result(call, outcome.model_text)
        self.notify(self.listener.tool_result, outcome)

    def refuse_ask(self, conversation: Conversation, call: ToolCall) -> str:
        """An ``ask_user`` call on a question the data answers: the reply says to answer it (on the chip in view),
        and the rounds end for the answer (:meth:`loop` makes the question's call first when none was made).  When no
        call was made and the router has none for it, the model gets one more round to call the tool that answers it
        (a second ask ends the rounds)."""
        self.refused += 1
        first_look = self.refused == 1 and not self.ledger.outcomes and self.planned_call() is None
        conversation.add_tool_result(call, to_model_json(answer_instead(self.plan.chip_id, look_up=first_look)))
        if first_look:  # no call of the router answers it: the model gets its round to make the one that does
            return ""
        return "You asked the user a question the data answers; answer it now from the tool results."

    def prefetch(self, conversation: Conversation, planned: PlannedCall) -> bool:
        """Make the router's call and put it in the conversation as if the model had made it; True when it
        answered (the model then writes its answer from it)."""
        self.notify(self.listener.phase, "running tools")
        call, outcome = self.record(planned, "call_router_1")
        conversation.add_calls([call])
        conversation.add_tool_result(call, outcome.model_text)
        return outcome.ok

    def record(self, planned: PlannedCall, call_id: str) -> tuple[ToolCall, ToolOutcome]:
        """Make a call the turn decided on itself (the router's, a lookup's, a check's) and keep its outcome."""
        self.notify(self.listener.tool_call, planned.name, dict(planned.args))
        call = ToolCall(call_id, planned.name, json.dumps(planned.args))
        outcome = replace(self.execute(call, dict(planned.args), dict(planned.args)), origin="router")
        self.ledger.record(outcome, dict(planned.args))
        self.notify(self.listener.tool_result, outcome)
        return call, outcome

    def planned_call(self) -> PlannedCall | None:
        """The call the question plainly needs (the router's rules), None when its words fix none."""
        request = self.plan.request
        return fallback_plan(request.message, chip_id=self.plan.chip_id, qid=request.qid,
                             available=[t["name"] for t in self.plan.tools], chips=self.plan.chips)

    def look_up(self) -> str:
        """A data question the model answered without a tool call: the call it needed, made now and answered from
        the tool's own sentence (or the failed tasks' messages), else a plain "could not look it up"."""
        request = self.plan.request
        planned = self.planned_call()
        if planned is None:
            return COULD_NOT
        _, outcome = self.record(planned, "call_router_lookup")
        if not outcome.ok:
            return f"{COULD_NOT}\n\n{outcome.summary}"
        found = failure_quotes(request.message, [outcome]) or answer_line(outcome) or outcome.summary
        return f"{LOOKED_UP}\n\n{found}" if found else COULD_NOT

    def text_calls(self, text: str | None) -> list[ToolCall]:
        """Tool calls the model wrote as text, as calls the loop can run."""
        return [ToolCall(f"call_text_{len(self.rounds)}_{i}", name, args)
                for i, (name, args) in enumerate(text_tool_calls(text, set(self.plan.known)))]

    def execute_args(self, call: ToolCall, args: dict) -> ToolOutcome:
        return self.execute(call, args, args)  # ``call`` run with other arguments (the retry of invented ones)

    def execute(self, call: ToolCall, args: dict, parsed: dict | None) -> ToolOutcome:
        """Run one call on the toolkit (which promises not to raise; held to that); as a table for a small model."""
        with self.tracer.span(f"tool:{call.name}", tool=call.name):
            if self.toolkit is None:
                return _loop_outcome(call.name, args, "no tools in this session", "answer without tools")
            settled = settle_limits(call.name, parsed, self.plan.asked) if parsed is not None else Settled({})
            if settled.refusal is not None:
                return _loop_outcome(call.name, args, settled.refusal, settled.hint, plain=True)
            name, made, why = corrected(call.name, dict(settled.args), self.plan.asked) \
                if parsed is not None else (call.name, {}, None)
            try:
                outcome = self.toolkit.execute(name, made if parsed is not None else call.arguments)
            except Exception as exc:  # noqa: BLE001
                log.exception("toolkit raised for %s", call.name)
                return _loop_outcome(call.name, args, f"internal error in {call.name} ({type(exc).__name__})",
                                     "try another tool", "internal")
            outcome = noted(replace(outcome, origin="restated") if why else outcome, settled.notes + ((why,) if why else ()))
        return replace(outcome, model_text=tabular_json(outcome.model_text)) if self.plan.tabular else outcome

    def loop(self, conversation: Conversation, prefetched: bool) -> str | None:
        """The rounds: the model's reply, then each of its calls answered here or run on the toolkit; returns the
        model's final text (None when it stayed empty)."""
        if prefetched:  # the call the question needs is made: the model answers from it
            return self.final(conversation, shared=True)
        reason, unfit = f"You have used all {MAX_TOOL_ROUNDS} tool rounds.", False
        for _ in range(MAX_TOOL_ROUNDS):
            turn = self.ask(conversation, self.plan.offered(self.expanded))
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
            self.notify(self.listener.phase, "running tools")
            for call in calls:  # every call gets an output
                if self.cancel is not None:
                    self.cancel.check()
                parsed = _parse(call.arguments)
                args = parsed if parsed is not None else {"_raw": call.arguments[:200]}
                if self.answered_here(conversation, call, args):
                    continue
                self.notify(self.listener.tool_call, call.name, args)
                outcome = self.execute(call, args, parsed)
                if parsed is not None:
                    outcome = retry_invented(partial(self.execute_args, call), call.name, args, outcome)
                self.keep(conversation, call, args, outcome)
            if self.asked is not None:  # the model asked the user: the turn ends with the question
                return None
            if self.repeated is not None or (unfit := unfit_only(self.ledger.outcomes, self.planned_call)):
                reason = self.repeated or UNFIT_REASON  # a call that did not fit: the router's own, at once
                break
        if (self.refused or unfit) and not has_facts(self.ledger.outcomes) and (planned := self.planned_call()):
            self.prefetch(conversation, planned)  # the call the question needs, so the answer has its data
        conversation.add_user_note(render_prompt("finalize", reason=reason))
        return self.final(conversation)

    def final(self, conversation: Conversation, *, shared: bool = False) -> str | None:
        """The answer round: tools kept (the cached prefix holds) but not callable.  ``shared``: it is the turn's
        only model call (the router made the call), so no earlier round's prefix needs the routed few, and it offers
        every tool in the toolkit's order instead: the same list for every such question, so a prompt cache keeps
        the system text and the tools from one question to the next."""
        offered = self.plan.every_tool() if shared else self.plan.offered(self.expanded)
        text = self.ask(conversation, offered, final=True).text
        if (not (text or "").strip() or is_call_shaped(text) or self.text_calls(text)  # a call is never the answer
                or holds_no_answer(text or "")):
            return self.tool_answers()
        return text

    def tool_answers(self) -> str | None:
        """The tools' own answer sentences, for a model that wrote no final answer or a tool call instead."""
        found = deterministic_answer(self.ledger.outcomes)
        self.computed = found is not None
        return f"{found}\n\n_{NO_ANSWER}_" if found else None


def run_copilot(request: AgentRequest, *, provider: ProviderConfig, toolkit: ToolLayer | None,
                repo: CalibrationRepository | None, listener: TurnListener | None = None,
                tracer: Tracer | None = None, prompt_extras: Sequence[str] = (),
                client: OpenAI | None = None, router: bool = False, stream: Callable[[str], None] | None = None,
                cancel: CancelToken | None = None, clarify: bool = False, skills: Sequence[str] = ()) -> AgentResult:
    """Answer one checked request with the three stages (plan, model loop, finish); never raises (failures are in
    ``AgentResult.error``).  For callers without the turn service (tests, benches): the chat page, the CLI and the
    evals take :meth:`copilot_core.session.Copilot.ask`, which runs the same stages.
    ``router``: offer only the tools :func:`~copilot_core.routing.router.route` picks for the question, and tool
    results reach the model as tables (a small model).  ``clarify``: offer ``ask_user``; a model that calls it ends
    the turn with an :class:`AskBlock` as the answer.  ``skills``: procedures for choosing and using tools, left out
    when the router made the question's call."""
    started = time.perf_counter()
    plan = plan_turn(request, provider=provider, tools=toolkit.schemas() if toolkit is not None else [],
                     repo=repo, router=router, clarify=clarify, skills=skills)
    end = ModelLoop(plan, provider, toolkit, tracer=tracer, listener=listener, stream=stream, cancel=cancel).run(
        repo, prompt_extras=prompt_extras, client=client)
    result = finish(plan, end, model=provider.model, api_style=provider.api_style)
    result.elapsed_s = time.perf_counter() - started
    return result
