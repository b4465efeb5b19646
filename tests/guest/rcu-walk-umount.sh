#!/bin/bash
# An RCU path walk that began before the last reference to a filesystem
# went away must not see the superblock's shutdown finish under it when the
# filesystem has a bdi of its own: ->kill_sb() and __put_super() free what
# the walk's ->d_revalidate(), ->permission() and LSM hooks read (ceph's
# fs client, Smack's superblock blob).  On 6.1 the wait in bdi_unregister()
# was that grace period; the series keeps one (docs/design/
# bdi-grace-period-readers.md).
# Per cycle: mount, chdir into it, umount -l; a thread starts a reference-
# less RCU walk from the shared cwd (test_rcu_walk_umount, debugfs "hold")
# and stays in its read-side critical section for the hold time; the main
# thread then chdir("/"), dropping the last reference: the superblock is
# shut down as task work of that chdir.  Two cycles without a walk time
# that shutdown: the hold is 4 times the slower one (HOLD_MS the least;
# the module's 10 s the most, and at least twice the shutdown), or a
# shutdown slower than the hold could pass for one that waited.
#   btrfs  (bdi of its own) the walk must leave before the shutdown finishes
#   ext4   (the disk's bdi; no grace period on 6.1 either) control: the
#          shutdown must finish under the walk, or the probe sees nothing
# The walk reads s_fs_info when the shutdown has not finished: KASAN on the
# debug config catches a wait placed after a free; a missing wait shows as a
# finished shutdown.
# The walker waits as a preempted one would, which needs preemptible RCU
# (configs/test.config: Debian's PREEMPT_DYNAMIC).
. "$TESTS/guest/lib.sh"
require mkfs.btrfs mkfs.ext4 python3 losetup umount
modprobe -q test_rcu_walk_umount ||
	skip "no test_rcu_walk_umount module (CONFIG_TEST_RCU_WALK_UMOUNT; needs PREEMPT_RCU)"
for fs in btrfs ext4; do
	dev=$(make_fs "$fs" "$SCRATCH") || { echo "$dev"; exit 1; }
	python3 - "$fs" "$dev" "$SCRATCH/rcu-walk-$fs" "${CYCLES:-3}" "${HOLD_MS:-3000}" <<'PY'
import os, subprocess, sys, threading, time
fs, dev, mnt, cycles, hold_ms = sys.argv[1:4] + [int(a) for a in sys.argv[4:]]
D = "/sys/kernel/debug/test_rcu_walk_umount"
expect = 0 if fs == "btrfs" else 1


def state():
    with open(D + "/state") as f:
        return f.read().strip()


def walk(out):
    fd = os.open(D + "/hold", os.O_WRONLY)
    try:
        os.write(fd, str(hold_ms).encode())
    except OSError as e:
        out.append(e)
    finally:
        os.close(fd)


def enter_detached():
    """Mount, make the cwd a directory in it, detach it: the cwd is left
    as the last reference."""
    subprocess.run(["mount", "-t", fs, dev, mnt], check=True)
    os.makedirs(os.path.join(mnt, "d"), exist_ok=True)
    os.chdir(os.path.join(mnt, "d"))
    subprocess.run(["umount", "-l", mnt], cwd="/", check=True)


os.makedirs(mnt, exist_ok=True)
took = []
for i in range(2):
    enter_detached()
    start = time.monotonic()
    os.chdir("/")
    took.append(time.monotonic() - start)
# btrfs on the debug config: 3.00 s in one boot, 1.32 and 1.31 s in another
baseline = max(took)
hold_ms = min(10000, max(hold_ms, int(4000 * baseline)))
print("%s: shutdowns without a walk took %.2f and %.2f s; hold %d ms" %
      (fs, took[0], took[1], hold_ms))
if hold_ms < 2000 * baseline:
    sys.exit("FAIL: %s: a shutdown of %.2f s needs a hold of twice that, over the module's 10 s" % (fs, baseline))
bad = []
for i in range(cycles):
    enter_detached()
    err = []
    t = threading.Thread(target=walk, args=(err,))
    t.start()
    deadline = time.monotonic() + 10
    while state() != "holding" and time.monotonic() < deadline:
        time.sleep(0.01)
    if state() != "holding":
        os.chdir("/")
        t.join()
        sys.exit("FAIL: %s: the walk never started: %s %s" % (fs, state(), err))
    start = time.monotonic()
    os.chdir("/")
    took = time.monotonic() - start
    t.join()
    s = state()
    print("%s cycle %d: %s; the last reference's chdir took %.2f s" % (fs, i, s, took))
    if err or s != "shutdown_finished=%d fs=%s" % (expect, fs):
        bad.append("%s cycle %d: %s %s, want shutdown_finished=%d" % (fs, i, s, err, expect))
for b in bad:
    print("FAIL:", b)
if not bad:
    print("ok: %s: shutdown_finished=%d in %d of %d cycles" % (fs, expect, cycles, cycles))
sys.exit(1 if bad else 0)
PY
	rc=$?
	drop_fs "$dev"
	[ $rc = 0 ] || exit 1
done
