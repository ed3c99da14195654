#!/bin/sh
# The container's start command: the demo is seeded only when no MONGODB_URI is set (a fresh volume), then the
# dashboard is served on one address: COPILOT_ADDRESS (default 127.0.0.1; compose sets the container's address on
# its own front network, never QDash's network).  PORT and STREAMLIT_SERVER_BASE_URL_PATH (a sub-path behind a
# reverse proxy) come from the environment.
set -eu
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python}"
"$PYTHON" -m copilot_core.demo --if-empty
exec "$PYTHON" -m streamlit run server.py --server.address="${COPILOT_ADDRESS:-127.0.0.1}" --server.port="${PORT:-8501}" \
  --server.headless=true --browser.gatherUsageStats=false
