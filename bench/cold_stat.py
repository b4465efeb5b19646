#!/usr/bin/env python3
"""S6: cold-cache stat walks, one process per tree, drop_caches between passes.

    cold_stat.py PROCS DIRS FILES PASSES FSTYPE...

For each filesystem type: a fresh loop filesystem with PROCS trees of DIRS
directories x FILES empty files.  Each pass drops the dentry and inode caches
and then lets PROCS processes lstat() every entry of their own tree at once,
so that every lookup instantiates its inode (iget).  Prints one JSON object
per pass: wall seconds, user and system seconds of the walkers and, when the
kernel has lock_stat (debug config), how often inode_hash_lock was acquired
during the pass and per inode instantiated.
"""
import json
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fsutil  # noqa: E402

LOCK_STAT = "/proc/lock_stat"
LOCK_STAT_ON = "/proc/sys/kernel/lock_stat"


def write(path, value):
    with open(path, "w") as f:
        f.write(value)


def hash_lock_acquisitions():
    # class name, con-bounces, contentions, 4 wait times, acq-bounces,
    # acquisitions; no line if the lock was not taken
    for line in open(LOCK_STAT):
        f = line.split()
        if f and f[0] == "inode_hash_lock:":
            return int(f[8])
    return 0


def make_trees(root, procs, dirs, files):
    for p in range(procs):
        for d in range(dirs):
            path = os.path.join(root, "t%d" % p, "d%d" % d)
            os.makedirs(path)
            for i in range(files):
                os.close(os.open(os.path.join(path, "f%d" % i), os.O_CREAT | os.O_WRONLY, 0o644))


def walk(tree):
    n = 0
    for d in os.listdir(tree):
        dpath = os.path.join(tree, d)
        os.lstat(dpath)
        n += 1
        for name in os.listdir(dpath):
            os.lstat(os.path.join(dpath, name))
            n += 1
    return n


def one_pass(root, procs, counting):
    os.sync()
    write("/proc/sys/vm/drop_caches", "3")
    if counting:
        write(LOCK_STAT, "0")
        write(LOCK_STAT_ON, "1")
    before = os.times()
    start = time.monotonic()
    pids = []
    for p in range(procs):
        pid = os.fork()
        if pid == 0:
            try:
                walk(os.path.join(root, "t%d" % p))
                os._exit(0)
            except BaseException:
                os._exit(1)
        pids.append(pid)
    ok = all(os.waitpid(pid, 0)[1] == 0 for pid in pids)
    wall = time.monotonic() - start
    after = os.times()
    acq = None
    if counting:
        write(LOCK_STAT_ON, "0")
        acq = hash_lock_acquisitions()
    if not ok:
        raise RuntimeError("a walker failed")
    return wall, after.children_user - before.children_user, \
        after.children_system - before.children_system, acq


def run(fstype, procs, dirs, files, passes, work):
    src = fsutil.make_fs(fstype, work, size_mb=max(320, procs * dirs * files // 32))
    mnt = os.path.join(work, fstype)
    os.mkdir(mnt)
    fsutil.mount(fstype, src, mnt)
    try:
        make_trees(mnt, procs, dirs, files)
        # inodes each pass instantiates: every file and directory of the
        # trees (and the tree roots, found by the first lookups)
        inodes = procs * (dirs * files + dirs + 1)
        counting = os.path.exists(LOCK_STAT) and os.path.exists(LOCK_STAT_ON)
        for i in range(passes):
            wall, user, system, acq = one_pass(mnt, procs, counting)
            rec = {"scenario": "S6", "fs": fstype, "pass": i + 1, "procs": procs,
                   "inodes": inodes, "wall_s": round(wall, 4), "user_s": round(user, 3),
                   "sys_s": round(system, 3)}
            if acq is not None:
                rec["hash_lock_acquisitions"] = acq
                rec["hash_lock_per_inode"] = round(acq / inodes, 3)
            print(json.dumps(rec), flush=True)
    finally:
        fsutil.umount(mnt)
        fsutil.release_fs(src)


def main():
    procs, dirs, files, passes = (int(a) for a in sys.argv[1:5])
    work = tempfile.mkdtemp(prefix="s6-")
    for fstype in sys.argv[5:]:
        run(fstype, procs, dirs, files, passes, work)


if __name__ == "__main__":
    main()
