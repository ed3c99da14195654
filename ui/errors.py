"""The page boundary: every failure becomes a clear message in the page, never a traceback."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager

import streamlit as st

from copilot_core.data.connection import DatabaseUnavailable
from copilot_core.errors import CopilotError
from copilot_core.render_safety import escape, safe_markdown

log = logging.getLogger("calibration_copilot.ui")


def show_database_error(exc: BaseException) -> None:
    st.error(safe_markdown(f"**The calibration database cannot be reached.** {escape(exc)}"),
             icon=":material/cloud_off:")
    st.caption("Check MONGODB_URI (environment or .streamlit/secrets.toml), that the server is running and "
               "reachable from this machine, then reload the page.")


@contextmanager
def page_guard(what: str = "this page") -> Iterator[None]:
    """Wrap a page body: the message of any ``CopilotError`` (database, input, configuration) is shown with
    ``st.error``; anything else is logged and shown as a generic sentence.

    Streamlit's own control flow (st.stop, st.rerun, st.switch_page) derives from BaseException and passes."""
    try:
        yield
    except DatabaseUnavailable as exc:
        show_database_error(exc)
    except CopilotError as exc:  # InvalidArgument, UnknownChip, bad mode/window: the message says what to change
        st.error(escape(exc), icon=":material/error:")
    except Exception as exc:  # noqa: BLE001 - the boundary: log it for the operator, keep the user's page clean
        log.exception("error while rendering %s", what)
        st.error(escape(f"Something went wrong while building {what} ({type(exc).__name__}). "
                        "The details are in the server log."), icon=":material/error:")
