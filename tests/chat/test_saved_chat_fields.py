"""A saved chat comes from a collection shared with QDash: every field of its show-work record that the page
prints (model, API style, tool names, summaries, errors) is shown as text, never as markup or a link."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.render_safety.checks import problems

HOSTILE = "![](https://evil.example/m.png) [Sign in again](https://evil.example/login) www.evil.example"


def _page(hostile: str) -> None:
    from copilot_core.chat import ChatState
    from copilot_core.chat.showwork import ShowWork
    from ui.chat_render import render_show_work

    work = ShowWork.from_dict({"model": hostile, "api_style": hostile, "usage": {"rounds": 1},
                               "tools": [{"name": hostile, "args": {}, "ok": False, "error": hostile,
                                          "summary": hostile, "elapsed_s": 0.1}],
                               "analyses": [{"code": "print(1)", "output": hostile, "error": hostile}]})
    render_show_work(work, key="w", state=ChatState(username="alice"))


def test_hostile_show_work_fields_render_inert():
    at = AppTest.from_function(_page, args=(HOSTILE,), default_timeout=60).run()
    assert not at.exception, [e.value for e in at.exception]
    texts = [str(e.value) for kind in ("markdown", "caption", "error", "warning", "info") for e in at.get(kind)]
    captions = [str(c.value) for c in at.caption]
    assert any("evil.example/m.png" in c.replace("\\", "") for c in captions)  # the model field is shown...
    found = {t: problems(t) for t in texts if problems(t)}
    assert not found, f"live markup from a saved chat: {found}"  # ...as text
