"""``python -m copilot_core``: JSON on stdout, logs on stderr, exit codes, env pointing at the scripted server.

Three cases start the interpreter (``run_subprocess``: the ``-m`` entry point and each exit code through
``sys.exit``); the others call the same ``main(argv)`` in this process (``run_main``), which saves ~1.4 s of
CPU a run."""

from __future__ import annotations

import json
import statistics
from pathlib import Path

from copilot_core.domain.metrics import metric
from copilot_core.tools.compact import compact_number
from tests.cli import run_main, run_subprocess
from tests.fakes.scripted_openai import answer, call, error, estimate_tokens, prompt_text, text

SECRET = "sk-cli-secret-7b1e0c99aa"
CHIP = "64Qv3"


def llm_env(app_env, server, *, readiness: str = "off") -> dict:
    """The app env plus a model on the scripted server; traces beside the test's secrets file, no memory writes,
    no readiness probe unless asked for (the script then starts with the probe's two answers)."""
    return {**app_env.env, "OPENAI_BASE_URL": server.base_url, "OPENAI_API_KEY": SECRET,
            "COPILOT_RETRY_BACKOFF_S": "0.01", "COPILOT_TIMEOUT_S": "20", "COPILOT_MEMORY": "off",
            "COPILOT_READINESS": readiness,
            "TRACE_DIR": str(Path(app_env.env["CALIBRATION_COPILOT_SECRETS"]).parent / "traces")}


def offered(body: dict) -> list[str]:
    return [t.get("name") or t["function"]["name"] for t in body.get("tools") or []]


def test_ask_gates_the_tools_on_the_models_readiness_like_the_page(app_env, scripted_openai):
    # The probe: a tool call with the wrong value, then a valid blocks answer -> the reduced tool set.
    scripted_openai.push(call("report_number", {"value": 7}), answer("The probe worked."),
                         call("get_chip_summary", {"chip_id": CHIP}), answer("Median T1 is fine."))
    env = {**llm_env(app_env, scripted_openai, readiness="on"), "COPILOT_TOOL_ROUTER": "off"}  # gating alone
    proc = run_main(env, "ask", "Median T1?", "--chip", CHIP)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["answer"] == "Median T1 is fine."
    assert "only five core tools" in proc.stderr  # the reason is logged, as the page shows it
    real = scripted_openai.bodies()[-1]
    assert sorted(offered(real)) == sorted(["get_qubit_params", "get_chip_summary", "get_parameter_timeseries",
                                            "generate_chip_heatmap", "get_execution_history"])


def test_ask_leaves_out_exactly_the_clause_with_the_number_no_tool_returned(app_env, scripted_openai, repo):
    # The median from the chip's current T1 values (qubit.data, display units), computed here, not by the tool.
    values = [metric("t1").to_display(p["t1"]["value"]) for q, p in repo.all_qubit_params(CHIP).items()
              if "t1" in p and q.isdigit() and str(int(q)) == q]
    median = f"{statistics.median(v for v in values if v is not None and v == v):.1f}"
    invented = "987.6543"
    scripted_openai.push(call("get_chip_summary", {"chip_id": CHIP, "param_names": ["t1"]}),
                         answer(f"Median T1 is {median} μs; last quarter it was {invented} μs."))
    proc = run_main(llm_env(app_env, scripted_openai), "ask", "Median T1 of the chip?", "--chip", CHIP)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert f"Median T1 is {median} μs;" in out["answer"] and invented not in out["answer"]
    assert "left out here" in out["answer"] and out["unverified_numbers"] == []


def test_ask_prints_one_json_object(app_env, scripted_openai, repo):
    scripted_openai.push(call("get_qubit_params", {"chip_id": CHIP, "qid": "5"}), answer("Q05 is healthy.", "good"))
    proc = run_subprocess(llm_env(app_env, scripted_openai), "ask", "How is Q05?", "--chip", CHIP, "--qid", "Q05")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert set(out) == {"answer", "blocks", "assessment", "tool_calls", "usage", "unverified_numbers"}
    assert out["answer"] == "Q05 is healthy." and out["assessment"] == "good"
    assert out["blocks"] == [{"type": "text", "content": "Q05 is healthy.", "chart": None}]
    # usage: one round per request the server got, tokens as the server reported them (its own count)
    requests = scripted_openai.requests
    assert list(out["usage"]) == ["rounds", "input_tokens", "output_tokens", "cached_tokens"]
    assert out["usage"]["rounds"] == len(requests) == 2
    assert out["usage"]["input_tokens"] == sum(max(1, estimate_tokens(len(prompt_text(r.api, r.body))))
                                               for r in requests)
    [tool] = out["tool_calls"]
    assert tool["tool"] == "get_qubit_params" and tool["args"]["qid"] == "5"
    t1_raw = repo.qubit_params(CHIP, "5")["t1"]["value"]
    assert tool["result"]["parameters"]["t1"]["value"] == compact_number(metric("t1").to_display(t1_raw))
    assert "get_qubit_params" in proc.stderr  # progress is logged to stderr, not stdout
    bodies = json.dumps(scripted_openai.bodies())
    assert SECRET not in bodies
    assert "- target qubit: Q05" in json.dumps(scripted_openai.bodies()[0])  # --qid reached the prompt context
    traces = list((Path(llm_env(app_env, scripted_openai)["TRACE_DIR"])).glob("*.jsonl"))
    assert traces and "get_qubit_params" in traces[0].read_text()  # the CLI run was traced like a chat turn


def test_ask_api_error_exits_2_with_the_message(app_env, scripted_openai):
    scripted_openai.push(error(401, "Incorrect API key provided"))
    proc = run_subprocess(llm_env(app_env, scripted_openai), "ask", "Median T1?")
    assert proc.returncode == 2
    out = json.loads(proc.stdout)
    assert "HTTP 401" in out["error"] and "OPENAI_API_KEY" in out["error"] and SECRET not in proc.stdout


def test_ask_without_a_model_is_a_configuration_error(app_env):
    env = {k: v for k, v in app_env.env.items() if k not in ("OPENAI_API_KEY", "OPENAI_BASE_URL")}
    proc = run_subprocess(env, "ask", "Median T1?")
    assert proc.returncode == 1 and proc.stdout == ""
    assert "OPENAI_API_KEY" in proc.stderr and "Traceback" not in proc.stderr


def test_usage_errors_exit_1(app_env, scripted_openai):
    env = llm_env(app_env, scripted_openai)
    assert run_main(env, "ask").returncode == 1
    proc = run_main(env, "ask", "Review it", "--analysis")
    assert proc.returncode == 1 and "--qid" in proc.stderr
    assert run_main(env, "ask", "x" * 2001).returncode == 1
    assert scripted_openai.calls_made == 0


def test_tool_prints_what_the_model_sees(app_env, repo):
    qid = next(q for q, p in sorted(repo.all_qubit_params(CHIP).items(), key=lambda i: int(i[0]))
               if int(q) > 5 and "qubit_frequency" in p)
    proc = run_main(app_env.env, "tool", "get_qubit_params", "--args",
                   json.dumps({"chip_id": CHIP, "qid": f"Q{int(qid):02d}"}))
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    raw = repo.qubit_params(CHIP, qid)["qubit_frequency"]["value"]
    assert out["parameters"]["qubit_frequency"]["value"] == compact_number(metric("qubit_frequency").to_display(raw))


def test_tool_full_prints_the_stored_data(app_env, repo):
    args = json.dumps({"chip_id": CHIP})
    summary = run_main(app_env.env, "tool", "get_chip_summary", "--args", args)
    full = run_main(app_env.env, "tool", "get_chip_summary", "--args", args, "--full")
    assert summary.returncode == 0 and full.returncode == 0, full.stderr
    assert json.loads(summary.stdout)["data_key"] == "chip_summary"
    assert len(full.stdout) > 5 * len(summary.stdout)  # the model sees a summary, --full the data
    qids = {str(q) for q in repo.all_qubit_params(CHIP)}
    assert all(f'"{q}"' in full.stdout for q in qids)


def test_tool_errors_exit_1(app_env):
    bad_json = run_main(app_env.env, "tool", "get_qubit_params", "--args", "{chip")
    assert bad_json.returncode == 1 and "--args is not valid JSON" in bad_json.stderr
    unknown = run_main(app_env.env, "tool", "drop_everything", "--args", "{}")
    assert unknown.returncode == 1 and "unknown tool" in json.loads(unknown.stdout)["error"]


def test_sandbox_subcommand_delegates_to_the_sandbox_cli(app_env, tmp_path):
    code = tmp_path / "job.py"
    code.write_text('result = {"output": str(sum(range(5)))}\n')
    proc = run_main(app_env.env, "sandbox", "--code-file", str(code))
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["output"] == "10" and out["error"] is None


def test_ask_analysis_prints_the_report_then_the_checked_review_like_the_page(app_env, scripted_openai, repo):
    from copilot_core.review.qubit_facts import report_block
    from copilot_core.analysis.health import qubit_health

    scripted_openai.push(text("What is wrong: T1 16.6 μs is bad.\nWhat to re-run: CheckT1"))
    proc = run_main(llm_env(app_env, scripted_openai), "ask", "--analysis", "--qid", "Q57", "--chip", "144Qv2")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    report, review = out["blocks"]
    assert report["content"] == report_block(qubit_health(repo, "144Qv2", "57"))  # the page's first block
    # Q057's T2 echo 24.9 μs is bad too: the review left it (and the rest of the report's problems) out, so the
    # check added the report's own lines after the review's and says so.
    added = out["review"]["added"]
    assert added[0].startswith("T2 echo 24.9 μs is bad, measured ") and not any("T1 16.6" in a for a in added)
    review_text, reasons = review["content"].split("\n\n**Why the tasks failed** (the stored task messages):\n")
    assert reasons.startswith("- CheckBellStateTomography on Q056→Q057: “")  # Q057's failed task, stored message
    assert review_text == ("**Review of Q057** by local-model:\n\n"
                                 "- What is wrong: T1 16.6 μs is bad.\n- What to re-run: CheckT1\n\n"
                                 "_Added by the check, from the report (the review did not name them):_\n"
                                 + "".join(f"- {a}\n" for a in added)
                                 + f"\n_the check added {len(added)} problem(s) from the report that the review "
                                   "did not name._")
    assert out["review"]["status"] == "checked" and out["assessment"] == "bad"
    assert out["usage"]["rounds"] == 1 and out["tool_calls"] == []
    [body] = scripted_openai.bodies()
    assert not body.get("tools") and "Qubit Q057 on chip 144Qv2" in str(body["messages"])


def test_ask_analysis_with_a_silent_model_still_prints_the_report_and_why(app_env, scripted_openai):
    scripted_openai.push(text(""))
    proc = run_main(llm_env(app_env, scripted_openai), "ask", "--analysis", "--qid", "57", "--chip", "144Qv2")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["blocks"][0]["content"].startswith("### Q057 on 144Qv2: bad")
    assert out["blocks"][1]["content"].split("\n\n")[0] == \
        "**Review missing**: the model wrote nothing. The report above stands."
    assert out["review"] == {"status": "missing", "reason": "the model wrote nothing", "added": []}
