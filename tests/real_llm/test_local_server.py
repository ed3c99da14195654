"""Smoke check of the local model server with the raw openai SDK: it must call a trivial tool and then answer.

This is the contract the copilot relies on from a llama.cpp server with the fenced template: real
``tool_calls`` on /v1/chat/completions, and a plain answer once the tool result comes back.
"""

from __future__ import annotations

import json

import openai
import pytest
from openai import OpenAI

pytestmark = pytest.mark.real_llm

LOOKUP_TOOL = {
    "type": "function",
    "function": {
        "name": "get_room_temperature",
        "description": "Current temperature of a named laboratory room, in kelvin.",
        "parameters": {"type": "object", "properties": {"room": {"type": "string", "description": "room name"}},
                       "required": ["room"], "additionalProperties": False},
    },
}


def _create(client: OpenAI, **kwargs):
    """chat.completions at temperature 0; one retry on a 5xx (llama.cpp's answer to an unparsable tool call)."""
    try:
        return client.chat.completions.create(temperature=0, max_tokens=200, **kwargs)
    except openai.InternalServerError:
        return client.chat.completions.create(temperature=0, max_tokens=200, **kwargs)


def test_models_endpoint_names_the_served_model(local_llm):
    client = OpenAI(base_url=local_llm["base_url"], api_key="local", max_retries=0)
    ids = [m.id for m in client.models.list().data]
    assert local_llm["model"] in ids


def test_trivial_tool_is_called_then_answered(local_llm):
    client = OpenAI(base_url=local_llm["base_url"], api_key="local", max_retries=0, timeout=120)
    messages = [{"role": "user", "content": "What is the temperature in the room called cryolab?"}]
    first = _create(client, model=local_llm["model"], messages=messages, tools=[LOOKUP_TOOL])
    choice = first.choices[0]
    assert choice.finish_reason == "tool_calls", f"no tool call; the model said: {choice.message.content!r}"
    call = choice.message.tool_calls[0]
    assert call.function.name == "get_room_temperature"
    args = json.loads(call.function.arguments)
    assert "cryolab" in str(args.get("room", "")).lower()

    messages += [
        {"role": "assistant", "content": choice.message.content or "",
         "tool_calls": [{"id": call.id, "type": "function",
                         "function": {"name": call.function.name, "arguments": call.function.arguments}}]},
        {"role": "tool", "tool_call_id": call.id, "content": json.dumps({"room": "cryolab", "kelvin": 0.0123})},
    ]
    second = _create(client, model=local_llm["model"], messages=messages, tools=[LOOKUP_TOOL])
    answer = second.choices[0].message.content or ""
    assert second.choices[0].finish_reason == "stop"
    assert "0.0123" in answer, f"the final answer does not use the tool result: {answer!r}"
