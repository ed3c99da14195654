"""The "smart" scripted model for the eval harness: it answers each eval question by making exactly the
question's intended tool calls (one per round), then writes an answer quoting the tool results.

This checks loop integrity (the required tools run, their results reach the model, the facts survive to
the answer), not model quality.  ``lazy`` answers without tools (the harness must then fail it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from copilot_core.evals import Question
from tests.fakes.scripted_openai import SmartRequest, Step, answer, call

DECLINE = "I can only help with questions about your chips' calibration data, so I cannot help with that request."


def smart_answerer(questions: Iterable[object], *, lazy: bool = False) -> Callable[[SmartRequest], Step]:
    by_text = {q.text: q for q in questions if isinstance(q, Question)}

    def reply(request: SmartRequest) -> Step:
        question = by_text.get((request.user_text or "").strip())
        if question is None or question.decline:
            return answer(DECLINE)
        if lazy:
            return answer("It is probably fine.")
        done = len(request.tool_results)
        if request.has_tools and done < len(question.calls):
            name, args = question.calls[done]
            return call(name, args)
        quoted = "\n".join(f"- {r.name}: {r.output}" for r in request.tool_results)
        return answer(f"Answer from the tool results:\n{quoted}", "good")

    return reply
