# Two commands on a fresh machine: `make demo` (main job on the bundled sample), `make test`.
VENV ?= .venv
PY := $(VENV)/bin/python

$(VENV)/.installed: pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e ".[llm,transformers,dev]"
	touch $@

.PHONY: install demo test bench
install: $(VENV)/.installed

demo: $(VENV)/.installed
	$(VENV)/bin/kgrag demo

test: $(VENV)/.installed
	$(PY) -m pytest -q

bench: $(VENV)/.installed
	$(PY) benchmarks/ingest.py
	$(PY) benchmarks/link.py --db .bench-db
