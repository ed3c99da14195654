"""Estimated cost of a request from its token counts: a small price table per model name.

Prices are USD per million tokens (input, output) from OpenAI's public price list; they change, so
the figure is labelled an estimate and a site can override or extend it with ``COPILOT_PRICES``
(JSON ``{"model": [input, output]}``).  Local or unknown models cost 0 and the note says why.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from urllib.parse import urlparse

PRICES_PER_MTOK: dict[str, tuple[float, float]] = {
    "gpt-5.4": (1.25, 10.00),
    "gpt-5": (1.25, 10.00),
    "gpt-5-mini": (0.25, 2.00),
    "gpt-5-nano": (0.05, 0.40),
    "gpt-4.1": (2.00, 8.00),
    "gpt-4.1-mini": (0.40, 1.60),
    "gpt-4.1-nano": (0.10, 0.40),
    "gpt-4o": (2.50, 10.00),
    "gpt-4o-mini": (0.15, 0.60),
    "o3": (2.00, 8.00),
    "o4-mini": (1.10, 4.40),
}
_LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1", "0.0.0.0")


@dataclass(frozen=True)
class CostEstimate:
    usd: float
    priced: bool  # False when no price applies (local or unknown model)
    note: str


def price_table(overrides: str | None = None) -> dict[str, tuple[float, float]]:
    """Built-in prices plus a ``COPILOT_PRICES`` JSON override; a malformed override is ignored."""
    table = dict(PRICES_PER_MTOK)
    if overrides:
        try:
            extra = json.loads(overrides)
            table.update({str(k): (float(v[0]), float(v[1])) for k, v in extra.items()})
        except (ValueError, TypeError, IndexError, AttributeError, KeyError):
            pass
    return table


def lookup_price(model: str, table: dict[str, tuple[float, float]]) -> tuple[str, tuple[float, float]] | None:
    """Exact name, else the longest table name the model starts with (dated snapshots: gpt-4.1-mini-2025-04-14)."""
    name = (model or "").strip().lower()
    if name in table:
        return name, table[name]
    for known in sorted(table, key=len, reverse=True):
        if name.startswith(known + "-"):
            return known, table[known]
    return None


def is_local(base_url: str | None) -> bool:
    return bool(base_url) and (urlparse(base_url).hostname or "") in _LOCAL_HOSTS


def estimate_cost(model: str, input_tokens: int, output_tokens: int, *, base_url: str | None = None,
                  table: dict[str, tuple[float, float]] | None = None) -> CostEstimate:
    if is_local(base_url):
        return CostEstimate(0.0, False, f"local model {model or '?'}: no per-token cost")
    found = lookup_price(model, table or PRICES_PER_MTOK)
    if found is None:
        return CostEstimate(0.0, False, f"no price known for model {model or '?'}: cost not estimated")
    known, (p_in, p_out) = found
    usd = (input_tokens * p_in + output_tokens * p_out) / 1_000_000
    return CostEstimate(usd, True, f"estimated at {known} list prices (${p_in}/${p_out} per 1M tokens in/out)")
