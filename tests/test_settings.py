"""Settings are read once per process (and environment); the secrets file is read again only on reload."""

from __future__ import annotations

from copilot_core.settings import current_settings, reload_settings


def test_secrets_file_is_read_once_until_reload(tmp_path, monkeypatch):
    secrets = tmp_path / "secrets.toml"
    secrets.write_text('COPILOT_MODEL = "model-a"\n')
    monkeypatch.delenv("COPILOT_MODEL", raising=False)
    monkeypatch.setenv("CALIBRATION_COPILOT_SECRETS", str(secrets))
    reload_settings()
    assert current_settings().copilot_model == "model-a"
    secrets.write_text('COPILOT_MODEL = "model-b"\n')
    assert current_settings().copilot_model == "model-a"  # not re-read on every call
    reload_settings()
    assert current_settings().copilot_model == "model-b"
    monkeypatch.setenv("COPILOT_MODEL", "from-env")  # the environment is always current
    assert current_settings().copilot_model == "from-env"
