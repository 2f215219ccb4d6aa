# The two commands a newcomer needs:
#   make demo   -- sets up .venv if missing, then runs the sandbox's showcase
#   make test   -- sets up .venv if missing, then runs the test suite
#   make lab    -- JupyterLab on the lesson notebooks
#   make check-lessons -- the exercise checks of lessons/ (SOLUTIONS=1: on the reference
#                  solutions; EXERCISE_DIR=dir: on a hand-in holding every lesson's
#                  exercise files), in short mode
# Set MNIST_DIR to a folder holding the four standard MNIST .gz files to use full MNIST;
# for make bench, TF_PYTHON to a Python that has tensorflow adds TensorFlow's baselines.

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: demo test bench soak venv clean lab check-lessons

venv: $(STAMP)

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	@touch $(STAMP)

demo: $(STAMP)
	$(PY) -m sandbox demo $(if $(MNIST_DIR),--data-dir $(MNIST_DIR),)

test: $(STAMP)
	$(PY) -m pytest -q

check-lessons: $(STAMP)
	SANDBOX_QUICK=$${SANDBOX_QUICK:-1} $(PY) -m pytest lessons -q -p no:cacheprovider \
	  --import-mode=importlib $(if $(SOLUTIONS),--solutions,) \
	  $(if $(EXERCISE_DIR),--exercise-dir $(EXERCISE_DIR),)

bench: $(STAMP)
	$(PY) bench/run_all.py $(if $(MNIST_DIR),--data-dir $(MNIST_DIR),) $(if $(TF_PYTHON),--tf-python $(TF_PYTHON),)

soak: $(STAMP)
	$(PY) bench/soak_async.py

lab: $(STAMP)
	$(VENV)/bin/jupyter lab notebooks/

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .hypothesis
