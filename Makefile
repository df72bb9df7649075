# Two commands on a fresh machine: `make demo` (main job on the bundled sample), `make test`.
VENV ?= .venv
PY := $(VENV)/bin/python

# llama-cpp-python is built by scripts/llama_wheel.sh with portable flags (no -march=native, no AMX)
# and installed from that wheel; constraints.txt keeps pip from replacing it.
$(VENV)/.installed: pyproject.toml constraints.txt scripts/llama_wheel.sh
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	whl=$$(scripts/llama_wheel.sh $(PY)) && $(PY) -m pip install -q --no-cache-dir --force-reinstall --no-deps "$$whl"
	$(PY) -m pip install -q -c constraints.txt -e ".[llm,transformers,ray,dev]"
	$(PY) scripts/llama_sysinfo.py
	touch $@

.PHONY: install demo test test-fast typecheck bench docs llama-rebuild system-deps
install: system-deps $(VENV)/.installed

# Debian packages from apt-packages.txt (a real browser for the web page's test), when missing.
# Without root or sudo it says so and the browser test skips with that message.
APT_PACKAGES := $(shell grep -v '^\#' apt-packages.txt)
system-deps:
	@if command -v chromium >/dev/null && command -v chromedriver >/dev/null; then :; \
	elif [ "$$(id -u)" = 0 ]; then (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(APT_PACKAGES)) \
	  || echo "system-deps: apt-get could not install $(APT_PACKAGES) (the browser test will skip)"; \
	elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then (sudo apt-get update -qq && \
	  sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(APT_PACKAGES)) \
	  || echo "system-deps: apt-get could not install $(APT_PACKAGES) (the browser test will skip)"; \
	else echo "system-deps: not root and no sudo; not installing $(APT_PACKAGES) (the browser test will skip)"; fi

# Rebuild and reinstall llama-cpp-python (KGRAG_LLAMA_CMAKE_ARGS overrides the portable flags).
llama-rebuild: $(VENV)/.installed
	whl=$$(scripts/llama_wheel.sh $(PY)) && $(PY) -m pip install -q --no-cache-dir --force-reinstall --no-deps "$$whl"
	$(PY) scripts/llama_sysinfo.py

demo: $(VENV)/.installed
	$(VENV)/bin/kgrag demo

# pytest-xdist runs tests in two worker processes (pyproject's addopts): a native crash fails that test,
# the rest still run.
test: $(VENV)/.installed
	$(PY) -m pytest -q

# The edit loop: everything but the integration tests (real models, subprocesses, servers, browser, Ray).
test-fast: $(VENV)/.installed
	$(PY) -m pytest -q -m "not integration"

# The documentation site (mkdocs.yml), built with --strict (a broken link fails) into site/.
docs: $(VENV)/.installed
	$(PY) -m mkdocs build --strict -d site

# mypy over src/kgrag at the strictness pyproject.toml declares ([tool.mypy]); tests/test_types.py runs it too.
typecheck: $(VENV)/.installed
	$(PY) -m mypy

bench: $(VENV)/.installed
	$(PY) benchmarks/ingest.py
	$(PY) benchmarks/link.py --db .bench-db
