"""Tracing: nested spans with durations, token usage and estimated cost, JSON lines, OTLP export through the
OpenTelemetry SDK, and the spans of a real copilot run against the scripted server."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from copilot_core.agent import AgentRequest, run_copilot
from copilot_core.tools import DataStore, Toolkit
from copilot_core.tracing import ROOT_SPAN, Tracer, estimate_cost, flush_exports, summary_text
from tests.depth.conftest import provider_for
from tests.fakes.scripted_openai import answer, call


def read_lines(path: str) -> list[dict]:
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def test_spans_nest_and_carry_usage_and_cost(tmp_path):
    tracer = Tracer(trace_dir=tmp_path, chip_id="64Qv3")
    with tracer.span("llm.call", round=1):
        tracer.record_usage(1200, 300, "gpt-4.1-mini-2025-04-14")
    with tracer.span("tool:get_qubit_params", tool="get_qubit_params"):
        pass
    with tracer.span("llm.call", round=2):
        tracer.record_usage(1500, 100, "gpt-4.1-mini-2025-04-14")
    summary = tracer.finish()
    assert summary["input_tokens"] == 2700 and summary["output_tokens"] == 400
    # OpenAI's published gpt-4.1-mini price: $0.40 per million input tokens, $1.60 per million output tokens.
    assert summary["cost_usd"] == pytest.approx(2700 * 0.40e-6 + 400 * 1.60e-6)
    assert summary["cost_priced"] and "gpt-4.1-mini" in summary["cost_note"]
    assert summary["rounds"] == 2 and [t["name"] for t in summary["tools"]] == ["get_qubit_params"]

    lines = read_lines(summary["trace_file"])
    spans = {r["name"]: r for r in lines if r["type"] == "span"}
    assert set(spans) == {"llm.call", "tool:get_qubit_params", ROOT_SPAN}
    root = spans[ROOT_SPAN]
    assert root["parent_id"] is None and root["attributes"]["chip_id"] == "64Qv3"
    assert all(r["parent_id"] == root["span_id"] for r in lines if r["type"] == "span" and r is not root)
    assert len({r["trace_id"] for r in lines if r["type"] == "span"}) == 1
    assert all(r["duration_ms"] >= 0 for r in lines if r["type"] == "span")
    assert lines[-1]["type"] == "summary" and lines[-1]["total_tokens"] == 3100
    llm = [r for r in lines if r.get("name") == "llm.call"]
    assert sorted(r["attributes"]["gen_ai.usage.input_tokens"] for r in llm) == [1200, 1500]
    assert "3 rounds" not in summary_text(summary) and "2,700 in / 400 out tokens" in summary_text(summary)


@pytest.mark.parametrize("model,base_url,note", [("my-own-model", None, "no price known"),
                                                 ("gpt-4.1", "http://127.0.0.1:8089/v1", "local model")])
def test_unknown_and_local_models_cost_zero_and_say_so(model, base_url, note):
    cost = estimate_cost(model, 10_000, 10_000, base_url=base_url)
    assert cost.usd == 0 and not cost.priced and note in cost.note


def test_attributes_are_sanitised(tmp_path):
    tracer = Tracer(trace_dir=tmp_path, secrets=("super-secret-value-42",))
    code = "print(data['t1'])\n" * 50
    with tracer.span("tool:execute_python_analysis", code=code, note="key super-secret-value-42 here",
                     args={"qid": "5"}):
        pass
    lines = read_lines(tracer.finish()["trace_file"])
    record = next(r for r in lines if r["type"] == "span" and r["name"].startswith("tool"))
    assert record["attributes"]["code"].startswith("sha1:") and "data['t1']" not in json.dumps(record)
    assert "super-secret-value-42" not in json.dumps(record)
    assert record["attributes"]["args"] == '{"qid": "5"}'


def test_errors_mark_the_span_and_propagate(tmp_path):
    tracer = Tracer(trace_dir=tmp_path)
    with pytest.raises(ZeroDivisionError):
        with tracer.span("tool:broken"):
            raise ZeroDivisionError("division by zero")
    summary = tracer.finish(error="boom")
    record = next(r for r in read_lines(summary["trace_file"]) if r["name"] == "tool:broken")
    assert record["status"] == "error" and record["attributes"]["error.type"] == "ZeroDivisionError"
    assert summary["tools"] == [{"name": "broken", "duration_ms": record["duration_ms"], "ok": False, "cached": False}]


def test_spans_from_worker_threads_join_the_request_trace(tmp_path):
    tracer = Tracer(trace_dir=tmp_path)

    def work():
        with tracer.span("tool:threaded", tool="threaded"):
            pass

    worker = threading.Thread(target=work)
    worker.start()
    worker.join()
    summary = tracer.finish()
    lines = [r for r in read_lines(summary["trace_file"]) if r["type"] == "span"]
    assert {r["trace_id"] for r in lines} == {summary["trace_id"]}
    assert [t["name"] for t in summary["tools"]] == ["threaded"]


def test_unwritable_trace_dir_is_reported_not_raised(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    summary = Tracer(trace_dir=blocker / "traces").finish()
    assert summary["trace_file"] is None and "cannot write traces" in summary["trace_error"]


class _Collector(BaseHTTPRequestHandler):
    received: list[tuple[str, bytes]] = []

    def do_POST(self):  # noqa: N802
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        type(self).received.append((self.path, body))
        self.send_response(200)
        self.send_header("Content-Type", "application/x-protobuf")
        self.end_headers()

    def log_message(self, *args):
        pass


def test_spans_are_exported_over_otlp_http_when_configured(tmp_path):
    from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

    from copilot_core.settings import load_settings

    _Collector.received = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Collector)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        settings = load_settings({"OTEL_EXPORTER_OTLP_ENDPOINT": f"http://127.0.0.1:{server.server_port}",
                                  "DATA_DIR": str(tmp_path)})
        tracer = Tracer.from_settings(settings, chip_id="64Qv3")
        with tracer.span("llm.call"):
            tracer.record_usage(10, 5, "gpt-4o")
        summary = tracer.finish()
        assert flush_exports(5000)
        assert summary["otlp_endpoint"].endswith("/v1/traces")
        assert summary["trace_file"].startswith(str(tmp_path / "traces"))
        names = set()
        for path, body in _Collector.received:
            assert path == "/v1/traces"
            request = ExportTraceServiceRequest()
            request.ParseFromString(body)
            names |= {s.name for rs in request.resource_spans for ss in rs.scope_spans for s in ss.spans}
        assert {"llm.call", ROOT_SPAN} <= names
    finally:
        server.shutdown()
        server.server_close()


def test_a_copilot_run_is_traced_with_token_counts(scripted_openai, repo, demo_chip_ids, tmp_path, style):
    chip = demo_chip_ids[0]
    scripted_openai.push(call("get_qubit_params", {"chip_id": chip, "qid": "3"}),
                         answer("Qubit 3 looks fine.", "good"))
    provider = provider_for(scripted_openai, style)
    tracer = Tracer(trace_dir=tmp_path, base_url=provider.base_url, chip_id=chip)
    result = run_copilot(AgentRequest("How is Q3?", chip_id=chip), provider=provider,
                         toolkit=Toolkit(repo, store=DataStore()), repo=repo, tracer=tracer)
    assert result.error is None
    summary = tracer.finish()
    lines = [r for r in read_lines(summary["trace_file"]) if r["type"] == "span"]
    names = [r["name"] for r in lines]
    assert {"copilot.request", "build_prompt", "tool:get_qubit_params", ROOT_SPAN} <= set(names)
    assert names.count("llm.call") == result.usage["rounds"] == 2
    # every model call's usage is an event on the span that was open; span totals add up to the request's
    events = [e for r in lines for e in r["events"] if e["name"] == "gen_ai.usage"]
    assert len(events) == result.usage["rounds"]
    assert sum(e["attributes"]["input_tokens"] for e in events) == result.usage["input_tokens"] > 0
    span_tokens = sum(r["attributes"].get("gen_ai.usage.input_tokens", 0) for r in lines if r["name"] != ROOT_SPAN)
    root = next(r for r in lines if r["name"] == ROOT_SPAN)
    assert span_tokens == root["attributes"]["gen_ai.usage.input_tokens"] == summary["input_tokens"]
    assert summary["input_tokens"] == result.usage["input_tokens"]
    assert summary["output_tokens"] == result.usage["output_tokens"] > 0
    assert summary["cost_usd"] == 0 and "local model" in summary["cost_note"]  # the scripted server is loopback
    by_id = {r["span_id"]: r for r in lines}
    tool = next(r for r in lines if r["name"] == "tool:get_qubit_params")
    assert by_id[tool["parent_id"]]["name"] == "copilot.request"
