"""A reply the server could not read: the model wrote a tool call (or a reply) its parser rejects.

llama.cpp answers such a round with HTTP 500 and ``Failed to parse tool call arguments as JSON: ...`` (or, once it
has begun streaming, with that error as an event); Ollama with ``error parsing tool call``; some servers with a 400.
The failure is the model's output, not the network, so sending the same request again mostly fails the same way:
:func:`~copilot_core.llm.calls.call_model` raises :class:`~copilot_core.errors.UnreadableReply` at once instead of
spending its retries, and the loop decides what one more try should be.  Plain substring tests: no pattern.
"""

from __future__ import annotations

from copilot_core.errors import UnreadableReply

# What a parse failure of the model's output names besides "parse"/"parsing" (a request the server could not read,
# "Failed to parse messages", is not the model's output and is not matched).
_OUTPUT_WORDS = ("tool call", "tool_call", "function call", "arguments", "input at pos")
_WHOLE = ("peg-native format",)  # llama.cpp's autoparser: the output does not match the template's call format

UNREADABLE = ("The model's reply could not be read: the model server could not parse the tool call the model "
              "wrote. Ask again, perhaps in other words.")


def unreadable_reply(status: int | None, message: str) -> bool:
    """True when a failure with this HTTP ``status`` (None: an error event inside a stream) and server ``message``
    is the server failing to parse what the model wrote."""
    if status not in (None, 400, 500):
        return False
    text = message.lower()
    return ("pars" in text and any(word in text for word in _OUTPUT_WORDS)) or any(w in text for w in _WHOLE)


def unreadable(status: int | None) -> UnreadableReply:
    """The error to raise for such a failure: fit to show, without the server's text (which quotes the model's
    output and may name the server)."""
    return UnreadableReply(UNREADABLE, status=status, retryable=False)
