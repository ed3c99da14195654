"""The container's HEALTHCHECK: exit 0 when Streamlit's ``/_stcore/health`` answers ``ok`` (under
``STREAMLIT_SERVER_BASE_URL_PATH`` when the app is served on a sub-path).  The slim image has no curl."""

from __future__ import annotations

import os
import sys
import urllib.request


def health_url(env: dict[str, str]) -> str:
    """The health endpoint on the address the app listens on (``COPILOT_ADDRESS``, as ``start.sh`` binds it)."""
    base = env.get("STREAMLIT_SERVER_BASE_URL_PATH", "").strip("/")
    host = env.get("COPILOT_ADDRESS", "").strip() or "127.0.0.1"
    return f"http://{host}:{env.get('PORT', '8501')}/{base + '/' if base else ''}_stcore/health"


def main() -> int:
    try:
        with urllib.request.urlopen(health_url(dict(os.environ)), timeout=4) as reply:  # noqa: S310 - our own address
            return 0 if reply.status == 200 and reply.read().strip() == b"ok" else 1
    except OSError as exc:
        print(f"unhealthy: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
