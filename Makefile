# bot_repro: common commands. `make test` and `make demo` install what they need first; `make install` alone.
SHELL := /bin/bash
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
ARGS ?=
TORCH_VERSION ?= 2.13.0
CLUSTER ?= local
RESOURCES ?=
export PYTHONUNBUFFERED := 1

.PHONY: install install-python install-react test test-fast lint bench demo study warm-start figures clean-runs

install: install-python install-react

install-python: $(VENV)/.installed
$(VENV)/.installed: pyproject.toml
	test -x $(PY) || python3 -m venv $(VENV)
	$(PIP) install -q --upgrade pip
	# torch first, so nothing below pulls another build: the CPU build on a machine without an
	# NVIDIA driver, TORCH_INDEX_URL=<index> to choose (scripts/install_torch.sh).
	bash scripts/install_torch.sh $(TORCH_VERSION) $(PIP)
	$(PIP) install -q -e ".[train,dev]"
	touch $@

# verl (README "BoT-GRPO on verl"): its own venv, since verl pins transformers <5.11 and TRL 1.16 needs 5.23.
# torch first (same version; the CPU build where the local wheel is), then verl pinned with its stack and
# bot_repro without the TRL/Hydra extra.
VERL_VENV ?= .venv-verl
.PHONY: install-verl
install-verl: $(VERL_VENV)/.installed
$(VERL_VENV)/.installed: pyproject.toml
	test -x $(VERL_VENV)/bin/python || python3 -m venv $(VERL_VENV)
	$(VERL_VENV)/bin/pip install -q --upgrade pip
	bash scripts/install_torch.sh $(TORCH_VERSION) $(VERL_VENV)/bin/pip
	$(VERL_VENV)/bin/pip install -q -e ".[verl]"
	touch $@

install-react:
	bash scripts/install_react_deps.sh

# The test command README.md and .ci/run use (about 15-20 minutes on 2 cores; test-fast: about 2).
PYTEST_FLAGS := -q -o console_output_style=count
test: install
	$(PY) -m pytest $(PYTEST_FLAGS) -x --durations=15 tests

test-fast: install-python
	$(PY) -m pytest $(PYTEST_FLAGS) -m "not slow" tests/unit tests/config

lint:
	$(VENV)/bin/ruff check bot_repro tests bench

# Speed is measured here, never asserted in tests: each bench writes results/bench/<name>.json.
bench:
	mkdir -p results/bench
	$(PY) -m bench.core results/bench/core.json
	$(PY) -m bench.judges
	$(PY) -m bench.aime
	$(PY) -m bench.react

# GPU check (bench/README.md): on one GPU -> results/bench/gpu.json; `ARGS=--dry-run` runs it tiny on CPU.
.PHONY: bench-gpu
bench-gpu:
	mkdir -p results/bench
	$(PY) -m bench.gpu $(ARGS)

# The CPU study (README): demo = GRPO, BoT-GRPO, PURE x 3 seeds from the shipped policy (sweep measured at
# 7.6 min on 2 cores, plus install); study = 105 runs (10 seeds for the claim arms, two sparse levels),
# estimated at 1.5 h from the measured step cost (study.cost), 2.3 h at the last study's loaded rate.
demo: install-python
	$(PY) -m bot_repro.study demo $(ARGS)

study: install-python
	$(PY) -m bot_repro.study study $(ARGS)

## rebuild the shipped mini policies here (about 3.5 min each on one core) and say whether this machine reproduces their hashes
warm-start: install-python
	$(PY) -m bot_repro.study warm-start $(ARGS)

# demo/study write under runs/ and compare with results/; this copies a report into results/mini/
# (REPORT=runs/mini_demo/<stamp>/report, default the newest demo report). Commit it afterwards.
.PHONY: demo-publish study-publish
demo-publish:
	$(PY) -m bot_repro.study publish $(or $(REPORT),latest)

# the newest report of each `make study` experiment -> results/mini_study/<experiment>/
study-publish:
	$(PY) -m bot_repro.study publish latest-study

clean-runs:
	rm -rf runs/smoke

include Makefile.figures
