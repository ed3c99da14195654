"""Everything shown to a person passes here once: model and database markdown, tool and sandbox text,
chart JSON.  Model output and database strings are hostile; what comes out loads nothing and links
nowhere but into the app.

    safe_markdown(text) -> SafeMarkdown  markdown rewritten from a CommonMark parse (no images, HTML, outside links)
    escape(text) -> SafeMarkdown         plain text shown as typed inside markdown (URLs and addresses inert)
    safe_label(text) -> SafeLabel        one line of plain text checked in Streamlit's label mode (``sinks.py``)
    safe_text(text) -> SafeText          text for st.text / st.code: no control, zero-width or bidi characters
    validate_figure(chart) -> dict       the chart if a browser may draw it (a read-only SafeFigure), else UnsafeFigure
    plotly_input(figure) -> dict         a checked chart as plotly.py may take it (it edits traces in place)

The ui layer accepts only ``SafeMarkdown``/``SafeLabel``/``SafeText`` (``types.py``) or constants written in its
code; which one a Streamlit call takes is its sink (``sinks.py``): a label argument takes only ``SafeLabel``.
"""

import re

from copilot_core.render_safety import markdown as _markdown
from copilot_core.render_safety.csv import csv_bytes, neutral_cell
from copilot_core.render_safety.figure_limits import UnsafeFigure
from copilot_core.render_safety.figures import validate_figure
from copilot_core.render_safety.frozen import SafeFigure, plotly_input
from copilot_core.render_safety.markdown import clean_text, is_app_link, unescape
from copilot_core.render_safety.sinks import Sink, checked_label, label_mode, label_shows, one_line
from copilot_core.render_safety.types import SafeLabel, SafeMarkdown, SafeText

MAX_TEXT_CHARS = 50_000
MAX_LABEL_CHARS = 200
_ICON = re.compile(r"\\:material\\/((?:[a-z0-9]|\\_){1,60})\\:")  # as the rewriter escapes ``:material/name:``


def _icons(markdown: str) -> str:
    """Streamlit draws ``:material/name:`` from the markdown *source* (before parsing), so the rewriter's
    escaped ``\\:material\\/`` would show as text; the prefix is put back (an icon is a font glyph: it loads
    nothing and links nowhere)."""
    if "\\:material" not in markdown:
        return markdown
    return _ICON.sub(lambda m: f":material/{m.group(1).replace(chr(92), '')}:", markdown)


def safe_markdown(text: object) -> SafeMarkdown:
    """Markdown that renders the same words as ``text`` but shows no image, raw HTML or outside link."""
    return text if type(text) is SafeMarkdown else SafeMarkdown(_icons(_markdown.safe_markdown(str(text))))


def escape(text: object) -> SafeMarkdown:
    """Plain text (a database value, an error, a URL parameter) shown as typed inside markdown.

    Backslash escapes alone are not enough: Streamlit's renderer links bare URLs and e-mail addresses even
    when their punctuation is escaped, so the escaped text is parsed once more by ``safe_markdown``, which
    shows those as inline code."""
    return SafeMarkdown(_icons(_markdown.safe_markdown(_markdown.escape(clean_text(str(text))))))


def safe_label(text: object, limit: int = MAX_LABEL_CHARS) -> SafeLabel:
    """A label (button, tab, expander, status, option, widget, column): one line of plain text, at most ``limit``
    characters, checked by rendering it in Streamlit's label mode (``sinks``).  No icon shortcode, no markdown:
    a label from data or model text shows exactly its characters."""
    line = one_line(str(text))
    return checked_label(line if len(line) <= limit else line[:limit] + "…")


def safe_text(text: object, limit: int = MAX_TEXT_CHARS) -> SafeText:
    """Tool, sandbox and error text as shown by ``st.text``/``st.code`` (never interpreted as markdown)."""
    shown = clean_text(str(text))
    return SafeText(shown if len(shown) <= limit else shown[:limit] + "…")


__all__ = ["SafeFigure", "SafeLabel", "SafeMarkdown", "SafeText", "Sink", "UnsafeFigure", "clean_text", "csv_bytes",
           "escape", "is_app_link", "label_mode", "label_shows", "neutral_cell", "plotly_input", "safe_label",
           "safe_markdown", "safe_text", "unescape", "validate_figure"]
