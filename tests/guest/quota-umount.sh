#!/bin/bash
# An ext4 sync or umount waits for the system-wide dquot release work only
# when dquots of its own superblock are being released.
#   counts  (test config) S3's tracer over CYCLES umounts of an ext4
#           without quota: fails if dquot_writeback_dquots() flushed the
#           release work (stock 6.1.192: 8 flushes per umount)
#   release ext4 with the quota feature: in each of ROUNDS rounds, USERS
#           users get a file each that stays, and DROPS users of their own a
#           file each that is unlinked, which releases their dquots; when
#           quotactl(Q_SYNC) returns, all of them must be released
#           (free_dquots in /proc/sys/fs/quota grew by 2 x DROPS: a user and
#           a group dquot each).  Then USERS more users' files
#           are unlinked and the filesystem frozen at once (FIFREEZE, then
#           FITHAW): a dquot written by the release work after the freeze
#           completed would warn in ext4_journal_check_start(), which fails
#           the run on the host.  After a remount, quotactl(Q_GETQUOTA) must
#           report each user's files that were left (one per user per round).
#           On the test config Q_SYNC is traced: at least once it must have
#           met releases of its own dquots pending and flushed the work.
#   delays  with the test_kprobe_delay module (CONFIG_TEST_KPROBE_DELAY):
#           one user's file is unlinked (its group has other files: one
#           dquot is released) while (queue) dqput()'s queueing of the
#           release work sleeps DELAY_MS (3000), the dquot already on
#           releasing_dquots, or (taken) the release work sleeps after it
#           took every queued dquot, before its synchronize_srcu(); Q_SYNC
#           issued during the delay must return with the dquot released,
#           and must have flushed the release work (a second delay point,
#           of no delay, counts flush_delayed_work() calls from
#           dquot_writeback_dquots()).  A sync that flushes without
#           queueing the work first (queue), or that does not see the
#           dquots the work has taken (taken), returns at once with it
#           still pending.  A try the delay did not cover (another task
#           took the point first, the dquot released before Q_SYNC, queue:
#           dqput()'s delay over before Q_SYNC returned, taken: released
#           without a flush) is repeated, 3 tries at most; then it fails
#           as "not exercised".  The dirty-list loop's flush of a releasing
#           dquot is not reached here: with the quota feature ext4 writes a
#           dquot as soon as it is dirtied (journalled quota), so none is on
#           the dirty list when released.
. "$TESTS/guest/lib.sh"
require mkfs.ext4 python3 losetup

if [ "${EXPECT_VARIANT:-}" != debug ]; then
	need_function_tracer
	no_umount_wait ext4 flush dquot_writeback_dquots
fi

img=$SCRATCH/quota.img
truncate -s 320M "$img"
mkfs.ext4 -q -F -O quota "$img" >&2 || skip "mkfs.ext4 cannot make the quota feature"
dev=$(losetup -f --show "$img") || fail "losetup failed"
trap 'losetup -d "$dev"' EXIT
trace=; [ "${EXPECT_VARIANT:-}" != debug ] && trace=1
delays=
if modinfo test_kprobe_delay > /dev/null 2>&1; then
	[ -d /sys/module/test_kprobe_delay ] && skip "test_kprobe_delay is loaded already"
	delays=1
else
	echo "# no test_kprobe_delay module (CONFIG_TEST_KPROBE_DELAY): delays not run"
fi
python3 - "$dev" "$SCRATCH/quota-mnt" "${ROUNDS:-10}" "${USERS:-24}" "$TESTS/../bench" "$trace" \
	"${DROPS:-1000}" "$delays" "${DELAY_MS:-3000}" <<'PY'
import ctypes, fcntl, os, subprocess, sys, threading, time
dev, mnt, rounds, users = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
drops = int(sys.argv[7])
delays, delay_ms = sys.argv[8] == "1", int(sys.argv[9])
sys.path.insert(0, sys.argv[5])
import tracer
trace = sys.argv[6] == "1"
if trace:
    tracer.setup()
flushed = 0
FIFREEZE, FITHAW = 0xC0045877, 0xC0045878
Q_SYNC, Q_GETQUOTA, USRQUOTA = 0x800001, 0x800007, 0
libc = ctypes.CDLL(None, use_errno=True)


class IfDqblk(ctypes.Structure):
    _fields_ = [(n, ctypes.c_uint64) for n in ("bhardlimit", "bsoftlimit", "curspace",
                                               "ihardlimit", "isoftlimit", "curinodes",
                                               "btime", "itime")] + [("valid", ctypes.c_uint32)]


def inodes_of(uid):
    q = IfDqblk()
    if libc.quotactl((Q_GETQUOTA << 8) | USRQUOTA, dev.encode(), uid, ctypes.byref(q)):
        raise OSError(ctypes.get_errno(), "quotactl(Q_GETQUOTA) uid %d" % uid)
    return q.curinodes


def free_dquots():
    return int(open("/proc/sys/fs/quota/free_dquots").read())


def released_dquots():
    """free_dquots less allocated_dquots: a release adds to the first only,
    the dquot cache shrinker takes from both"""
    return free_dquots() - int(open("/proc/sys/fs/quota/allocated_dquots").read())


def make(name, uid, gid=None):
    p = os.path.join(mnt, name)
    with open(p, "w") as f:
        f.write("x" * 4096)
    os.chown(p, uid, uid if gid is None else gid)
    return p


def q_sync():
    if libc.quotactl((Q_SYNC << 8) | USRQUOTA, dev.encode(), 0, None):
        raise OSError(ctypes.get_errno(), "quotactl(Q_SYNC)")


def delay_hits():
    """calls each delay point has delayed so far (point 1, point 2)"""
    h = open("/sys/module/test_kprobe_delay/parameters/hits").read().strip()
    return [int(n) for n in h.split(",")]


def delayed_try(what, uid, params, unlink_waits):
    """Unlink a file of user uid (group: a user whose files stay, so that one
    dquot is released) with test_kprobe_delay delaying point 1 (params) and
    counting Q_SYNC's flushes of the release work (point 2, no delay); issue
    Q_SYNC as soon as point 1 delays a call.  Return (failure, exercised)."""
    p = make("delay-%s-%d" % (what, uid), uid, 20000)
    time.sleep(0.2)  # earlier releases done
    symbol, caller = params
    subprocess.run(["modprobe", "test_kprobe_delay", "delay_ms=%d,0" % delay_ms,
                    "symbol=%s,flush_delayed_work" % symbol,
                    "caller=%s,dquot_writeback_dquots" % caller], check=True)
    try:
        if delay_hits() != [0, 0]:
            return None, "a call of another task took a delay point first"
        free = released_dquots()
        # the unlink's dqput() sleeps in the module (queue): unlink elsewhere
        unlinker = threading.Thread(target=os.unlink, args=(p,))
        if unlink_waits:
            unlinker.start()
        else:
            unlinker.run()
        end = time.time() + 20
        while not delay_hits()[0] and time.time() < end:
            time.sleep(0.01)
        if not delay_hits()[0]:
            return ("%s: the module delayed no call within 20 s of the unlink" % what,
                    None)
        if released_dquots() > free:
            return None, "the dquot was released before Q_SYNC"
        flushes = delay_hits()[1]
        start = time.time()
        q_sync()
        took = time.time() - start
        flushed = delay_hits()[1] > flushes
        released = released_dquots() - free
        # queue: dqput() must still sleep, the work not queued by it
        still_queueing = unlinker.is_alive() if unlink_waits else None
        if unlink_waits:
            unlinker.join()
    finally:
        subprocess.run(["rmmod", "test_kprobe_delay"], check=True)
    print("# delays: %s: Q_SYNC took %.2f s, %s the release work, %d dquot released"
          % (what, took, "flushed" if flushed else "did not flush", released))
    if released < 1:
        return ("%s: Q_SYNC returned with the dquot still being released (%.2f s into"
                " the module's %d ms delay, %s)" % (what, took, delay_ms,
                                                    "flushed" if flushed else "no flush"),
                None)
    if still_queueing is False:
        return None, "dqput()'s delay was over before Q_SYNC returned"
    if released > 1:
        # another dquot released meanwhile may be what Q_SYNC flushed for
        return None, "%d dquots released, not only the unlinked file's" % released
    if not flushed:
        if unlink_waits:
            return ("%s: Q_SYNC did not flush the release work with its dquot on"
                    " releasing_dquots" % what, None)
        # the work may have finished between the check and Q_SYNC's scan
        return None, "released without a flush: the work finished on its own"
    return None, None


def delayed_release(what, uid, params, unlink_waits, tries=3):
    """delayed_try() until it exercised the case, at most tries times"""
    misses = []
    for t in range(tries):
        failure, miss = delayed_try(what, uid + t, params, unlink_waits)
        if failure or not miss:
            return failure
        print("# delays: %s: try %d not exercised: %s" % (what, t + 1, miss))
        misses.append(miss)
    return "%s: not exercised in %d tries (%s)" % (what, tries, "; ".join(misses))


os.makedirs(mnt, exist_ok=True)
subprocess.run(["mount", "-t", "ext4", dev, mnt], check=True)
start, bad = time.time(), []
for r in range(rounds):
    for k in range(users):
        make("keep-%d-%d" % (r, k), 20000 + k)
    # a user of its own for each dropped file: unlink() evicts the inode,
    # which drops the dquot's last reference and queues the dquot for the
    # release work; quotactl(Q_SYNC), dquot_writeback_dquots() at once,
    # must return with all of them released
    drop = [make("drop-%d-%d" % (r, j), 100000 + r * drops + j) for j in range(drops)]
    fd = os.open(mnt, os.O_RDONLY)
    free = free_dquots()
    if trace:
        tracer.start()
    for p in drop:
        os.unlink(p)
    q_sync()
    if trace:
        calls = tracer.stop().get(threading.get_native_id(), [])
        flushed += ("flush_delayed_work", "dquot_writeback_dquots") in calls
    # a user and a group dquot per dropped file (chown set both)
    released = free_dquots() - free
    if released < 2 * drops:
        bad.append("round %d: Q_SYNC returned with %d of %d dquots still being released"
                   % (r, 2 * drops - released, 2 * drops))
    # and releases right before a freeze
    for k in range(users):
        os.unlink(make("freeze-%d-%d" % (r, k), 200000 + r * users + k))
    fcntl.ioctl(fd, FIFREEZE, 0)
    time.sleep(0.05)
    fcntl.ioctl(fd, FITHAW, 0)
    os.close(fd)
if delays:
    # the group of the delayed files keeps a file open, so that its dquot
    # cannot be released with theirs
    keep_group = os.open(os.path.join(mnt, "keep-0-0"), os.O_RDONLY)
    # queue: dqput() put the dquot on releasing_dquots and sleeps before it
    # queues the work; taken: the work took it off that list and sleeps
    bad += [b for b in (
        # dqput() may be inlined, or queue the work with a tail call
        delayed_release("queue", 300000, ("queue_delayed_work_on", "dqput|__dquot_drop"),
                        True),
        delayed_release("taken", 300100, ("synchronize_srcu", "quota_release_workfn"),
                        False))
            if b]
    os.close(keep_group)
subprocess.run(["umount", mnt], check=True)
subprocess.run(["mount", "-t", "ext4", dev, mnt], check=True)
bad += ["uid %d: %d inodes charged, %d files left" % (20000 + k, n, rounds)
        for k in range(users) for n in [inodes_of(20000 + k)] if n != rounds]
subprocess.run(["umount", mnt], check=True)
if trace and not flushed:
    bad.append("no Q_SYNC met releases of its own dquots pending: not exercised")
for b in bad:
    print("FAIL: " + b)
print("# release: %d rounds of %d users' dquots released, then Q_SYNC, in %.0f s%s; "
      "usage after remount %s" % (rounds, drops, time.time() - start,
                                  ", %d Q_SYNC flushed the release work" % flushed if trace else "",
                                  "matches" if not bad else "wrong"))
sys.exit(1 if bad else 0)
PY
