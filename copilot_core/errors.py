"""The one error tree: every failure a person should read derives from :class:`CopilotError`, whose message
is fit to show (no secrets, no traceback).  The pages' ``page_guard`` and the CLI catch the root.

Most failures never raise out of the agent loop (they become a clear message in the answer); these
exceptions travel *inside* the engine so the loop can turn each kind into the right sentence.
"""

from __future__ import annotations


class CopilotError(Exception):
    """Root of copilot failures; ``str(err)`` is a message fit for a user."""


class InvalidRequest(CopilotError, ValueError):
    """A request (or a stored value) the code cannot use; the message says what to change."""


class ProviderError(CopilotError):
    """The model API failed for good (after retries, or an error that retrying cannot fix)."""

    def __init__(self, message: str, *, status: int | None = None, retryable: bool = False) -> None:
        super().__init__(message)
        self.status = status
        self.retryable = retryable

