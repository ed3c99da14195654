"""Everything shown to a person passes here once: model and database markdown, tool and sandbox text,
chart JSON.  Model output and database strings are hostile; what comes out loads nothing and links
nowhere but into the app.

    safe_markdown(text) -> str     markdown rewritten from a CommonMark parse (no images, HTML, outside links)
    safe_text(text) -> str         text for st.text / st.code: no control, zero-width or bidi characters
    validate_figure(chart) -> dict the chart if a browser may draw it, else UnsafeFigure
"""

from copilot_core.render_safety.figures import UnsafeFigure, validate_figure
from copilot_core.render_safety.markdown import (
    clean_text,
    escape,
    is_app_link,
    safe_markdown,
    unescape,
)

MAX_TEXT_CHARS = 50_000


def safe_text(text: object, limit: int = MAX_TEXT_CHARS) -> str:
    """Tool, sandbox and error text as shown by ``st.text``/``st.code`` (never interpreted as markdown)."""
    shown = clean_text(str(text))
    return shown if len(shown) <= limit else shown[:limit] + "…"


__all__ = ["UnsafeFigure", "clean_text", "escape", "is_app_link", "safe_markdown", "safe_text", "unescape",
           "validate_figure"]
