"""The label sink: a label from data or model text shows exactly its characters in Streamlit's label mode.

Label mode is read from the installed frontend bundle (the test fails if an upgrade changes it); every hostile
label is rendered in that mode by cmark-gfm and, independently, by markdown-it-py, and must show one line of
text, no image, raw HTML or link.  The last test shows why the sink exists: document markdown checked in document
mode renders an image once Streamlit draws it as a label.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import streamlit

from copilot_core.render_safety import label_mode, label_shows, safe_label, safe_markdown, safe_text
from copilot_core.render_safety.gfm_html import render
from copilot_core.render_safety.sinks import HIDDEN_LABEL, LINE_BREAKS
from tests.render_safety.checks import problems, readable
from tests.render_safety.hostile_labels import HOSTILE_LABELS

BUNDLE = Path(streamlit.__file__).parent / "static" / "static" / "js"
# Streamlit 1.67's label-mode rewrite, as written in its frontend (StreamlitMarkdown's useMemo over the source).
JS_MATERIAL = "n=t.replaceAll(`:material/`,`:material_`)"
JS_LABEL = ("r&&(n=n.replaceAll(/^(\\s*)((?:[+\\-*]|#+)(?=\\s|$)|>)/gm,`$1\\\\$2`),"
            "n=n.replaceAll(/^(\\s*)(\\d+)([.)])(?=\\s|$)/gm,`$1$2\\\\$3`))")


def test_label_mode_is_the_one_the_installed_frontend_uses():
    bundles = [p.read_text(errors="replace") for p in BUNDLE.glob("StreamlitMarkdown*.js")]
    assert len(bundles) == 1
    assert JS_MATERIAL in bundles[0] and JS_LABEL in bundles[0]


@pytest.mark.parametrize("source,rewritten", [
    ("- a\n  * b\n> c\n## d\n3. e\n4) f\n", "\\- a\n  \\* b\n\\> c\n\\## d\n3\\. e\n4\\) f\n"),
    ("-a\n#x\n1.x\n", "-a\n#x\n1.x\n"),  # no space after the marker: left alone
    ("x\r- y\u2028> z", "x\r\\- y\u2028\\> z"),  # JavaScript's line terminators
    (":material/home: -\n- x", ":material_home: -\n\\- x"),
])
def test_label_mode_rewrites_as_the_frontend_does(source, rewritten):
    assert label_mode(source) == rewritten


@pytest.mark.parametrize("name", list(HOSTILE_LABELS))
def test_a_hostile_label_shows_one_line_of_its_own_text(name):
    raw = HOSTILE_LABELS[name]
    label = safe_label(raw, 1000)
    assert not LINE_BREAKS.search(label)
    html = render(label_mode(label))
    assert "<img" not in html and "<a " not in html and "raw HTML" not in html, html
    assert problems(label_mode(label)) == [] and problems(label) == []
    shown = readable(label_mode(label))
    expected = " ".join("".join(c for c in raw.replace("\u2028", " ").replace("\u2029", " ").replace("\x85", " ")
                                if c.isprintable() or c.isspace()).split())
    assert shown in (expected, HIDDEN_LABEL) or shown.replace("·", "") == "".join(
        c for c in expected if c.isalnum() or c in " _"), (shown, expected)


def test_a_plain_id_shows_as_typed():
    assert label_shows(safe_label("64Qv3")) == "64Qv3"
    assert readable(label_mode(safe_label("Q05 - T1 > 40 µs #2"))) == "Q05 - T1 > 40 µs #2"


def test_document_markdown_drawn_as_a_label_loads_an_image():
    """Why labels have their own sink: the document-mode rewrite of a multi-line chip id holds a fenced block
    inside a list item; label mode un-lists it, the fence no longer opens, and the next line is an image."""
    raw = HOSTILE_LABELS["fence in a list item"]
    document = safe_markdown(safe_text(raw))
    assert "<img" not in render(document)
    assert "<img" in render(label_mode(document))
    assert label_shows(document) is None  # the label check refuses it
