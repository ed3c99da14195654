"""Follow-up buttons on the Copilot page: grounded in the answer's tools, a click asks, none after a failure."""

from __future__ import annotations

import json

from tests.fakes.scripted_openai import SmartRequest, answer, call, error
from tests.render_safety.checks import readable

CHIP = "64Qv3"


def next_buttons(at) -> list:
    return [b for b in at.button if b.key and b.key.startswith("next-")]


def test_follow_ups_follow_the_tools_and_a_click_asks(chat_app):
    ranked: list[str] = []

    def smart(req: SmartRequest):
        if "worst T1" in req.user_text:  # the follow-up is a data question: answered after a call, from its result
            if not req.tool_results:
                return call("rank_metric", {"chip_id": CHIP, "metric_name": "t1", "order": "lowest", "n": 3})
            ranked.append(json.loads(req.tool_results[-1].output)["answer"])
            return answer(ranked[-1])
        if not req.tool_results:
            return call("generate_chip_heatmap", {"chip_id": CHIP, "metric_name": "t1"})
        median = json.loads(req.tool_results[-1].output)["stats"]["median"]
        return answer(f"The median T1 on {CHIP} is {median} μs.")

    app = chat_app(smart, env={"COPILOT_READINESS": "off"})
    app.run()
    at = app.ask(f"Show me the T1 heatmap of {CHIP}")
    assert not at.exception
    labels = [readable(b.label) for b in next_buttons(at)]
    assert labels == [f"Which qubits on {CHIP} have the worst T1?",
                      f"What changed on {CHIP} since the last calibration run?"]
    next_buttons(at)[0].click()
    at = app.run()
    assert not at.exception
    assert readable(at.chat_message[2].markdown[0].value) == f"Which qubits on {CHIP} have the worst T1?"
    said = [readable(m.value) for m in at.chat_message[3].markdown]
    assert ranked and any(readable(ranked[-1]) in m for m in said), said


def test_no_follow_ups_after_a_failed_answer(chat_app):
    def smart(req: SmartRequest):  # fails before any tool found a fact (after one, the answer is computed from it)
        return error(500, "model crashed")

    app = chat_app(smart, env={"COPILOT_READINESS": "off"})
    app.run()
    at = app.ask(f"Show me the T1 heatmap of {CHIP}")
    assert not at.exception
    assert "Stopped with a problem" in at.status[0].label
    assert next_buttons(at) == []


def test_an_empty_chat_offers_starter_questions_and_a_click_asks(chat_app, demo_db):
    newest = max(demo_db["chip"].find({}, {"_id": 0, "chip_id": 1, "installed_at": 1}),
                 key=lambda c: c.get("installed_at") or 0)["chip_id"]  # the newest chip, read without the app

    def smart(req: SmartRequest):
        if not req.tool_results:
            return call("get_chip_summary", {"chip_id": newest})
        return answer("The chip summary is here.")

    app = chat_app(smart, env={"COPILOT_READINESS": "off"})
    at = app.run()
    starters = [b for b in at.button if b.key and b.key.startswith("starter-")]
    assert [readable(b.label) for b in starters][0] == f"Summarise the health of the chip on {newest}"
    starters[0].click()
    at = app.run()
    assert not at.exception
    assert readable(at.chat_message[0].markdown[0].value) == f"Summarise the health of the chip on {newest}"
    assert any("The chip summary is here." in readable(m.value) for m in at.chat_message[1].markdown)
    assert not [b for b in at.button if b.key and b.key.startswith("starter-")]  # gone once the chat has begun


def test_readiness_is_probed_at_start_up_and_shown_in_the_sidebar(chat_app):
    """Opening the page starts the model's readiness probe in the background (no question asked); once it has run,
    the sidebar shows its result and the first question does not probe again."""
    from copilot_core.agent import provider_from_settings
    from copilot_core.readiness import background_probe
    from copilot_core.settings import load_settings

    app = chat_app(lambda req: answer("ok"), env={"COPILOT_READINESS": "on"})
    at = app.run()
    assert not at.exception
    probe = background_probe(provider_from_settings(load_settings()))
    assert probe is not None, "opening the page started the probe"
    probe.join(60)
    probes = [b for b in app.server.bodies() if "report_number" in str(b.get("tools"))]
    assert len(probes) == 1  # probed once, before any question
    at = app.run()
    shown = [m.value for m in at.sidebar.markdown] + [c.value for c in at.sidebar.caption]
    assert any("Tool-calling check: full tools" in readable(s) for s in shown), shown
    app.ask(f"What is the median T1 of {CHIP}?")
    assert len([b for b in app.server.bodies() if "report_number" in str(b.get("tools"))]) == 1
