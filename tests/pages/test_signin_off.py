"""Sign-in off (no ``[auth]`` in the secrets): every page still renders, and the sidebar says plainly
that the app is open to anyone who reaches it."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.pages.conftest import APP, TIMEOUT


def test_sidebar_says_the_app_is_open_when_sign_in_is_off(app_env):
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT).run()
    assert not at.exception
    captions = " ".join(c.value for c in at.sidebar.caption)
    assert "open to anyone who reaches it" in captions
    assert not [b for b in at.sidebar.button if b.label == "Sign out"]
