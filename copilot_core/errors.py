"""The one error tree: every failure a person should read derives from :class:`CopilotError`, whose message
is fit to show (no secrets, no traceback).  The pages' ``page_guard`` and the CLI catch the root.

Most failures never raise out of the agent loop (they become a clear message in the answer); these
exceptions travel *inside* the engine so the loop can turn each kind into the right sentence.
"""

from __future__ import annotations

from typing import Literal


class CopilotError(Exception):
    """Root of copilot failures; ``str(err)`` is a message fit for a user."""

    headline = ""  # what failed, said before the message (which says why and what to change)
    level: Literal["error", "warning"] = "error"  # a warning: the request cannot be answered, nothing is broken


def user_message(exc: BaseException, what: str = "this page") -> str:
    """The one translation of an error into the words a person reads (plain text: the caller escapes it).

    A ``CopilotError`` says what failed and why; anything else is a bug whose details belong in the server log,
    so a person reads only which part of the app failed and the error's class."""
    if isinstance(exc, CopilotError):
        return f"{exc.headline} {exc}".strip()
    return f"Something went wrong while building {what} ({type(exc).__name__}). The details are in the server log."


class InvalidRequest(CopilotError, ValueError):
    """A request (or a stored value) the code cannot use; the message says what to change."""


class ProviderError(CopilotError):
    """The model API failed for good (after retries, or an error that retrying cannot fix)."""

    def __init__(self, message: str, *, status: int | None = None, retryable: bool = False) -> None:
        super().__init__(message)
        self.status = status
        self.retryable = retryable



class UnreadableReply(ProviderError):
    """The model server could not parse what the model wrote (a tool call's JSON, mostly): not a network failure,
    so the same request is not retried; the loop asks once more without tools or answers from the data."""


class CutReply(ProviderError):
    """The model's round was cut at its output-token cap (``finish_reason == "length"``, a Responses ``incomplete``
    reply, or the turn's output budget spent): what it wrote is unfinished, so the loop answers from the data."""

    def __init__(self, message: str = ("The model's answer was cut at its length limit before the data was looked up; "
                                       "try asking again, more narrowly."), partial: str | None = None) -> None:
        super().__init__(message)
        self.partial = partial  # what the model wrote before the cut (a caller that shows a cut list keeps it)
