"""The app's distrust of a job's reply: every field the worker relays, or a job or forged reply claims, is
checked again before the app uses it (text clipped, links and memory addresses removed, layer names only
those this code applies, at most ``MAX_CHARTS`` charts)."""

from __future__ import annotations

import re

from copilot_core.render_safety.addresses import scrub_addresses
from copilot_core.sandbox import protocol

MAX_OUTPUT_CHARS = protocol.MAX_OUTPUT_CHARS + 200  # the job's cap plus its truncation note
MAX_ERROR_CHARS = 4_000  # a job's error text as the app shows it
MAX_CHARTS = 8  # charts the app takes from one job (the job's own cap; a forged reply may claim more)
_LAYER_NAME = re.compile(r"policy:restrictedpython|fork|setsid|rlimits|netns|uid:nobody|unprivileged|audit-hook"
                         r"|landlock:abi[1-9][0-9]?")


def known_layers(claimed: object) -> list[str]:
    """The isolation layer names in ``claimed`` that this code base applies; anything else is dropped."""
    if not isinstance(claimed, list):
        return []
    return [x for x in claimed[:16] if isinstance(x, str) and _LAYER_NAME.fullmatch(x)]


def shown_text(value: object, limit: int) -> str:
    """Job text as the app shows it: a string, clipped, valid UTF-8, every link and memory address removed (again)."""
    text = value if isinstance(value, str) else ""
    if len(text) > limit:
        text = text[:limit] + f"\n... [truncated at {limit:,} of {len(text):,} characters]"
    return scrub_addresses(protocol.strip_links(text)[0])


def job_reply(meta: dict[str, object], body: bytes) -> dict[str, object]:
    """A job's reply as the app uses it: every field of its JSON checked as hostile whatever the worker or job
    claims (sizes, links, layer names, chart count), the worker's header for the rest."""
    try:
        job = protocol.decode_reply(body)
    except (ValueError, protocol.ProtocolError):
        return {**meta, "output": "", "charts": [], "error": "The analysis job's reply was not valid JSON."}
    error = job.get("error")
    sent_charts, sent_notes = job.get("charts"), job.get("layers_missing")
    charts: list[object] = sent_charts[:MAX_CHARTS] if isinstance(sent_charts, list) else []
    notes: list[object] = sent_notes[:8] if isinstance(sent_notes, list) else []
    worker_layers = known_layers(meta.get("layers"))
    claimed = known_layers(job.get("layers"))
    return {**meta, "output": shown_text(job.get("output"), MAX_OUTPUT_CHARS),
            "charts": protocol.valid_json(charts),  # lone surrogates would break every encoder after this point
            "error": None if error is None else shown_text(error, MAX_ERROR_CHARS) if isinstance(error, str)
            else "The analysis job sent a malformed error.",
            # a job can only show fewer layers than the worker's probe found, never made-up or extra ones
            "layers": [x for x in claimed if x in worker_layers] if "layers" in job else worker_layers,
            "layers_missing": [shown_text(x, 300) for x in notes]}
