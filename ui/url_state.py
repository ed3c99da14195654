"""Page settings that live in the URL, so a reload or a shared link shows the same view.

Session state holds each page's settings (they survive moving between pages, whose new URL carries no
query); ``st.query_params`` mirrors the settings of the page on screen.  A URL value this session has
not seen yet (a pasted link, a reload, a new tab) wins over the session's value; otherwise the session's
value (which the widgets change) wins and is written back to the URL.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

import streamlit as st

from copilot_core.render_safety import escape

T = TypeVar("T")
SEEN_KEY = "_url_seen"  # {param: the URL text this session last read or wrote}
PARAMS = ("chip", "metric", "mode", "window", "colour", "qubit", "parameter", "by", "from", "to", "sort", "order")


def _seen() -> dict[str, str]:
    seen = st.session_state.get(SEEN_KEY)
    if not isinstance(seen, dict):
        seen = st.session_state[SEEN_KEY] = {}
    return seen


def qubit_token(raw: str) -> str:
    """``Q005``, ``q5`` and ``5`` all name qubit 5 in a link."""
    digits = raw.strip().lstrip("Qq").lstrip("0")
    return digits or ("0" if raw.strip().lstrip("Qq") else "")


def incoming(param: str) -> str | None:
    """The URL's text for ``param`` when this session has not seen it yet, else None."""
    raw = st.query_params.get(param)
    if raw is None or raw == _seen().get(param):
        return None
    _seen()[param] = raw
    return raw


def adopt(param: str, state_key: str, options: Sequence[T], *, to_url: Callable[[T], str] = str,
          normalize: Callable[[str], str] = str.strip) -> None:
    """Copy a new URL value of ``param`` into ``session_state[state_key]`` when it names one of ``options``;
    an unknown value is reported and ignored (the page keeps its setting)."""
    raw = incoming(param)
    if raw is None:
        return
    by_text = {to_url(o): o for o in options}
    match = by_text.get(normalize(raw))
    if match is None:
        st.warning(escape(f"The link asks for {param} = '{raw[:40]}', which is not available here; showing the "
                          "current setting instead."), icon=":material/link_off:")
    else:
        st.session_state[state_key] = match


def adopt_many(param: str, state_key: str, options: Sequence[T], *, to_url: Callable[[T], str] = str,
               normalize: Callable[[str], str] = str.strip) -> None:
    """``adopt`` for a comma-separated list (``qubit=5,17``); unknown items are dropped with a warning."""
    raw = incoming(param)
    if raw is None:
        return
    by_text = {to_url(o): o for o in options}
    tokens = [normalize(t) for t in raw.split(",") if t.strip()]
    picked = [by_text[t] for t in tokens if t in by_text]
    if len(picked) < len(tokens):
        st.warning(escape(f"Some of the link's {param} values ('{raw[:40]}') are not available here and were "
                          "left out."), icon=":material/link_off:")
    st.session_state[state_key] = list(dict.fromkeys(picked))


def publish(param: str, text: str | None) -> None:
    """Show ``text`` as ``param`` in the URL (None removes it) without triggering a rerun."""
    if text is None:
        if param in st.query_params:
            del st.query_params[param]
        _seen().pop(param, None)
        return
    if st.query_params.get(param) != text:
        st.query_params[param] = text
    _seen()[param] = text
