"""The one model call that fills a question's typed fields (:mod:`copilot_core.routing.fill`): Chat Completions
with ``response_format`` ``json_schema``, which llama.cpp compiles into a decoding grammar, so a small model can
write nothing outside the schema's enums.

Only the Chat Completions path fills: the Responses request of this app sends its schemas non-strict, and a fill
that no grammar constrains is not worth a model round, so a Responses provider gets no filler (the parse stands).
Any failure (a timeout, a server that rejects the format, an empty reply) is no fill: the caller's parse stands.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from copilot_core.llm.provider import ProviderConfig, make_client

log = logging.getLogger(__name__)
MAX_FILL_TOKENS = 200  # the filled object is short; a runaway reply is cut here
SYSTEM = ("Read the lab question into the JSON fields. Use only what the question says; leave a field empty "
          "(\"none\", 0 or []) when it does not say it; never invent limits or qubits. Metrics are the catalogue keys.")
FillCall = Callable[[str, dict], "str | None"]  # as routing.fill.FillCall (the same floor: neither imports the other)


def model_filler(provider: ProviderConfig) -> FillCall | None:
    """The fill call for ``provider``, None when it is off or the provider cannot constrain its reply."""
    if not provider.fill_unrouted or provider.api_style != "chat_completions":
        return None

    def fill(question: str, schema: dict) -> str | None:
        try:
            reply = make_client(provider).chat.completions.create(
                model=provider.model, temperature=0, max_tokens=MAX_FILL_TOKENS,
                messages=[{"role": "system", "content": SYSTEM}, {"role": "user", "content": question}],
                response_format={"type": "json_schema", "json_schema": {"name": "question_fields", "schema": schema,
                                                                        "strict": True}})
            content = reply.choices[0].message.content if reply.choices else None
        except Exception as exc:  # noqa: BLE001  (no fill: the parse stands and the turn goes on)
            log.warning("the question fill failed: %s", exc)
            return None
        return content if isinstance(content, str) else None

    return fill
