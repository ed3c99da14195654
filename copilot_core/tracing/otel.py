"""The OpenTelemetry SDK setup: one TracerProvider per process (per OTLP endpoint).

Every copilot span is a real SDK span.  A small SpanProcessor hands finished spans back to the
``Tracer`` that owns their trace (for the JSON-lines file and the show-work summary); when
``OTEL_EXPORTER_OTLP_ENDPOINT`` is configured the SDK's own BatchSpanProcessor + OTLP/HTTP exporter
ship them too.  We never write an exporter.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable

from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import ReadableSpan, SpanProcessor, TracerProvider

SERVICE_NAME = "calibration-copilot"
_LOCK = threading.Lock()
_PROVIDERS: dict[str | None, TracerProvider] = {}


class _Router(SpanProcessor):
    """Routes each finished span to the callback registered for its trace id (one per request).

    Callbacks are held weakly, so a tracer that is dropped without ``finish()`` does not leak."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._sinks: dict[int, weakref.WeakMethod] = {}

    def register(self, trace_id: int, sink: Callable[[ReadableSpan], None]) -> None:
        with self._lock:
            self._sinks = {k: v for k, v in self._sinks.items() if v() is not None}
            self._sinks[trace_id] = weakref.WeakMethod(sink)

    def unregister(self, trace_id: int) -> None:
        with self._lock:
            self._sinks.pop(trace_id, None)

    def on_end(self, span: ReadableSpan) -> None:
        with self._lock:
            ref = self._sinks.get(span.context.trace_id)
        sink = ref() if ref is not None else None
        if sink is not None:
            sink(span)


ROUTER = _Router()


def traces_url(endpoint: str) -> str:
    """OTLP/HTTP base endpoint -> the traces URL (the SDK appends /v1/traces only for the env variable)."""
    endpoint = endpoint.strip().rstrip("/")
    return endpoint if endpoint.endswith("/v1/traces") else endpoint + "/v1/traces"


def provider_for(endpoint: str | None) -> TracerProvider:
    """The process-wide provider for this endpoint (None: local JSON lines only)."""
    key = traces_url(endpoint) if endpoint else None
    with _LOCK:
        provider = _PROVIDERS.get(key)
        if provider is None:
            provider = TracerProvider(resource=Resource.create({"service.name": SERVICE_NAME}))
            provider.add_span_processor(ROUTER)
            if key:
                from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
                from opentelemetry.sdk.trace.export import BatchSpanProcessor

                provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter(endpoint=key, timeout=5)))
            _PROVIDERS[key] = provider
    return provider


def flush(timeout_ms: int = 5000) -> bool:
    """Push buffered spans to every configured OTLP endpoint now (tests, CLI exit)."""
    with _LOCK:
        providers = list(_PROVIDERS.values())
    return all(p.force_flush(timeout_ms) for p in providers)
