"""One model call with retries and error wording a user can act on.

``call_model`` retries 429/5xx/timeouts with a short backoff, drops ``temperature``/``top_p``/the answer schema
when a model rejects them, makes the caller's one more try (or raises ``UnreadableReply``) at once when the server
could not parse what the model wrote (:mod:`~copilot_core.llm.unreadable`: retrying the same request fails the same
way), and turns every other failure into a ``ProviderError``.
"""

from __future__ import annotations

import re
import logging
import time
from collections.abc import Callable

from copilot_core.llm.provider import ProviderConfig
from copilot_core.cancel import CancelToken, TurnCancelled
from copilot_core.errors import CutReply, ProviderError, UnreadableReply
from copilot_core.masking import mask_url, mask_urls_in
from copilot_core.llm.conversation import CONTEXT_MESSAGE
from copilot_core.llm.turns import Conversation, ModelTurn, OnText
from copilot_core.llm.unreadable import unreadable, unreadable_reply

# How chat templates refuse a system message after the first (Mistral's, Gemma's, Llama 2's ...).
_ONE_SYSTEM_MESSAGE = re.compile(r"roles? must alternate|system (message|role)s? (is|are)? ?(only|not)"
                                 r"|system message must be (at the beginning|first)|only .{0,20}first .{0,20}system")


log = logging.getLogger(__name__)


MAX_BACKOFF_S = 8.0


def _status(exc: Exception) -> int | None:
    """The HTTP status; for an error event inside a stream (no status of its own), the code its body gives
    (llama.cpp: ``{"error": {"code": 500, ...}}``)."""
    status = getattr(exc, "status_code", None)
    if status is not None:
        return int(status)
    code = str(getattr(exc, "code", "") or "")
    return int(code) if code.isdigit() and 100 <= int(code) < 600 else None


def _rejected_param(exc: Exception, dropped: set[str]) -> str | None:
    """The parameter a 400/422 complains about, if it is one we can simply stop sending; a chat template that
    takes no second system message (it raises, and llama.cpp answers 400 or 500) gets the context joined to the
    first."""
    text = f"{getattr(exc, 'param', '') or ''} {getattr(exc, 'message', '') or exc}".lower()
    if (_status(exc) in (400, 422, 500) and CONTEXT_MESSAGE not in dropped
            and _ONE_SYSTEM_MESSAGE.search(text) is not None):
        return CONTEXT_MESSAGE
    if _status(exc) not in (400, 422):
        return None
    for name in ("temperature", "top_p", "tool_choice"):
        if name in text and name not in dropped:
            return name
    if "format" not in dropped and any(s in text for s in ("response_format", "text.format", "json_schema")):
        return "format"
    return None


def _is_api_error(exc: Exception) -> bool:
    import openai

    return isinstance(exc, openai.APIError)


def _retryable(exc: Exception) -> bool:
    import openai

    if isinstance(exc, (openai.APITimeoutError, openai.APIConnectionError)):
        return True
    status = _status(exc)
    return status is not None and (status in (408, 409, 429) or status >= 500)


def describe_failure(exc: Exception, provider: ProviderConfig, attempts: int) -> str:
    """A sentence a user can act on; never the raw exception text of a non-API error."""
    import openai

    where = provider.label()
    tries = f" after {attempts} attempts" if attempts > 1 else ""
    if isinstance(exc, openai.APITimeoutError):
        return f"The model provider ({where}) did not answer within {provider.timeout_s:g} s{tries}."
    if isinstance(exc, openai.APIConnectionError):
        return (f"Cannot reach the model provider at {mask_url(provider.base_url) or 'api.openai.com'}{tries}. "
                "Check OPENAI_BASE_URL and that the server is running.")
    status = _status(exc)
    detail = mask_urls_in(str(getattr(exc, "message", "") or "").replace("\n", " ")[:240])
    if status == 401:
        return f"The model provider ({where}) rejected the API key (HTTP 401). Check OPENAI_API_KEY."
    if status == 403:
        return f"The API key has no access to this model or API (HTTP 403): {detail}"
    if status == 404:
        return (f"The provider does not serve model {provider.model!r} on the {provider.api_style} API (HTTP 404). "
                "Check COPILOT_MODEL and COPILOT_API_STYLE.")
    if status == 429:
        return f"The model provider is rate-limiting requests (HTTP 429){tries}. Wait a minute and try again."
    if status is not None and status >= 500:
        return f"The model provider failed (HTTP {status}){tries}. Try again later."  # its text may quote the model or a key
    if status is not None:
        return f"The model provider rejected the request (HTTP {status}): {detail}"
    return f"The model call failed: {type(exc).__name__}."



Reread = Callable[[], tuple[list[dict] | None, str | None]]


def _unreadable(exc: Exception) -> UnreadableReply | None:
    """The error for a reply the server could not parse (a model-output failure, not the server's), else None."""
    if not (_is_api_error(exc) and unreadable_reply(_status(exc), str(getattr(exc, "message", "") or exc))):
        return None
    log.warning("the server could not read the model's reply (HTTP %s); not retried", _status(exc))
    return unreadable(_status(exc))

def call_model(conversation: Conversation, tools: list[dict] | None, *, provider: ProviderConfig,
               dropped: set[str], on_retry: Callable[[str], None] | None = None,
               sleep: Callable[[float], None] = time.sleep, tool_choice: str | None = None,
               on_text: OnText | None = None, cancel: CancelToken | None = None,
               reread: Reread | None = None) -> ModelTurn:
    """One model turn with bounded retries; raises ProviderError with a clear message when it gives up, and
    TurnCancelled (never retried) when the user stopped the turn, and CutReply (never retried) for a round cut at
    its output cap.
    ``tool_choice="none"``: the tools stay in the request but the model must answer in text.
    ``reread``: when the server could not read the model's reply, called once for the tools and tool choice of one
    more try (a deterministic failure is not worth the transient retries); without it, or a second time, it raises."""
    attempt = 0
    while True:
        if cancel is not None:
            cancel.check()
        try:
            if on_text is None and cancel is None:
                return conversation.request(tools, dropped, tool_choice)
            return conversation.request(tools, dropped, tool_choice, on_text=on_text, cancel=cancel)
        except (TurnCancelled, CutReply):  # a cut round: sending it again would be cut again
            raise
        except Exception as exc:  # noqa: BLE001  (classified below; nothing escapes unexplained)
            if cancel is not None and cancel.cancelled:
                raise TurnCancelled() from None
            failed = exc if isinstance(exc, UnreadableReply) else _unreadable(exc)
            if failed is not None:
                if reread is None:
                    raise failed from exc
                tools, tool_choice = reread()
                reread = None
                continue
            param = _rejected_param(exc, dropped)
            if param is not None:
                log.info("model rejected %s; retrying without it", param)
                dropped.add(param)
                continue
            if _retryable(exc) and attempt < provider.max_retries:
                wait = min(MAX_BACKOFF_S, provider.retry_backoff_s * (2 ** attempt))
                attempt += 1
                log.warning("model call failed (%s); retry %d/%d in %.2fs", type(exc).__name__, attempt,
                            provider.max_retries, wait)
                if on_retry:
                    on_retry(f"retrying ({attempt}/{provider.max_retries})")
                sleep(wait)
                continue
            if not _is_api_error(exc):
                log.exception("unexpected error from the model client")
            raise ProviderError(describe_failure(exc, provider, attempt + 1), status=_status(exc),
                                retryable=_retryable(exc)) from exc
