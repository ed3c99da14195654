"""What a turn does when the model provider fails: one more try when the server could not read the model's reply,
and the computed answer when the tools had already found facts.

A round cut at its output cap (:class:`~copilot_core.errors.CutReply`) is treated the same: the router's call when
no fact was found yet, then the computed answer with a note that the model's answer was cut.
A small local model sometimes writes a tool call whose JSON the server's parser rejects (llama.cpp: HTTP 500).  The
step is asked once more: with facts in the conversation, without tools and with a note to answer from the tool
results (no call the server could fail to parse); with none, as it was (the model samples again).  When the provider
fails after the tools returned facts, for any reason, the person reads the answer computed from those facts with a
short note saying why, never the provider's failure alone; with no facts, the failure's own clear sentence stays.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

from copilot_core.agent.prompts import render_prompt
from copilot_core.checking.verify import deterministic_answer
from copilot_core.errors import CutReply, ProviderError, UnreadableReply
from copilot_core.llm.calls import Reread
from copilot_core.llm.turns import Conversation
from copilot_core.routing.planned import PlannedCall
from copilot_core.tools.toolkit import ToolOutcome

log = logging.getLogger(__name__)

UNREADABLE_NOTE = "The model's reply could not be read; this answer was computed from the data."
CUT_NOTE = "The model's answer was cut; this is computed from the data."
COMPUTED = "This answer was computed from the data."
NUDGE = "Your previous reply could not be read."

def reread(conversation: Conversation, tools: list[dict] | None, tool_choice: str | None, *, facts: bool,
           restart: Callable[[], None], routed: bool = False) -> Reread | None:
    """The one more try :func:`~copilot_core.llm.calls.call_model` makes when the server could not read the reply:
    ``facts`` (the tools have returned facts this turn): without tools, after a note to answer from them; else as it
    was, unless the router has the question's call (``routed``): then none, and the turn makes that call at once
    (:func:`fall_back`) instead of sampling the model again for minutes.  ``restart`` clears what the failed try
    streamed."""
    if routed and not facts:
        return None
    def again() -> tuple[list[dict] | None, str | None]:
        log.warning("the model's reply could not be read; one more try %s", "without tools" if facts else "as is")
        restart()
        if not facts:
            return tools, tool_choice
        conversation.add_user_note(render_prompt("finalize", reason=NUDGE))
        return None, None
    return again


def fall_back(outcomes: Sequence[ToolOutcome], failure: ProviderError, planned: Callable[[], PlannedCall | None],
              make: Callable[[PlannedCall], object]) -> None:
    """A reply the server could not read before any tool found a fact: the router's own call for the question
    (``planned``), made by ``make``, so the answer is computed from the data, not an error."""
    if isinstance(failure, (UnreadableReply, CutReply)) and not has_facts(outcomes) and (call := planned()) is not None:
        make(call)


UNFIT_REASON = "Your tool call did not fit what the tool takes; the call the question needs was made for you."


def unfit_only(outcomes: Sequence[ToolOutcome], planned: Callable[[], PlannedCall | None]) -> bool:
    """The model's calls so far found no fact, one of them did not fit what its tool takes (bad arguments) and the
    router has the question's call: the turn makes it at once rather than give the model rounds to repair its own."""
    return any(o.error_kind == "call" for o in outcomes) and not has_facts(outcomes) and planned() is not None


def has_facts(outcomes: Sequence[ToolOutcome]) -> bool:
    """The tools returned something the turn can answer from (a sentence of their own)."""
    return deterministic_answer(outcomes) is not None


def computed_after(outcomes: Sequence[ToolOutcome], failure: ProviderError) -> str | None:
    """The answer computed from the tools' facts, with a note saying the model could not finish and why; None when
    the tools found nothing to answer from (the failure's sentence is then the message)."""
    found = deterministic_answer(outcomes)
    if found is None:
        return None
    note = UNREADABLE_NOTE if isinstance(failure, UnreadableReply) else CUT_NOTE if isinstance(failure, CutReply) \
        else f"{failure} {COMPUTED}"
    return f"{found}\n\n_{note}_"
