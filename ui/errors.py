"""The page boundary: every failure becomes a clear message in the page, never a traceback."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager

import streamlit as st

from copilot_core.data.connection import DatabaseUnavailable
from copilot_core.errors import CopilotError, user_message
from copilot_core.render_safety import escape

log = logging.getLogger("calibration_copilot.ui")


def show_error(exc: BaseException, what: str = "this page") -> None:
    """Show an error as its one message (``copilot_core.errors.user_message``): a ``CopilotError`` says what
    failed and why; anything else is logged for the operator and named only by its class."""
    message = user_message(exc, what)
    if isinstance(exc, DatabaseUnavailable):
        st.error(escape(message), icon=":material/cloud_off:")
        st.caption("Check MONGODB_URI (environment or .streamlit/secrets.toml), that the server is running and "
                   "reachable from this machine, then reload the page.")
    elif isinstance(exc, CopilotError) and exc.level == "warning":
        st.warning(escape(message), icon=":material/warning:")
    elif isinstance(exc, CopilotError):
        st.error(escape(message), icon=":material/error:")
    else:
        log.error("error while rendering %s", what, exc_info=exc)
        st.error(escape(message), icon=":material/error:")


@contextmanager
def page_guard(what: str = "this page") -> Iterator[None]:
    """Wrap a page body: any error becomes its message in the page (``show_error``), never a traceback.

    Streamlit's own control flow (st.stop, st.rerun, st.switch_page) derives from BaseException and passes."""
    try:
        yield
    except Exception as exc:  # noqa: BLE001 - the boundary: every error is shown as its one message
        show_error(exc, what)
