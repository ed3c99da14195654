"""One copilot turn, start to finish: the chat page, the CLI and the eval harness all call :meth:`Copilot.ask`.

A turn is: the input check (once), readiness gating (which tools this model gets), the toolkit on the chat's
data store, skills and memory in the prompt, the tracer, then the three stages (the plan, the model loop, the
finish; ``copilot_core.agent``), the answer
with its show-work record, learning into memory, and both messages appended to the chat state.  Progress
reaches the front end through one :class:`~copilot_core.agent.contracts.TurnListener`.
"""

from __future__ import annotations

import inspect
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Protocol, cast

from copilot_core.answer.blocks import AskBlock, TextBlock
from copilot_core.routing.chip_meant import EACH_CHIP, ChipsMeant, chips_meant_by, facts_of
from copilot_core.routing.clarify import CHIP_PICKED, MAX_OPTIONS, chips_after_pick, clarify_first
from copilot_core.language.chip_words import chips_described
from copilot_core.routing.followups import follow_ups
from copilot_core.agent.contracts import AgentRequest, AgentResult, SilentListener, TurnListener
from copilot_core.guardrails import InputCheck, check_input
from copilot_core.agent.history import prepare_history
from copilot_core.agent.finish import finish
from copilot_core.agent.loop import ModelLoop
from copilot_core.agent.plan import plan_turn, turn_secrets
from copilot_core.review.qubit_review import run_qubit_review
from copilot_core.language.scope import DECLINE_MESSAGE, out_of_scope
from copilot_core.language.question import parse
from copilot_core.domain.display import shown_in
from copilot_core.llm.provider import ProviderConfig
from copilot_core.cancel import CancelToken
from copilot_core.chat.messages import ChatMessage
from copilot_core.chat.showwork import show_work_from
from copilot_core.chat.state import ChatState
from copilot_core.errors import CopilotError
from copilot_core.figures import available_root
from copilot_core.memory import CopilotMemory
from copilot_core.readiness import Readiness, readiness_for, router_enabled
from copilot_core.skills import SkillLibrary, render_skills
from copilot_core.tools import Toolkit
from copilot_core.tools.spec import Sandbox, SandboxRun
from copilot_core.tracing import Tracer

if TYPE_CHECKING:
    from openai import OpenAI

    from copilot_core.data.repository import CalibrationRepository
    from copilot_core.settings import Settings

log = logging.getLogger(__name__)
OFF = ("off", "false", "0", "no")
RECALL_TOOL = "recall_memory"


class _StoppableSandbox(Protocol):
    def __call__(self, code: str, data: dict[str, object], /, *, cancel: CancelToken) -> SandboxRun: ...


def stoppable(sandbox: Sandbox | None, cancel: CancelToken | None) -> Sandbox | None:
    """The sandbox with the turn's stop wired in, when it takes one (``run_analysis`` does)."""
    if sandbox is None or cancel is None:
        return sandbox
    try:
        takes_cancel = "cancel" in inspect.signature(sandbox).parameters
    except (TypeError, ValueError):
        takes_cancel = False
    if not takes_cancel:
        return sandbox
    run = cast(_StoppableSandbox, sandbox)  # its signature takes ``cancel`` (checked above)

    def run_stoppable(code: str, data: dict[str, object], /) -> SandboxRun:
        return run(code, data, cancel=cancel)

    return run_stoppable


def switched_on(settings: Settings, key: str) -> bool:
    """A feature switch that defaults to on (``off``/``false``/``0``/``no`` turn it off)."""
    return (settings.get(key) or "on").lower() not in OFF


@dataclass
class TurnResult:
    """What happened to one question: refused (not sent), or answered (maybe with an error)."""

    sent: bool
    notice: str | None = None  # why the question was not sent
    flags: list[str] = field(default_factory=list)  # injection-like phrases noticed in the question
    answer: ChatMessage | None = None  # the assistant message appended to the state
    result: AgentResult | None = None  # the tool loop's full result (tool outcomes, usage)
    readiness: Readiness | None = None  # the model's readiness when the turn was gated


class Copilot:
    """The turn service: process-wide parts (repository, skills, memory, sandbox, settings) and :meth:`ask`."""

    def __init__(self, repo: CalibrationRepository, *, settings: Settings, skills: SkillLibrary,
                 memory: CopilotMemory | None = None, sandbox: Sandbox | None = None, gate: bool = True,
                 client: OpenAI | None = None) -> None:
        self.repo = repo
        self.settings = settings
        self.skills = skills
        self.memory = memory
        self.sandbox = sandbox
        self.gate = gate
        self.client = client

    @classmethod
    def from_settings(cls, settings: Settings, repo: CalibrationRepository, *, memory: bool = True,
                      gate: bool | None = None, client: OpenAI | None = None) -> Copilot:
        """Skills from the built-in and site folders; memory on the repository's database unless
        ``COPILOT_MEMORY=off`` (or ``memory=False``); readiness gating unless ``COPILOT_READINESS=off``
        (or ``gate=False``)."""
        from copilot_core.data.memory_store import MemoryStore
        from copilot_core.sandbox import run_analysis

        store = None
        if memory and switched_on(settings, "COPILOT_MEMORY"):
            store = CopilotMemory(MemoryStore(repo.db, project_id=settings.project_id))
        if gate is None:
            gate = switched_on(settings, "COPILOT_READINESS")
        return cls(repo, settings=settings, skills=SkillLibrary.from_settings(settings), memory=store,
                   sandbox=run_analysis, gate=gate, client=client)

    @staticmethod
    def check(text: str) -> InputCheck:
        """The input check (length, control characters, injection flags); pass its result to :meth:`ask` when
        the front end shows the question before the turn starts."""
        return check_input(text)

    def ask(self, state: ChatState, question: str | InputCheck, listener: TurnListener | None = None, *,
            context: dict | None = None, stream: Callable[[str], None] | None = None,
            cancel: CancelToken | None = None, clarify: bool = False, **trace_attrs: str) -> TurnResult:
        """Check the question (unless already checked), run the turn on the state's history and append both
        messages to ``state``.  Memory is the chat owner's (``state.username``) only.  Never raises for model,
        tool or memory failures: they are in the answer's ``error``.  ``stream`` gets the answer text as it is
        written; ``cancel`` stops the turn (the model call and a running sandbox job) and the answer keeps what
        was shown, marked stopped.  ``clarify``: ambiguous questions get a question with options (before any model
        call for the common cases, and through the model's ``ask_user`` tool)."""
        listener = listener or SilentListener()
        verdict = check_input(question) if isinstance(question, str) else question
        flags = list(verdict.flags or [])
        if not verdict.ok or state.provider is None:
            notice = verdict.message if not verdict.ok else "No model is configured."
            return TurnResult(sent=False, notice=notice, flags=flags)
        text = verdict.text
        provider: ProviderConfig = state.provider
        repo = self.repo.for_turn()  # the chip facts several steps need are read once
        history = state.history()
        state.add(ChatMessage.user(text, flags))
        if out_of_scope(text):  # plainly not about the lab's data: declined without calling any model
            return self._declined(state, provider, flags)
        if state.mode == "analysis" and state.chip_id and state.qid and not history:
            return self._qubit_review(state, provider, flags, listener, trace_attrs, cancel, repo)
        try:  # read once: the clarification and the plan both need them
            chips = chips_after_pick(text, repo.chip_ids(), state.chip_id)
        except Exception:  # noqa: BLE001 - an unreachable database is reported by the tools in the turn itself
            chips = []
        meant = _described(repo, text, state.chip_id)
        if clarify and meant.unclear:
            return self._asked(state, provider, flags, AskBlock("Which chip do you mean?",
                                                                meant.options[:MAX_OPTIONS], choice="chip"))
        chip_id = meant.chips[0] if len(meant.chips) == 1 else state.chip_id  # "the bigger chip": that chip
        text = f"{text} {EACH_CHIP}" if len(meant.chips) > 1 else text  # "the bigger chip or the smaller one"
        if clarify and (ask := clarify_first(text, chips=chips, chip_in_view=chip_id,
                                             history=history)) is not None:
            return self._asked(state, provider, flags, ask)

        readiness = self._readiness(provider, listener)
        allowed = readiness.allowed_tools() if readiness is not None else None
        memory = self.memory.for_owner(state.username) if self.memory is not None else None
        toolkit = Toolkit(repo, store=state.store, sandbox=stoppable(self.sandbox, cancel), memory=memory,
                          allowed=allowed, figures=available_root(self.settings))
        prepared = prepare_history(history)  # the turns the model reads
        chosen = [m.skill for m in self.skills.select(text, prepared)]
        extras = self._memory_section(memory, state.chip_id, recall_tool=RECALL_TOOL in toolkit.names())
        secrets = turn_secrets(provider, self.settings)
        tracer = Tracer.from_settings(self.settings, provider=provider, chip_id=state.chip_id, mode=state.mode,
                                      secrets=secrets, **trace_attrs)
        request = AgentRequest(message=text, chip_id=chip_id, qid=state.qid, mode=state.mode,
                               history=history, context=dict(context or {}), flags=flags)
        started = time.perf_counter()
        with shown_in(parse(text, chips).unit_asked):  # every value of the turn in the unit the question asks
            plan = plan_turn(request, provider=provider, tools=toolkit.schemas(), repo=repo, chips=chips,
                             router=self._router(provider, readiness), clarify=clarify,
                             skills=[render_skills(chosen)] if chosen else [], history=prepared, secrets=secrets,
                             described=chip_id if len(meant.chips) == 1 else None)
            end = ModelLoop(plan, provider, toolkit, tracer=tracer, listener=listener, stream=stream, cancel=cancel).run(
                repo, prompt_extras=extras, client=self.client)
            result = finish(plan, end, model=provider.model, api_style=provider.api_style)
        result.elapsed_s = time.perf_counter() - started

        sent = [s.name for s in chosen] if result.skills_sent else []  # the loop leaves them out of a routed turn
        tracer.annotate(skills=",".join(sent))
        self._learn(memory, state.chip_id, result, tracer)
        trace = tracer.finish(error=result.error)
        trace["skills"] = sent
        trace["cache_hits"] = end.repeats
        trace["routed_tools"] = result.routed_tools
        work = show_work_from(result, trace=trace)
        answer = ChatMessage.assistant(result.blocks, assessment=result.assessment, work=work, error=result.error,
                                       unverified_numbers=result.unverified_numbers, stopped=result.stopped)
        if not answer.blocks:
            answer = ChatMessage.assistant([TextBlock(result.error or "The copilot gave no answer.")],
                                           work=work, error=result.error, stopped=result.stopped)
        asked = any(isinstance(b, AskBlock) for b in answer.blocks)
        answer.follow_ups = follow_ups(text, [(o.name, dict(o.args or {})) for o in result.tool_calls if o.ok],
                                       chip_in_view=state.chip_id, size_of=partial(_chip_size, repo),
                                       failed=bool(result.error) or result.stopped or asked)
        state.add(answer)
        return TurnResult(sent=True, flags=flags, answer=answer, result=result, readiness=readiness)

    # ------------------------------------------------------------------------------------------

    def _qubit_review(self, state: ChatState, provider: ProviderConfig, flags: list[str], listener: TurnListener,
                      trace_attrs: dict[str, str], cancel: CancelToken | None,
                      repo: CalibrationRepository) -> TurnResult:
        """The first turn of analysis mode: the qubit's report at once, then one checked model review (a stop
        ends the review and keeps the report).  The secrets are collected once, for the tracer and the review."""
        secrets = turn_secrets(provider, self.settings)
        tracer = Tracer.from_settings(self.settings, provider=provider, chip_id=state.chip_id, mode=state.mode,
                                      secrets=secrets, **trace_attrs)
        request = AgentRequest(message=state.messages[-1].text, chip_id=state.chip_id, qid=state.qid,
                               mode="analysis", flags=flags)
        result = run_qubit_review(request, provider=provider, repo=repo, listener=listener, tracer=tracer,
                                  client=self.client, timeout_s=self._review_timeout(), cancel=cancel,
                                  secrets=secrets)
        work = show_work_from(result, trace=tracer.finish(error=result.error))
        answer = ChatMessage.assistant(result.blocks, assessment=result.assessment, work=work, error=result.error,
                                       stopped=result.stopped)
        state.add(answer)
        return TurnResult(sent=True, flags=flags, answer=answer, result=result)

    def _review_timeout(self) -> float:
        """``COPILOT_REVIEW_TIMEOUT_S`` (default 50 s): how long a qubit review may take before the report stands
        alone (a bad value is logged and the default used)."""
        from copilot_core.review.qubit_review import REVIEW_TIMEOUT_S

        raw = self.settings.get("COPILOT_REVIEW_TIMEOUT_S")
        try:
            value = float(raw) if raw else REVIEW_TIMEOUT_S
        except ValueError:
            log.warning("COPILOT_REVIEW_TIMEOUT_S=%r is not a number; using %s s", raw, REVIEW_TIMEOUT_S)
            return REVIEW_TIMEOUT_S
        return value if value > 0 else REVIEW_TIMEOUT_S

    @staticmethod
    def _declined(state: ChatState, provider: ProviderConfig, flags: list[str]) -> TurnResult:
        result = AgentResult(answer=DECLINE_MESSAGE, blocks=[TextBlock(DECLINE_MESSAGE)], model=provider.model,
                             api_style=provider.api_style, flags=flags)
        answer = ChatMessage.assistant(result.blocks, work=show_work_from(result))
        state.add(answer)
        return TurnResult(sent=True, flags=flags, answer=answer, result=result)

    @staticmethod
    def _asked(state: ChatState, provider: ProviderConfig, flags: list[str], ask: AskBlock) -> TurnResult:
        result = AgentResult(answer="", blocks=[ask], model=provider.model, api_style=provider.api_style, flags=flags)
        answer = ChatMessage.assistant(result.blocks, work=show_work_from(result))
        state.add(answer)
        return TurnResult(sent=True, flags=flags, answer=answer, result=result)

    def _readiness(self, provider: ProviderConfig, listener: TurnListener) -> Readiness | None:
        """Which tools this model gets (probed once per provider and process); None when gating is off."""
        if not self.gate:
            return None
        listener.phase("checking the model")
        readiness = readiness_for(provider, client=self.client)
        if readiness.level != "full":
            listener.notice(readiness.reason)
        return readiness

    def _router(self, provider: ProviderConfig, readiness: Readiness | None) -> bool:
        """The tool router's switch for this model (a bad ``COPILOT_TOOL_ROUTER`` is logged and read as off)."""
        size = self.settings.get("COPILOT_MODEL_SIZE")
        try:
            return router_enabled(self.settings.get("COPILOT_TOOL_ROUTER"), provider, readiness, size)
        except ValueError as exc:
            log.warning("%s; router off", exc)
            return False

    @staticmethod
    def _memory_section(memory: CopilotMemory | None, chip_id: str | None, *, recall_tool: bool) -> list[str]:
        if memory is None or not chip_id:
            return []
        try:
            return memory.prompt_extras(chip_id, recall_tool=recall_tool)
        except Exception:  # noqa: BLE001 - memory is a nicety; the answer must still come
            log.exception("memory unavailable for chip %s", chip_id)
            return []

    @staticmethod
    def _learn(memory: CopilotMemory | None, chip_id: str | None, result: AgentResult, tracer: Tracer) -> None:
        """Remember what this turn's tool calls teach the chat's owner about the chip (only after a successful
        turn)."""
        if memory is None or not chip_id or result.error:
            return
        try:
            with tracer.span("memory.learn", chip_id=chip_id):
                memory.learn(chip_id, result.tool_calls)
        except Exception:  # noqa: BLE001
            log.exception("could not update copilot memory for chip %s", chip_id)


def _described(repo: CalibrationRepository, text: str, chip_in_view: str | None) -> ChipsMeant:
    """The installed chips ``text`` describes in words ("the bigger chip"), read from the chip collection; none
    after a chip picked from a choice (the pick is the chip in view) or when the database cannot say."""
    if text.rstrip().endswith(CHIP_PICKED) or not chips_described(text):
        return ChipsMeant()
    try:
        return chips_meant_by(text, facts_of(repo.list_chips()), chip_in_view)
    except CopilotError:
        return ChipsMeant()


def _chip_size(repo: CalibrationRepository, chip_id: str) -> int:
    """The chip's qubit count for labels (0 when the chip or the database cannot say; the turn read it already)."""
    try:
        row = repo.chip_layout(chip_id)
    except CopilotError:
        return 0
    size = row.get("size") if row else None
    return size if isinstance(size, int) and not isinstance(size, bool) and size > 0 else 0
