# BindSplit developer entry points. `make demo` and `make test` each install what they need first.
#
#   TORCH="torch==2.14.1 torchvision==0.29.1" make test   install these builds first (CPU/CUDA choice)
#   NLTK_DATA=/path make test       also run the test that our tagger gives NLTK's tags (needs its data)

PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
TORCH ?=
EXTRAS ?= test
PYTEST_ARGS ?=
OFFLINE := HF_HUB_OFFLINE=1 HF_DATASETS_OFFLINE=1 TRANSFORMERS_OFFLINE=1 HF_UPDATE_DOWNLOAD_COUNTS=0

.PHONY: install test test-fast bench snapshot demo lint format reproduce reproduce-offline clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# One stamp per set of extras: `make demo` installs only the demo's (.[demo]), `make test` the
# test extras (.[test], a superset), whichever runs first.
install: $(VENV)/.installed-$(EXTRAS)

$(VENV)/.installed-%: setup.cfg pyproject.toml | $(BIN)/python
	$(if $(TORCH),$(BIN)/python -m pip install --quiet $(TORCH))
	$(BIN)/python -m pip install --quiet -e ".[$*]"
	$(BIN)/bindsplit install-metric
	touch $@

# One worker process per core (pytest-xdist): the tests are single-threaded (tests/conftest.py).
# PYTEST_ARGS="-n 0" runs them in this process (a debugger, --pdb).
test: $(VENV)/.installed-test
	$(OFFLINE) $(BIN)/python -m pytest -n auto $(PYTEST_ARGS)

# Everything but the slow tests (tests/slow/: the demo, subprocesses, servers, browsers, training,
# the model stack; and the few tests elsewhere marked slow): under a minute.
test-fast: install
	$(OFFLINE) $(BIN)/python -m pytest -m "not slow" --ignore=tests/slow $(PYTEST_ARGS)

bench: install
	$(OFFLINE) $(BIN)/python perf/run.py

# Accept a deliberate change of the parser: rewrite tests/data/parser_snapshot.json (every gold
# item's bindings and rules fired) and tests/data/relation_snapshot.json (every relation gold
# item's bindings, triples and rules fired); needs the real samples, BINDSPLIT_SHARED. Then review
# their diffs.
snapshot: install
	$(OFFLINE) $(BIN)/python -m pytest tests/test_parser_snapshot.py tests/test_relation_snapshot.py --update-parser-snapshot -q

DEMO_OUT ?= demo_output
demo: $(VENV)/.installed-demo
	$(OFFLINE) $(BIN)/bindsplit demo --out $(DEMO_OUT) $(if $(wildcard $(DEMO_OUT)/results.json),--overwrite)

# Needs internet (COCO annotations ~250 MB, the four benchmarks ~4 GB, the models) and ideally a GPU.
MODELS ?= openai/clip-vit-base-patch32,laion/CLIP-ViT-B-32-laion2B-s34B-b79K
REPRODUCE_ARGS ?=
reproduce: install
	$(BIN)/bindsplit reproduce --out reproduce_output --models $(MODELS) $(REPRODUCE_ARGS)

# The same pipeline with every download replaced by local fixtures.
reproduce-offline: install
	$(OFFLINE) $(BIN)/python -m pytest tests/slow/test_reproduce.py $(PYTEST_ARGS)

# The linters, pinned: a new ruff or mypy release changes what they report, so CI would fail
# (or pass) on code nobody changed. Raise these together with the fixes the new versions ask for.
LINT_TOOLS := ruff==0.17.6 mypy==2.4.1 types-PyYAML==6.0.12.20261122
LINT_PATHS := bindsplit_datasets metrics spaces hub_scripts tests perf

lint: install
	$(BIN)/python -m pip install --quiet $(LINT_TOOLS)
	$(BIN)/python -m ruff format --check $(LINT_PATHS)
	$(BIN)/python -m ruff check $(LINT_PATHS)
	$(BIN)/python -m mypy

format: install
	$(BIN)/python -m pip install --quiet $(LINT_TOOLS)
	$(BIN)/python -m ruff format $(LINT_PATHS)
	$(BIN)/python -m ruff check --fix $(LINT_PATHS)

clean:
	rm -rf $(VENV) build dist *.egg-info demo_output reproduce_output .pytest_cache build-artifacts
