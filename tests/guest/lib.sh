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

# need_function_tracer: skip the test unless the function tracer is there
need_function_tracer() {
	[ -f /sys/kernel/tracing/available_filter_functions ] ||
		mount -t tracefs none /sys/kernel/tracing 2>/dev/null
	[ -f /sys/kernel/tracing/available_filter_functions ] || skip "no function tracer"
}

# no_umount_wait FSTYPE WHAT CALLER...: trace CYCLES (default 4) idle umounts
# of FSTYPE with S3's tracer (bench/umount_sync.py); fail if a wait of kind
# WHAT ("grace period" or "flush") was called from one of the CALLERs.
# Positive control: every umount on 6.1, stock or series, waits in
# namespace_unlock() (synchronize_rcu_expedited); the same trace must show
# that wait once per umount, or a missing wait proves nothing.
no_umount_wait() {
	local fs=$1 what=$2 out=$SCRATCH/s3-$1.json
	shift 2
	python3 "$TESTS/../bench/umount_sync.py" "${CYCLES:-4}" "$fs" > "$out" ||
		fail "umount_sync.py failed"
	cat "$out"
	python3 - "$out" "$TESTS/../bench" "$fs" "$what" "$@" <<'PY' || exit 1
import json, sys
sys.path.insert(0, sys.argv[2])
import tracer
fs, what, callers = sys.argv[3], sys.argv[4], set(sys.argv[5:])
funcs = tracer.GRACE_PERIOD if what == "grace period" else tracer.FLUSHES
r = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")][0]
known = r["per_call_site"].get("synchronize_rcu_expedited<-namespace_unlock", 0)
if known < 1:
    print("FAIL: tracer cannot see waits: synchronize_rcu_expedited<-namespace_unlock"
          " %.2f per %s umount, every umount makes one" % (known, fs))
    sys.exit(1)
bad = {s: n for s, n in r["per_call_site"].items()
       if s.split("<-")[0] in funcs and s.split("<-")[1] in callers}
for s, n in bad.items():
    print("FAIL: %s: %s %.2f per umount" % (fs, s, n))
if not bad:
    print("ok: %d %s umounts, no %s from %s (the tracer saw namespace_unlock()'s wait"
          " %.2f per umount)" % (r["cycles"], fs, what, ", ".join(sorted(callers)), known))
sys.exit(1 if bad else 0)
PY
}
