"""One chat turn, start to finish, without Streamlit: guardrails, the agent loop, the answer, show-work.

The page passes a listener that draws progress (tool calls, results, phase) while the loop blocks; the
loop itself, the 6-turn history cap and the output sanitizer live in ``copilot_core.agent``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from copilot_core.chat.messages import ChatMessage
from copilot_core.chat.showwork import show_work_from
from copilot_core.chat.state import ChatState


class ProgressListener(Protocol):
    """What the page shows while the loop runs (every method is called on the script's thread)."""

    def tool_call(self, name: str, args: dict) -> None: ...
    def tool_result(self, outcome: Any) -> None: ...
    def phase(self, text: str) -> None: ...


@dataclass
class TurnResult:
    """What happened to one question: rejected (not sent), or answered (maybe with an error)."""

    sent: bool
    notice: str | None = None  # why the input was not sent
    flags: list[str] = field(default_factory=list)  # injection phrases noticed in the question
    answer: ChatMessage | None = None


def analysis_request(chip_id: str, qid: str) -> str:
    """The first request of analysis mode (the analysis prompt carries the qubit's full context)."""
    return (f"Analyze qubit {qid} on chip {chip_id}: review its latest calibration results against the "
            "thresholds, its recent history, its topology neighbours and its couplings, and give the AI review.")


def build_toolkit(repo: Any, store: Any, *, allowed: set[str] | None = None) -> Any:
    """The tool layer on this chat's data store, with the sandbox for execute_python_analysis."""
    from copilot_core.sandbox import run_analysis
    from copilot_core.tools import Toolkit

    return Toolkit(repo, store=store, sandbox=run_analysis, allowed=allowed)


def ask(state: ChatState, text: str, *, repo: Any, toolkit: Any, listener: ProgressListener | None = None,
        extras: Any = None, client: Any = None) -> TurnResult:
    """Check the question, run the copilot on the state's history and append both turns to ``state``.

    ``extras`` is issue 7's ``copilot_core.turn.TurnExtras`` (skills, memory, tool cache, tracing); without
    it the turn runs with the plain toolkit and no trace.
    """
    from copilot_core.agent import AgentRequest, run_copilot
    from copilot_core.agent.guardrails import check_input

    verdict = check_input(text)
    flags = list(verdict.flags or [])
    if not verdict.ok:
        return TurnResult(sent=False, notice=verdict.message, flags=flags)
    text = verdict.text or text
    history = state.history()
    state.add(ChatMessage.user(text, flags))
    request = AgentRequest(message=text, chip_id=state.chip_id, qid=state.qid, mode=state.mode, history=history)
    kwargs: dict[str, Any] = {"toolkit": toolkit}
    if listener is not None:
        kwargs.update(on_tool_call=listener.tool_call, on_tool_result=listener.tool_result, on_status=listener.phase)
    if client is not None:
        kwargs["client"] = client
    kit = None
    if extras is not None:
        kit = extras.start(text, toolkit=toolkit, history=history, chip_id=state.chip_id, provider=state.provider,
                           mode=state.mode)
        kwargs.update(toolkit=kit.toolkit, tracer=kit.tracer, prompt_extras=kit.prompt_extras)
    result = run_copilot(request, provider=state.provider, repo=repo, **kwargs)
    trace = extras.finish(kit, result) if kit is not None else None
    answer = ChatMessage.assistant(result.blocks, assessment=result.assessment,
                                   work=show_work_from(result, trace=trace), error=result.error)
    if not answer.blocks:
        answer = ChatMessage.assistant([{"type": "text", "content": result.error or "The copilot gave no answer."}],
                                       work=answer.work, error=result.error)
    state.add(answer)
    return TurnResult(sent=True, flags=flags, answer=answer)
