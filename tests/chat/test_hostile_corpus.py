"""The hostile-output corpus through the real Copilot page (AppTest), the model being the scripted
OpenAI-compatible server over real HTTP.  What the page holds is parsed by markdown-it-py, independently of
render safety's own parser."""

from __future__ import annotations

import json

import pytest

from tests.fakes.scripted_openai import SmartRequest, answer, call
from tests.render_safety.checks import app_links, problems, readable
from tests.render_safety.corpus import CASES, EXFIL, Case


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_hostile_answer_on_the_copilot_page(chat_app, case: Case):
    def smart(req: SmartRequest):  # the chip's summary, then the hostile answer (data answers come from a call)
        if not req.tool_results and req.has_tools:
            return call("get_chip_summary", {"chip_id": "64Qv3"})
        return answer(case.text, charts=case.charts)

    app = chat_app(smart)
    app.run()
    at = app.ask("How is chip 64Qv3 doing?")
    assert not at.exception

    assistant = at.chat_message[-1]
    shown = [m.value for m in assistant.markdown if not m.value.startswith("Assessment")]
    for value in shown:
        assert problems(value) == [], value[:300]
    words = " ".join(readable(v) for v in shown)
    for word in case.words:
        assert word in words, (word, words[:300])
    assert sorted(href for v in shown for href in app_links(v)) == sorted(case.app_links)

    specs = [json.loads(el.proto.spec) for el in at.get("plotly_chart")]
    if case.chart_withheld:
        assert specs == []
        assert any("withheld" in w.value or "dropped" in w.value for w in [*assistant.warning, *assistant.markdown])
    else:
        assert len(specs) == len(case.charts)
    assert EXFIL not in json.dumps(specs)
