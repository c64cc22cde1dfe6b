#!/usr/bin/env bash
# make pi-boot's disk: pi-check's cached arm64 root, with what a booted Pi has besides, as an
# ext4 image that qemu-system-aarch64 boots (hardware/pi-boot/run.sh runs this, then boots it).
#
# Why a layer: pi-check's root stays as pi-check uses it (its tests see no PostgreSQL it did
# not ask for). What booting needs goes into an overlay on top of it, cached in
# $CACHE/pi-boot/upper and remade when its package list or the root below changes:
#   - the kernel and initrd of the root's own linux-image-arm64, systemd as init, udev, dbus;
#   - openssh-server (the run drives the machine over a forwarded port, with a key made here);
#   - postgresql and rsync, the apt packages the hub's install asks for;
#   - systemd-networkd on DHCP (qemu's user network: no way out, only the forwarded ports);
#   - the wheels the installs pip-install, downloaded from PyPI here, so that the booted
#     machine installs from /var/cache/bidou-wheels and fetches nothing: the table's with its
#     learn extra (install.sh installs it: PyTorch's CPU-only aarch64 wheels, as
#     pi-constraints.txt pins them) and the hub's venue extra.
# Then, at every run, a fresh clone of the repository in /home/pi/bidou-table and a new image
# made from the overlay (mkfs.ext4 -d: no loop device): each boot starts from a clean install.
#
# Usage (as root): image.sh CACHE IMAGE KEY  -> prints one line per step with its seconds
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
CACHE="$1"
IMAGE="$2"
KEY="$3"
LOWER="$CACHE/bookworm-arm64"
LAYER="$CACHE/pi-boot"
UPPER="$LAYER/upper"
MERGED="$LAYER/root"
WHEELS=/var/cache/bidou-wheels
IMAGE_SIZE="${PI_BOOT_IMAGE_SIZE:-8G}"
STEP_LIMIT="${PI_BOOT_STEP_LIMIT:-3600}"
BOOT_PACKAGES="linux-image-arm64 systemd-sysv udev dbus kmod iproute2 openssh-server postgresql rsync"
STAMP="$UPPER/.pi-boot-layer"
LAYER_ID="$BOOT_PACKAGES; root $(stat -c %Y "$LOWER/.pi-check-root")"

say() { echo "pi-boot: $*"; }
die() { echo "pi-boot: $*" >&2; exit 1; }
clock() { date +%s; }

[[ -e "$LOWER/.pi-check-root" ]] || die "no pi-check root in $LOWER: run make pi-check once"

# --- the overlay, and the mounts a chroot needs; all undone on exit ----------------------
MOUNTED=()
cleanup() {
    local i
    for ((i = ${#MOUNTED[@]} - 1; i >= 0; i--)); do
        umount "${MOUNTED[i]}" 2>/dev/null || umount -l "${MOUNTED[i]}" 2>/dev/null || true
    done
    MOUNTED=()
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if [[ -e "$STAMP" && "$(cat "$STAMP")" != "$LAYER_ID" ]]; then
    say "the boot layer was made for another package list or root: making it anew"
    rm -rf "$UPPER"
fi
mkdir -p "$UPPER" "$LAYER/work" "$MERGED"
mount -t overlay overlay -o "lowerdir=$LOWER,upperdir=$UPPER,workdir=$LAYER/work" "$MERGED"
MOUNTED+=("$MERGED")

chroot_mounts() {
    mount -t proc -o nosuid,nodev,noexec proc "$MERGED/proc"
    MOUNTED+=("$MERGED/proc")
    mount -t tmpfs -o mode=0755,nosuid,size=64k tmpfs "$MERGED/dev"
    MOUNTED+=("$MERGED/dev")
    local node name kind major minor
    for node in "null c 1 3" "zero c 1 5" "full c 1 7" "random c 1 8" "urandom c 1 9" \
                "tty c 5 0"; do
        read -r name kind major minor <<<"$node"
        mknod -m 0666 "$MERGED/dev/$name" "$kind" "$major" "$minor"
    done
    ln -s /proc/self/fd "$MERGED/dev/fd"
    mount -t tmpfs -o mode=1777,nosuid,nodev,size=2g tmpfs "$MERGED/tmp"
    MOUNTED+=("$MERGED/tmp")
}
in_root() {  # in_root COMMAND...: bounded, niced, in the layer's root
    nice -n 15 timeout --kill-after=30 "$STEP_LIMIT" chroot "$MERGED" /usr/bin/env -i \
        PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive \
        PIP_CERT=/etc/ssl/certs/ca-certificates.crt PIP_DISABLE_PIP_VERSION_CHECK=1 "$@"
}

# --- the boot layer (cached) -------------------------------------------------------------
if [[ ! -e "$STAMP" ]]; then
    chroot_mounts
    t=$(clock)
    # The initrd holds only what this machine boots from (virtio's disk, ext4): with Debian's
    # default (MODULES=most) mkinitramfs looked up every module under emulation for more
    # than 20 minutes.
    mkdir -p "$MERGED/etc/initramfs-tools/conf.d"
    echo MODULES=list >"$MERGED/etc/initramfs-tools/conf.d/pi-boot"
    printf '%s\n' virtio_pci virtio_blk ext4 >"$MERGED/etc/initramfs-tools/modules"
    # shellcheck disable=SC2086
    { in_root dpkg --configure -a \
      && in_root apt-get update -qq \
      && in_root apt-get install -y -qq --no-install-recommends $BOOT_PACKAGES; } \
        >"$LAYER/apt.log" 2>&1 || die "apt-get install in the boot layer failed: see $LAYER/apt.log"
    echo "/dev/vda / ext4 rw,errors=remount-ro 0 1" >"$MERGED/etc/fstab"
    echo bidou-pi >"$MERGED/etc/hostname"
    grep -q bidou-pi "$MERGED/etc/hosts" || printf '127.0.1.1\tbidou-pi\n' >>"$MERGED/etc/hosts"
    printf '[Match]\nName=en* eth*\n\n[Network]\nDHCP=ipv4\n' \
        >"$MERGED/etc/systemd/network/20-wired.network"
    in_root systemctl enable systemd-networkd >/dev/null 2>&1
    # timers that would only spend the emulated processor during the run
    in_root systemctl mask apt-daily.timer apt-daily-upgrade.timer man-db.timer \
        e2scrub_all.timer fstrim.timer >/dev/null 2>&1
    echo "$LAYER_ID" >"$STAMP"
    say "boot layer: $(( $(clock) - t )) s ($BOOT_PACKAGES; kept in $UPPER)"
    cleanup
    mount -t overlay overlay -o "lowerdir=$LOWER,upperdir=$UPPER,workdir=$LAYER/work" "$MERGED"
    MOUNTED+=("$MERGED")
fi

# --- the wheels, from PyPI, for the installs inside (cached by what they depend on) -------
want="$(cat "$REPO/pyproject.toml" "$REPO/firmware/deploy/pi-constraints.txt" | sha256sum)"
if [[ "$(cat "$MERGED$WHEELS/.for" 2>/dev/null)" != "$want" ]]; then
    chroot_mounts
    t=$(clock)
    mkdir -p "$MERGED/tmp/src"
    git -C "$REPO" archive HEAD pyproject.toml README.md | tar -x -C "$MERGED/tmp/src"
    install -m 0644 "$REPO/firmware/deploy/pi-constraints.txt" "$MERGED/tmp/"
    # The table's venv sees the system's packages (install.sh), as this one does: the same
    # resolution. pip itself and setuptools (the project's build backend) are fetched too.
    { in_root python3 -m venv --system-site-packages /tmp/wheel-venv \
      && in_root /tmp/wheel-venv/bin/pip download -q -d "$WHEELS" \
          -c /tmp/pi-constraints.txt pip "setuptools>=70.1" wheel "/tmp/src[learn,venue]"; } \
        >"$LAYER/wheels.log" 2>&1 || die "pip download failed: see $LAYER/wheels.log"
    echo "$want" >"$MERGED$WHEELS/.for"
    say "wheels: $(( $(clock) - t )) s ($(find "$MERGED$WHEELS" -name '*.whl' | wc -l) from PyPI into $WHEELS)"
    cleanup
    mount -t overlay overlay -o "lowerdir=$LOWER,upperdir=$UPPER,workdir=$LAYER/work" "$MERGED"
    MOUNTED+=("$MERGED")
fi

# --- this run: the key, the clone, the image ------------------------------------------------
install -d -m 0700 "$MERGED/root/.ssh"
install -m 0600 "$KEY.pub" "$MERGED/root/.ssh/authorized_keys"
rm -rf "$MERGED/home/pi/bidou-table"
# the commit only: the history (3.3 GB of it, old weights included) would fill the disk that
# the installs' PyTorch needs, and a pub's install never reads it
git clone --quiet --depth 1 "file://$REPO" "$MERGED/home/pi/bidou-table"
say "clone: $(git -C "$MERGED/home/pi/bidou-table" log --oneline -1)"  # before it is pi's
timeout 600 chroot "$MERGED" chown -R pi:pi /home/pi/bidou-table
t=$(clock)
rm -f "$IMAGE"
nice -n 15 timeout "$STEP_LIMIT" mkfs.ext4 -q -F -L bidou-root -d "$MERGED" "$IMAGE" "$IMAGE_SIZE" \
    || die "mkfs.ext4 -d could not make $IMAGE from $MERGED"
kernel="$(find "$MERGED/boot" -name 'vmlinuz-*' | sort -V | tail -1)"
initrd="$(find "$MERGED/boot" -name 'initrd.img-*' | sort -V | tail -1)"
[[ -n "$kernel" && -n "$initrd" ]] || die "no kernel or initrd in $MERGED/boot"
cp "$kernel" "$LAYER/vmlinuz"
cp "$initrd" "$LAYER/initrd.img"
say "image: $(( $(clock) - t )) s ($IMAGE, $(du -sh "$IMAGE" | cut -f1) used; kernel ${kernel##*/vmlinuz-})"
