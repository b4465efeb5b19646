# Helpers for scenario tests (sourced).  Exit codes follow kselftest:
# 0 pass, 1 fail, 4 skip.
set -u
fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "SKIP: $*"; exit 4; }
require() { for c; do command -v "$c" >/dev/null || skip "$c not installed"; done; }

# make_fs FSTYPE DIR: create an empty filesystem of FSTYPE and print what to
# pass to mount (an image file on a loop device, or "none" for tmpfs).
make_fs() {
	local fs=$1 img=$2/$1.img
	case $fs in
	tmpfs) echo none; return ;;
	xfs) modprobe -q xfs || fail "modprobe xfs failed" ;;
	btrfs) modprobe -q btrfs || fail "modprobe btrfs failed" ;;
	esac
	require "mkfs.$fs"
	truncate -s 320M "$img"
	case $fs in
	ext4) mkfs.ext4 -q -F "$img" >&2 ;;
	xfs) mkfs.xfs -q -f "$img" >&2 ;;
	btrfs) mkfs.btrfs -q -f "$img" >&2 ;;
	esac || fail "mkfs.$fs failed"
	losetup -f --show "$img" || fail "losetup failed"
}

drop_fs() { case $1 in /dev/loop*) losetup -d "$1" ;; esac; }
