#!/bin/sh
# The container's start command: the demo is seeded only when no MONGODB_URI is set (a fresh volume), then the
# dashboard is served on all interfaces of the container.  PORT and STREAMLIT_SERVER_BASE_URL_PATH (a sub-path
# behind a reverse proxy) come from the environment.
set -eu
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python}"
"$PYTHON" -m copilot_core.demo --if-empty
exec "$PYTHON" -m streamlit run server.py --server.address=0.0.0.0 --server.port="${PORT:-8501}" \
  --server.headless=true --browser.gatherUsageStats=false
