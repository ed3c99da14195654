"""Data questions are never answered from thin air (the whole turn: turn service, real toolkit on the demo database,
the scripted model over real HTTP).  Expected values are read from the documents with the pymongo API, not through
the repository or the tools.
"""

from __future__ import annotations

import base64
from datetime import datetime, timedelta

import numpy as np


from copilot_core.answer.blocks import ChartBlock, TextBlock
from copilot_core.agent.lookups import COULD_NOT, window_days
from copilot_core.chat import ChatMessage, ChatState
from copilot_core.render_safety.markdown import unescape
from copilot_core.session import Copilot
from copilot_core.settings import load_settings
from copilot_core.skills import SkillLibrary
from tests.depth.conftest import provider_for
from tests.fakes.scripted_openai import answer

INVENTED = "32.8 μs (good) → 33.2 μs (good)"


def ask(server, repo, tmp_path, chip: str, question: str, *, router: str = "off", history=()) -> ChatState:
    settings = load_settings({"DATA_DIR": str(tmp_path), "COPILOT_TOOL_ROUTER": router})
    copilot = Copilot(repo, settings=settings, skills=SkillLibrary({}), memory=None, gate=False)
    state = ChatState(username="local", provider=provider_for(server), chip_id=chip)
    for message in history:
        state.add(message)
    copilot.ask(state, question)
    return state


def t1_points(db, chip: str, qid: str, days: int) -> list[float]:
    """Completed t1 values of one qubit in the last ``days`` whole UTC days ending on the chip's newest run's day
    (pymongo)."""
    newest = db["execution_history"].find_one({"chip_id": chip}, sort=[("start_at", -1)])["start_at"]
    start = datetime(newest.year, newest.month, newest.day) + timedelta(days=1 - days)
    docs = db["task_result_history"].find({"chip_id": chip, "qid": qid, "status": "completed"})
    values = []
    for doc in docs:
        if doc.get("excluded") or doc["start_at"] < start or \
                "t1" not in (doc.get("output_parameters") or {}):
            continue
        value = doc["output_parameters"]["t1"]
        value = value.get("value") if isinstance(value, dict) else value
        if isinstance(value, (int, float)) and value == value and value != 0:
            values.append(float(value))
    return values


def points(array) -> int:
    """How many values a Plotly array holds (a plain list, or a typed array written as base64 ``bdata``)."""
    if isinstance(array, dict) and "bdata" in array:
        return len(np.frombuffer(base64.b64decode(array["bdata"]), dtype=np.dtype(array["dtype"])))
    return len(array)


def test_windows_in_words_are_days():
    assert [window_days(q) for q in ("T1 over the last 14 days", "the past two weeks", "last week", "last 5 values",
                                     "T1 of Q5")] == [14, 14, 7, None, None]


def test_a_data_question_answered_without_a_call_is_not_shown(scripted_openai, repo, demo_chip_ids, tmp_path):
    """The model reuses an earlier answer's numbers with no call: its answer is replaced by the call it needed."""
    chip = demo_chip_ids[0]
    earlier = [ChatMessage.user(f"What is the T1 of Q21 on {chip}?"),
               ChatMessage.assistant([TextBlock("The T1 of Q21 is 32.8 μs (good).")])]
    scripted_openai.push(answer(f"The T1 of Q40 went {INVENTED}."))
    state = ask(scripted_openai, repo, tmp_path, chip, "How has the T1 of Q40 changed over the last 7 days?",
                history=earlier)
    reply = state.messages[-1]
    assert "32.8" not in reply.text and "33.2" not in reply.text
    made = reply.work.tools
    assert [(t.name, t.args.get("days"), t.args.get("qid")) for t in made] == [("get_parameter_timeseries", 7, "40")]
    assert "7 days ending on the day of the newest run" in reply.text


def test_a_question_that_cannot_be_looked_up_says_so(scripted_openai, repo, demo_chip_ids, tmp_path):
    scripted_openai.push(answer("Coupling health is excellent, 99.1 % everywhere."))
    state = ask(scripted_openai, repo, tmp_path, demo_chip_ids[0], "Is the chip healthy enough for tonight's run?")
    assert state.messages[-1].text == COULD_NOT


def test_a_window_plot_of_several_qubits_is_one_chart_of_days(scripted_openai, repo, demo_db, demo_chip_ids,
                                                             tmp_path):
    chip = demo_chip_ids[0]
    scripted_openai.push(answer("Here is the chart."))
    state = ask(scripted_openai, repo, tmp_path, chip, f"Plot the T1 of Q21 and Q5 over the last 14 days on {chip}",
                router="on")
    reply = state.messages[-1]
    call = reply.work.tools[0]
    assert (call.name, call.args["days"], call.args["qids"]) == ("get_chip_parameter_timeseries", 14, ["5", "21"])
    charts = [b.figure for b in reply.blocks if isinstance(b, ChartBlock)]
    assert len(charts) == 1
    lines = {t["name"]: points(t["y"]) for t in charts[0]["data"]}
    expected = {"Q05": len(t1_points(demo_db, chip, "5", 14)), "Q21": len(t1_points(demo_db, chip, "21", 14))}
    assert expected["Q05"] > 10  # more points than the 10 a count would have given: a window of days
    assert {name: n for name, n in lines.items() if name in expected} == expected


def test_why_did_it_fail_quotes_the_stored_messages(scripted_openai, repo, demo_db, demo_chip_ids, tmp_path):
    chip = demo_chip_ids[0]
    failed = demo_db["task_result_history"].find_one({"chip_id": chip, "status": "failed", "qid": {"$regex": r"^\d+$"},
                                                      "message": {"$nin": [None, ""]}}, sort=[("start_at", -1)])
    qid = failed["qid"]
    scripted_openai.push(answer("A hardware issue with the readout circuit, per the operator notes."))
    state = ask(scripted_openai, repo, tmp_path, chip, f"Why did Q{qid}'s tasks fail on {chip}?", router="on")
    reply = state.messages[-1]
    assert reply.work.tools[0].name == "search_task_results"
    assert f"“{failed['message']}”" in unescape(reply.text)  # quoted as stored (markdown-escaped on the page)
