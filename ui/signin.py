"""The sign-in gate every page passes (called once from ``app.py``).

Sign-in is on when ``.streamlit/secrets.toml`` has an ``[auth]`` section (Streamlit's OIDC login): then
nothing renders until the user has signed in (and, with ``COPILOT_ALLOWED_USERS``, is on the list).  Off,
the sidebar says plainly that the app is open to anyone who reaches it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import NoReturn

import streamlit as st

from copilot_core.access import AllowList, owner_id
from copilot_core.render_safety import escape, safe_markdown, safe_text
from copilot_core.settings import Settings, load_settings
from ui import data


@dataclass(frozen=True)
class SignedIn:
    owner: str  # stable id derived from the provider's iss + sub: owns chat sessions
    name: str
    email: str | None


def sign_in_enabled() -> bool:
    """True when Streamlit's secrets hold an ``[auth]`` section."""
    try:
        return "auth" in st.secrets
    except Exception:  # noqa: BLE001 - no secrets file at all: sign-in is off
        return False


def signed_in_user() -> SignedIn | None:
    """The signed-in user, or None (sign-in off or nobody signed in)."""
    if not sign_in_enabled() or not st.user.get("is_logged_in", False):
        return None
    sub, iss = str(st.user.get("sub") or ""), str(st.user.get("iss") or "")
    if not sub:
        return None
    email = st.user.get("email")
    name = st.user.get("name") or email or "signed-in user"
    return SignedIn(owner=owner_id(iss, sub), name=safe_text(name, 80), email=str(email) if email else None)


def sign_in_gate(settings: Settings | None = None) -> SignedIn | None:
    """Stop the script unless the visitor may see the app; say who is signed in (or that nobody needs to)."""
    if not sign_in_enabled():
        st.sidebar.caption(":material/lock_open: Sign-in is off: this app is open to anyone who reaches it. "
                           "Configure `[auth]` in `.streamlit/secrets.toml` to require sign-in.")
        return None
    if not st.user.get("is_logged_in", False):
        _only_page(_sign_in_view)
    user = signed_in_user()
    settings = settings or load_settings()
    allowed = AllowList.parse(settings.get("COPILOT_ALLOWED_USERS"))
    if user is None or not allowed.allows(user.email, st.user.get("email_verified")):
        _only_page(_denied_view)
    with st.sidebar:
        st.caption(safe_markdown(f":material/account_circle: Signed in as **{escape(user.name)}**"),
                   help=safe_markdown(f"Your owner id, for `python -m copilot_core owners assign --to`: "
                                      f"{escape(user.owner)}"))
        st.button("Sign out", icon=":material/logout:", on_click=st.logout, key="signin_logout")
        hidden_items_hint()
    return user


def hidden_items_hint() -> None:
    """A sidebar note when chats or memory saved before sign-in exist: nobody sees them until an administrator
    assigns them (counts only, never their content or owner names)."""
    try:
        chats, entries = _hidden_counts(data.target_key(data.settings()))
    except Exception:  # noqa: BLE001 - the pages report an unreachable database themselves
        return
    if chats or entries:
        parts = [f"{chats} chat{'s' if chats != 1 else ''}" if chats else "",
                 f"{entries} memory entr{'ies' if entries != 1 else 'y'}" if entries else ""]
        st.caption(safe_markdown(f":material/visibility_off: {' and '.join(p for p in parts if p)} saved before "
                                 f"sign-in {'are' if chats + entries > 1 else 'is'} hidden from everyone. An "
                                 "administrator can assign them to a user with `python -m copilot_core owners`."))


@st.cache_data(ttl=300, show_spinner=False)
def _hidden_counts(target: str) -> tuple[int, int]:
    from copilot_core.data.owners import hidden_by_sign_in

    return hidden_by_sign_in(data.repository().db)


def _only_page(view: Callable[[], None]) -> NoReturn:
    """Show ``view`` as the app's only page (no page of the app is listed or reachable), then stop."""
    st.navigation([st.Page(view, title="Sign in", icon=":material/lock:")], position="hidden").run()
    st.stop()


def _sign_in_view() -> None:
    st.title("Calibration Copilot")
    st.info("Sign in with your lab account to use the dashboard and the copilot.", icon=":material/lock:")
    st.button("Sign in", icon=":material/login:", on_click=st.login, type="primary", key="signin_login")


def _denied_view() -> None:
    st.title("Calibration Copilot")
    st.error("This account is not allowed to use this app. Ask the lab's administrator to add your e-mail "
             "address or domain to COPILOT_ALLOWED_USERS.", icon=":material/block:")
    st.button("Sign out", icon=":material/logout:", on_click=st.logout, key="signin_logout_denied")
