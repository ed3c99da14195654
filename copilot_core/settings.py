"""One place that reads configuration: environment first, then ``.streamlit/secrets.toml``.

Read with ``tomllib`` rather than ``st.secrets`` so the CLI, the sandbox host and tests share
the same rules without importing Streamlit.  Environment wins so CI and shells can override.
"""

from __future__ import annotations

import hashlib
import os
import threading
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from copilot_core.errors import CopilotError

PROJECT_ROOT = Path(__file__).resolve().parents[1]
DEFAULT_SECRETS = PROJECT_ROOT / ".streamlit" / "secrets.toml"


def _load_secrets(path: Path) -> dict:
    try:
        with path.open("rb") as fh:
            data = tomllib.load(fh)
    except FileNotFoundError:
        return {}
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"cannot read {path}: {exc}") from exc
    flat = {k: v for k, v in data.items() if not isinstance(v, dict)}
    # Also accept Streamlit-style sections: [mongo] uri = ... -> MONGO_URI is not ours, so map explicitly.
    mongo = data["mongo"] if isinstance(data.get("mongo"), dict) else {}
    if "uri" in mongo:
        flat.setdefault("MONGODB_URI", mongo["uri"])
    return flat


class ConfigError(CopilotError, ValueError):
    """Configuration that cannot work; the message says what to change."""

    headline = "The configuration cannot be used:"


@dataclass(frozen=True)
class Settings:
    mongodb_uri: str | None = None
    mongo_db_name: str = "qdash"
    data_dir: Path = PROJECT_ROOT / ".data"
    project_id: str | None = None
    openai_api_key: str | None = field(default=None, repr=False)
    openai_base_url: str | None = None
    copilot_model: str | None = None
    copilot_api_style: str | None = None  # "responses" | "chat_completions" | None (auto)
    extra: dict = field(default_factory=dict, repr=False)  # every other key, for later features

    @property
    def embedded(self) -> bool:
        """True when no MongoDB URI is configured and the embedded demo engine is used."""
        return not self.mongodb_uri

    def get(self, key: str, default: str | None = None) -> str | None:
        """Another configuration key (env var name), read with the same precedence."""
        value = self.extra.get(key)
        return default if value in (None, "") else str(value)


KNOWN_KEYS = ("MONGODB_URI", "MONGO_DB_NAME", "DATA_DIR", "QDASH_PROJECT_ID", "OPENAI_API_KEY",
              "OPENAI_BASE_URL", "COPILOT_MODEL", "COPILOT_API_STYLE")
# Secrets a deployment hands over as files (Docker/Compose secrets): ``<KEY>_FILE`` names a file whose contents,
# stripped, are the value, so the secret never sits in the process environment.
SECRET_FILE_KEYS = ("MONGODB_URI", "OPENAI_API_KEY")


def _secret_files(env: dict[str, str]) -> dict[str, str]:
    """The values of ``<KEY>_FILE`` entries (a key set directly wins); a named file that cannot be read is a
    ConfigError naming the key, never a half-configured app."""
    found = {}
    for key in SECRET_FILE_KEYS:
        path = env.get(f"{key}_FILE", "").strip()
        if not path or env.get(key):
            continue
        try:
            found[key] = Path(path).read_text(encoding="utf-8").strip()
        except (OSError, UnicodeDecodeError) as exc:
            raise ConfigError(f"{key}_FILE names {path!r}, which cannot be read ({type(exc).__name__})") from None
    return found


def load_settings(env: dict[str, str] | None = None, secrets_path: Path | None = None) -> Settings:
    """Settings from ``env`` (default ``os.environ``) over the secrets file."""
    env = dict(os.environ if env is None else env)
    path = Path(env.get("CALIBRATION_COPILOT_SECRETS") or secrets_path or DEFAULT_SECRETS)
    secrets = _load_secrets(path)
    merged: dict[str, object] = {**{k: v for k, v in secrets.items()}, **{k: v for k, v in env.items() if v != ""},
                                 **{k: v for k, v in _secret_files(env).items() if v}}

    def pick(key: str) -> str | None:
        value = merged.get(key)
        return None if value in (None, "") else str(value)

    style = pick("COPILOT_API_STYLE")
    if style is not None and style not in ("responses", "chat_completions"):
        raise ConfigError(f"COPILOT_API_STYLE must be 'responses' or 'chat_completions', not {style!r}")
    for key, choices in (("COPILOT_TOOL_ROUTER", ("auto", "on", "off")), ("COPILOT_MODEL_SIZE", ("small", "large"))):
        value = pick(key)
        if value is not None and value.strip().lower() not in choices:
            raise ConfigError(f"{key} must be one of {', '.join(choices)}, not {value!r}")
    data_dir = Path(pick("DATA_DIR") or PROJECT_ROOT / ".data")
    if not data_dir.is_absolute():
        data_dir = PROJECT_ROOT / data_dir
    return Settings(
        mongodb_uri=pick("MONGODB_URI"),
        mongo_db_name=pick("MONGO_DB_NAME") or "qdash",
        data_dir=data_dir,
        project_id=pick("QDASH_PROJECT_ID"),
        openai_api_key=pick("OPENAI_API_KEY"),
        openai_base_url=pick("OPENAI_BASE_URL"),
        copilot_model=pick("COPILOT_MODEL"),
        copilot_api_style=style,
        extra={k: v for k, v in merged.items() if k not in KNOWN_KEYS and k.removesuffix("_FILE") not in SECRET_FILE_KEYS},
    )


_CURRENT: dict[str, Settings] = {}
_CURRENT_LOCK = threading.Lock()


def current_settings() -> Settings:
    """This process's settings: the secrets file is read once per environment, not on every cached read.
    After editing ``.streamlit/secrets.toml``, :func:`reload_settings` (the app's "Reload settings" button)."""
    key = hashlib.sha256(repr(sorted(os.environ.items())).encode()).hexdigest()
    with _CURRENT_LOCK:
        found = _CURRENT.get(key)
    if found is None:
        found = load_settings()
        with _CURRENT_LOCK:
            _CURRENT[key] = found
    return found


def reload_settings() -> None:
    """Forget the settings read so far; the next :func:`current_settings` reads the secrets file again."""
    with _CURRENT_LOCK:
        _CURRENT.clear()
