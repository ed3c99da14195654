"""Render safety on answers and database strings aimed at container blocks, checked by an independent parser."""

from __future__ import annotations

import pytest
from markdown_it import MarkdownIt

from copilot_core.render_safety import safe_markdown
from copilot_core.render_safety.markdown_check import loads_nothing, plain_text
from tests.render_safety.checks import app_links, problems, readable
from tests.render_safety.corpus import CASES, EXFIL, Case
from tests.render_safety.hostile_answers import ANSWERS
from tests.render_safety.shortcut_answers import SHORTCUT_ANSWERS

ALL = tuple(c for c in CASES if not c.charts) + ANSWERS
_GFM = MarkdownIt("commonmark").enable(["table", "strikethrough"])


def test_the_corpus_is_large_enough():
    assert len(ALL) >= 60 and len(ANSWERS) >= 60


@pytest.mark.parametrize("case", ANSWERS + SHORTCUT_ANSWERS, ids=[c.name for c in ANSWERS + SHORTCUT_ANSWERS])
def test_answer_loads_nothing_and_stays_readable(case: Case):
    out = safe_markdown(case.text)
    assert problems(out) == [], out
    shown = readable(out)
    for word in case.words:
        assert word in shown, (word, shown[:300])
    assert sorted(app_links(out)) == sorted(case.app_links)


def test_a_quoted_fence_with_a_blank_line_stays_one_quoted_code_block():
    out = safe_markdown(f"> ```\n> code line\n>\n> ![x](https://{EXFIL}/a.png)\n> [Sign in](https://{EXFIL}/l)\n"
                        "> ```\n\nT1 fine")
    tokens = _GFM.parse(out)
    assert [t.type for t in tokens] == ["blockquote_open", "fence", "blockquote_close", "paragraph_open", "inline",
                                        "paragraph_close"]
    assert tokens[1].content == f"code line\n\n![x](https://{EXFIL}/a.png)\n[Sign in](https://{EXFIL}/l)\n"


def test_a_code_span_with_a_pipe_stays_in_its_table_cell():
    out = safe_markdown(f"| a | b |\n|---|---|\n| `x\\|![i](https://{EXFIL}/i.png)` | c |")
    cells = [[c.content for c in t.children or [] if c.type == "code_inline"] or [t.content]
             for t in _GFM.parse(out) if t.type == "inline"]
    assert cells == [["a"], ["b"], [f"x|![i](https://{EXFIL}/i.png)"], ["c"]]


@pytest.mark.parametrize("markdown", [
    f"![x](https://{EXFIL}/a.png)", f"[x](https://{EXFIL}/a)", "<b>raw</b>", f"see https://{EXFIL}/x",
    f"www.{EXFIL}", f"lab@{EXFIL}", "<IMG SRC=x>", "[x](//e.x/a)", f"see https\\://{EXFIL}", "a <x-y> b",
    # a referenced GFM footnote's definition renders its markdown (here an image) at the foot of the answer; a
    # parser without footnotes reads it as a link definition and sees no image
    f"Q05[^1]\n\n[^1]: ![x](https://{EXFIL}/a.png)",
    # an image in any shape: even one on the app's own origin is a request the answer makes
    "![x](/app.png)", f"![x][r]\n\n[r]: https://{EXFIL}/r.png", f"| a |\n|---|\n| ![x](//{EXFIL}/t.png) |",
    # a URL, www. host or address between escaped angle brackets: shown as text, linked by the renderer
    f"\\<https://{EXFIL}\\>", f"a \\<b www.{EXFIL} c\\> d", f"\\<x lab@{EXFIL}\\>",
    # in-app only as written: percent-decoded they start "//" or hold a backslash (which a browser reads as "/")
    f"[x](/%2F%2F{EXFIL})", f"[x](/%5C{EXFIL})", f"[x](/\\{EXFIL})", '[x](/a "title")', "<a href=\"/x\">x</a>"])
def test_the_second_look_catches_what_a_rewrite_might_leave(markdown: str):
    assert not loads_nothing(markdown)


@pytest.mark.parametrize(("markdown", "href"), [
    ("[open](</timeseries?qid=Q 05>)", "/timeseries?qid=Q%2005"),
    ("[open](</timeseries?qid=Q\u00a005>)", "/timeseries?qid=Q%C2%A005"),  # a no-break space: two UTF-8 bytes
    ("[open](/timeseries?qid=Q\u300005)", "/timeseries?qid=Q%E3%80%8005"),  # an ideographic space: three
    ("[open](/heatmap?x=a>b)", "/heatmap?x=a%3Eb")])
def test_an_app_link_target_keeps_whitespace_and_brackets_percent_encoded_as_utf8(markdown: str, href: str):
    out = safe_markdown(markdown)
    assert app_links(out) == [href]
    assert loads_nothing(out)


@pytest.mark.parametrize("markdown", [
    "**bold** `https://x.example` [heatmap](</heatmap>)", "| a |\n| ---: |\n| `x\\|y` |", "1. a\n2. b\n\n---",
    "```python\nprint('<img src=//x>')\n```", "line\\\nbreak", "3. three", "> q\n>\n> r",
    "~~gone~~ and [chip](</timeseries?chip=64Qv3&qid=Q%2005>)", "| a | b |\n| :-: | --- |\n| 1 | 2 |"])
def test_the_second_look_passes_plain_answers(markdown: str):
    assert loads_nothing(markdown)


def test_plain_text_shows_any_answer_verbatim_and_loads_nothing():
    """The fallback for an answer that fails the second look: verbatim, in a fence no backtick run closes."""
    for text in (f"Q05 ![x](https://{EXFIL}/a.png) ```", f"````\n<img src=//{EXFIL}>\n~~~~~", "plain"):
        out = plain_text(text)
        assert loads_nothing(out) and problems(out) == []
        tokens = _GFM.parse(out)
        assert [t.type for t in tokens] == ["fence"] and tokens[0].content == text + "\n"


def test_autolinkable_finds_what_the_search_pattern_finds():
    """The second look starts its search for linkable text only at "://", "www." and "@"; on random text
    over the characters that matter it answers as the plain pattern search does."""
    import random
    import re

    from copilot_core.render_safety.markdown_check import autolinkable

    pattern = re.compile(r"(?i)[a-z][a-z0-9+.\-]*://|(?<![a-z0-9])www\.|[\w.+\-]@[\w\-]+\.[\w\-]")
    alphabet = "aZ9+.-:/@wW_ .é\u017f\u212a<>"
    rng = random.Random(5)
    texts = ["".join(rng.choice(alphabet) for _ in range(rng.randrange(1, 14))) for _ in range(40_000)]
    texts += ["see https://e.x", "HTTPS://E.X", "1+a.b-c://", "9://", "-://", "xwww.e", "a www.e", "a@b.c", "@b.c",
              "a@b", "mail me: a.b+c@d-e.f", "\u212a://", "x" * 5000 + "://", "a_www.e", "9www.e"]
    assert [t for t in texts if bool(pattern.search(t)) != autolinkable(t)] == []
    assert autolinkable("see https://e.x") and not autolinkable("9://") and autolinkable("\u212a://")


def test_a_lone_surrogate_is_dropped_not_a_crash():
    """JSON's "\\ud800" decodes to a lone surrogate, which no parser can encode: it is dropped as invisible."""
    assert readable(safe_markdown("Q05 \ud800drifted \udfff**now**")) == "Q05 drifted now"
