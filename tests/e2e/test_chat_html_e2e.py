"""The chat's HTML export in Chromium: it opens from a file, draws its chart, shows hostile text as text, and the
browser requests nothing but the file itself."""

from __future__ import annotations

from urllib.parse import urlsplit

from playwright.sync_api import Page, expect

from copilot_core.answer.blocks import AskBlock, ChartBlock, TextBlock
from copilot_core.chat import ChatMessage, ShowWork
from copilot_core.chat.html_export import chat_html
from copilot_core.chat.showwork import AnalysisRecord, ToolRecord

HOSTILE = "![x](https://evil.example/p.png) [click](https://evil.example/steal) <img src=https://evil.example/i>"
FIGURE = {"data": [{"type": "bar", "x": ["Q01", "Q02"], "y": [41.5, 57.25], "name": "</script x<b>t1</b>"}],
          "layout": {"title": {"text": "T1 per qubit"}}}


def test_the_html_export_opens_offline_and_requests_nothing(page: Page, tmp_path) -> None:
    work = ShowWork(tools=[ToolRecord("generate_chip_heatmap", {"chip_id": "64Qv3"}, True, "t1 median 49.4")],
                    analyses=[AnalysisRecord(code="print('</script>')")])
    messages = [ChatMessage.user("What is T1 of Q01?"),
                ChatMessage.assistant([TextBlock(f"T1 of Q01 is 41.5 μs. {HOSTILE}"), ChartBlock(FIGURE)], work=work),
                ChatMessage.assistant([AskBlock("Which T2?", ("T2 echo", "T2*"), answer="T2 echo")])]
    path = tmp_path / "chat.html"
    path.write_text(chat_html(messages, title="T1 <chat>"), encoding="utf-8")
    requested: list[str] = []
    page.on("request", lambda r: requested.append(r.url))
    page.goto(path.as_uri())
    expect(page.locator(".js-plotly-plot")).to_have_count(1, timeout=60_000)
    expect(page.locator("body")).to_contain_text("T1 of Q01 is 41.5 μs.")
    expect(page.locator("body")).to_contain_text("https://evil.example/steal")  # shown as text...
    assert page.locator("a[href], img").count() == 0  # ...never as a link or an image
    expect(page.locator("h1")).to_have_text("T1 <chat>")
    expect(page.locator("body")).to_contain_text("T2 echo (chosen)")
    outside = [u for u in requested if urlsplit(u).scheme not in ("file", "data", "blob")
               and urlsplit(u).hostname != "127.0.0.1"]
    assert outside == []
