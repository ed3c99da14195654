"""Every configured URI or URL is shown through ``mask_url``: passwords pasted unescaped (holding ``/ ? # @``)
must not leak through a URL parser that reads part of them as host, path, query or fragment."""

from __future__ import annotations

import pytest

from copilot_core.guardrails import configured_secrets, sanitize_output
from copilot_core.llm.provider import ProviderConfig
from copilot_core.data.connection import describe_target
from copilot_core.masking import mask_url, url_password
from copilot_core.settings import Settings

# (url, password planted in it, what must be shown), written out by hand
CASES = [
    ("mongodb://qdash:pl/ain@db.lab:27017/qdash", "pl/ain", "mongodb://qdash:***@db.lab:27017/qdash"),
    ("mongodb://qdash:a?b=c@db.lab/qdash", "a?b=c", "mongodb://qdash:***@db.lab/qdash"),
    ("mongodb://qdash:x#frag@db.lab/qdash?authSource=admin", "x#frag", "mongodb://qdash:***@db.lab/qdash"),
    ("mongodb://qdash:p@ss@w0rd@db.lab:27017", "p@ss@w0rd", "mongodb://qdash:***@db.lab:27017"),
    ("mongodb+srv://u:/?#@@cluster0.example.net/db", "/?#@", "mongodb+srv://u:***@cluster0.example.net/db"),
    ("mongodb://u:pw@h1:27017,h2:27017/db?replicaSet=rs&password=inquery", "inquery",
     "mongodb://u:***@h1:27017,h2:27017/db"),
    ("http://proxyuser:s3cr/et?x#y@127.0.0.1:8089/v1", "s3cr/et?x#y", "http://proxyuser:***@127.0.0.1:8089/v1"),
    ("https://tok3nAsUser@llm.lab/v1", "tok3nAsUser", "https://***@llm.lab/v1"),
    ("http://127.0.0.1:8089/v1", None, "http://127.0.0.1:8089/v1"),
]


@pytest.mark.parametrize("url,password,shown", CASES)
def test_mask_url_hides_the_password_whatever_it_holds(url, password, shown):
    assert mask_url(url) == shown
    if password:
        assert password not in mask_url(url)


@pytest.mark.parametrize("url,password,shown", [c for c in CASES if c[0].startswith("mongodb")])
def test_describe_target_masks_mongodb_uris(url, password, shown):
    described = describe_target(Settings(mongodb_uri=url))
    assert password not in described and described.startswith(shown)


def test_a_url_without_scheme_shows_nothing_of_it():
    assert "secret" not in mask_url("user:secret@host/db") and mask_url("") == ""


def test_provider_label_and_echoes_hide_the_base_url_password():
    provider = ProviderConfig(api_key="k", base_url="http://u:pw/x?y#z@127.0.0.1:8089/v1", model="m",
                              api_style="chat_completions")
    assert provider.label() == "u:***@127.0.0.1:8089 m · chat_completions"
    settings = Settings(openai_base_url="http://u:pw/x?y#z@127.0.0.1:8089/v1",
                        mongodb_uri="mongodb://q:db#pa/ss@db.lab/qdash")
    assert {"pw/x?y#z", "db#pa/ss"} <= set(configured_secrets(settings))
    echoed = "see http://u:other/p#w@host/v1 and mongodb://q:db#pa/ss@db.lab/qdash"
    out = sanitize_output(echoed, configured_secrets(settings))
    assert "other/p#w" not in out and "db#pa/ss" not in out and "http://u:***@host/v1" in out
    assert url_password("http://127.0.0.1/v1") is None
