# Calibration Copilot next to a QDash install: see README "Deploy next to QDash".
# Build: docker build -t calibration-copilot .     Run: deploy/compose.override.yaml
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PORT=8501 DATA_DIR=/data

# util-linux: `unshare`, which the sandbox's network-namespace layer and .ci/kernel_layers.py use
RUN apt-get update && apt-get install -y --no-install-recommends util-linux && rm -rf /var/lib/apt/lists/*

WORKDIR /srv/copilot
COPY requirements.lock ./
RUN pip install --require-hashes -r requirements.lock

COPY . .
# Non-root: the dashboard, the copilot and the sandbox's Landlock and namespace layers work without root; only
# the "drop to nobody" layer needs a root worker (see README "Sandbox layers in the container").
RUN useradd --system --uid 10001 --home-dir /srv/copilot copilot \
    && mkdir -p /data && chown copilot /data
USER copilot
VOLUME ["/data"]
EXPOSE 8501

HEALTHCHECK --interval=30s --timeout=5s --start-period=120s --retries=3 CMD ["python", "deploy/healthcheck.py"]
CMD ["deploy/start.sh"]
