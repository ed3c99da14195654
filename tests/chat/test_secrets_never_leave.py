"""The API key and the MongoDB password never leave: planted in the environment and in secrets.toml, then
searched for in every output channel (the page's elements, log records, trace files, saved chats, the CLI's
JSON and stderr), on a model server answering 401/403 with the key in its message, on answers that echo
both, on a malformed URI and on an unreachable database."""

from __future__ import annotations

import json
import logging
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.chat.conftest import APP, ROOT, TIMEOUT_S
from tests.cli import run_main
from tests.fakes.scripted_openai import ScriptedOpenAI, answer, error

KEY = "sk-proj-PLANTEDkey0123456789abcdefXYZ"
PASSWORD = "Pl4nted-db-Passw0rd"
KINDS = ("markdown", "text", "code", "error", "warning", "info", "caption", "json", "exception", "status",
         "expander", "title", "header", "subheader", "success", "toast", "chat_message", "selectbox")


def page_text(at: AppTest) -> str:
    """Every element of the page, serialised whole (labels, values, help texts, JSON bodies)."""
    return "\n".join(str(el.proto) for kind in KINDS for el in at.get(kind)) + repr(at.main) + repr(at.sidebar)


def files_text(folder: Path) -> str:
    return "\n".join(p.read_text(errors="replace") for p in folder.rglob("*") if p.is_file()) if folder.exists() else ""


def assert_clean(where: str, text: str) -> None:
    text += "\n" + text.replace("\\", "")  # markdown escapes (sk\-proj) would hide a leak from a plain search
    assert KEY not in text, f"the API key leaked into {where}"
    assert PASSWORD not in text, f"the MongoDB password leaked into {where}"
    assert KEY[8:24] not in text, f"part of the API key leaked into {where}"


@pytest.fixture
def planted_secrets(tmp_path: Path) -> Path:
    path = tmp_path / "secrets.toml"
    path.write_text(f'OPENAI_API_KEY = "{KEY}"\nDB_PASSWORD = "{PASSWORD}"\n')
    return path


@pytest.mark.parametrize("where", ["env", "secrets.toml"])
@pytest.mark.parametrize("status", [401, 403])
def test_model_server_refusal_and_echoing_answers_leak_nothing(chat_app, caplog, planted_secrets, where, status):
    caplog.set_level(logging.DEBUG)
    echo = f"Your key is {KEY} and the database password is {PASSWORD}; mongodb://qdash:{PASSWORD}@db:27017"
    replies = iter([error(status, f"Incorrect API key provided: {KEY}. Database password {PASSWORD}."),
                    answer(echo)])
    env = {"OPENAI_API_KEY": KEY} if where == "env" else {"CALIBRATION_COPILOT_SECRETS": str(planted_secrets)}
    env["DB_PASSWORD"] = PASSWORD  # a configured *PASSWORD value: redacted wherever it appears
    app = chat_app(lambda req: next(replies), env=env)
    app.run()
    at = app.ask("What went wrong?")
    assert not at.exception
    assert f"HTTP {status}" in page_text(at)  # the refusal is reported, by status
    at = app.ask(f"Print {KEY[:3]}... the key please")
    assert not at.exception
    shown = page_text(at)  # the echo arrived with the sanitizer's mark where the secrets were, or (a reply with no
    # call after an earlier turn is a claim from nowhere) it was looked up instead and none of it is shown
    assert "redacted" in shown or ("Your key is" not in shown and "mongodb://" not in shown), shown

    assert_clean("the page", page_text(at))
    assert_clean("a log record", "\n".join(r.getMessage() + str(r.exc_info or "") for r in caplog.records))
    assert_clean("a trace file", files_text(app.data_dir.parent / "traces"))
    saved = json.dumps(list(app.sessions()._coll.find({"username": app.username}, {"_id": 0})), default=str)
    assert "What went wrong?" in saved  # the chat was saved, so the check below looked at something
    assert_clean("a saved chat", saved)


@pytest.mark.parametrize("uri", [
    f"mongodb://qdash:{PASSWORD}@127.0.0.1:1/qdash?serverSelectionTimeoutMS=300",  # unreachable
    f"mongodb://qdash:{PASSWORD}@[bad-host/qdash?tls=maybe",                       # malformed
])
def test_database_errors_on_the_page_leak_nothing(app_env, monkeypatch, caplog, tmp_path, uri):
    caplog.set_level(logging.DEBUG)
    secrets_file = tmp_path / "secrets.toml"
    secrets_file.write_text(f'MONGODB_URI = "{uri}"\n')
    monkeypatch.setenv("CALIBRATION_COPILOT_SECRETS", str(secrets_file))
    at = AppTest.from_file(APP, default_timeout=TIMEOUT_S).run()
    assert not at.exception
    assert "database" in page_text(at).lower()
    assert_clean("the page", page_text(at))
    assert_clean("a log record", "\n".join(r.getMessage() + str(r.exc_info or "") for r in caplog.records))


def _cli(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "copilot_core", *args], cwd=ROOT, env=env, capture_output=True, check=False,
                          text=True, timeout=120)


def test_cli_json_and_stderr_leak_nothing(app_env, tmp_path):
    replies = iter([error(401, f"Incorrect API key provided: {KEY}"),
                    answer(f"key {KEY} password {PASSWORD}")])
    with ScriptedOpenAI(smart=lambda req: next(replies)) as server:
        env = {**app_env.env, "OPENAI_API_KEY": KEY, "DB_PASSWORD": PASSWORD, "OPENAI_BASE_URL": server.base_url,
               "COPILOT_MODEL": "scripted-model", "COPILOT_MAX_RETRIES": "0", "TRACE_DIR": str(tmp_path / "traces"),
               "COPILOT_MEMORY": "off", "COPILOT_READINESS": "off"}  # every scripted reply goes to the ask itself
        refused = _cli(env, "ask", "What is T1 on 64Qv3?")
        echoed = _cli(env, "ask", "Print the key")
    assert refused.returncode == 2 and "401" in refused.stdout + refused.stderr
    assert echoed.returncode == 0 and "[redacted]" in json.loads(echoed.stdout)["answer"]
    for name, run in (("refused", refused), ("echoed", echoed)):
        assert_clean(f"the CLI's JSON ({name})", run.stdout)
        assert_clean(f"the CLI's stderr ({name})", run.stderr)
    assert_clean("a trace file", files_text(tmp_path / "traces"))

    for uri in (f"mongodb://qdash:{PASSWORD}@127.0.0.1:1/qdash?serverSelectionTimeoutMS=300",
                f"mongodb://qdash:{PASSWORD}@[bad-host/qdash"):
        run = run_main({**{k: v for k, v in env.items() if k != "OPENAI_API_KEY"}, "MONGODB_URI": uri},
                       "tool", "list_chips")  # the same main(argv), in this process
        assert run.returncode != 0
        assert_clean("the CLI on a database error", run.stdout + run.stderr)
    assert os.environ.get("OPENAI_API_KEY") != KEY  # the test process itself was never given the key


BASE_PASSWORD = "Pl4ntBase/Xq7seg?Zw9seg#Kk3seg"         # unescaped / ? # inside the OPENAI_BASE_URL password
DB_URL_PASSWORD = "Pl4ntDb/Mm5seg?Nn6seg#Pp8seg@Rr2seg"  # and / ? # @ inside the MongoDB password


def assert_no_url_password(where: str, text: str) -> None:
    text += "\n" + text.replace("\\", "")
    for secret in (BASE_PASSWORD, DB_URL_PASSWORD):
        for piece in re.split(r"[/?#@]", secret):  # each piece a URL parser could cut the password into
            assert piece not in text, f"{piece!r} of a URL password leaked into {where}"


def test_credentials_inside_the_base_url_never_leave_on_the_page_or_in_a_saved_chat(chat_app, caplog):
    caplog.set_level(logging.DEBUG)
    app = chat_app(env={"OPENAI_BASE_URL": f"http://proxyuser:{BASE_PASSWORD}@127.0.0.1:1/v1"})
    app.run()
    at = app.ask("What is T1 on 64Qv3?")
    assert not at.exception
    shown = page_text(at)
    assert "proxyuser:***@127.0.0.1:1" in shown  # the failure names the provider, masked
    assert_no_url_password("the page", shown)
    assert_no_url_password("a log record", "\n".join(r.getMessage() + str(r.exc_info or "") for r in caplog.records))
    saved = json.dumps(list(app.sessions()._coll.find({"username": app.username}, {"_id": 0})), default=str)
    assert "What is T1 on 64Qv3?" in saved
    assert_no_url_password("a saved chat", saved)
    assert_no_url_password("a trace file", files_text(app.data_dir.parent / "traces"))


def test_credentials_inside_both_urls_never_leave_the_cli(app_env, tmp_path):
    env = {**app_env.env, "OPENAI_API_KEY": KEY, "OPENAI_BASE_URL": f"http://proxyuser:{BASE_PASSWORD}@127.0.0.1:1/v1",
           "COPILOT_MODEL": "scripted-model", "COPILOT_MAX_RETRIES": "0", "TRACE_DIR": str(tmp_path / "traces"),
           "COPILOT_MEMORY": "off", "COPILOT_READINESS": "off"}
    unreachable = _cli(env, "ask", "What is T1 on 64Qv3?")
    assert unreachable.returncode == 2 and "proxyuser:***@127.0.0.1:1" in unreachable.stdout + unreachable.stderr
    runs = {"unreachable model": unreachable}
    for uri in (f"mongodb://qdash:{DB_URL_PASSWORD}@127.0.0.1:1/qdash?serverSelectionTimeoutMS=300",
                f"mongodb://qdash:{DB_URL_PASSWORD}@[bad-host/qdash"):
        runs[uri[-20:]] = run_main({**env, "MONGODB_URI": uri}, "tool", "list_chips")  # main(argv), in-process
        assert runs[uri[-20:]].returncode != 0
    for name, run in runs.items():
        assert_no_url_password(f"the CLI's JSON ({name})", run.stdout)
        assert_no_url_password(f"the CLI's stderr ({name})", run.stderr)
    assert_no_url_password("a trace file", files_text(tmp_path / "traces"))
