"""The tool loop through the real openai SDK over real HTTP, on both APIs, against the scripted server."""

from __future__ import annotations

import json

import pytest
from tests.agent.conftest import CHART_MARKER, HEATMAP, T1_VALUE

from copilot_core.agent import MAX_TOOL_ROUNDS, AgentRequest, run_copilot
from copilot_core.answer.blocks import ChartBlock, TextBlock
from copilot_core.agent.contracts import SilentListener
from tests.fakes.scripted_openai import answer, call, calls, delay, error, null_content, reasoning, text


CHAT = "Hello, what can you help me with?"  # not a data question: an answer without a tool call is shown as written


def ask(server, style, toolkit, message="How is qubit 5?", **kwargs):
    provider = server.provider(style, **kwargs.pop("provider", {}))
    return run_copilot(AgentRequest(message, chip_id="64Qv3", qid=kwargs.pop("qid", None),
                                    history=kwargs.pop("history", [])),
                       provider=provider, toolkit=toolkit, repo=None, **kwargs)


class Events(SilentListener):
    """A listener that records what a front end would have shown."""

    def __init__(self) -> None:
        self.events: list[tuple] = []

    def phase(self, text: str) -> None:
        self.events.append(("status", text))

    def tool_call(self, name: str, args: dict) -> None:
        self.events.append(("call", name, args))

    def tool_result(self, outcome) -> None:
        self.events.append(("result", outcome.name, outcome.ok))


class Broken(SilentListener):
    def phase(self, text: str) -> None:
        raise ValueError("ui went away")

    def tool_call(self, name: str, args: dict) -> None:
        raise ValueError("ui went away")


def offered_tools(body: dict) -> list[str]:
    return [t.get("name") or t["function"]["name"] for t in body.get("tools") or []]


def forced_answer(body: dict, first: dict) -> bool:
    """A finalize call: the same tools as the first round (the cached prefix holds) with tool_choice none."""
    return body.get("tool_choice") == "none" and body["tools"] == first["tools"]


def tool_outputs(body: dict) -> list[str]:
    """What the model received as tool results, whichever API."""
    if "input" in body:
        return [i["output"] for i in body["input"] if i.get("type") == "function_call_output"]
    return [m["content"] for m in body["messages"] if m.get("role") == "tool"]


def test_multi_round_tool_calls(scripted_openai, style, toolkit):
    scripted_openai.push(call("get_qubit_params", {"chip_id": "64Qv3", "qid": "5"}),
                         call("generate_chip_heatmap", {"chip_id": "64Qv3", "metric_name": "t1"}),
                         answer(f"Qubit 5 has T1 = {T1_VALUE} μs.", "good"))
    result = ask(scripted_openai, style, toolkit)

    assert result.error is None
    assert result.answer == f"Qubit 5 has T1 = {T1_VALUE} μs."
    assert result.assessment == "good"
    assert [o.name for o in result.tool_calls] == ["get_qubit_params", "generate_chip_heatmap"]
    assert result.usage["rounds"] == 3 and result.usage["input_tokens"] > 0 and result.usage["output_tokens"] > 0
    # the heatmap reached the user as a chart block, after the text ...
    assert result.blocks[-1] == ChartBlock(HEATMAP)
    bodies = scripted_openai.bodies()
    assert len(bodies) == 3
    # ... but never the model: it saw the tool's text only
    assert all(CHART_MARKER not in json.dumps(b) for b in bodies)
    assert offered_tools(bodies[0]) == ["get_qubit_params", "generate_chip_heatmap", "explode"]
    assert tool_outputs(bodies[1]) == [toolkit_text(toolkit, 0)]
    assert len(tool_outputs(bodies[2])) == 2
    assert str(T1_VALUE) in tool_outputs(bodies[2])[0]
    assert toolkit.begun == 1


def toolkit_text(toolkit, index):
    name, raw = toolkit.executed[index]
    return toolkit.execute(name, raw).model_text


def test_parallel_calls_in_one_turn_each_get_an_output(scripted_openai, style, toolkit):
    scripted_openai.push(calls(("get_qubit_params", {"chip_id": "64Qv3", "qid": "1"}),
                               ("get_qubit_params", {"chip_id": "64Qv3", "qid": "2"})),
                         answer("Both fine."))
    result = ask(scripted_openai, style, toolkit, "How are qubits 1 and 2?")  # "qubit 5" would get the scope note
    assert result.error is None and result.answer == "Both fine."
    outputs = tool_outputs(scripted_openai.bodies()[1])
    assert [json.loads(o)["qid"] for o in outputs] == ["1", "2"]


def test_reasoning_items_are_sent_back(scripted_openai, toolkit):
    scripted_openai.push(reasoning("Need data.", call("get_qubit_params", {"chip_id": "64Qv3", "qid": "5"})),
                         reasoning("Now answer.", call("get_qubit_params", {"chip_id": "64Qv3", "qid": "6"})),
                         answer("Done.", "good"))
    result = ask(scripted_openai, "responses", toolkit)
    assert result.error is None, result.error  # the server answers 400 when a reasoning item is missing
    assert result.answer == "Done."
    last = scripted_openai.bodies()[-1]["input"]
    kinds = [item.get("type", "message") for item in last]
    assert kinds.count("reasoning") == 2
    # each reasoning item precedes the function call it produced
    assert kinds.index("reasoning") < kinds.index("function_call") < kinds.index("function_call_output")


def test_scripted_server_rejects_dropped_reasoning(scripted_openai):
    """The fake enforces what the real API enforces (so the test above means something)."""
    from openai import BadRequestError, OpenAI

    scripted_openai.push(reasoning("r", call("f", {})))
    client = OpenAI(base_url=scripted_openai.base_url, api_key="x", max_retries=0)
    first = client.responses.create(model="m", input="hi")
    fc = next(o for o in first.output if o.type == "function_call")
    with pytest.raises(BadRequestError, match="reasoning"):
        client.responses.create(model="m", input=[
            {"role": "user", "content": "hi"}, fc.model_dump(exclude_none=True),
            {"type": "function_call_output", "call_id": fc.call_id, "output": "{}"}])


def test_malformed_arguments_go_back_to_the_model_as_an_error(scripted_openai, style):
    from copilot_core.tools import DataStore, Toolkit

    toolkit = Toolkit(None, store=DataStore())  # validation happens before any database read
    scripted_openai.push(call("get_qubit_params", '{"chip_id": "64Qv3", "qid": '),
                         answer("I could not read the arguments."))
    result = ask(scripted_openai, style, toolkit)
    assert result.error is None
    assert result.tool_calls[0].ok is False
    sent = json.loads(tool_outputs(scripted_openai.bodies()[1])[0])
    assert "error" in sent and sent["error"]


def test_unknown_tool_gets_an_error_naming_the_real_tools(scripted_openai, style):
    from copilot_core.tools import DataStore, Toolkit

    toolkit = Toolkit(None, store=DataStore())
    scripted_openai.push(call("drop_database", {"chip_id": "64Qv3"}), answer("That tool does not exist."))
    result = ask(scripted_openai, style, toolkit)
    assert result.error is None and result.answer == "That tool does not exist."
    sent = json.loads(tool_outputs(scripted_openai.bodies()[1])[0])
    assert "drop_database" in sent["error"]
    assert "get_chip_summary" in json.dumps(sent)  # the hint lists what exists


def test_a_tool_that_raises_does_not_end_the_request(scripted_openai, style, toolkit):
    scripted_openai.push(call("explode", {}), answer("The tool failed."))
    result = ask(scripted_openai, style, toolkit)
    assert result.error is None and result.answer == "The tool failed."
    assert result.tool_calls[0].ok is False
    assert "explode" in json.loads(tool_outputs(scripted_openai.bodies()[1])[0])["error"]


def test_rate_limit_then_success(scripted_openai, style, toolkit):
    scripted_openai.push(error(429, "Rate limit reached"), answer("Recovered."))
    listener = Events()
    result = ask(scripted_openai, style, toolkit, message=CHAT, listener=listener)
    assert result.error is None and result.answer == "Recovered."
    assert scripted_openai.calls_made == 2
    assert any(e[1].startswith("retrying") for e in listener.events if e[0] == "status")


def test_server_errors_exhaust_retries_with_a_clear_message(scripted_openai, style, toolkit):
    scripted_openai.push(call("get_qubit_params", {"chip_id": "64Qv3", "qid": "5"}),
                         *[error(500, "upstream exploded")] * 3)
    result = ask(scripted_openai, style, toolkit)
    assert result.error is not None and "HTTP 500" in result.error and "3 attempts" in result.error
    assert scripted_openai.calls_made == 4  # 1 good round + 1 try + 2 retries
    # the partial answer keeps what the tools found
    assert result.error in result.answer and f"t1 {T1_VALUE}" in result.answer
    assert "Traceback" not in result.answer


def test_bad_request_is_not_retried(scripted_openai, style, toolkit):
    scripted_openai.push(error(400, "Invalid value for 'input'."))
    result = ask(scripted_openai, style, toolkit)
    assert scripted_openai.calls_made == 1
    assert "HTTP 400" in result.error and "Invalid value" in result.error


def test_timeout_then_success(scripted_openai, style, toolkit):
    scripted_openai.push(delay(3.0, answer("late")), answer("On time."))
    result = ask(scripted_openai, style, toolkit, message=CHAT, provider={"timeout_s": 0.5, "max_retries": 1})
    assert result.error is None and result.answer == "On time."


def test_timeout_gives_up_with_a_clear_message(scripted_openai, style, toolkit):
    scripted_openai.push(delay(3.0, answer("late")))
    result = ask(scripted_openai, style, toolkit, message=CHAT, provider={"timeout_s": 0.5, "max_retries": 0})
    assert result.error is not None and "did not answer within 0.5 s" in result.error
    first = result.blocks[0]
    assert isinstance(first, TextBlock) and result.error in first.text


def test_null_content_gets_one_finalize_call(scripted_openai, style, toolkit):
    scripted_openai.push(null_content(), answer("Second try worked."))
    result = ask(scripted_openai, style, toolkit, message=CHAT)
    assert result.error is None and result.answer == "Second try worked."
    first, final = scripted_openai.bodies()
    assert forced_answer(final, first) and "tool_choice" not in first


def test_null_content_twice_is_reported(scripted_openai, style, toolkit):
    scripted_openai.push(call("get_qubit_params", {"chip_id": "64Qv3", "qid": "5"}), null_content(), null_content())
    result = ask(scripted_openai, style, toolkit)
    assert result.error == "The model returned an empty answer."
    assert f"t1 {T1_VALUE}" in result.answer  # partial answer from the tool result


def test_a_reply_that_is_only_json_with_nothing_to_show_counts_as_empty(scripted_openai, style, toolkit):
    """A small model's ``{"assessment": "good"}`` was shown as the answer, raw JSON and all."""
    scripted_openai.push(call("get_qubit_params", {"chip_id": "64Qv3", "qid": "5"}),
                         text('```json\n{"assessment": "good"}\n```'), text('{"blocks": [], "assessment": "good"}'))
    result = ask(scripted_openai, style, toolkit)
    assert result.error == "The model returned an empty answer."
    assert "assessment" not in result.answer and "{" not in result.answer
    assert f"t1 {T1_VALUE}" in result.answer  # what the tool returned stands instead
    *_, last = scripted_openai.bodies()
    assert "empty" in json.dumps(last)  # the model was told its reply was empty, then asked for the answer


def test_round_limit_forces_a_final_no_tools_call(scripted_openai, style, toolkit):
    scripted_openai.push(*[call("get_qubit_params", {"chip_id": "64Qv3", "qid": str(q)})
                           for q in range(MAX_TOOL_ROUNDS)], answer("Summary after the limit."))
    result = ask(scripted_openai, style, toolkit)
    assert result.error is None and result.answer == "Summary after the limit."
    bodies = scripted_openai.bodies()
    assert len(bodies) == MAX_TOOL_ROUNDS + 1 and result.usage["rounds"] == MAX_TOOL_ROUNDS + 1
    assert forced_answer(bodies[-1], bodies[0]) and all(b["tools"] == bodies[0]["tools"] for b in bodies)
    assert not any("tool_choice" in b for b in bodies[:-1])
    assert f"all {MAX_TOOL_ROUNDS} tool rounds" in json.dumps(bodies[-1])
    assert len(toolkit.executed) == MAX_TOOL_ROUNDS


def test_a_call_already_made_is_not_run_again_and_ends_the_tool_rounds(scripted_openai, style, toolkit):
    """A small model circling between calls: the repeat gets the earlier result back and the model answers next."""
    first = call("get_qubit_params", {"chip_id": "64Qv3", "qid": "5"})
    other = call("generate_chip_heatmap", {"chip_id": "64Qv3", "metric_name": "t1"})
    scripted_openai.push(first, other, first, answer("Stopped repeating."))
    result = ask(scripted_openai, style, toolkit)
    assert result.answer == "Stopped repeating." and result.error is None
    assert [name for name, _ in toolkit.executed] == ["get_qubit_params", "generate_chip_heatmap"]
    bodies = scripted_openai.bodies()
    assert len(bodies) == 4 and forced_answer(bodies[-1], bodies[0])
    reply = json.loads(tool_outputs(bodies[-1])[-1])
    assert "already made" in reply["note"]
    assert [o.name for o in result.tool_calls] == ["get_qubit_params", "generate_chip_heatmap"]


def test_temperature_rejected_retries_without_it(scripted_openai, style, toolkit):
    scripted_openai.reject_params = {"temperature"}
    scripted_openai.push(call("get_qubit_params", {"chip_id": "64Qv3", "qid": "5"}), answer("No temperature."))
    result = ask(scripted_openai, style, toolkit)
    assert result.error is None and result.answer == "No temperature."
    bodies = scripted_openai.bodies()
    assert bodies[0]["temperature"] == 0.2
    assert all("temperature" not in b for b in bodies[1:]) and len(bodies) == 3  # dropped once, for good


def test_callbacks_report_progress_in_order(scripted_openai, style, toolkit):
    listener = Events()
    scripted_openai.push(call("get_qubit_params", {"chip_id": "64Qv3", "qid": "5"}), answer("ok"))
    ask(scripted_openai, style, toolkit, listener=listener)
    events = listener.events
    assert ("call", "get_qubit_params", {"chip_id": "64Qv3", "qid": "5"}) in events
    assert events.index(("call", "get_qubit_params", {"chip_id": "64Qv3", "qid": "5"})) < \
        events.index(("result", "get_qubit_params", True))
    assert [e[1] for e in events if e[0] == "status"] == ["building context", "thinking", "running tools",
                                                          "thinking", "done"]


def test_failing_callback_does_not_end_the_request(scripted_openai, style, toolkit):
    scripted_openai.push(call("get_qubit_params", {"chip_id": "64Qv3", "qid": "5"}), answer("still fine"))
    result = ask(scripted_openai, style, toolkit, listener=Broken())
    assert result.error is None and result.answer == "still fine"


def test_history_is_capped_and_stripped_of_charts(scripted_openai, style, toolkit):
    chart_turn = json.dumps({"blocks": [{"type": "text", "content": "old answer 9", "chart": None},
                                        {"type": "chart", "content": None, "chart": HEATMAP}], "assessment": None})
    history = []
    for i in range(5):
        history += [{"role": "user", "content": f"old question {i}"},
                    {"role": "assistant", "content": chart_turn.replace("9", str(i))}]
    scripted_openai.push(answer("fresh"))
    ask(scripted_openai, style, toolkit, history=history)
    body = scripted_openai.bodies()[0]
    sent = json.dumps(body)
    assert CHART_MARKER not in sent and '"layout"' not in sent
    turns = body["input"] if "input" in body else body["messages"][1:]
    assert turns[-2]["role"] in ("system", "developer") and "## Context" in turns[-2]["content"]  # this question's
    contents = [t["content"] for t in turns if t["role"] in ("user", "assistant")]
    assert contents[-1] == "How is qubit 5?"
    assert len(contents) == 7  # 6 earlier turns + the question
    assert contents[0] == "old question 2" and "old answer 4" in contents[-2]


def test_plain_prose_answer_becomes_one_text_block(scripted_openai, style, toolkit):
    scripted_openai.push(text("Qubit 5 looks healthy."))
    result = ask(scripted_openai, style, toolkit, message=CHAT)
    assert result.blocks == [TextBlock("Qubit 5 looks healthy.")]
    assert result.assessment is None


def test_answer_schema_is_requested(scripted_openai, style, toolkit):
    scripted_openai.push(answer("ok"))
    ask(scripted_openai, style, toolkit)
    body = scripted_openai.bodies()[0]
    if style == "responses":
        fmt = body["text"]["format"]
        assert fmt["type"] == "json_schema" and fmt["strict"] is False and "blocks" in fmt["schema"]["properties"]
        assert "Answer format" in body["instructions"]
    else:  # local chat servers get the prompt-level emulation instead of response_format
        assert "response_format" not in body
        assert "starts with `{`" in body["messages"][0]["content"]


def test_answer_schema_rejected_is_dropped(scripted_openai, toolkit):
    scripted_openai.push(error(400, "Invalid parameter: 'text.format' json_schema is not supported."),
                         answer("plain"))
    result = ask(scripted_openai, "responses", toolkit, message=CHAT)
    assert result.error is None and result.answer == "plain"
    assert "text" not in scripted_openai.bodies()[1]


class RecordingTracer:
    def __init__(self):
        self.spans: list[str] = []
        self.usage: list[tuple[int, int, str]] = []

    def span(self, name, **attrs):
        from contextlib import nullcontext

        self.spans.append(name)
        return nullcontext()

    def record_usage(self, input_tokens, output_tokens, model):
        self.usage.append((input_tokens, output_tokens, model))


def test_tracer_sees_request_model_and_tool_spans_with_usage(scripted_openai, style, toolkit):
    tracer = RecordingTracer()
    scripted_openai.push(call("get_qubit_params", {"chip_id": "64Qv3", "qid": "5"}), answer("ok"))
    result = ask(scripted_openai, style, toolkit, tracer=tracer)
    assert tracer.spans == ["copilot.request", "build_prompt", "llm.call", "tool:get_qubit_params", "llm.call"]
    assert sum(u[0] for u in tracer.usage) == result.usage["input_tokens"] > 0
    assert sum(u[1] for u in tracer.usage) == result.usage["output_tokens"] > 0
    assert {u[2] for u in tracer.usage} == {"scripted-model"}


def test_model_echoing_a_key_is_redacted(scripted_openai, style, toolkit, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "envkey-0123456789abcdef")
    scripted_openai.push(answer("Your key is envkey-0123456789abcdef and sk-live-abcdef123456; provider key "
                                "sk-test-provider-key-0001."))
    result = ask(scripted_openai, style, toolkit, message=CHAT)
    assert result.answer == "Your key is [redacted] and [redacted]; provider key [redacted]."
    assert "envkey-0123456789abcdef" not in json.dumps(scripted_openai.bodies())


def test_without_a_toolkit_no_tools_are_offered(scripted_openai, style):
    scripted_openai.push(answer("From the context only."))
    result = ask(scripted_openai, style, None)
    assert result.error is None and result.answer == "From the context only."
    body = scripted_openai.bodies()[0]
    assert "tools" not in body and "No tools in this session" in json.dumps(body)
