#!/usr/bin/env bash
# make pi-boot: the pub's install booted, as on a Pi: the table and the hub as services of a
# real systemd (PID 1) on an arm64 Debian Bookworm, under qemu-system-aarch64.
#
# Why: make pi-check runs the table on arm64 in a chroot, where no systemd runs. A unit that
# passes `systemd-analyze verify` can still fail at start (a read-only path it writes, a group
# or home that does not exist, a database login it cannot use); this boots the machine and
# runs the pub's install in it:
#   1. the root: pi-check's cached one (hardware/pi-check/run.sh --root-only builds it once);
#   2. the disk: that root with a boot layer (kernel, sshd, PostgreSQL, the wheels from PyPI)
#      and a fresh clone of this repository, as an ext4 image (hardware/pi-boot/image.sh);
#   3. the boot: qemu-system-aarch64 -M virt, a Cortex-A72, the root's own kernel and initrd,
#      systemd as PID 1; qemu's user network with no way out (restrict=on), only ssh, the
#      table's dashboard and the venue screen forwarded to 127.0.0.1;
#   4. firmware/deploy/install.sh from the clone (pip from the image's wheels, no network),
#      the bidou-table service active, its dashboard answering through the forwarded port;
#      the referee's zones saved in the config from the dashboard (the service writes there);
#      a config it cannot use: one sentence in the journal naming what is wrong;
#   5. a two-hand game through the HTTP API up to a bet (hardware/pi-boot/game.py);
#   6. kill -9 of the service: systemd starts it again, the game resumes as acknowledged;
#   7. a reboot: the service comes back by itself, the game resumes;
#   8. systemd-analyze security bidou-table, printed;
#   9. venue/deploy/install-hub t1 t2 in the same machine, t1's [venue] section given to the
#      table, the game finished and found on the venue screen's API; the service users are
#      logged in to PostgreSQL over TCP with the passwords the install wrote, not by peer;
#  10. the machine powered off.
# Each step is bounded (timeout), and the machine is powered off (else killed) on any exit.
#
# PI_BOOT_FROM=STEP boots the disk the last run left (its install, game and hub kept, the
# run's files in .pi-check/pi-boot/run) and runs from STEP on, appending to the report: one
# of install dashboard zones badconfig game kill reboot security hub join venue logins. An
# emulated install takes tens of minutes; a step found wrong after it is run again without it.
# The report (each step, its seconds, what was checked) goes to $PI_BOOT_REPORT (default
# .pi-check/pi-boot/last-run.md). The timings are emulated ones: qemu translates every
# instruction, and they say nothing about a Pi's speed.
#
# Needs root and: apt-get install qemu-system-arm qemu-user-static debootstrap binfmt-support
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
CACHE="${PI_CHECK_CACHE:-$REPO/.pi-check}"
LAYER="$CACHE/pi-boot"
IMAGE="$LAYER/disk.img"
KEY="$LAYER/id_ed25519"
REPORT="${PI_BOOT_REPORT:-$LAYER/last-run.md}"
WORK="$LAYER/run"
SSH_PORT="${PI_BOOT_SSH_PORT:-2322}"
TABLE_PORT="${PI_BOOT_TABLE_PORT:-8780}"
SCREEN_PORT="${PI_BOOT_SCREEN_PORT:-8790}"
MEMORY="${PI_BOOT_MEMORY:-3072}"
# bounds, in seconds: a whole emulated machine's life, a boot, an install, a short command
LIFE_LIMIT="${PI_BOOT_LIFE_LIMIT:-10800}"
BOOT_LIMIT="${PI_BOOT_BOOT_LIMIT:-900}"
INSTALL_LIMIT="${PI_BOOT_INSTALL_LIMIT:-3600}"
SHORT=60
OFFLINE="PIP_NO_INDEX=1 PIP_FIND_LINKS=/var/cache/bidou-wheels PIP_DISABLE_PIP_VERSION_CHECK=1"
CLONE=/home/pi/bidou-table

STEPS=(install dashboard zones badconfig game kill reboot security hub join venue logins)
FROM="${PI_BOOT_FROM:-}"
say() { echo "pi-boot: $*"; }
# PI_BOOT_HOLD=SECONDS: after a failure, the machine stays up that long for a look inside
# (ssh -i .pi-check/pi-boot/id_ed25519 -p 2322 root@127.0.0.1), then is powered off
HOLD="${PI_BOOT_HOLD:-0}"
die() {
    echo "pi-boot: FAILED: $*" | tee -a "$REPORT" >&2
    if ((HOLD > 0)) && [[ -n "${QEMU:-}" ]]; then
        say "the machine stays up $HOLD s: ssh -i $KEY -p $SSH_PORT root@127.0.0.1"
        sleep "$HOLD"
    fi
    exit 1
}
clock() { date +%s; }

# --- the tools ---------------------------------------------------------------------------
((EUID == 0)) || die "run as root (the root's chroot and its overlay need it): sudo make pi-boot"
missing=()
command -v qemu-system-aarch64 >/dev/null || missing+=(qemu-system-arm)
command -v qemu-aarch64-static >/dev/null || missing+=(qemu-user-static)
command -v debootstrap >/dev/null || missing+=(debootstrap)
command -v mkfs.ext4 >/dev/null || missing+=(e2fsprogs)
command -v ssh >/dev/null || missing+=(openssh-client)
((${#missing[@]} == 0)) || die "missing ${missing[*]}: apt-get install qemu-system-arm" \
    "qemu-user-static debootstrap binfmt-support e2fsprogs openssh-client"

from=0
if [[ -n "$FROM" ]]; then
    for ((from = 0; from < ${#STEPS[@]}; from++)); do [[ "${STEPS[from]}" == "$FROM" ]] && break; done
    ((from < ${#STEPS[@]})) || die "PI_BOOT_FROM=$FROM is none of: ${STEPS[*]}"
    [[ -e "$IMAGE" && -e "$LAYER/vmlinuz" && -e "$LAYER/initrd.img" ]] \
        || die "PI_BOOT_FROM needs the disk of a run before ($IMAGE): run sudo make pi-boot once"
fi
runs() {  # runs STEP: true when STEP is PI_BOOT_FROM's or after it
    local i
    for ((i = from; i < ${#STEPS[@]}; i++)); do [[ "${STEPS[i]}" == "$1" ]] && return 0; done
    return 1
}

mkdir -p "$LAYER" "$WORK" "$(dirname "$REPORT")"
if [[ -z "$FROM" ]]; then  # a new run: a new report, and none of the last run's files
    : >"$REPORT"
    find "$WORK" -maxdepth 1 -type f -delete
fi
report() { echo "$*" | tee -a "$REPORT"; }
started=$(clock)
step_name="" step_start=0
step() { step_name="$1"; step_start=$(clock); say "$1 ..."; }
checked() { report "| $step_name | $(( $(clock) - step_start )) | $* |"; }
block() {  # block TITLE FILE: a file's text in the report, as a code block
    { echo; echo "$1:"; echo '```'; cat "$2"; echo '```'; echo; } >>"$REPORT"
}

if [[ -n "$FROM" ]]; then
    report ""
    report "## From step $FROM, $(date -u '+%Y-%m-%d %H:%M UTC'), commit" \
        "$(git -C "$REPO" rev-parse --short HEAD): the disk the run before left, booted again"
else
    report "# make pi-boot, $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git -C "$REPO" rev-parse --short HEAD)"
    report ""
    report "Emulated timings (qemu-system-aarch64, TCG, -smp 2 niced on a shared 2-core x86 host):"
    report "they say nothing about a Pi's speed."
fi
report ""
report "| step | seconds | checked |"
report "|---|---|---|"

# --- 1. 2. the root and the disk -----------------------------------------------------------
if [[ -z "$FROM" ]]; then
step "root"
timeout --kill-after=30 7200 "$REPO/hardware/pi-check/run.sh" --root-only >"$WORK/root.log" 2>&1 \
    || die "pi-check's root: $(tail -3 "$WORK/root.log")"
checked "pi-check's Debian Bookworm arm64 root: $(grep -o 'debootstrap: .*' "$WORK/root.log")"
step "disk"
[[ -e "$KEY" ]] || ssh-keygen -q -t ed25519 -N "" -C pi-boot -f "$KEY"
timeout --kill-after=30 7200 "$HERE/image.sh" "$CACHE" "$IMAGE" "$KEY" >"$WORK/image.log" 2>&1 \
    || die "the disk image: $(tail -3 "$WORK/image.log")"
checked "$(sed -n 's/^pi-boot: //p' "$WORK/image.log" | paste -sd ';' | sed 's/;/; /g')"
fi

# --- 3. the boot, and the power-off on every exit ------------------------------------------
SSH=(ssh -i "$KEY" -p "$SSH_PORT" -o BatchMode=yes -o StrictHostKeyChecking=no
     -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -o ConnectTimeout=10
     -o ServerAliveInterval=15 -o ServerAliveCountMax=4 root@127.0.0.1)
vm() {  # vm SECONDS COMMAND: run COMMAND as root in the booted machine, bounded
    timeout --kill-after=10 "$1" "${SSH[@]}" "$2"
}
QEMU=""
power_off() {
    [[ -n "$QEMU" ]] && kill -0 "$QEMU" 2>/dev/null || return 0
    vm 20 "systemctl poweroff" >/dev/null 2>&1 || true
    local _
    for _ in $(seq 60); do kill -0 "$QEMU" 2>/dev/null || return 0; sleep 2; done
    say "the machine did not power off in 120 s: qemu is stopped"
    kill -TERM "$QEMU" 2>/dev/null || true
    sleep 5
    kill -KILL "$QEMU" 2>/dev/null || true
}
trap power_off EXIT
trap 'exit 130' INT TERM

boot_id() { vm 20 "cat /proc/sys/kernel/random/boot_id" 2>/dev/null || true; }
wait_ssh() {  # wait_ssh SECONDS: until the machine answers over ssh
    local deadline=$(( $(clock) + $1 ))
    while (( $(clock) < deadline )); do
        kill -0 "$QEMU" 2>/dev/null || die "qemu stopped; $LAYER/console.log ends: $(tail -5 "$LAYER/console.log")"
        vm 20 true >/dev/null 2>&1 && return 0
        sleep 5
    done
    die "no ssh answer within $1 s; $LAYER/console.log ends: $(tail -5 "$LAYER/console.log")"
}
wait_active() {  # wait_active SECONDS UNIT: until systemd says UNIT is active
    local deadline=$(( $(clock) + $1 ))
    while (( $(clock) < deadline )); do
        [[ "$(vm 20 "systemctl is-active $2" 2>/dev/null)" == active ]] && return 0
        sleep 3
    done
    vm 30 "journalctl -u $2 -n 15 --no-pager" >"$WORK/$2.journal" 2>&1 || true
    die "$2 was not active within $1 s; its journal ends: $(tail -5 "$WORK/$2.journal")"
}
table_answers() {  # the dashboard through the forwarded port, then the seats' tokens
    timeout --kill-after=10 660 python3 "$REPO/hardware/pi-check/play.py" wait \
        --port "$TABLE_PORT" --log /dev/null --timeout 600 >>"$WORK/play.log" 2>&1 \
        || die "the dashboard did not answer on 127.0.0.1:$TABLE_PORT: $(tail -1 "$WORK/play.log")"
    # the newest start's lines (its seats' and referee's tokens): journald may write them
    # after the dashboard answers, under emulation
    local _
    for _ in $(seq 30); do
        vm "$SHORT" "journalctl -u bidou-table -b -o cat --no-pager" >"$WORK/tokens.log" || true
        awk '/^Started bidou-table/ {n = 0} /^Referee token:/ {n = 1} END {exit !n}' \
            "$WORK/tokens.log" && return 0
        sleep 3
    done
    die "the journal has no referee token from the table's newest start"
}
game() {  # game COMMAND ARGS...: hardware/pi-boot/game.py's last line (the caller checks it)
    { timeout --kill-after=10 1800 python3 "$HERE/game.py" "$@" --record "$WORK/game.json" \
        2>&1 || true; } | tee -a "$WORK/game.log" | tail -1
}

step "boot"
rm -f "$LAYER/console.log"
nice -n 5 timeout --kill-after=10 "$LIFE_LIMIT" qemu-system-aarch64 -M virt -cpu cortex-a72 \
    -smp 2 -m "$MEMORY" -display none -monitor none -serial "file:$LAYER/console.log" \
    -kernel "$LAYER/vmlinuz" -initrd "$LAYER/initrd.img" \
    -append "root=/dev/vda rw console=ttyAMA0 systemd.show_status=false" \
    -drive "file=$IMAGE,format=raw,if=virtio,cache=unsafe" \
    -netdev "user,id=net0,restrict=on,hostfwd=tcp:127.0.0.1:$SSH_PORT-:22,hostfwd=tcp:127.0.0.1:$TABLE_PORT-:8080,hostfwd=tcp:127.0.0.1:$SCREEN_PORT-:8090" \
    -device virtio-net-pci,netdev=net0 -device virtio-rng-pci &
QEMU=$!
wait_ssh "$BOOT_LIMIT"
init="$(vm 20 "ps -o comm= -p 1")"
[[ "$init" == systemd ]] || die "PID 1 is $init, not systemd"
state="$(vm "$BOOT_LIMIT" "systemctl is-system-running --wait" || true)"
vm 20 "systemctl --failed --no-legend --plain" >"$WORK/failed.txt" || true
checked "ssh answers; PID 1 is systemd; $(vm 20 'uname -m -r'); system $state" \
    "$( [[ -s "$WORK/failed.txt" ]] && echo "(failed: $(cut -d' ' -f1 "$WORK/failed.txt" | paste -sd' '))")"
if ((from > 0)); then  # the table the run before installed: its service, its seats' tokens
    step "the clone updated"
    # the clone brought to this commit, as the pub's `git pull` would (the installs read it)
    git -C "$REPO" archive HEAD | vm 600 "tar -x -C $CLONE && chown -R pi:pi $CLONE" \
        || die "the clone in the machine could not be brought to this commit"
    wait_active 600 bidou-table
    table_answers
    checked "the clone brought to $(git -C "$REPO" rev-parse --short HEAD); bidou-table active," \
        "the dashboard answers"
fi

# --- 4. the table's install, as the pub runs it ----------------------------------------------
if runs install; then
step "install.sh"
vm "$INSTALL_LIMIT" "cd $CLONE && env $OFFLINE firmware/deploy/install.sh" >"$WORK/install.log" 2>&1 \
    || die "firmware/deploy/install.sh: $(tail -5 "$WORK/install.log")"
wait_active 300 bidou-table
checked "firmware/deploy/install.sh from the clone exited 0 (pip from the image's wheels);" \
    "bidou-table.service active"
fi
if runs dashboard; then
step "dashboard"
# what the pub does for the phones: the dashboard on the pub's network (here, qemu's)
vm "$SHORT" "sed -i 's/^host = \"127.0.0.1\"/host = \"0.0.0.0\"/' /etc/bidou-table/table.toml \
    && systemctl restart bidou-table"
table_answers
page="$(timeout 30 curl -fsS "http://127.0.0.1:$TABLE_PORT/" | grep -c '<html' || true)"
((page >= 1)) || die "GET / on 127.0.0.1:$TABLE_PORT gave no page"
checked "[server] host 0.0.0.0; GET /api/state and GET / answer on 127.0.0.1:$TABLE_PORT" \
    "(forwarded to the machine's 8080)"
fi

if runs zones; then
step "zones saved"
line="$(game zones --port "$TABLE_PORT" --tokens "$WORK/tokens.log")"
[[ "$line" == *"saved in the config"* ]] || die "$line"
checked "${line#game.py: } (the service writes /etc/bidou-table)"
fi

if runs badconfig; then
step "a config it cannot use"
vm "$SHORT" "cp -p /etc/bidou-table/table.toml /root/table.toml.good \
    && sed -i 's/^port = 8080/port = \"eighty\"/' /etc/bidou-table/table.toml \
    && systemctl restart bidou-table"
said=""
for _ in $(seq 60); do  # the start under emulation reads the config after about 35 s
    sleep 5
    vm "$SHORT" "journalctl -u bidou-table -b -o cat --no-pager -n 40" >"$WORK/broken.txt" || true
    said="$(grep -m1 '^bidou-table run: ' "$WORK/broken.txt" || true)"
    [[ -n "$said" ]] && break
done
[[ -n "$said" ]] || die "no sentence in the journal for a config the table cannot use"
! grep -q Traceback "$WORK/broken.txt" || die "a traceback in the journal for a bad config"
vm "$SHORT" "cp -p /root/table.toml.good /etc/bidou-table/table.toml && systemctl restart bidou-table"
wait_active 120 bidou-table
table_answers
checked "[server] port = \"eighty\": the service's journal says \"$said\", no traceback;" \
    "the config put back, the service active again"
fi

# --- 5. 6. 7. a game, a kill, a reboot ----------------------------------------------------
if runs game; then
step "game to a bet"
line="$(game start --port "$TABLE_PORT" --tokens "$WORK/tokens.log")"
[[ "$line" == *"played to a bet"* ]] || die "$line"
checked "${line#game.py: }"
fi

if runs kill; then
step "kill -9"
pid="$(vm 20 "systemctl show -p MainPID --value bidou-table")"
restarts="$(vm 20 "systemctl show -p NRestarts --value bidou-table")"
vm 20 "kill -9 $pid"
for _ in $(seq 60); do
    now="$(vm 20 "systemctl show -p NRestarts --value bidou-table")"
    ((now > restarts)) && break
    sleep 2
done
((now > restarts)) || die "systemd did not restart bidou-table within 120 s of kill -9 $pid"
wait_active 120 bidou-table
table_answers
line="$(game resume --port "$TABLE_PORT")"
[[ "$line" == *resumed* ]] || die "$line"
vm 20 "journalctl -u bidou-table -b -o cat --no-pager | grep -E 'status=9/KILL|Scheduled restart'" \
    >"$WORK/kill.txt" || true
checked "main PID $pid killed; systemd restarted it (NRestarts $restarts -> $now:" \
    "$(paste -sd' ' "$WORK/kill.txt" | cut -c1-160)); ${line#game.py: }"
fi

if runs reboot; then
step "reboot"
before="$(boot_id)"
vm 20 "systemctl reboot" >/dev/null 2>&1 || true
sleep 10
wait_ssh "$BOOT_LIMIT"
after="$(boot_id)"
[[ -n "$after" && "$after" != "$before" ]] || die "the machine did not reboot (boot id $after)"
wait_active 300 bidou-table
table_answers
line="$(game resume --port "$TABLE_PORT")"
[[ "$line" == *resumed* ]] || die "$line"
checked "a new boot id; bidou-table active again by itself (enabled); ${line#game.py: }"
fi

# --- 8. the sandboxing ----------------------------------------------------------------------
if runs security; then
step "security"
vm 120 "systemd-analyze security bidou-table --no-pager" >"$WORK/security.txt" 2>&1 || true
checked "systemd-analyze security bidou-table: $(grep -o 'Overall exposure level.*' "$WORK/security.txt")"
fi

# --- 9. the hub, in the same machine --------------------------------------------------------
if runs hub; then
step "install-hub"
# run again, install-hub keeps the tables' passwords and prints no [venue] section for them:
# the one printed before is the one the table is given
if [[ -s "$WORK/hub.log" ]]; then cat "$WORK/hub.log" >>"$WORK/hub-before.log"; fi
vm "$INSTALL_LIMIT" "cd $CLONE && env $OFFLINE venue/deploy/install-hub t1 t2" >"$WORK/hub.log" 2>&1 \
    || die "venue/deploy/install-hub t1 t2: $(tail -5 "$WORK/hub.log" | sed 's/password = ".*"/password = "..."/')"
for unit in postgresql bidou-venue-hub bidou-venue-ingest bidou-venue-screen; do
    wait_active 300 "$unit"
done
checked "venue/deploy/install-hub t1 t2 exited 0 (pip from the image's wheels); the hub," \
    "the ingester and the screen active"
fi

if runs join; then
step "the table joins"
awk '/^Table t1:/ {on = 1; next} on && /^\[venue\]/ {print; take = 1; next}
     take && NF == 0 {exit} take {print}' "$WORK/hub.log" "$WORK"/hub-before*.log \
    >"$WORK/t1-venue.toml" 2>/dev/null || true
grep -q '^password = ' "$WORK/t1-venue.toml" || die "install-hub printed no [venue] section for t1"
# (once: a run from this step finds it there)
vm "$SHORT" "{ grep -q '^\[venue\]' /etc/bidou-table/table.toml || cat >>/etc/bidou-table/table.toml; } \
    && systemctl restart bidou-table" <"$WORK/t1-venue.toml"
wait_active 120 bidou-table
table_answers
line="$(game resume --port "$TABLE_PORT")"
[[ "$line" == *resumed* ]] || die "$line"
# what the pub does: the referee console names the table's log, the hub's operator enrolls it
link="$(game link --port "$TABLE_PORT" --tokens "$WORK/tokens.log" --timeout 300)"
[[ "$link" == "game.py: the venue link: log "* ]] || die "$link"
log_id="$(sed -n 's/^game.py: the venue link: log \([^;]*\);.*/\1/p' <<<"$link")"
# (a run from this step finds the log accepted by the run before: the hub says so, and that is
# what was to be shown)
vm 300 "runuser -u bidou-venue -- /opt/bidou-table/venv/bin/bidou-venue accept-log \
    --config /etc/bidou-venue/venue.toml t1 --log=$log_id" >"$WORK/accept.txt" 2>&1 \
    || grep -q "is table t1's already" "$WORK/accept.txt" \
    || die "accept-log: $(cat "$WORK/accept.txt")"
checked "t1's [venue] section appended to /etc/bidou-table/table.toml, the service restarted;" \
    "${line#game.py: }; the referee console: ${link#game.py: the venue link: log * }" \
    "$(grep -E "accepted|already" "$WORK/accept.txt")"
fi

if runs venue; then
step "the game reaches the venue"
line="$(game finish --port "$TABLE_PORT" --tokens "$WORK/tokens.log")"
[[ "$line" == *"record has every"* ]] || die "$line"
venue="$(game venue --port "$SCREEN_PORT" --table t1 --timeout 600)"
[[ "$venue" == *"venue screen lists"* ]] || die "$venue"
checked "${line#game.py: }; ${venue#game.py: } (127.0.0.1:$SCREEN_PORT/api/tables/t1/games)"
fi

if runs logins; then
step "PostgreSQL logins"
query="SELECT usename || ' ' || coalesce(host(client_addr), 'socket') || ' ' || application_name
       FROM pg_stat_activity WHERE datname = 'bidou_venue' AND usename <> 'postgres' ORDER BY 1"
vm "$SHORT" "runuser -u postgres -- psql -tAc \"$query\"" >"$WORK/logins.txt"
vm "$SHORT" "grep -h dsn /etc/bidou-venue/venue.toml | sed 's/password=[^ \"]*/password=.../'" \
    >"$WORK/dsn.txt"
[[ -s "$WORK/logins.txt" ]] || die "no service user is logged in to the database bidou_venue"
! grep -q ' socket' "$WORK/logins.txt" \
    || die "a service user logs in on the local socket (peer): $(grep ' socket' "$WORK/logins.txt")"
grep -q password= "$WORK/dsn.txt" || die "the venue config's DSN has no password"
# each DSN the install wrote logs in by itself (its password, over TCP); the owner's peer
# login, which the services would otherwise have, is refused
vm "$SHORT" "bash -s" >"$WORK/passwords.txt" 2>&1 <<'EOF'
cd /  # runuser keeps the directory, and bidou-venue may not enter /root
sed -n 's/^dsn = "\(.*\)"$/\1/p' /etc/bidou-venue/venue.toml | while read -r dsn; do
    echo "$(psql "$dsn" -tAc 'SELECT current_user') logs in with its DSN's password"
done
if runuser -u bidou-venue -- psql -d bidou_venue -tAc 'SELECT 1' >/dev/null 2>/tmp/peer.err; then
    echo "PEER: bidou-venue logs in by peer"
else
    echo "bidou-venue's peer login refused: $(grep -m1 FATAL /tmp/peer.err || head -1 /tmp/peer.err)"
fi
EOF
(( $(grep -c "with its DSN's password" "$WORK/passwords.txt") == 2 )) \
    || die "the venue config's DSNs do not both log in: $(paste -sd' ' "$WORK/passwords.txt")"
! grep -q '^PEER' "$WORK/passwords.txt" || die "the database's owner logs in by peer"
checked "sessions on bidou_venue: $(paste -sd, "$WORK/logins.txt" | sed 's/,/, /g'), all over" \
    "TCP; $(paste -sd';' "$WORK/passwords.txt" | sed 's/;/; /g')"
fi

# --- 10. the power-off ----------------------------------------------------------------------
step "power-off"
vm 20 "systemctl poweroff" >/dev/null 2>&1 || true
for _ in $(seq 60); do kill -0 "$QEMU" 2>/dev/null || break; sleep 2; done
kill -0 "$QEMU" 2>/dev/null && die "the machine did not power off within 120 s"
QEMU=""
checked "systemctl poweroff; qemu exited"
report ""
report "In all: $(( $(clock) - started )) s."
if runs security; then
    block "systemd-analyze security bidou-table" "$WORK/security.txt"
fi
if runs hub; then
    block "install-hub's output (passwords elided)" \
        <(sed 's/password = ".*"/password = "..."/' "$WORK/hub.log")
fi
say "passed; the report is in $REPORT"
