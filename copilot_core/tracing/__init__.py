"""Tracing for the copilot: OpenTelemetry SDK spans, JSON lines, token usage and estimated cost."""

from copilot_core.tracing.otel import flush as flush_exports
from copilot_core.tracing.pricing import PRICES_PER_MTOK, CostEstimate, estimate_cost
from copilot_core.tracing.tracer import ROOT_SPAN, SpanHandle, Tracer, summary_text

__all__ = ["PRICES_PER_MTOK", "ROOT_SPAN", "CostEstimate", "SpanHandle", "Tracer", "estimate_cost",
           "flush_exports", "summary_text"]
