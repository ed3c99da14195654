"""What the render-safety gate hands to the page: distinct ``str`` subclasses, so a string that reached
``st.markdown`` and friends can be told apart from one that skipped the gate (the ui layer and its AST test
accept only these, or constants in the code).

Concatenating two safe strings gives a plain ``str`` again on purpose: markdown pieces can combine into new
syntax, so a composed text goes through the gate once more as a whole.
"""

from __future__ import annotations


class SafeMarkdown(str):
    """Markdown that loads nothing and links only into the app (the output of ``safe_markdown``/``escape``)."""

    __slots__ = ()


class SafeText(str):
    """Text without control, zero-width or bidi characters, for ``st.text``/``st.code`` (never markdown)."""

    __slots__ = ()


class SafeLabel(SafeMarkdown):
    """One line of plain text that shows as typed in Streamlit's label mode and in document mode (the output of
    ``safe_label``): button, tab, expander, status, option and widget labels."""

    __slots__ = ()
