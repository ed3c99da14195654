# Two commands: `make run` serves the app on the embedded demo data, `make test` runs every test.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
PORT   ?= 8501

.PHONY: run test install install-dev browser seed bench clean

$(PY):
	@$(PYTHON) -m venv $(VENV) 2>/dev/null || { \
	  echo "python3 -m venv failed; installing Debian's python3-venv" >&2; \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq python3-venv; \
	  else sudo -n apt-get update -qq && sudo -n apt-get install -y -qq python3-venv; fi && \
	  $(PYTHON) -m venv $(VENV); }
	@$(PY) -m pip install -q --upgrade pip

$(VENV)/.runtime: requirements.txt | $(PY)
	$(PY) -m pip install -q -r requirements.txt
	@touch $@

$(VENV)/.dev: requirements.txt requirements-dev.txt | $(PY)
	$(PY) -m pip install -q -r requirements-dev.txt
	@touch $@ $(VENV)/.runtime

install: $(VENV)/.runtime
install-dev: $(VENV)/.dev

seed: install
	$(PY) -m copilot_core.demo --if-empty

run: seed
	$(PY) -m streamlit run app.py --server.address=127.0.0.1 --server.port=$(PORT) \
	  --server.headless=true --browser.gatherUsageStats=false

# Debian's chromium for the browser tests; without root or apt the e2e tests say why they skip.
browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq chromium; \
	  else sudo -n sh -c 'apt-get update -qq && apt-get install -y -qq chromium'; fi; } \
	  || echo "WARNING: chromium could not be installed; browser tests will be reported as skipped" >&2

test: install-dev browser
	$(PY) -m pytest

bench: install-dev
	$(PY) bench/data_layer.py

clean:
	rm -rf $(VENV) .data .pytest_cache test-artifacts
