#!/usr/bin/env bash
# Install the Bidou table on Raspberry Pi OS Bookworm (run as root from the project checkout):
#   sudo firmware/deploy/install.sh
# - apt, for what is missing: python3-venv, rsync, and on a Pi python3-picamera2 (the camera;
#   not on PyPI) and python3-lgpio (the pins);
# - user "bidou" in the groups gpio and video (no root at run time);
# - venv in /opt/bidou-table/venv with --system-site-packages (so it sees picamera2), the
#   project installed into it from a copy in /opt/bidou-table/src, with the learn extra
#   (PyTorch, CPU-only on aarch64 as pi-constraints.txt pins it: the Dice page's Learn and
#   bidou-table calibrate teach the table's own network with it, and the table teaches itself
#   again when idle);
# - config /etc/bidou-table/table.toml from firmware/table.example.toml if absent (never
#   overwritten: edit it, at least [referee] pin and [camera] kind = "picamera"), in a folder
#   the service may write (the referee console saves the zones and a kept reader there);
# - state (the game log) in /var/lib/bidou-table;
# - the systemd unit bidou-table.service, enabled and started.
# Running it again upgrades the code and keeps config and log.
set -euo pipefail

if [[ $EUID -ne 0 ]]; then
    echo "install.sh: run as root: sudo $0" >&2
    exit 1
fi

HERE="$(cd "$(dirname "$0")" && pwd)"
SRC="$(cd "$HERE/../.." && pwd)"
PREFIX=/opt/bidou-table
CONF=/etc/bidou-table
STATE=/var/lib/bidou-table
USER_NAME=bidou

# python3-picamera2 (the camera) and python3-lgpio (the pins) are in Raspberry Pi OS's archive,
# not in Debian's: elsewhere they are not asked for, and the table runs in simulation. apt
# runs only for what is missing, so that running this again needs no network.
packages=(python3-venv rsync)
if grep -q "Raspberry Pi" /proc/device-tree/model 2>/dev/null; then
    packages+=(python3-picamera2 python3-lgpio)
else
    echo "install.sh: warning: this is not a Raspberry Pi (no python3-picamera2 or" \
         "python3-lgpio, which are Raspberry Pi OS's); the table will run in simulation." >&2
fi
missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "ok installed" \
        || missing+=("$package")
done
if ((${#missing[@]})); then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq "${missing[@]}"
fi

for group in gpio video; do
    getent group "$group" >/dev/null || groupadd --system "$group"
done
if ! id "$USER_NAME" >/dev/null 2>&1; then
    useradd --system --home-dir "$STATE" --no-create-home --shell /usr/sbin/nologin \
        --user-group "$USER_NAME"
fi
usermod -a -G gpio,video "$USER_NAME"

install -d -m 0755 "$PREFIX"
rsync -a --delete --exclude .git --exclude .venv --exclude '*.db*' --exclude __pycache__ \
    "$SRC/" "$PREFIX/src/"
if [[ ! -x "$PREFIX/venv/bin/python" ]]; then
    python3 -m venv --system-site-packages "$PREFIX/venv"
fi
"$PREFIX/venv/bin/python" -m pip install -q --upgrade pip
# Keep the system's numpy (picamera2's simplejpeg is built against it): see pi-constraints.txt.
"$PREFIX/venv/bin/python" -m pip install -q -c "$HERE/pi-constraints.txt" "$PREFIX/src[learn]"

# the bidou group's: the referee console saves the camera zones and a kept reader here
install -d -m 0770 -g "$USER_NAME" "$CONF"
if [[ ! -e "$CONF/table.toml" ]]; then
    install -m 0640 -g "$USER_NAME" "$SRC/firmware/table.example.toml" "$CONF/table.toml"
    echo "install.sh: wrote $CONF/table.toml from the example: set [referee] pin and" \
         "[camera] kind = \"picamera\", then: sudo systemctl restart bidou-table"
fi
# a config naming the rule reader keeps it: say what the table would read with without it
if grep -Eq '^[[:space:]]*reader[[:space:]]*=[[:space:]]*"rules"' "$CONF/table.toml"; then
    echo "install.sh: $CONF/table.toml names reader = \"rules\" under [vision], so the table" \
         "reads with the rule reader. Unless bidou-table calibrate chose it for this table's" \
         "dice, delete that line: the camera's photographs are then read with the learned" \
         "reader, which reads real dice better (docs/vision-model.md)."
fi
install -d -m 0750 -o "$USER_NAME" -g "$USER_NAME" "$STATE"

install -m 0644 "$HERE/bidou-table.service" /etc/systemd/system/bidou-table.service
systemctl daemon-reload
systemctl enable bidou-table.service
systemctl restart bidou-table.service
echo "install.sh: bidou-table is running; see: journalctl -u bidou-table -f"
