"""The Copilot page's sidebar: provider in use, analysis target, stored chat sessions (resume, rename,
delete, new chat) and the CSV export of this chat's data store."""

from __future__ import annotations

import streamlit as st

from copilot_core.chat import ChatState, csv_exports
from copilot_core.data.chat_sessions import ChatSessionStore, clean_title
from copilot_core.masking import mask_url
from copilot_core.render_safety import escape, safe_label, safe_markdown, safe_text
from ui.chat_render import RERUNS_KEY
from ui.chat_session import target_label

NOTICE_KEY = "copilot_session_notice"
PICK_KEY = "copilot_session_pick"
RENAME_KEY = "copilot_session_rename"


def render_provider(state: ChatState, problem: str | None) -> None:
    st.subheader("Model")
    provider = state.provider
    if provider is None:
        if problem:
            st.error(escape(problem))
        else:
            st.warning("No model configured. See the page for how to set one up.")
        return
    where = "OpenAI" if provider.is_openai else mask_url(provider.base_url)
    # safe_markdown rebuilds each code span, so a backtick inside a value cannot close it early
    st.markdown(safe_markdown(f"**Provider:** `{where}`  \n**Model:** `{provider.model}`  \n"
                              f"**API style:** `{provider.api_style}`"))
    from copilot_core.readiness import cached_readiness

    readiness = cached_readiness(provider)  # never probes here: the sidebar must not block
    if readiness is None:
        st.caption("Tool-calling check: running in the background (the result shows here).")
    else:
        st.caption(safe_markdown(f"Tool-calling check: **{escape(readiness.level)}** tools. {escape(readiness.reason)}"))


def render_analysis_target(state: ChatState) -> None:
    if state.mode != "analysis" or not (state.chip_id and state.qid):
        return
    st.subheader("Analysis")
    st.markdown(safe_markdown(f"**Chip:** `{state.chip_id}`  \n**Qubit:** `{target_label(state)}`"))


# ------------------------------------------------------------------ sessions
def _notice(text: str | None) -> None:
    if text:
        st.session_state[NOTICE_KEY] = text


def _new_chat(state: ChatState) -> None:
    state.new_chat()
    st.session_state.pop(RERUNS_KEY, None)


def _resume(state: ChatState, sessions: ChatSessionStore) -> None:
    session_id = st.session_state.get(PICK_KEY)
    try:
        doc = sessions.get(state.username, session_id) if session_id else None
    except Exception as exc:  # bad id or database error: say so
        _notice(f"Could not open that chat ({type(exc).__name__}).")
        return
    if doc is None:
        _notice("That chat no longer exists.")
        return
    read_only = sessions.read_only(doc)
    state.load_document(doc, read_only=read_only)
    st.session_state.pop(RERUNS_KEY, None)
    if read_only:
        _notice("This QDash chat belongs to no project, so it is read-only here: what you ask next continues in "
                "a copy saved in this project.")


def _rename(state: ChatState, sessions: ChatSessionStore) -> None:
    session_id, title = st.session_state.get(PICK_KEY), st.session_state.get(RENAME_KEY, "")
    if not session_id or not str(title).strip():
        _notice("Type a new title first.")
        return
    try:
        renamed = sessions.rename(state.username, session_id, title)
    except Exception as exc:
        _notice(f"Could not rename that chat ({type(exc).__name__}).")
        return
    if not renamed:
        _notice("That chat was not renamed: it no longer exists, or it is QDash's and belongs to no project "
                "(read-only here).")
        return
    if session_id == state.session_id:
        state.title = clean_title(title)
    st.session_state[RENAME_KEY] = ""


def _delete(state: ChatState, sessions: ChatSessionStore) -> None:
    session_id = st.session_state.get(PICK_KEY)
    try:
        deleted = bool(session_id) and sessions.delete(state.username, session_id)
    except Exception as exc:
        _notice(f"Could not delete that chat ({type(exc).__name__}).")
        return
    if session_id and not deleted:
        _notice("That chat was not deleted: it no longer exists, or it is QDash's and belongs to no project "
                "(read-only here).")
    if deleted and session_id == state.session_id:
        _new_chat(state)


def render_sessions(state: ChatState, sessions: ChatSessionStore | None) -> None:
    st.subheader("Chats")
    st.button("New chat", key="copilot_new_chat", icon=":material/add:", on_click=_new_chat, args=(state,),
              width="stretch")
    if notice := st.session_state.pop(NOTICE_KEY, None):
        st.warning(escape(notice))
    if sessions is None:
        st.caption("Chats are not saved: the database is unavailable.")
        return
    try:
        listed = sessions.list(state.username)
    except Exception as exc:
        st.warning(escape(f"Saved chats cannot be listed ({type(exc).__name__})."))
        return
    if not listed:
        st.caption("No saved chats yet.")
        return
    titles = {s["session_id"]: _option_label(s) for s in listed}
    if st.session_state.get(PICK_KEY) not in titles:
        st.session_state[PICK_KEY] = state.session_id if state.session_id in titles else listed[0]["session_id"]
    st.selectbox("Saved chats", options=list(titles), format_func=lambda key: safe_text(titles[key]), key=PICK_KEY)
    left, right = st.columns(2)
    left.button("Open", key="copilot_open_chat", icon=":material/history:", on_click=_resume,
                args=(state, sessions), width="stretch")
    right.button("Delete", key="copilot_delete_chat", icon=":material/delete:", on_click=_delete,
                 args=(state, sessions), width="stretch")
    st.text_input("New title", key=RENAME_KEY, max_chars=80, placeholder="Rename the selected chat")
    st.button("Rename", key="copilot_rename_chat", icon=":material/edit:", on_click=_rename,
              args=(state, sessions), width="stretch")


def _option_label(session: dict) -> str:
    when = session.get("updated_at")
    stamp = when.strftime("%m-%d %H:%M") if hasattr(when, "strftime") else ""
    return f"{session['title']} · {stamp} · {session['message_count']} msgs"


# ------------------------------------------------------------------ export
def render_exports(state: ChatState) -> None:
    """Downloads of this chat.  The notebook and the HTML page (plotly.js inline, ~5 MB) are written when their
    button is clicked, from the chat as this run shows it, not on every run of the page.  A click does not rerun
    the page: a rerun would give the other button a new download id while the browser may still hold the old one,
    and a second download right after the first would then fetch nothing."""
    if state.messages:
        from copilot_core.chat.html_export import chat_html
        from copilot_core.chat.notebook import chat_notebook, notebook_filename
        from ui.data import settings

        messages, title, config = list(state.messages), state.title, settings()
        st.download_button("Download as notebook",
                           data=lambda: chat_notebook(messages, title=title, settings=config),
                           file_name=notebook_filename(title), mime="application/x-ipynb+json",
                           key="copilot_notebook", on_click="ignore", icon=":material/download:", width="stretch",
                           help="A Jupyter notebook that fetches the same data again and reruns each analysis "
                                "(no keys or passwords are written into it).")
        st.download_button("Download as HTML", data=lambda: chat_html(messages, title=title),
                           file_name=notebook_filename(title).removesuffix(".ipynb") + ".html",
                           mime="text/html", key="copilot_chat_html", on_click="ignore", icon=":material/download:",
                           width="stretch",
                           help="The chat as one self-contained page that opens offline.")
    exports = csv_exports(state.store)
    st.subheader("Data")
    if not exports:
        st.caption("Datasets the copilot fetches in this chat appear here as CSV downloads.")
        return
    for i, export in enumerate(exports):
        st.download_button(safe_label(f"{export.key} ({export.rows} rows)"), data=export.data, file_name=export.filename,
                           mime="text/csv", key=f"copilot_csv_{i}_{export.filename}", icon=":material/download:",
                           width="stretch")
