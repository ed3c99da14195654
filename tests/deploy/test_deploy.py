"""What can run of the deployment without Docker: the image's start command and health check against a real
server, the compose override against the Compose Specification's JSON schema (vendored from compose-spec/compose-spec
``schema/compose-spec.json``), and the least-privilege MongoDB user's commands."""

from __future__ import annotations

import ipaddress
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

import pytest
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


def _listening(port: int) -> set[str]:
    """The local addresses with a listening TCP socket on ``port``, from the kernel's own tables."""
    found = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            local, state = line.split()[1], line.split()[3]
            address, _, hex_port = local.partition(":")
            if state == "0A" and int(hex_port, 16) == port:
                raw = bytes.fromhex(address)
                found.add(socket.inet_ntop(socket.AF_INET if len(raw) == 4 else socket.AF_INET6,
                                           raw[::-1] if len(raw) == 4 else b"".join(
                                               raw[i:i + 4][::-1] for i in range(0, 16, 4))))
    return found


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
        assert _listening(port) == {"127.0.0.1"}  # COPILOT_ADDRESS unset: loopback, no other interface
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
    assert "MONGODB_URI" not in service["environment"] and "OPENAI_API_KEY" not in service["environment"]
    assert service["environment"]["MONGODB_URI_FILE"] == "/run/secrets/copilot_mongodb_uri"
    assert service["environment"]["OPENAI_API_KEY_FILE"] == "/run/secrets/copilot_openai_key"
    assert set(service["secrets"]) == {"copilot_mongodb_uri", "copilot_openai_key"}
    assert all(set(v) == {"file"} for v in _override()["secrets"].values())
    assert not any(re.search(r"PASSWORD|API_KEY\b|TOKEN|SECRET", str(v)) for v in service["environment"].values())
    assert set(service["networks"]) == {"custom_net", "copilot_front"} and service["depends_on"] == ["mongo"]
    assert "${CALIB_DATA_PATH:-./calib_data}:/app/calib_data:ro" in service["volumes"]
    assert service["environment"]["CALIB_DATA_DIR"] == "/app/calib_data"
    assert "copilot-data:/data" in service["volumes"]
    assert all(p.startswith("127.0.0.1:") for p in service["ports"])


def test_compose_runs_the_app_with_a_read_only_root_no_capabilities_and_limits():
    service = _override()["services"]["calibration-copilot"]
    assert service["read_only"] is True and service["cap_drop"] == ["ALL"] and "cap_add" not in service
    assert service["security_opt"] == ["no-new-privileges:true"] and "privileged" not in service
    assert [t.split(":")[0] for t in service["tmpfs"]] == ["/tmp"]
    assert service["mem_limit"] and service["cpus"] and 0 < int(service["pids_limit"]) <= 1024
    # the app listens on its front network's address only, which the published port reaches; QDash's network
    # (custom_net) is only for reaching mongo
    address = service["environment"]["COPILOT_ADDRESS"]
    assert service["networks"]["copilot_front"]["ipv4_address"] == address
    assert service["networks"]["custom_net"] in ({}, None)
    subnet = _override()["networks"]["copilot_front"]["ipam"]["config"][0]["subnet"]
    assert ipaddress.ip_address(address) in ipaddress.ip_network(subnet)


def _server_blocks(conf: str) -> list[str]:
    """The ``server { ... }`` blocks of an nginx configuration, comments removed, braces matched."""
    text = re.sub(r"#[^\n]*", "", conf)
    blocks = []
    for found in re.finditer(r"\bserver\s*\{", text):
        depth, i = 1, found.end()
        while depth:
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        blocks.append(text[found.end():i - 1])
    return blocks


def test_nginx_forbids_framing_and_sniffing_and_sends_hsts_on_tls_only():
    blocks = _server_blocks((DEPLOY / "nginx.conf").read_text(encoding="utf-8"))
    tls = [b for b in blocks if re.search(r"listen\s+443\s+ssl", b)]
    plain = [b for b in blocks if b not in tls]
    assert len(tls) == 1 and plain
    top = re.sub(r"location[^{]*\{[^{}]*\}", "", tls[0])  # the server level, without its locations
    headers = dict(re.findall(r'add_header\s+(\S+)\s+"([^"]*)"\s+always;', top))
    assert headers["Content-Security-Policy"] == "frame-ancestors 'none'"
    assert headers["X-Frame-Options"] == "DENY" and headers["X-Content-Type-Options"] == "nosniff"
    assert re.fullmatch(r"max-age=(\d+); includeSubDomains", headers["Strict-Transport-Security"])
    assert int(headers["Strict-Transport-Security"].split("=")[1].split(";")[0]) >= 15552000
    # a location with an add_header of its own would drop every header above for its responses
    assert all("add_header" not in loc for loc in re.findall(r"location[^{]*\{([^{}]*)\}", tls[0]))
    for block in plain:  # plain HTTP serves nothing but a redirect to HTTPS, and no HSTS
        assert re.search(r"return\s+301\s+https://", block) and "proxy_pass" not in block
        assert "Strict-Transport-Security" not in block


def test_a_secret_comes_from_the_file_a_deployment_names(tmp_path):
    from copilot_core.settings import ConfigError, load_settings

    uri = tmp_path / "uri.txt"
    uri.write_text("mongodb://copilot:pw@mongo:27017/qdash?authSource=admin\n")
    key = tmp_path / "key.txt"
    key.write_text("sk-from-file\n")
    none = str(tmp_path / "none.toml")
    settings = load_settings({"MONGODB_URI_FILE": str(uri), "OPENAI_API_KEY_FILE": str(key),
                              "CALIBRATION_COPILOT_SECRETS": none})
    assert settings.mongodb_uri == "mongodb://copilot:pw@mongo:27017/qdash?authSource=admin"
    assert settings.openai_api_key == "sk-from-file" and "OPENAI_API_KEY_FILE" not in settings.extra
    with pytest.raises(ConfigError, match="MONGODB_URI_FILE"):
        load_settings({"MONGODB_URI_FILE": str(tmp_path / "missing"), "CALIBRATION_COPILOT_SECRETS": none})


def test_mongo_user_reads_qdash_and_writes_only_its_own_collections():
    done = subprocess.run([sys.executable, str(DEPLOY / "mongo_user.py"), "--print", "--db", "labdb"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    role, user = json.loads(done.stdout)
    own = ["find", "insert", "update", "remove", "createIndex", "listIndexes"]
    read = ["chip", "qubit", "coupling", "task_result_history", "execution_history", "calibration_note",
            "parameter_versions", "provenance_activities", "provenance_relations"]
    assert role == {"createRole": "copilotWriter", "roles": [], "privileges": [
        *({"resource": {"db": "labdb", "collection": c}, "actions": ["find"]} for c in read),
        {"resource": {"db": "labdb", "collection": "copilot_chat_session"}, "actions": own},
        {"resource": {"db": "labdb", "collection": "copilot_memory"}, "actions": own}]}
    assert user == {"createUser": "copilot", "pwd": "<password>", "roles": [{"role": "copilotWriter", "db": "admin"}]}
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
