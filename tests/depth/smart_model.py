"""The "smart" scripted model for the eval harness: it answers each eval question by making exactly the
question's intended tool calls (one per round), then writes an answer quoting the tool results.

This checks loop integrity (the required tools run, their results reach the model, the facts survive to
the answer), not model quality.  ``lazy`` answers without tools (the harness must then fail it).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable

from copilot_core.evals import Question
from copilot_core.llm.provider import LOCAL_ROUND_TOKENS
from tests.fakes.scripted_openai import SmartRequest, Step, answer, call

WORDS = LOCAL_ROUND_TOKENS - 100  # room for the blocks' JSON around the text
DECLINE = "I can only help with questions about your chips' calibration data, so I cannot help with that request."


def _leaves(obj: object, path: str = "") -> list[str]:
    """``key: value`` for every text or number in a tool result (a careful model reads them out one by one)."""
    if isinstance(obj, dict):
        return [line for k, v in obj.items() for line in _leaves(v, f"{path}.{k}" if path else str(k))]
    if isinstance(obj, list):
        return [line for v in obj for line in _leaves(v, path)]
    if isinstance(obj, str):
        return [f"{path}: {json.dumps(obj, ensure_ascii=False)}"]
    return [f"{path}: {obj}"] if isinstance(obj, (int, float)) and not isinstance(obj, bool) else []


def _sentence(output: str) -> str:
    """The tool's own answer sentence when it wrote one, then every value it returned, one per line."""
    try:
        body = json.loads(output)
    except ValueError:
        return output
    return "\n".join(f"  {line}" for line in _leaves(body))


def _within(text: str) -> str:
    """``text`` cut to what one round may write on a local server (each of the scripted server's word pieces is at
    least a token), each repeated line once: a careful model stays within its output cap."""
    lines = list(dict.fromkeys(text.split("\n")))
    kept: list[str] = []
    words = 0
    for line in lines:
        words += len(line.split()) + 1
        if words > WORDS:
            break
        kept.append(line)
    return "\n".join(kept)


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
        quoted = "\n".join(f"- {r.name}: {_sentence(r.output)}" for r in request.tool_results)
        return answer(f"Answer from the tool results:\n{_within(quoted)}", "good")

    return reply
