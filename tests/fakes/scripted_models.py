"""Scripted models for eval tests: they answer from the tools' own ``answer`` sentences the request carries, so a
test knows what a right, a silent and a wrong answer are without a real model."""

from __future__ import annotations

import json
import re

from tests.fakes.scripted_openai import SmartRequest, call, text

_DECIMAL = re.compile(r"(?<![\w.])\d+\.\d+")


def tool_sentences(request: SmartRequest) -> list[str]:
    """The ``answer`` sentences of the tool results in the request, in order."""
    out = []
    for seen in request.tool_results:
        try:
            body = json.loads(seen.output)
        except ValueError:
            continue
        if isinstance(body, dict) and isinstance(body.get("answer"), str):
            out.append(body["answer"])
    return out


def quoter(request: SmartRequest):
    """Quotes every tool sentence: a right answer in the tools' words."""
    return text(" ".join(tool_sentences(request)) or "I could not find that.")


def silent(request: SmartRequest):
    """Writes nothing: the turn must still answer from the data."""
    return text("")


def swap_decimals(said: str) -> str:
    """The first two distinct decimals of ``said`` swapped: both are in the results, each in the other's place."""
    distinct = list(dict.fromkeys(_DECIMAL.findall(said)))
    if len(distinct) < 2:
        return said
    a, b = distinct[:2]
    return said.replace(a, "\0").replace(b, a).replace("\0", b)


ASKED = {"question": "Which chip and which qubits do you mean?", "options": ["64Qv3", "144Qv2"]}


def asker(request: SmartRequest):
    """Asks the user back whenever it may call a tool, and writes nothing when it may not: what a small model does
    with an answerable question when ``ask_user`` is in reach."""
    return call("ask_user", ASKED) if request.has_tools else text("")


def asker_then_quoter(request: SmartRequest):
    """Asks the user back first; once a tool result is in the request, quotes its answer sentences."""
    said = tool_sentences(request)
    if said:
        return text(" ".join(said))
    return call("ask_user", ASKED) if request.has_tools else text("")


def caller_then_quoter(name: str, args: dict):
    """Makes one call of its own with ``args`` as given (before any tool result), then quotes what the tools said:
    a model whose arguments the turn must settle."""
    def reply(request: SmartRequest):
        if request.has_tools and not request.tool_results:
            return call(name, args)
        return quoter(request)
    return reply
