# Two commands on a fresh machine:  `make serve`  and  `make test`.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
HOST ?= 0.0.0.0
PORT ?= 8000

CHROMIUM ?= /usr/bin/chromium

.PHONY: setup setup-dev setup-train browser serve test test-train bench clean

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip

# Both also compile the MCR engine's scoring module with Cython (engine/mcr/build_fast.py: a minute the first time,
# nothing while fast.py is unchanged); where that cannot be built the engine scores with fast.py itself, slower.
BUILD_FAST = $(PY) -m engine.mcr.build_fast || echo "note: the MCR engine scores with engine/mcr/fast.py uncompiled"

setup: $(VENV)/bin/python
	$(PY) -m pip install -q -e '.[compiled]'
	$(BUILD_FAST)

setup-dev: $(VENV)/bin/python
	$(PY) -m pip install -q -e '.[dev,compiled]'
	$(BUILD_FAST)

# Training extra (torch, ultralytics): large; only for retraining the models.
setup-train: $(VENV)/bin/python
	$(PY) -m pip install -q -e '.[train]'

# The service with the committed models (models/*.onnx); settings come from MAHJONG_* environment variables
# (api/settings.py). The app writes its own structured access log, so uvicorn's is off.
serve: setup
	$(PY) -m uvicorn api.main:app --host $(HOST) --port $(PORT) --no-access-log --timeout-keep-alive 30

# The browser test drives Debian's Chromium (Playwright cannot download browsers here). Installed when missing
# and possible (root + apt-get, as on CI); otherwise that one test skips and says why.
browser:
	@if [ ! -x "$(CHROMIUM)" ]; then \
	  if command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
	    DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium >/dev/null; \
	  else echo "note: $(CHROMIUM) missing and not installable here (needs root + apt-get); the browser test will skip"; fi; \
	fi

test: setup-dev browser
	$(PY) -m pytest

# The training commands smoke-run on tiny data (tests/vision/test_train_commands.py), with the other tests that need
# torch, in their own venv holding the `train` and `dev` extras (torch is large: `make test` leaves it out and skips
# them). MAHJONG_REQUIRE_TRAIN=1 makes a missing or broken torch stack fail them instead. .ci/run calls it.
TRAIN_VENV ?= .venv-train
TRAIN_TESTS = tests/vision/test_train_commands.py tests/vision/test_train_init.py \
	tests/vision/test_train_classifier_batches.py
test-train:
	$(MAKE) setup-train setup-dev VENV=$(TRAIN_VENV)
	MAHJONG_REQUIRE_TRAIN=1 $(TRAIN_VENV)/bin/python -m pytest $(TRAIN_TESTS)

bench: setup-dev
	for b in bench/bench_*.py; do $(PY) $$b || exit 1; done

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache engine/mcr/_fast_c.*
