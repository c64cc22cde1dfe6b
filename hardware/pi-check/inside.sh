#!/usr/bin/env bash
# The checks of make pi-check inside the arm64 root, as the user "pi" in a fresh clone
# (hardware/pi-check/run.sh sets it up and says why). Each step prints one line with its
# emulated duration; the first that fails stops the run with a sentence saying what failed.
set -euo pipefail
cd "$(dirname "$0")/../.."

PORT="${PI_CHECK_PORT:-8765}"
SERVER_LOG=/tmp/pi-check-run.log
DB=/tmp/pi-check.db

clock() { date +%s; }
fail() { echo "inside: FAILED: $*"; exit 1; }

echo "inside: $(uname -m), $(. /etc/os-release && echo "$PRETTY_NAME"), $(python3 --version)"

# 1. the README's install: `make run` makes the venv and pip-installs the project
t=$(clock)
make .venv/.installed >/tmp/pi-check-install.log 2>&1 \
    || fail "the install (make .venv/.installed); /tmp/pi-check-install.log ends:
$(tail -15 /tmp/pi-check-install.log)"
echo "install: $(( $(clock) - t )) s (make's venv, pip install -e . from PyPI)"
.venv/bin/python hardware/pi-check/wheels.py || fail "a wheel is not an aarch64 build"

# 1b. the README's Pi OS install: a venv that sees the system's packages (python3-numpy here,
# where Pi OS also has picamera2), with the constraints that keep Debian's numpy 1.24
t=$(clock)
{ python3 -m venv --system-site-packages /tmp/pi-os-venv \
  && /tmp/pi-os-venv/bin/pip install -q -c firmware/deploy/pi-constraints.txt -e . ; } \
    >/tmp/pi-check-pi-os-install.log 2>&1 || fail "the Pi OS install (venv \
--system-site-packages, pip install -c firmware/deploy/pi-constraints.txt -e .); it ends:
$(tail -15 /tmp/pi-check-pi-os-install.log)"
echo "Pi OS install: $(( $(clock) - t )) s (venv --system-site-packages, pi-constraints.txt)"
/tmp/pi-os-venv/bin/python hardware/pi-check/wheels.py --pi-os \
    || fail "the Pi OS install's packages"
/tmp/pi-os-venv/bin/bidou-table read-dice --json tests/data/dice/*/*.jpg \
    >/tmp/readings-pi-os.jsonl || fail "read-dice in the Pi OS install exited $?"
.venv/bin/python hardware/pi-check/play.py compare /tmp/readings-pi-os.jsonl \
    /tmp/readings-host.jsonl || fail "the Pi OS install reads the photographs differently"

# 2. make run in simulation answers /api/state
t=$(clock)
setsid make run ARGS="--port $PORT --db $DB" >"$SERVER_LOG" 2>&1 &
SERVER=$!
stop_server() {
    kill -TERM -- "-$SERVER" 2>/dev/null || return 0
    for _ in $(seq 30); do kill -0 -- "-$SERVER" 2>/dev/null || return 0; sleep 1; done
    kill -KILL -- "-$SERVER" 2>/dev/null || true
}
trap stop_server EXIT
.venv/bin/python hardware/pi-check/play.py wait --port "$PORT" --log "$SERVER_LOG" \
    --timeout 600 || fail "make run did not answer /api/state; $SERVER_LOG ends:
$(tail -15 "$SERVER_LOG")"
grep -q "running in simulation" "$SERVER_LOG" || fail "make run did not say it simulates"
echo "make run: /api/state answered $(( $(clock) - t )) s after start, in simulation"

# 3. a two-hand game through POST /api/act, to its end
t=$(clock)
.venv/bin/python hardware/pi-check/play.py play --port "$PORT" --log "$SERVER_LOG" \
    || fail "the game through the API; $SERVER_LOG ends:
$(tail -15 "$SERVER_LOG")"
echo "game: played to its end in $(( $(clock) - t )) s"
stop_server
trap - EXIT
! kill -0 -- "-$SERVER" 2>/dev/null || fail "the table did not stop on SIGTERM"

# 4. read-dice on the photographs, compared with this machine's readings (run.sh's host)
t=$(clock)
.venv/bin/bidou-table read-dice --json tests/data/dice/*/*.jpg >/tmp/readings-arm64.jsonl \
    || fail "bidou-table read-dice --json exited $?"
.venv/bin/python hardware/pi-check/play.py compare /tmp/readings-arm64.jsonl \
    /tmp/readings-host.jsonl || fail "the arm64 readings differ from the host's"
echo "read-dice: $(( $(clock) - t )) s"

# 5. the tests: make test-fast, or the subset named in PI_CHECK_TESTS (none: PI_CHECK_TESTS=no)
t=$(clock)
if [[ "${PI_CHECK_TESTS:-}" == no ]]; then
    echo "tests: not run (PI_CHECK_TESTS=no)"
    exit 0
elif [[ -n "${PI_CHECK_TESTS:-}" ]]; then
    what="make test-fast PYTEST_ARGS=\"$PI_CHECK_TESTS\""
    make test-fast PYTEST_ARGS="-q -p no:cacheprovider $PI_CHECK_TESTS" \
        >/tmp/pi-check-tests.log 2>&1 || status=$?
else
    what="make test-fast"
    make test-fast PYTEST_ARGS="-q -p no:cacheprovider" >/tmp/pi-check-tests.log 2>&1 \
        || status=$?
fi
grep -E "^(FAILED|ERROR) |passed|failed" /tmp/pi-check-tests.log | tail -30
[[ "${status:-0}" == 0 ]] || fail "$what exited ${status}"
echo "tests: $what passed in $(( $(clock) - t )) s"
