"""What can run of the deployment without Docker: the image's start command and health check against a real
server, the compose override against the Compose Specification's JSON schema (vendored from compose-spec/compose-spec
``schema/compose-spec.json``), and the least-privilege MongoDB user's commands."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import yaml
from jsonschema import Draft7Validator

from tests.conftest import ROOT

DEPLOY = ROOT / "deploy"
SCHEMA = Path(__file__).with_name("compose-spec.json")
START_TIMEOUT = 240  # seeding skipped; server start with its warm-up on a busy 2-core machine


def _dockerfile() -> dict[str, str]:
    """Dockerfile instructions (continuation lines joined), last one of each kind."""
    text = re.sub(r"\\\n\s*", " ", (ROOT / "Dockerfile").read_text(encoding="utf-8"))
    out = {}
    for line in text.splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            word, _, rest = line.strip().partition(" ")
            out[word.upper()] = out.get(word.upper(), "") + ("\n" if word.upper() in out else "") + rest
    return out


def test_dockerfile_slim_non_root_volume_and_health():
    d = _dockerfile()
    assert re.fullmatch(r"python:3\.1[1-9]-slim", d["FROM"])
    assert d["USER"] not in ("root", "0") and "useradd" in d["RUN"]
    assert "DATA_DIR=/data" in d["ENV"] and json.loads(d["VOLUME"]) == ["/data"]
    assert "--require-hashes -r requirements.lock" in d["RUN"]
    assert d["HEALTHCHECK"].split(" CMD ")[1] == '["python", "deploy/healthcheck.py"]'
    assert json.loads(d["CMD"]) == ["deploy/start.sh"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _health(env: dict[str, str]) -> int:
    check = json.loads(_dockerfile()["HEALTHCHECK"].split(" CMD ")[1])
    check[0] = sys.executable
    return subprocess.run(check, cwd=ROOT, env=env, capture_output=True, timeout=30).returncode


def test_start_command_serves_the_app_and_the_health_check_sees_it(tmp_path):
    data = tmp_path / "data"
    seeded = subprocess.run([sys.executable, "-m", "copilot_core.demo", "--data-dir", str(data), "--chips", "16",
                             "--days", "2"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert seeded.returncode == 0, seeded.stderr
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("MONGODB_URI", "CALIB_DATA_DIR")}
    env |= {"DATA_DIR": str(data), "PORT": str(port), "PYTHON": sys.executable,
            "STREAMLIT_SERVER_BASE_URL_PATH": "copilot", "STREAMLIT_SERVER_FILE_WATCHER_TYPE": "none",
            "CALIBRATION_COPILOT_SECRETS": str(tmp_path / "none.toml")}
    assert _health(env) == 1  # nothing listening yet: unhealthy, not a crash
    log = (tmp_path / "server.log").open("w+")
    proc = subprocess.Popen([str(ROOT / json.loads(_dockerfile()["CMD"])[0])], cwd=ROOT, env=env, stdout=log,
                            stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while _health(env) != 0:
            assert proc.poll() is None, log.seek(0) or log.read()[-3000:]
            assert time.monotonic() < deadline, "the start command did not become healthy"
            time.sleep(0.5)  # polling a server we started, not synchronising the test
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/copilot/", timeout=10) as reply:
            assert reply.status == 200 and b"<html" in reply.read().lower()
        log.seek(0)
        assert "nothing seeded" in log.read()  # the volume already held data: the demo is not written again
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(5)
        log.close()
    assert _health(env) == 1


def _override() -> dict:
    return yaml.safe_load((DEPLOY / "compose.override.yaml").read_text(encoding="utf-8"))


def test_compose_override_follows_the_compose_specification():
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    errors = sorted(Draft7Validator(schema).iter_errors(_override()), key=lambda e: list(e.path))
    assert not errors, [f"{list(e.path)}: {e.message}" for e in errors]
    broken = _override()
    broken["services"]["calibration-copilot"]["ports"] = {"8501": "8501"}  # the schema does catch mistakes
    assert list(Draft7Validator(schema).iter_errors(broken))


def test_compose_override_joins_qdash_with_least_privilege_and_read_only_figures():
    service = _override()["services"]["calibration-copilot"]
    uri = service["environment"]["MONGODB_URI"]
    assert re.fullmatch(r"mongodb://copilot:\$\{COPILOT_MONGO_PASSWORD:\?[^}]+\}@mongo:27017/"
                        r"\$\{MONGO_DB_NAME:-qdash\}\?authSource=admin", uri)
    assert service["networks"] == ["custom_net"] and service["depends_on"] == ["mongo"]
    assert "${CALIB_DATA_PATH:-./calib_data}:/app/calib_data:ro" in service["volumes"]
    assert service["environment"]["CALIB_DATA_DIR"] == "/app/calib_data"
    assert "copilot-data:/data" in service["volumes"]
    assert all(p.startswith("127.0.0.1:") for p in service["ports"])


def test_mongo_user_reads_qdash_and_writes_only_its_own_collections():
    done = subprocess.run([sys.executable, str(DEPLOY / "mongo_user.py"), "--print", "--db", "labdb"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    role, user = json.loads(done.stdout)
    own = ["find", "insert", "update", "remove", "createIndex", "listIndexes"]
    assert role == {"createRole": "copilotWriter", "roles": [], "privileges": [
        {"resource": {"db": "labdb", "collection": "copilot_chat_session"}, "actions": own},
        {"resource": {"db": "labdb", "collection": "copilot_memory"}, "actions": own}]}
    assert user == {"createUser": "copilot", "pwd": "<password>",
                    "roles": [{"role": "read", "db": "labdb"}, {"role": "copilotWriter", "db": "admin"}]}
    bad = subprocess.run([sys.executable, str(DEPLOY / "mongo_user.py"), "--apply"], cwd=ROOT, capture_output=True,
                         text=True, timeout=60)
    assert bad.returncode == 2 and "--apply needs --uri and --password" in bad.stderr


def test_the_collections_the_app_writes_are_the_role_s():
    """Every collection the data layer writes to is one the role may write (read from the source)."""
    written = set()
    for path in (ROOT / "copilot_core" / "data").glob("*.py"):
        if path.name in ("importer.py", "connection.py", "serial.py"):  # embedded store only (import, QDash indexes)
            continue
        text = path.read_text(encoding="utf-8")
        if re.search(r"\.(insert_one|insert_many|update_one|update_many|delete_one|delete_many|replace_one)\(", text):
            written |= set(re.findall(r'"(copilot_\w+)"', text))
    assert written == {"copilot_chat_session", "copilot_memory"}
