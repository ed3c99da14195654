"""One-click qubit analysis on the scripted OpenAI-compatible server: the report first, one model round with
this qubit's facts, the review checked against the report, and the eval of 24 demo qubits."""

from __future__ import annotations

import re
import time
from datetime import datetime, timedelta

import pytest

from copilot_core.agent.contracts import AgentRequest, SilentListener
from copilot_core.review.qubit_review import run_qubit_review
from copilot_core.cancel import STOPPED_MESSAGE
from copilot_core.chat import ChatState, analysis_request
from copilot_core.chat.background import BackgroundTurn
from copilot_core.data.chat_sessions import ChatSessionStore
from copilot_core.data.connection import open_memory_database
from copilot_core.data.repository import CalibrationRepository
from copilot_core.session import Copilot
from copilot_core.settings import load_settings
from copilot_core.skills import SkillLibrary
from tests.agent import analysis_eval as ev
from tests.fakes.scripted_openai import SmartRequest, Step, delay, null_content, paused, smart_request_from, text


@pytest.fixture(scope="module")
def lab_db(demo_now):
    """The eval's lab copy (see ``analysis_eval.lab_database``)."""
    db = ev.lab_database("analysis-eval-lab", demo_now)
    yield db
    db.close()


def facts_review(req: SmartRequest) -> Step:
    """A model that reviews from the facts it was given: the first two problems, their dates, the re-runs."""
    user = req.user_text
    problems = re.findall(r"(?m)^\d\. (.+)$", user)
    dates = sorted(set(re.findall(r"\d{4}-\d{2}-\d{2}", " ".join(problems[:2]))))
    task = re.search(r"(?m)^Re-run: (.+)\.$", user)
    wrong = " ".join(problems[:2]) if problems else "it is healthy: nothing stands out."
    return text(f"What is wrong: {wrong}\nSince when: {', '.join(dates) or 'the window'}\n"
                f"What to re-run: {task.group(1) if task else 'nothing'}")


class Recorder(SilentListener):
    def __init__(self, server) -> None:
        self.server = server
        self.reports: list[tuple[str, int]] = []  # (markdown, requests the server had seen then)

    def report(self, markdown: str) -> None:
        self.reports.append((markdown, len(self.server.requests)))
        self.at = time.perf_counter()


def review(server, repo, chip_id: str, qid: str, listener=None, **provider):
    request = AgentRequest(message=f"Analyze qubit {qid}", chip_id=chip_id, qid=qid, mode="analysis")
    return run_qubit_review(request, provider=server.provider(**provider), repo=repo, listener=listener)


def test_every_eval_condition_holds_in_the_raw_documents(demo_db, lab_db):
    for case in ev.CASES:
        assert ev.holds(lab_db if case.lab else demo_db, case), case
    for case in ev.CASES:
        if case.lab:  # the edit made the coupling cases
            assert not ev.holds(demo_db, case), case
    assert len(ev.CASES) >= 24 and {ev.split(c) for c in ev.CASES} == {"dev", "held-out"}
    assert (ev.floor(12), ev.floor(11), ev.floor(6)) == (10, 10, 5)
    for condition in ("bad", "failed", "drop", "missing", "coupling", "healthy"):
        assert sum(c.condition == condition for c in ev.CASES) >= 4, condition


@pytest.mark.parametrize("case", ev.CASES, ids=lambda c: f"{c.chip_id}-{c.label}-{c.condition}")
def test_report_then_review_name_the_condition_of_that_qubit(case, repo, lab_db, scripted_openai):
    scripted_openai.smart = facts_review
    listener = Recorder(scripted_openai)
    result = review(scripted_openai, CalibrationRepository(lab_db) if case.lab else repo, case.chip_id, case.qid,
                    listener)
    report, answer = (b.text for b in result.blocks)
    assert listener.reports == [(report, 0)]  # shown before the model was asked
    assert report.startswith(f"### {case.label} on {case.chip_id}")
    if case.condition == "healthy":  # no bad band, no failure; a neighbour gap may be listed
        assert re.match(rf"### {case.label} on {case.chip_id}: (fair|good|excellent)\n", report), report
        assert not re.search(r"\bbad\b|fail", report.lower()), report
    else:
        assert case.named(report), report
    assert result.review is not None and result.review.status == "checked", result.review
    assert answer.startswith(f"**Review of {case.label}**") and case.named(answer), answer
    [body] = scripted_openai.bodies()
    assert not body.get("tools") and len(result.rounds) == 1  # one round, facts in the prompt
    sent = str(body["messages"])
    assert f"Qubit {case.label} on chip {case.chip_id}" in sent and "median of the chip" not in sent


Q57 = ("144Qv2", "57")  # T1 16.6 μs, bad; the chip's lowest


def summary_of(result) -> str:
    report = result.blocks[0].text
    first = re.search(r"(?m)^- (.+)$", report).group(1)
    verdict = re.match(r"### \S+ on \S+: (\w+)", report).group(1)
    return f"Q057 on 144Qv2 is {verdict}: {first}"


@pytest.mark.parametrize("step, reason", [
    (null_content(), "the model wrote nothing"),
    (text("   "), "the model wrote nothing"),
])
def test_a_model_that_writes_nothing_leaves_the_report_and_says_why(step, reason, repo, scripted_openai):
    scripted_openai.push(step)
    result = review(scripted_openai, repo, *Q57)
    report, note = (b.text for b in result.blocks)
    assert report.startswith("### Q057 on 144Qv2: bad") and "T1 16.6 μs is bad" in report
    assert note.split("\n\n")[0] == f"**Review missing**: {reason}. The report above stands."
    assert result.error is None and result.assessment == "bad"


def test_a_model_that_times_out_leaves_the_report_within_the_budget(repo, scripted_openai):
    scripted_openai.push(delay(5.0, text("What is wrong: too late")))
    listener = Recorder(scripted_openai)
    result = review(scripted_openai, repo, *Q57, listener, timeout_s=0.5, max_retries=0)
    finished = time.perf_counter()
    assert finished - listener.at < 4.5  # the client gave up at its timeout, not when the late reply came
    report, note = (b.text for b in result.blocks)
    assert report.startswith("### Q057 on 144Qv2: bad")
    assert note.startswith("**Review missing**: the model call failed: ")
    assert "did not answer within 0.5 s. The report above stands." in note
    assert result.error and result.review is not None and result.review.status == "missing"


@pytest.mark.parametrize("reply, why", [
    ("What is wrong: the chip's median T1 is low across the chip.\nWhat to re-run: CheckT1", "talked about the chip"),
    ("What is wrong: Q012 has a bad T1.\nWhat to re-run: CheckT1", "named another qubit, not Q057"),
    ("What is wrong: T1 is fine.\nOn chip 64Qv3 all is well.", "named another chip"),
])
def test_a_review_about_something_else_is_replaced_by_the_report_summary(reply, why, repo, scripted_openai):
    scripted_openai.push(text(reply))
    result = review(scripted_openai, repo, *Q57)
    note = result.blocks[1].text
    assert result.review.status == "replaced" and why in result.review.reason
    assert summary_of(result) in note and "Q012" not in note and "64Qv3" not in note


def test_lines_with_numbers_or_claims_the_report_lacks_are_left_out(repo, scripted_openai):
    scripted_openai.push(text("What is wrong: T1 16.6 μs is bad.\n"
                              "T1 was 48.2 μs last month.\n"  # a number the report does not hold
                              "T2 echo is excellent.\n"  # the report scores it bad
                              "Q057 is healthy.\n"  # the verdict is bad
                              "What to re-run: CheckT1"))
    result = review(scripted_openai, repo, *Q57)
    shown = result.blocks[1].text
    assert result.review.status == "trimmed"
    assert "T1 16.6 μs is bad" in shown and "CheckT1" in shown
    assert "48.2" not in shown and "excellent" not in shown.split("_")[0] and "healthy" not in shown.split("_")[0]
    assert len(result.review.dropped) == 3 and "48.2" in result.review.dropped[0]


def test_a_review_with_nothing_true_left_is_replaced_by_the_summary(repo, scripted_openai):
    scripted_openai.push(text("T1 is 99.9 μs."))
    result = review(scripted_openai, repo, *Q57)
    assert result.review.status == "replaced" and summary_of(result) in result.blocks[1].text


def test_an_unknown_qubit_gets_a_clear_message_and_no_model_call(repo, scripted_openai):
    result = review(scripted_openai, repo, "144Qv2", "999")
    assert [b.text for b in result.blocks] == [result.error] and "not on chip 144Qv2" in result.error
    assert scripted_openai.requests == []


def test_the_stop_button_ends_a_review_at_once_and_leaves_the_report(repo, scripted_openai, tmp_path):
    # The page's path: Copilot.ask on a BackgroundTurn, stopped while the model holds its stream open.
    slow, pause = paused(text("What is wrong: T1 16.6 μs is bad and this line never ends"), after=3)
    scripted_openai.push(slow)
    copilot = Copilot(repo, settings=load_settings({"DATA_DIR": str(tmp_path)}), skills=SkillLibrary({}),
                      memory=None, gate=False)
    state = ChatState(username="lab", provider=scripted_openai.provider(timeout_s=600), chip_id=Q57[0], qid=Q57[1],
                      mode="analysis")
    store = ChatSessionStore(open_memory_database("review-stop-chats"))
    turn = BackgroundTurn(lambda listener, stream, cancel: copilot.ask(state, analysis_request(*Q57), listener,
                                                                       stream=stream, cancel=cancel), state, store)
    turn.start()
    assert pause.reached.wait(60), "the review never started"
    assert turn.stop(grace_s=30), "stopping did not end the review"  # the read timeout is 600 s
    assert pause.hung_up.wait(30), "the model's stream was not closed by the stop"
    result = turn.result.result
    report, note = (b.text for b in result.blocks)
    assert report.startswith("### Q057 on 144Qv2: bad") and "T1 16.6 μs is bad" in report
    assert note == "**Review stopped** by the user. The report above stands."
    assert "never ends" not in result.answer
    assert result.stopped and result.review.status == "stopped" and result.error == STOPPED_MESSAGE
    answer = state.messages[-1]
    assert answer.stopped and [b.text for b in answer.blocks] == [report, note]
    stored = (store.get("lab", state.session_id) or {}).get("messages") or []  # the worker stored it, report in
    assert [m["role"] for m in stored] == ["user", "assistant"] and stored[0]["content"] == analysis_request(*Q57)
    assert "Q057 on 144Qv2: bad" in stored[1]["content"] and '"stopped": true' in stored[1]["content"]
    assert turn.save_failure is None
    assert len(scripted_openai.requests) == 1 and scripted_openai.bodies()[0].get("stream") is True


def test_a_healthy_claim_about_a_qubit_with_a_drop_is_left_out(repo, demo_db, scripted_openai):
    drop = ev.own_drop(demo_db, "64Qv3", "27", "t1")
    assert drop is not None and drop > ev.DROP  # from the raw documents: T1 fell against its own 7-day median
    scripted_openai.push(text("What is wrong: Q27 is healthy: nothing stands out.\nWhat to re-run: CheckT1"))
    result = review(scripted_openai, repo, "64Qv3", "27")
    shown = result.blocks[1].text
    assert result.review.status == "trimmed" and "healthy" not in shown.split("_")[0]
    assert result.review.dropped == ("it called Q27 healthy; the report lists problems",)


def test_the_prompt_puts_the_qubits_conditions_first_and_no_database_text(repo, demo_db, scripted_openai):
    scripted_openai.smart = facts_review
    review(scripted_openai, repo, "64Qv3", "3")
    user = scripted_openai.bodies()[0]["messages"][-1]["content"]
    problems = re.findall(r"(?m)^(\d)\. (.+)$", user)
    assert problems[0] == ("1", "No data for T1, T2 echo, Readout fidelity, X90 gate fidelity.")
    failed = ev.failed_tasks(demo_db, "64Qv3", "3")  # from the raw documents
    assert failed and all(any(line.startswith(f"{task} failed on Q03") for _, line in problems) for task in failed)
    messages = {d["message"] for d in demo_db["task_result_history"].find({"chip_id": "64Qv3", "qid": "3",
                                                                            "status": "failed"}) if d.get("message")}
    assert messages and not any(m in user for m in messages)  # task messages are database text: kept out


# ---- item 4: a budget for the list, a visible cut, and why each failed task failed ----------------------------

FAILED_CASES = [c for c in ev.CASES if c.condition == "failed" and not c.lab]
CAP_KEYS = ("max_tokens", "max_completion_tokens", "max_output_tokens")


def capped(write, chars_per_token: int = 4):
    """A model server that honours ``max_tokens`` as llama.cpp does: the text stops at the cap.  At 4 characters
    a token (the scripted server's own count) the usage then reports the whole budget spent; 3 is closer to a real
    tokenizer on dates, digits and task names (the review's text)."""
    def step(req: SmartRequest) -> Step:
        full = write(req).text or ""
        cap = next((req.body[k] for k in CAP_KEYS if req.body.get(k)), None)
        return text(full[:cap * chars_per_token] if cap else full)
    return step


def every_problem_review(req: SmartRequest) -> Step:
    """A model that lists every numbered problem of its facts (not just two), with their dates and the re-runs."""
    user = req.user_text
    problems = re.findall(r"(?m)^\d\. (.+)$", user)
    dates = sorted(set(re.findall(r"\d{4}-\d{2}-\d{2}", " ".join(problems))))
    task = re.search(r"Re-run: ([^.\"]+)\.", user)  # a long line of task names arrives marked as database text
    return text(f"What is wrong: {' '.join(problems)}\nSince when: {', '.join(dates) or 'the window'}\n"
                f"What to re-run: {task.group(1) if task else 'nothing'}")


def stored_failures(db, chip_id: str, qid: str) -> dict[str, str]:
    """{task name: newest stored message} of the failed tasks on the qubit or its couplings in the report's
    window, read with plain pymongo."""
    end = ev.chip_end(db, chip_id)  # whole UTC days ending on the day of the chip's newest run
    since = datetime(end.year, end.month, end.day) + timedelta(days=1 - ev.WINDOW_DAYS)
    docs = db["task_result_history"].find({"chip_id": chip_id, "status": "failed", "start_at": {"$gte": since}})
    mine = sorted((d for d in docs if qid in str(d["qid"]).split("-")), key=lambda d: d["start_at"], reverse=True)
    out: dict[str, str] = {}
    for d in mine:
        out.setdefault(d["name"], " ".join(str(d.get("message") or "").split()))
    return out


def unescaped(markdown: str) -> str:
    return re.sub(r"\\(.)", r"\1", markdown)


@pytest.mark.parametrize("case", FAILED_CASES[:3], ids=lambda c: f"{c.chip_id}-{c.label}")
def test_the_review_says_why_each_failed_task_failed_quoting_the_stored_message(case, repo, demo_db, scripted_openai):
    scripted_openai.smart = capped(facts_review)
    result = review(scripted_openai, repo, case.chip_id, case.qid)
    answer = unescaped(result.blocks[1].text)
    expected = stored_failures(demo_db, case.chip_id, case.qid)
    assert case.subject in expected and expected[case.subject], expected
    assert "**Why the tasks failed** (the stored task messages):" in answer
    for task, message in expected.items():
        assert re.search(rf"(?m)^- {task} on Q\S+( \(\d+ times\))?: “{re.escape(message[:120].strip())}", answer), \
            (task, message, answer)


MANY_FAILED = ("CheckT1", "CheckT2Echo", "CheckRamsey", "ReadoutClassification", "X90InterleavedRandomizedBenchmarking",
               "CheckRabi", "CreateHPIPulse", "CheckQubitSpectroscopy", "RandomizedBenchmarking", "CheckT1Average",
               "CheckT2EchoAverage", "X180InterleavedRandomizedBenchmarking", "CheckReadoutFrequency",
               "Check1QGateCoherenceLimit", "CreatePIPulse", "CheckDRAGHPIPulse")


@pytest.fixture
def many_failures_repo():
    """The data layer's small 16-qubit fixture plus sixteen tasks that failed on Q01 in the newest run."""
    import copy
    import uuid

    from copilot_core.data.connection import ensure_indexes, open_memory_database
    from tests.data.conftest import DOCS, P1, _task

    docs = copy.deepcopy(DOCS)
    for n, name in enumerate(MANY_FAILED):
        docs["task_result_history"].append(_task(200 + n, 6, name, "1", "failed", {}))
        docs["task_result_history"][-1]["message"] = f"{name}: fit did not converge (attempt {n + 1})"
    db = open_memory_database(f"review-many-{uuid.uuid4().hex}")
    for collection, rows in docs.items():
        db[collection].insert_many(rows)
    ensure_indexes(db)
    yield CalibrationRepository(db, project_id=P1)
    db.close()


def test_a_review_of_a_long_list_is_budgeted_for_it_and_ends_complete(many_failures_repo, scripted_openai):
    """Sixteen failed tasks: the output budget covers the list the form asks for, so a server that stops at the cap
    (3 characters a token, as a real tokenizer on task names and dates) still returns the whole list."""
    scripted_openai.smart = capped(every_problem_review, chars_per_token=3)
    result = review(scripted_openai, many_failures_repo, "16Qa", "1")
    [body] = scripted_openai.bodies()
    want = every_problem_review(smart_request_from("responses" if "input" in body else "chat", body)).text or ""
    rerun = want.splitlines()[-1]
    assert all(name in rerun for name in MANY_FAILED), rerun
    answer = result.blocks[1].text
    assert f"- {rerun}" in answer, (len(want), body.get("max_tokens"), answer)  # the list's last line arrived whole
    assert "Cut:" not in answer
    reasons = unescaped(answer[answer.index("**Why the tasks failed**"):])
    assert "- … and 8 more failed tasks (listed in the report above)" in reasons  # eight lines (newest), then a count
    for n, name in list(enumerate(MANY_FAILED))[8:]:
        assert f"- {name} on Q01: “{name}: fit did not converge (attempt {n + 1})”" in reasons


def test_a_review_the_server_stops_at_its_limit_says_cut(repo, scripted_openai):
    def rambling(req: SmartRequest) -> Step:
        base = facts_review(req).text or ""
        details = "".join(f"check {n} of the qubit passed again. " for n in range(60))  # long, not one line over
        return text(base.replace("What to re-run:", "Details: " + details + "\nWhat to re-run:"))
    scripted_openai.smart = capped(rambling)
    case = FAILED_CASES[0]
    result = review(scripted_openai, repo, case.chip_id, case.qid)
    [body] = scripted_openai.bodies()
    cap = next(body[k] for k in CAP_KEYS if body.get(k))
    answer = result.blocks[1].text
    assert f"_Cut: the review reached its {cap}-token output limit and stops here; the report above is complete._" \
        in answer, answer
    assert answer.index("_Cut:") < answer.index("**Why the tasks failed**")


def test_a_review_that_repeats_one_sentence_is_stopped_and_the_report_stands(repo, scripted_openai):
    """A model writing one sentence over and over is closed while it streams (not read to the cap): the person reads
    why the review is missing, and the report's failed-task list (from the data) stays."""
    def looping(req: SmartRequest) -> Step:
        return text((facts_review(req).text or "") + "the qubit was checked again and again. " * 60)
    scripted_openai.smart = looping
    case = FAILED_CASES[0]
    result = review(scripted_openai, repo, case.chip_id, case.qid)
    answer = result.blocks[1].text
    assert answer.startswith("**Review missing**") and "repeated itself" in answer, answer
    assert "checked again and again" not in answer
    assert "**Why the tasks failed**" in answer and scripted_openai.calls_made == 1
