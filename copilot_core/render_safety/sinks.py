"""The sinks: every way text reaches the page, each checked in the mode Streamlit renders it.

    document  ``SafeMarkdown``  st.markdown, caption, info/warning/error bodies, toast: document mode
    label     ``SafeLabel``     buttons, tabs, expanders, statuses, radio/pills options, metric and widget
                                labels, alert titles: Streamlit's *label mode*
    plain     ``SafeText``      st.text/st.code, selectbox/multiselect options, table cells: never markdown
    download  ``bytes``         ``csv_bytes`` and the export writers

Label mode is a second markdown renderer: before parsing, Streamlit's frontend (``StreamlitMarkdown``, 1.67)
rewrites the source as ``label_mode`` does here (list, heading and quote markers at every line start are
backslash-escaped, ``:material/`` becomes ``:material_``), then drops table, list, heading and quote elements
but keeps their children, and keeps images.  A multi-line string checked in document mode can therefore render
differently as a label: a fence inside a list item in document mode is a paragraph, and a line inside it an
image, in label mode.  So a label from data is one line of plain text and is checked by rendering exactly the
string handed to Streamlit, after ``label_mode``, and reading back its tags and its visible text.
"""

from __future__ import annotations

import re
from enum import Enum
from functools import lru_cache

from copilot_core.render_safety import markdown as _markdown
from copilot_core.render_safety.gfm_html import render
from copilot_core.render_safety.markdown_check import autolinkable, loads_nothing, unhtml
from copilot_core.render_safety.types import SafeLabel


class Sink(Enum):
    """How Streamlit shows a string (the render mode its check uses)."""

    DOCUMENT = "document"
    LABEL = "label"
    PLAIN = "plain"
    DOWNLOAD = "download"


# JavaScript's ``^``/``$`` with the m flag: after/before \n, \r, U+2028, U+2029; its ``\s`` includes U+FEFF.
_JS_LINE_START = r"(?:(?<=[\n\r\u2028\u2029])|\A)"
_JS_LINE_END = r"(?=[\n\r\u2028\u2029]|\Z)"
_JS_SPACE = r"[\s\ufeff]"
_LABEL_MARKERS = re.compile(_JS_LINE_START + rf"({_JS_SPACE}*)((?:[+\-*]|#+)(?={_JS_SPACE}|{_JS_LINE_END})|>)")
_LABEL_NUMBERS = re.compile(_JS_LINE_START + rf"({_JS_SPACE}*)(\d+)([.)])(?={_JS_SPACE}|{_JS_LINE_END})")
# Every character a line can break at, in either renderer (JavaScript's and Python's line terminators).
LINE_BREAKS = re.compile(r"[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]")
# What a one-line plain-text label may render to: paragraphs and code spans (URLs are shown as code).
_LABEL_TAGS = re.compile(r"</?(?:p|code)>")
_ANY_TAG = re.compile(r"<[^>]*>")
HIDDEN_LABEL = "(label not shown)"


def label_mode(source: str) -> str:
    """``source`` as Streamlit's frontend rewrites a label before parsing it (``StreamlitMarkdown``, isLabel)."""
    text = source.replace(":material/", ":material_")
    text = _LABEL_MARKERS.sub(lambda m: m.group(1) + "\\" + m.group(2), text)
    return _LABEL_NUMBERS.sub(lambda m: m.group(1) + m.group(2) + "\\" + m.group(3), text)


def label_shows(label: str) -> str | None:
    """The plain text ``label`` shows in label mode, or None when it shows anything but text (a tag other than a
    paragraph or code span, an image, a link, text a renderer links by itself, a line break)."""
    if LINE_BREAKS.search(label):
        return None
    html = render(label_mode(label))
    if "<" in _LABEL_TAGS.sub("", html):  # cmark-gfm writes a "<" in text as an entity: every "<" is a tag
        return None
    prose = re.sub(r"<code>[^<]*</code>", " ", html)
    if autolinkable(unhtml(_ANY_TAG.sub("", prose))):
        return None
    return unhtml(_ANY_TAG.sub("", html)).strip()


def one_line(text: str) -> str:
    """``text`` on one line: control, zero-width and bidi characters out, every run of whitespace one space."""
    return " ".join(LINE_BREAKS.sub(" ", _markdown.clean_text(text)).split())


@lru_cache(maxsize=4096)  # Streamlit draws every label again on each rerun
def checked_label(text: str) -> SafeLabel:
    """``text`` (one line of plain text) as a label that shows exactly it, checked in label mode and in
    document mode; when a check fails, only its letters, digits and spaces are shown, and when even that
    fails, a fixed phrase."""
    for shown in (text, re.sub(r"[^\w ]", "·", text)):
        label = _markdown.safe_markdown(_markdown.escape(shown))
        if label_shows(label) == shown.strip() and loads_nothing(label):
            return SafeLabel(label)
    return SafeLabel(HIDDEN_LABEL)
