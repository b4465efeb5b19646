#!/usr/bin/python3
"""Non-lazy umount(2) racing the mount's lockless users still either fails
with EBUSY or returns with the filesystem shut down.

For each filesystem in RACE_FS (default tmpfs, ext4, xfs, btrfs; the block
ones on loop devices), ROUNDS rounds of mount, then umount2(mnt, 0) retried
while it says EBUSY, while four processes run flat out on the mount:
  - stat() of files two levels into it, one through ".." (RCU path walks
    that take a mount reference in legitimize_mnt() when they complete),
  - reads of /proc/self/mountinfo (the namespace's mount list),
  - open() of a file on it, readlink() of /proc/self/fd/N (d_path) and
    close() (a file, hence a mount reference, dropped concurrently; its
    mntput() may be the fast path that sees a namespace still set),
  - chdir() into it and back out (a reference held in between).
Right after each successful umount(2), before anything else:
  - a block filesystem's loop device opens O_EXCL (the superblock has let
    go of it: what LTP's loop-device tests need),
  - every entry the mount created in the shrinker debugfs directory,
    /sys/fs/FS, /proc/fs/FS, /proc/fs/jbd2 and /sys/class/bdi is gone;
    positive control: in each round the mount must have created the
    entries every mount of FS creates (CREATES below: the superblock's
    shrinker directory sb-FS-N for all four, and ext4's /sys/fs/ext4/DEV,
    /proc/fs/ext4/DEV and /proc/fs/jbd2/DEV-8, XFS's /sys/fs/xfs/DEV,
    btrfs's /sys/fs/btrfs/UUID and its bdi /sys/class/bdi/btrfs-N), or
    their absence afterwards proves nothing,
  - the mount point is no longer a mount.
Any other errno from umount(2) or mount(2) fails.  Each racer counts its
calls and those that reached the mount (the walk, open or chdir worked; the
mountinfo read listed it); a racer that never reached the mount, or died,
fails the test.  At the end, with kmemleak, nothing allocated through
mount, shrinkers, list_lru, cgroup writeback or a bdi may leak; the host
fails the run on a KASAN, lockdep or WARN report.  Exit 0 pass, 1 fail,
4 skip.
"""
import errno
import os
import random
import re
import signal
import sys
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from guestlib import (SCRATCH, drop_fs, fail, kmemleak_check, make_fs, mount,  # noqa: E402
                      mount_debugfs, umount, write)

FSS = os.environ.get("RACE_FS", "tmpfs ext4 xfs btrfs").replace(",", " ").split()
ROUNDS = int(os.environ.get("ROUNDS", "200"))
STOP = os.path.join(SCRATCH, "race-stop")


def watched(fs):
    return ["/sys/kernel/debug/shrinker", f"/sys/fs/{fs}", f"/proc/fs/{fs}",
            "/proc/fs/jbd2", "/sys/class/bdi"]


# What every mount of each filesystem creates (directory, name prefix):
# the positive control of the "gone after umount" check.
# (the superblock's shrinker is sb-FS-N, or sb-FS:DEV-N on a block device)
CREATES = {
    "tmpfs": [("/sys/kernel/debug/shrinker", "sb-tmpfs")],
    "ext4": [("/sys/kernel/debug/shrinker", "sb-ext4"), ("/sys/fs/ext4", ""),
             ("/proc/fs/ext4", ""), ("/proc/fs/jbd2", "")],
    "xfs": [("/sys/kernel/debug/shrinker", "sb-xfs"), ("/sys/fs/xfs", "")],
    "btrfs": [("/sys/kernel/debug/shrinker", "sb-btrfs"), ("/sys/fs/btrfs", ""),
              ("/sys/class/bdi", "btrfs-")],
}


def missing_creations(fs, created):
    """the CREATES entries of FS that CREATED (paths the mount added) lacks"""
    def made(d, prefix):
        pat = re.compile(re.escape(prefix) + (r"[-:]" if prefix.startswith("sb-") else ""))
        return any(os.path.dirname(p) == d and pat.match(os.path.basename(p)) for p in created)
    return [f"{d}/{prefix}*" for d, prefix in CREATES.get(fs, []) if not made(d, prefix)]


def entries(dirs):
    found = set()
    for d in dirs:
        try:
            found.update(os.path.join(d, e) for e in os.listdir(d))
        except FileNotFoundError:
            pass
    return found


def racer(name, mnt, step):
    """run step(mnt) until STOP exists, ignoring its errors; write the
    calls and those that reached the mount (step returned true) into
    SCRATCH/n-NAME"""
    os.nice(5)
    n = hits = 0
    while not os.path.exists(STOP):
        for _ in range(50):
            try:
                hits += bool(step(mnt))
            except OSError:
                pass
            n += 1
        write(os.path.join(SCRATCH, "n-" + name), f"{n} {hits}")
    write(os.path.join(SCRATCH, "n-" + name), f"{n} {hits}")


def stat_walk(mnt):
    os.stat(mnt + "/d/g")
    os.stat(mnt + "/d/../f")
    return True


def chdir_in_out(mnt):
    os.chdir(mnt + "/d")
    os.chdir("/")
    return True


def read_mountinfo(mnt):
    with open("/proc/self/mountinfo") as f:
        return f" {mnt} " in f.read()


def open_dpath_close(mnt):
    fd = os.open(mnt + "/d/g", os.O_RDONLY)
    try:
        return os.readlink(f"/proc/self/fd/{fd}") == mnt + "/d/g"
    finally:
        os.close(fd)


RACERS = {"stat": stat_walk, "mountinfo": read_mountinfo, "dpath": open_dpath_close,
          "chdir": chdir_in_out}


def start_racers(mnt):
    """fork the racers: {pid: name}; each exits 1 if it raised anything
    but OSError"""
    pids = {}
    for name, step in RACERS.items():
        pid = os.fork()
        if pid == 0:
            code = 1
            try:
                racer(name, mnt, step)
                code = 0
            except BaseException:
                traceback.print_exc()
            finally:
                sys.stderr.flush()
                os._exit(code)
        pids[pid] = name
    return pids


def count(name):
    """a racer's (calls, calls that reached the mount)"""
    try:
        with open(os.path.join(SCRATCH, "n-" + name)) as f:
            n, hits = f.read().split()
        return int(n), int(hits)
    except (OSError, ValueError):
        return 0, 0


def rounds_of(fs):
    src = make_fs(fs)
    mnt = f"{SCRATCH}/race-{fs}"
    os.makedirs(mnt, exist_ok=True)
    dirs = watched(fs)
    for f in [STOP] + [os.path.join(SCRATCH, "n-" + name) for name in RACERS]:
        if os.path.exists(f):
            os.unlink(f)
    pids = start_racers(mnt)
    busy = checked = 0
    began = time.time()
    try:
        for i in range(ROUNDS):
            before = entries(dirs)
            err = mount(src, mnt, fs)
            if err:
                fail(f"{fs} round {i}: mount: {os.strerror(err)}")
            if not os.path.exists(mnt + "/d/g"):
                os.makedirs(mnt + "/d", exist_ok=True)
                write(mnt + "/d/g", "g\n")
                write(mnt + "/f", "f\n")
            created = entries(dirs) - before
            missing = missing_creations(fs, created)
            if missing:
                fail(f"{fs} round {i}: the mount created no {', '.join(missing)}: their absence"
                     " after umount would prove nothing")
            checked += len(created)
            time.sleep(random.random() / 50)
            deadline = time.time() + 10
            while True:
                err = umount(mnt)
                if err != errno.EBUSY or time.time() > deadline:
                    break
                busy += 1
                time.sleep(0.001)
            if err:
                fail(f"{fs} round {i}: umount: {os.strerror(err)}"
                     f"{' for 10 s' if err == errno.EBUSY else ''}")
            if src.startswith("/dev/"):
                try:
                    os.close(os.open(src, os.O_RDONLY | os.O_EXCL))
                except OSError as e:
                    fail(f"{fs} round {i}: umount returned and {src} does not open"
                         f" O_EXCL: {e.strerror}")
            left = created & entries(dirs)
            if left:
                fail(f"{fs} round {i}: umount returned and {', '.join(sorted(left))}"
                     " still exist(s)")
            if os.path.ismount(mnt):
                fail(f"{fs} round {i}: umount returned 0 and {mnt} is still a mount point")
    finally:
        write(STOP, "")
        died = [name for pid, name in pids.items() if os.waitpid(pid, 0)[1]]
        # a round that failed with the filesystem mounted: the next tests
        # would find its image busy
        if os.path.ismount(mnt):
            umount(mnt, 2)  # MNT_DETACH
        drop_fs(src)
    n = {name: count(name) for name in RACERS}
    on = {name: "%d/%d" % (n[name][1], n[name][0]) for name in RACERS}
    print(f"# {fs}: {ROUNDS} umounts in {time.time() - began:.0f} s, {busy} EBUSY retries,"
          f" {checked} entries the mounts created checked gone ({checked / ROUNDS:.1f} per"
          f" round: {', '.join(d + '/' + p + '*' for d, p in CREATES.get(fs, []))});"
          " racing (on the mount/calls)"
          f" {on['stat']} stat pairs, {on['mountinfo']} mountinfo reads,"
          f" {on['dpath']} open+d_path+close, {on['chdir']} chdir in and out",
          flush=True)
    bad = [f"{fs}: the {name} racer died (traceback above)" for name in died]
    bad += [f"{fs}: the {name} racer never reached the mount ({n[name][0]} calls)"
            for name in RACERS if n[name][1] == 0]
    for b in bad[:-1]:
        print("FAIL: " + b)
    if bad:
        fail(bad[-1])


def main():
    mount_debugfs()
    for fs in FSS:
        rounds_of(fs)
    kmemleak_check()


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, lambda *a: sys.exit(1))
    main()
