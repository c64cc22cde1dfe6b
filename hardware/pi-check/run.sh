#!/usr/bin/env bash
# make pi-check: the table on arm64, as on a Raspberry Pi running Pi OS Bookworm (64-bit).
#
# Why: the table is sold on a Pi and had never run on its processor. This builds a Debian
# Bookworm arm64 root with debootstrap, runs it under qemu-user-static through binfmt_misc,
# and inside it, from a fresh clone of this repository, as an ordinary user "pi":
#   1. the README's install (make's venv, pip from PyPI): the wheels exist for aarch64;
#   2. `make run` comes up in simulation and answers /api/state;
#   3. a two-hand game is played through POST /api/act with the seat tokens, to its end;
#   4. `bidou-table read-dice --json` reads the photographs in tests/data, compared with what
#      this machine's own venv reads;
#   5. `make test-fast` (PI_CHECK_TESTS="tests/engine ..." runs a named subset instead, and
#      PI_CHECK_TESTS=no none);
# and, as root in the root, `systemd-analyze verify` of firmware/deploy/bidou-table.service.
#
# The root is cached in .pi-check/ (ignored by git; PI_CHECK_CACHE moves it), and pip's
# download cache inside it is kept, so a second run skips debootstrap and the downloads; the
# clone and its venv are made anew every time. The timings it prints are emulated ones (qemu
# translates every instruction): they say nothing about a Pi's speed.
#
# Needs root and: apt-get install debootstrap qemu-user-static binfmt-support
# `run.sh --root-only` builds (or finds) the cached root and stops there: make pi-boot boots it.
# Mirror: debootstrap's default (Debian's); PI_CHECK_MIRROR=URL chooses another.
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
CACHE="${PI_CHECK_CACHE:-$REPO/.pi-check}"
ROOT="$CACHE/bookworm-arm64"
SUITE=bookworm
# What a Pi OS Lite image has that the table's install uses (python3-venv, git, make), plus
# systemd for systemd-analyze, ca-certificates for pip, procps for the inside script.
PACKAGES="python3,python3-venv,git,make,ca-certificates,systemd,procps"
STAMP="$ROOT/.pi-check-root"   # the package list the cached root was built with
INSIDE_USER=pi
CLONE="/home/$INSIDE_USER/bidou-table"
REPORT="$CACHE/last-run.txt"
# Every step inside the root is bounded, so a hung step cannot keep the machine busy.
STEP_LIMIT="${PI_CHECK_STEP_LIMIT:-5400}"
# The processor qemu emulates: a Pi 4's Cortex-A72 (ARMv8.0, no dot product or SVE), so a
# wheel that needs a newer one fails here as it would there; PI_CHECK_CPU=cortex-a76 is a
# Pi 5's, max every feature qemu has.
export QEMU_CPU="${PI_CHECK_CPU:-cortex-a72}"

ROOT_ONLY=0
if [[ "${1:-}" == --root-only ]]; then
    ROOT_ONLY=1
    REPORT="$CACHE/root-only.txt"  # the last check's summary stays
fi

say() { echo "pi-check: $*"; }
die() { echo "pi-check: $*" >&2; exit 1; }

# --- the tools --------------------------------------------------------------------------
if [[ $EUID -ne 0 ]]; then
    die "run as root (debootstrap, chroot and binfmt_misc need it): sudo make pi-check"
fi
missing=()
command -v debootstrap >/dev/null || missing+=(debootstrap)
command -v qemu-aarch64-static >/dev/null || missing+=(qemu-user-static)
command -v chroot >/dev/null || missing+=(coreutils)
command -v git >/dev/null || missing+=(git)
if ((${#missing[@]})); then
    die "missing ${missing[*]}: apt-get install debootstrap qemu-user-static binfmt-support"
fi
((ROOT_ONLY)) || [[ -x "$REPO/.venv/bin/bidou-table" ]] || die "no $REPO/.venv: run it as make pi-check" \
    "(which makes the venv whose dice readings the arm64 ones are compared with)"

# --- binfmt_misc: the kernel hands aarch64 programs to qemu -----------------------------
BINFMT=/proc/sys/fs/binfmt_misc
if [[ ! -e "$BINFMT/status" ]]; then
    say "mounting binfmt_misc on $BINFMT"
    mount -t binfmt_misc binfmt_misc "$BINFMT" 2>/dev/null || die "binfmt_misc is not" \
        "mounted and this container may not mount it (mount -t binfmt_misc binfmt_misc" \
        "$BINFMT failed): run pi-check on the host, or start the container with it mounted"
fi
if [[ ! -e "$BINFMT/qemu-aarch64" ]]; then
    say "registering qemu-aarch64 with binfmt_misc"
    if command -v update-binfmts >/dev/null && [[ -e /usr/share/binfmts/qemu-aarch64 ]]; then
        update-binfmts --enable qemu-aarch64 || true
    elif [[ -e /usr/lib/binfmt.d/qemu-aarch64.conf ]]; then  # systemd-binfmt's format
        grep -v '^#' /usr/lib/binfmt.d/qemu-aarch64.conf >"$BINFMT/register" || true
    fi
    [[ -e "$BINFMT/qemu-aarch64" ]] || die "could not register qemu-aarch64 with" \
        "binfmt_misc: apt-get install qemu-user-static binfmt-support, then" \
        "update-binfmts --enable qemu-aarch64"
fi
[[ "$(head -1 "$BINFMT/qemu-aarch64")" == enabled ]] || die "qemu-aarch64 is registered" \
    "but disabled: update-binfmts --enable qemu-aarch64"
INTERPRETER="$(sed -n 's/^interpreter //p' "$BINFMT/qemu-aarch64")"
FLAGS="$(sed -n 's/^flags: //p' "$BINFMT/qemu-aarch64")"

# --- the root (cached) ------------------------------------------------------------------
mkdir -p "$CACHE"
: >"$REPORT"
report() { echo "$*" | tee -a "$REPORT"; }
clock() { date +%s; }
started=$(clock)
report "pi-check on $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git -C "$REPO" rev-parse --short HEAD)"
report "binfmt_misc: qemu-aarch64 -> $INTERPRETER (flags $FLAGS), emulating $QEMU_CPU"
if ! git -C "$REPO" diff --quiet HEAD 2>/dev/null; then
    say "warning: the work tree has uncommitted changes; the clone tests the last commit"
fi

if [[ ! -e "$STAMP" || "$(cat "$STAMP")" != "$SUITE $PACKAGES" ]]; then
    say "building the Debian $SUITE arm64 root in $ROOT (debootstrap, a few minutes)"
    rm -rf "$ROOT.partial" "$ROOT"
    t=$(clock)
    nice -n 15 debootstrap --arch=arm64 --variant=minbase --include="$PACKAGES" \
        "$SUITE" "$ROOT.partial" ${PI_CHECK_MIRROR:+"$PI_CHECK_MIRROR"} \
        >"$CACHE/debootstrap.log" 2>&1 \
        || die "debootstrap failed; the end of $CACHE/debootstrap.log says why:
$(tail -5 "$CACHE/debootstrap.log")"
    chroot "$ROOT.partial" useradd --create-home --shell /bin/bash "$INSIDE_USER"
    echo "$SUITE $PACKAGES" >"$ROOT.partial/.pi-check-root"
    mv "$ROOT.partial" "$ROOT"
    report "debootstrap: $(( $(clock) - t )) s (the root is cached for the next run)"
else
    report "debootstrap: cached root $ROOT"
fi
if [[ "$FLAGS" != *F* ]]; then  # without F the interpreter is looked up inside the root
    install -D -m 0755 "$(command -v qemu-aarch64-static)" "$ROOT$INTERPRETER"
fi

# --- mounts, undone (and any process left in the root ended) on every exit -------------
# /dev is a tmpfs with its own few nodes, not a bind of the host's /dev: an rm -rf of the
# cache after an interrupted run can then never reach the host's devices.
MOUNTED=()
in_root_pids() {
    local p
    for p in /proc/[0-9]*; do
        [[ "$(readlink "$p/root" 2>/dev/null)" == "$ROOT" ]] && echo "${p#/proc/}"
    done
    return 0
}
cleanup() {
    local pids
    pids="$(in_root_pids)"
    if [[ -n "$pids" ]]; then
        # shellcheck disable=SC2086
        kill -TERM $pids 2>/dev/null || true
        sleep 2
        pids="$(in_root_pids)"
        # shellcheck disable=SC2086
        [[ -n "$pids" ]] && kill -KILL $pids 2>/dev/null || true
    fi
    local i
    for ((i = ${#MOUNTED[@]} - 1; i >= 0; i--)); do
        umount "${MOUNTED[i]}" 2>/dev/null || umount -l "${MOUNTED[i]}" 2>/dev/null || true
    done
}
trap cleanup EXIT
trap 'exit 130' INT TERM
mount_in() {  # mount_in TYPE OPTIONS DIR
    mkdir -p "$ROOT$3"
    mount -t "$1" -o "$2" "$1" "$ROOT$3"
    MOUNTED+=("$ROOT$3")
}
# The root sees the emulated processor, not this machine's: qemu-user passes the host's x86
# /proc/cpuinfo through, and ONNX Runtime's CPU probe (cpuinfo) crashed on import (SIGSEGV)
# beside the host's /sys, and without any /sys printed "Error in cpuinfo" lines on every
# start, which the tests of one-sentence errors rightly refuse. So /proc/cpuinfo is a Pi's
# description of the emulated core and /sys holds only the processor lists, one per core
# of this machine (what qemu really runs on).
mount_in proc nosuid,nodev,noexec /proc
case "$QEMU_CPU" in
    cortex-a72) part=0xd08 variant=0x0 revision=3 features="fp asimd evtstrm crc32 cpuid" ;;
    cortex-a76) part=0xd0b variant=0x4 revision=1
        features="fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics fphp asimdhp cpuid asimdrdm lrcpc dcpop asimddp" ;;
    *) part="" ;;
esac
cores=$(nproc)
if [[ -n "$part" ]]; then
    for ((i = 0; i < cores; i++)); do
        printf 'processor\t: %d\nBogoMIPS\t: 108.00\nFeatures\t: %s\nCPU implementer\t: 0x41\n' \
            "$i" "$features"
        printf 'CPU architecture: 8\nCPU variant\t: %s\nCPU part\t: %s\nCPU revision\t: %s\n\n' \
            "$variant" "$part" "$revision"
    done >"$CACHE/cpuinfo"
    mount --bind "$CACHE/cpuinfo" "$ROOT/proc/cpuinfo"
    MOUNTED+=("$ROOT/proc/cpuinfo")
else
    say "warning: no /proc/cpuinfo of $QEMU_CPU to show; ONNX Runtime will print cpuinfo errors"
fi
mount_in tmpfs mode=0755,nosuid,nodev,noexec,size=64k /sys
mkdir -p "$ROOT/sys/devices/system/cpu"
echo "0-$((cores - 1))" >"$ROOT/sys/devices/system/cpu/possible"
echo "0-$((cores - 1))" >"$ROOT/sys/devices/system/cpu/present"
mount_in tmpfs mode=0755,nosuid,size=64k /dev
for node in "null c 1 3" "zero c 1 5" "full c 1 7" "random c 1 8" "urandom c 1 9" \
            "tty c 5 0"; do
    read -r name kind major minor <<<"$node"
    mknod -m 0666 "$ROOT/dev/$name" "$kind" "$major" "$minor"
done
ln -s /proc/self/fd "$ROOT/dev/fd"
mount_in tmpfs mode=1777,nosuid,nodev,size=256m /dev/shm
mount_in tmpfs mode=1777,nosuid,nodev,size=2g /tmp
cp -L /etc/resolv.conf "$ROOT/etc/resolv.conf"
# debootstrap writes no /etc/hosts, so "localhost" did not resolve in the root (the listen
# tests failed on it); Pi OS has these lines.
if [[ ! -s "$ROOT/etc/hosts" ]]; then
    printf '127.0.0.1\tlocalhost\n::1\t\tlocalhost ip6-localhost ip6-loopback\n' \
        >"$ROOT/etc/hosts"
fi
# The root trusts the certificate authorities this machine added to its own (a proxy's CA on a
# network that inspects TLS: without it pip cannot reach PyPI); Debian's stay as they are.
shopt -s nullglob
local_cas=(/usr/local/share/ca-certificates/*.crt)
shopt -u nullglob
if ((${#local_cas[@]})); then
    rm -f "$ROOT"/usr/local/share/ca-certificates/*.crt
    cp "${local_cas[@]}" "$ROOT/usr/local/share/ca-certificates/"
    chroot "$ROOT" /usr/sbin/update-ca-certificates >"$CACHE/ca-certificates.log" 2>&1 \
        || die "update-ca-certificates failed in the root: see $CACHE/ca-certificates.log"
fi
chroot "$ROOT" /usr/bin/uname -m | grep -qx aarch64 \
    || die "the root's programs do not run as aarch64 under qemu"

# What Pi OS Bookworm has installed that Debian's minimal root lacks and the README's Pi OS
# install relies on: the system's numpy (picamera2 itself is in Raspberry Pi's archive, which
# this check does not reach); and shellcheck, Debian's, which the tests use as CI does
# (.ci/run). Added to the cached root once (a cached root without shellcheck gets it).
PI_OS_PACKAGES=(python3-numpy shellcheck)
if ! chroot "$ROOT" dpkg -s "${PI_OS_PACKAGES[@]}" >/dev/null 2>&1; then
    say "installing ${PI_OS_PACKAGES[*]} in the root"
    t=$(clock)
    { chroot "$ROOT" apt-get update -qq \
      && chroot "$ROOT" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
          --no-install-recommends "${PI_OS_PACKAGES[@]}"; } >"$CACHE/apt.log" 2>&1 \
        || die "apt-get install ${PI_OS_PACKAGES[*]} failed in the root: see $CACHE/apt.log"
    report "apt-get install ${PI_OS_PACKAGES[*]}: $(( $(clock) - t )) s (kept in the root)"
fi

if ((ROOT_ONLY)); then
    report "pi-check: the root is ready in $ROOT"
    exit 0
fi

# --- a fresh clone, and the checks inside -----------------------------------------------
rm -rf "$ROOT$CLONE"
git clone --quiet "$REPO" "$ROOT$CLONE"
report "clone: $(git -C "$ROOT$CLONE" log --oneline -1)"
chroot "$ROOT" chown -R "$INSIDE_USER:$INSIDE_USER" "$CLONE"
(cd "$REPO" && .venv/bin/bidou-table read-dice --json tests/data/dice/*/*.jpg) \
    >"$ROOT/tmp/readings-host.jsonl" || true  # same relative names as inside
chmod 0644 "$ROOT/tmp/readings-host.jsonl"

status=0
# PIP_CERT: pip's own certificate bundle would not hold the authorities added above; the
# root's bundle does (on a Pi, pip's default reaches PyPI as it is).
nice -n 15 timeout --signal=TERM --kill-after=30 "$STEP_LIMIT" \
    chroot --userspec="$INSIDE_USER:$INSIDE_USER" "$ROOT" \
    /usr/bin/env -i HOME="/home/$INSIDE_USER" USER="$INSIDE_USER" LANG=C.UTF-8 \
    PATH=/usr/local/bin:/usr/bin:/bin PI_CHECK_TESTS="${PI_CHECK_TESTS:-}" \
    PI_CHECK_PORT="${PI_CHECK_PORT:-8765}" \
    PIP_CERT=/etc/ssl/certs/ca-certificates.crt PIP_DISABLE_PIP_VERSION_CHECK=1 \
    QEMU_CPU="$QEMU_CPU" \
    /bin/bash "$CLONE/hardware/pi-check/inside.sh" | tee -a "$REPORT" || status=$?
# The root's /tmp is a tmpfs gone at exit: its logs (install, table, tests) are kept here.
cp "$ROOT"/tmp/pi-check-*.log "$CACHE/" 2>/dev/null || true

# --- the systemd unit, as install.sh puts it ---------------------------------------------
# install.sh's venv is /opt/bidou-table/venv; here the clone's venv stands in for it (a
# link), so ExecStart names a real aarch64 program. The user and groups are made as
# install.sh makes them (Pi OS has gpio already; plain Debian does not).
chroot "$ROOT" /bin/bash -c "
    getent group gpio >/dev/null || groupadd --system gpio
    getent group video >/dev/null || groupadd --system video
    id bidou >/dev/null 2>&1 || useradd --system --home-dir /var/lib/bidou-table \
        --no-create-home --shell /usr/sbin/nologin --user-group -G gpio,video bidou
    mkdir -p /opt/bidou-table && ln -sfn $CLONE/.venv /opt/bidou-table/venv
    install -m 0644 $CLONE/firmware/deploy/bidou-table.service /etc/systemd/system/"
if verify="$(chroot "$ROOT" /usr/bin/systemd-analyze verify \
        /etc/systemd/system/bidou-table.service 2>&1)" && [[ -z "$verify" ]]; then
    report "systemd-analyze verify bidou-table.service: no complaint"
else
    report "systemd-analyze verify bidou-table.service: FAILED"
    report "$verify"
    status=1
fi

report "pi-check: $(( $(clock) - started )) s in all (emulated; not a Pi's timings)"
if ((status == 0)); then
    report "pi-check: passed; the summary is in $REPORT"
else
    report "pi-check: FAILED (status $status); the summary is in $REPORT"
fi
exit "$status"
