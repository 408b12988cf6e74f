# Two commands on a fresh machine:  `make serve`  and  `make test`.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
HOST ?= 0.0.0.0
PORT ?= 8000

.PHONY: setup setup-dev setup-train serve test bench clean

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip

setup: $(VENV)/bin/python
	$(PY) -m pip install -q -e .

setup-dev: $(VENV)/bin/python
	$(PY) -m pip install -q -e '.[dev]'

# Training extra (torch, ultralytics): large; only for retraining the models.
setup-train: $(VENV)/bin/python
	$(PY) -m pip install -q -e '.[train]'

serve: setup
	$(PY) -m uvicorn api.main:app --host $(HOST) --port $(PORT)

test: setup-dev
	$(PY) -m pytest

bench: setup-dev
	for b in bench/bench_*.py; do $(PY) $$b || exit 1; done

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache
