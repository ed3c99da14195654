"""Provider selection from settings: API style defaults, local servers without keys, hidden keys."""

from __future__ import annotations

import pytest

from copilot_core.agent import provider_from_settings
from copilot_core.settings import ConfigError, load_settings


def settings(**env):
    return load_settings(env={k: str(v) for k, v in env.items()})


def test_nothing_configured_means_no_provider():
    assert provider_from_settings(settings()) is None


def test_openai_defaults_to_responses_and_hides_the_key():
    provider = provider_from_settings(settings(OPENAI_API_KEY="sk-abcdefghijkl"))
    assert provider.api_style == "responses" and provider.base_url is None
    assert "sk-abcdefghijkl" not in repr(provider)
    assert provider.label().startswith("OpenAI ") and provider.label().endswith("· responses")


def test_local_server_defaults_to_chat_completions_with_a_dummy_key():
    provider = provider_from_settings(settings(OPENAI_BASE_URL="http://127.0.0.1:8089/v1/"))
    assert provider.api_style == "chat_completions" and provider.api_key
    assert provider.base_url == "http://127.0.0.1:8089/v1"
    assert provider.label() == "127.0.0.1:8089 local-model · chat_completions"


def test_explicit_style_and_tuning_keys_win():
    provider = provider_from_settings(settings(OPENAI_BASE_URL="http://127.0.0.1:1/v1", COPILOT_API_STYLE="responses",
                                               COPILOT_MODEL="qwen", COPILOT_TEMPERATURE="none",
                                               COPILOT_MAX_RETRIES="0", COPILOT_TIMEOUT_S="7.5"))
    assert (provider.api_style, provider.model, provider.temperature, provider.max_retries, provider.timeout_s) == \
        ("responses", "qwen", None, 0, 7.5)


@pytest.mark.parametrize("env, words", [
    ({"OPENAI_BASE_URL": "ftp://x"}, "http"),
    ({"OPENAI_API_KEY": "k", "COPILOT_TEMPERATURE": "warm"}, "COPILOT_TEMPERATURE"),
    ({"OPENAI_BASE_URL": "https://api.openai.com/v1"}, "OPENAI_API_KEY"),
])
def test_bad_configuration_says_what_to_fix(env, words):
    with pytest.raises(ConfigError, match=words):
        provider_from_settings(settings(**env))
