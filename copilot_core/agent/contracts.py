"""The agent's public values: the request, the result, the progress listener and the tracer hook."""

from __future__ import annotations

from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from collections.abc import Iterator
from typing import TYPE_CHECKING, Literal, Protocol

from copilot_core.answer.blocks import Block

if TYPE_CHECKING:
    from copilot_core.tools.toolkit import ToolOutcome

Mode = Literal["chat", "analysis"]
Status = Literal["checked", "trimmed", "replaced", "missing", "stopped"]

@dataclass(frozen=True)
class ReviewCheck:
    """What to show of a review: ``text`` (None: nothing usable; else the model's lines that passed, or the
    summary line), why it was changed, what was dropped, and the report's lines the check ``added`` after it."""

    text: str | None
    status: Status
    reason: str | None = None
    dropped: tuple[str, ...] = ()
    added: tuple[str, ...] = ()


@dataclass
class AgentRequest:
    message: str
    chip_id: str | None = None
    qid: str | None = None
    mode: Mode = "chat"
    history: list[dict] = field(default_factory=list)  # role/content turns; the loop keeps the last 6, no charts
    context: dict = field(default_factory=dict)  # extra prompt context, e.g. {"task_name": "CheckT1"}
    flags: list[str] = field(default_factory=list)  # injection-like phrases the input check noticed


@dataclass
class AgentResult:
    answer: str  # plain text of the text blocks
    blocks: list[Block]
    assessment: str | None = None  # "good" | "warning" | "bad" | None
    tool_calls: list[ToolOutcome] = field(default_factory=list)  # in call order
    error: str | None = None  # a clear message when the API failed; blocks then hold a partial answer
    elapsed_s: float = 0.0
    model: str = ""
    api_style: str = ""
    flags: list[str] = field(default_factory=list)  # injection-like phrases noticed in the question
    rounds: list[dict] = field(default_factory=list)  # per model call: input/cached/output tokens, tools offered
    routed_tools: list[str] | None = None  # the router's pick (None: router off, every tool offered)
    unverified_numbers: list[str] = field(default_factory=list)  # numbers in the answer no tool result backs
    stopped: bool = False  # the user stopped the turn; ``error`` says so and blocks keep what was shown
    review: ReviewCheck | None = None  # analysis of one qubit: what became of the model's review of its report
    claims: str = "kept"  # the claim check: "kept", or "corrected"/"replaced"/"completed" (the answer then says so),
    # or "computed": the model wrote nothing usable and the answer is the tools' own sentences
    skills_sent: bool = False  # the skill procedures went into the prompt (left out when the router made the call)

    @property
    def usage(self) -> dict[str, int]:
        """Totals over ``rounds`` (what ``ask`` prints and show-work stores), derived so they cannot disagree."""
        return {"rounds": len(self.rounds),
                **{k: sum(int(r.get(k) or 0) for r in self.rounds) for k in ("input_tokens", "output_tokens",
                                                                             "cached_tokens")}}


class TurnListener(Protocol):
    """What a front end shows while a turn runs (called on the caller's thread; a failing listener is logged,
    never fatal)."""

    def phase(self, text: str) -> None: ...  # "checking the model", "thinking", "running tools", "done" ...
    def notice(self, text: str) -> None: ...  # a sentence for the user, e.g. why the tool set is reduced
    def tool_call(self, name: str, args: dict) -> None: ...
    def tool_result(self, outcome: ToolOutcome) -> None: ...


class SilentListener:
    """A listener that shows nothing (subclass it to show only some events)."""

    def phase(self, text: str) -> None:
        return None

    def notice(self, text: str) -> None:
        return None

    def tool_call(self, name: str, args: dict) -> None:
        return None

    def tool_result(self, outcome: ToolOutcome) -> None:
        return None


class Tracer(Protocol):
    """Spans per request, model call and tool; token usage per model call."""

    def span(self, name: str, **attrs: object) -> AbstractContextManager[object]: ...
    def record_usage(self, input_tokens: int, output_tokens: int, model: str) -> None: ...
    def event(self, name: str, **attrs: object) -> None: ...


class NullTracer:
    """The default tracer: records nothing."""

    @contextmanager
    def span(self, name: str, **attrs: object) -> Iterator[None]:
        yield None

    def record_usage(self, input_tokens: int, output_tokens: int, model: str) -> None:
        return None

    def event(self, name: str, **attrs: object) -> None:
        return None


NULL_TRACER = NullTracer()
