"""Per-request tracing: spans for the request, each round and each tool, token usage and estimated cost.

``Tracer`` is the hook the model loop (``ModelLoop(..., tracer=...)``) calls: ``span(name, **attrs)`` (a context
manager) and ``record_usage(input_tokens, output_tokens, model)``.  The whole turn is one trace: a
root span ``copilot.turn`` (around the loop's own ``copilot.request`` and the memory update) opened
when the tracer is created and closed by ``finish()``, which appends the spans as JSON lines to
``TRACE_DIR/traces-YYYYMMDD.jsonl`` and returns ``summary()`` for the show-work panel.  Attributes
are sanitised (long strings such as code become fingerprints, secrets are redacted), so a trace file
can be shared.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING

from opentelemetry import trace as otel_trace
from opentelemetry.sdk.trace import ReadableSpan
from opentelemetry.trace import Status, StatusCode
from opentelemetry.util.types import AttributeValue

from copilot_core.tracing import otel
from copilot_core.tracing.pricing import estimate_cost, price_table

if TYPE_CHECKING:
    from copilot_core.llm.provider import ProviderConfig
    from copilot_core.settings import Settings

ROOT_SPAN = "copilot.turn"
ROUND_SPANS = frozenset({"llm.call", "round"})  # one per model call (the agent loop names it llm.call)
MAX_ATTR_CHARS = 300
FINGERPRINT_KEYS = frozenset({"code", "sql", "raw_args", "arguments"})
_WRITE_LOCK = threading.Lock()


def fingerprint(text: str) -> str:
    """Privacy-safe stand-in for code or long text (AXIS traces store SQL only as a fingerprint)."""
    return f"sha1:{hashlib.sha1(text.encode('utf-8', 'replace')).hexdigest()[:10]} ({len(text)} chars)"


def _redact(text: str, secrets: tuple[str, ...]) -> str:
    from copilot_core.guardrails import sanitize_output

    return sanitize_output(text, secrets)


def clean_attributes(attrs: Mapping[str, object], secrets: tuple[str, ...] = ()) -> dict[str, AttributeValue]:
    """OTel-legal attribute values: scalars kept, containers as JSON, long or code-like text fingerprinted."""
    out: dict[str, AttributeValue] = {}
    for key, value in attrs.items():
        if value is None:
            continue
        if isinstance(value, (bool, int, float)):
            out[str(key)] = value
            continue
        text = value if isinstance(value, str) else json.dumps(value, default=str, sort_keys=True,
                                                               ensure_ascii=False)
        if key in FINGERPRINT_KEYS or len(text) > MAX_ATTR_CHARS:
            out[str(key)] = fingerprint(text)
        else:
            out[str(key)] = _redact(text, secrets)
    return out


class SpanHandle:
    """What ``with tracer.span(...) as s`` yields: add attributes while the span is open."""

    def __init__(self, tracer: Tracer, span: otel_trace.Span) -> None:
        self._tracer, self._span = tracer, span

    def set(self, **attrs: object) -> None:
        self._span.set_attributes(clean_attributes(attrs, self._tracer.secrets))

    def set_attribute(self, key: str, value: object) -> None:
        self.set(**{key: value})


class Tracer:
    """One request's trace.  Thread-safe: tool spans opened on worker threads nest under the root."""

    def __init__(self, *, trace_dir: Path | str | None = None, otlp_endpoint: str | None = None,
                 base_url: str | None = None, prices: dict[str, tuple[float, float]] | None = None,
                 secrets: tuple[str, ...] = (), **attributes: object) -> None:
        self.trace_dir = Path(trace_dir) if trace_dir else None
        self.otlp_endpoint = otlp_endpoint or None
        self.base_url = base_url
        self.prices = prices
        self.secrets = tuple(s for s in secrets if s)
        self._lock = threading.Lock()
        self._local = threading.local()
        self._records: list[dict] = []
        self._usage: list[dict] = []
        self._span_tokens: dict[int, tuple[int, int]] = {}  # per open span: tokens recorded while it was innermost
        self._finished: dict | None = None
        self._t0 = time.perf_counter()
        self._otel = otel.provider_for(self.otlp_endpoint).get_tracer("copilot_core.tracing")
        self._root = self._otel.start_span(ROOT_SPAN, attributes=clean_attributes(attributes, self.secrets))
        self.trace_id = self._root.get_span_context().trace_id
        otel.ROUTER.register(self.trace_id, self._collect)

    @classmethod
    def from_settings(cls, settings: Settings, *, provider: ProviderConfig | None = None,
                      secrets: tuple[str, ...] | None = None, **attributes: object) -> Tracer:
        """TRACE_DIR (default DATA_DIR/traces), OTEL_EXPORTER_OTLP_ENDPOINT, COPILOT_PRICES; model from the provider;
        ``secrets``: the turn's, when its caller already collected them (else the configured ones)."""
        from copilot_core.guardrails import configured_secrets

        trace_dir = settings.get("TRACE_DIR") or Path(settings.data_dir) / "traces"
        if provider is not None:
            attributes.setdefault("model", getattr(provider, "model", None))
            attributes.setdefault("api_style", getattr(provider, "api_style", None))
        return cls(trace_dir=trace_dir, otlp_endpoint=settings.get("OTEL_EXPORTER_OTLP_ENDPOINT"),
                   base_url=getattr(provider, "base_url", None), prices=price_table(settings.get("COPILOT_PRICES")),
                   secrets=configured_secrets(settings) if secrets is None else secrets, **attributes)

    def annotate(self, **attrs: object) -> None:
        """Attributes of the whole turn known only once it has run (the root span ends in :meth:`finish`)."""
        self._root.set_attributes(clean_attributes(attrs, self.secrets))

    # ---- the hook the agent loop calls ---------------------------------------------------------
    @contextmanager
    def span(self, name: str, **attrs: object) -> Iterator[SpanHandle]:
        stack: list = self._local.__dict__.setdefault("stack", [])
        parent = stack[-1] if stack else self._root
        span = self._otel.start_span(str(name), context=otel_trace.set_span_in_context(parent),
                                     attributes=clean_attributes(attrs, self.secrets))
        stack.append(span)
        try:
            yield SpanHandle(self, span)
        except BaseException as exc:
            span.set_status(Status(StatusCode.ERROR, f"{type(exc).__name__}"))
            span.set_attribute("error.type", type(exc).__name__)
            raise
        finally:
            stack.pop()
            span.end()

    def record_usage(self, input_tokens: int | None, output_tokens: int | None, model: str | None = None) -> None:
        """Token counts of one model call: an event on the innermost open span, summed into that span's
        ``gen_ai.usage.*`` attributes and into the request totals (the root span gets those in ``finish``)."""
        tokens_in, tokens_out = int(input_tokens or 0), int(output_tokens or 0)
        stack = self._local.__dict__.get("stack") or []
        target = stack[-1] if stack else self._root
        key = target.get_span_context().span_id  # not id(): a finished span's id() is reused by the next one
        with self._lock:
            self._usage.append({"input_tokens": tokens_in, "output_tokens": tokens_out, "model": model or ""})
            total_in, total_out = self._span_tokens.get(key, (0, 0))
            total_in, total_out = total_in + tokens_in, total_out + tokens_out
            self._span_tokens[key] = (total_in, total_out)
        target.add_event("gen_ai.usage", {"input_tokens": tokens_in, "output_tokens": tokens_out, "model": model or ""})
        if target is not self._root:  # the root gets the request totals in finish()
            target.set_attributes({"gen_ai.usage.input_tokens": total_in, "gen_ai.usage.output_tokens": total_out,
                                   "gen_ai.request.model": model or ""})

    def event(self, name: str, **attrs: object) -> None:
        """A point-in-time note on the innermost open span (e.g. a tool-cache hit)."""
        stack = self._local.__dict__.get("stack") or []
        (stack[-1] if stack else self._root).add_event(name, clean_attributes(attrs, self.secrets))

    # ---- results ---------------------------------------------------------------------------
    def _collect(self, span: ReadableSpan) -> None:
        parent = span.parent.span_id if span.parent else None
        record = {
            "type": "span", "trace_id": f"{span.context.trace_id:032x}", "span_id": f"{span.context.span_id:016x}",
            "parent_id": f"{parent:016x}" if parent else None, "name": span.name,
            "start": _iso(span.start_time), "end": _iso(span.end_time),
            "duration_ms": round(((span.end_time or 0) - (span.start_time or 0)) / 1e6, 3),
            "status": "error" if span.status.status_code == StatusCode.ERROR else "ok",
            "attributes": dict(span.attributes or {}),
            "events": [{"name": e.name, "attributes": dict(e.attributes or {})} for e in span.events],
        }
        with self._lock:
            self._records.append(record)

    @property
    def spans(self) -> list[dict]:
        """Finished spans so far (the root appears after ``finish()``)."""
        with self._lock:
            return list(self._records)

    def summary(self) -> dict:
        """Totals for the show-work panel: rounds, tool spans, tokens, estimated cost, duration, trace file."""
        if self._finished is not None:
            return dict(self._finished)
        with self._lock:
            usage, records = list(self._usage), list(self._records)
        tokens_in = sum(u["input_tokens"] for u in usage)
        tokens_out = sum(u["output_tokens"] for u in usage)
        models = [u["model"] for u in usage if u["model"]]
        model = models[-1] if models else ""
        cost = estimate_cost(model, tokens_in, tokens_out, base_url=self.base_url, table=self.prices)
        tools = [{"name": _tool_name(r), "duration_ms": r["duration_ms"], "ok": r["status"] == "ok",
                  "cached": bool(r["attributes"].get("cached")) or any(e["name"] == "cache_hit" for e in r["events"])}
                 for r in records if _is_tool(r)]
        return {
            "trace_id": f"{self.trace_id:032x}",
            "duration_s": round(time.perf_counter() - self._t0, 3),
            "rounds": sum(1 for r in records if r["name"] in ROUND_SPANS),
            "llm_calls": len(usage),
            "tools": tools,
            "spans": len(records),
            "input_tokens": tokens_in, "output_tokens": tokens_out, "total_tokens": tokens_in + tokens_out,
            "model": model, "cost_usd": round(cost.usd, 6), "cost_priced": cost.priced, "cost_note": cost.note,
            "trace_file": None, "otlp_endpoint": otel.traces_url(self.otlp_endpoint) if self.otlp_endpoint else None,
        }

    def finish(self, *, error: str | None = None) -> dict:
        """Close the root span, write the JSON lines, return the summary.  Idempotent; never raises."""
        if self._finished is not None:
            return dict(self._finished)
        summary = self.summary()
        self._root.set_attributes({"gen_ai.usage.input_tokens": summary["input_tokens"],
                                   "gen_ai.usage.output_tokens": summary["output_tokens"],
                                   "copilot.cost_usd": summary["cost_usd"]})
        if error:
            self._root.set_status(Status(StatusCode.ERROR, _redact(str(error)[:MAX_ATTR_CHARS], self.secrets)))
        self._root.end()
        otel.ROUTER.unregister(self.trace_id)
        summary["spans"] = len(self._records)
        summary["trace_file"], write_error = self._write(summary)
        if write_error:
            summary["trace_error"] = write_error
        self._finished = summary
        return dict(summary)

    def _write(self, summary: dict) -> tuple[str | None, str | None]:
        if self.trace_dir is None:
            return None, None
        path = self.trace_dir / f"traces-{datetime.now(timezone.utc):%Y%m%d}.jsonl"
        lines = [json.dumps(r, default=str, ensure_ascii=False) for r in self.spans]
        lines.append(json.dumps({"type": "summary", **summary, "trace_file": str(path)}, default=str))
        try:
            self.trace_dir.mkdir(parents=True, exist_ok=True)
            with _WRITE_LOCK, path.open("a", encoding="utf-8") as fh:
                fh.write("\n".join(lines) + "\n")
        except OSError as exc:
            return None, f"cannot write traces to {self.trace_dir} ({exc.strerror or type(exc).__name__})"
        return str(path), None


def _iso(ns: int | None) -> str | None:
    if ns is None:
        return None
    return datetime.fromtimestamp(ns / 1e9, timezone.utc).isoformat(timespec="milliseconds")


def _is_tool(record: dict) -> bool:
    head = record["name"].split(":")[0].split(".")
    return "tool" in head


def _tool_name(record: dict) -> str:
    attrs = record["attributes"]
    for key in ("tool", "tool_name", "gen_ai.tool.name", "name"):
        if isinstance(attrs.get(key), str):
            return attrs[key]
    return record["name"].split(":", 1)[-1]


def summary_text(summary: dict) -> str:
    """One line for the show-work panel: ``3 rounds · 4 tool calls (1 cached) · 5,234 in / 812 out tokens …``."""
    tools = summary.get("tools") or []
    cached = sum(1 for t in tools if t.get("cached"))
    cost = (f"~${summary.get('cost_usd', 0):.4f} ({summary.get('cost_note')})" if summary.get("cost_priced")
            else f"$0 ({summary.get('cost_note')})")
    return (f"{summary.get('rounds', 0)} rounds · {len(tools)} tool calls"
            + (f" ({cached} cached)" if cached else "")
            + f" · {summary.get('input_tokens', 0):,} in / {summary.get('output_tokens', 0):,} out tokens"
            + f" · {cost} · {summary.get('duration_s', 0):.1f} s")
