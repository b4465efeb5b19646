#!/usr/bin/env python3
"""S5: mount(2)/umount(2) latency while memcg reclaim walks many memcgs.

    memcg_reclaim.py [--count-locks SECONDS] MEMCGS PROBES

S5_CGROUP=v1 runs the same on a cgroup v1 memory hierarchy (kmem accounting
is always on there in 6.1), as in the 2026 Kubernetes report; the memory
controller must not be in use on cgroup v2 in that boot.

The reproducer of the lockless shrink_slab posting, scaled to the VM:
MEMCGS cgroup v2 memcgs under /sys/fs/cgroup/s5, each with its own tmpfs
mounted and a small file written from inside the memcg (so each memcg has
objects on that superblock's list_lru and its shrinker bit set).  A reader
in s5/hog then streams a page-cache file larger than what s5's memory.max
leaves free, so reclaim runs all the time and every pass calls
shrink_slab() for every memcg under s5.

Meanwhile PROBES tmpfs mounts and umounts are timed from the root cgroup
(each registers and unregisters a shrinker: on 6.1 a down_write of the
shrinker rwsem that every reclaimer takes for read).  The same probes run
first without the reader, as the baseline.

With --count-locks, the function tracer counts for SECONDS of reclaim the
lock calls made from reclaim, by caller (bench/tracer.py; needs its own
boot, see scenarios/S5-lock-count).  One JSON object per phase.
"""
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cgwb_pressure  # noqa: E402
import fsutil  # noqa: E402
import tracer  # noqa: E402

V1 = os.environ.get("S5_CGROUP", "v2") == "v1"
V1ROOT = "/tmp/s5-memcg-v1"
ROOT = V1ROOT if V1 else cgwb_pressure.CGROOT
CG = os.path.join(ROOT, "s5")
# v2 name -> v1 name of the files used here
FILES = {"memory.current": "memory.usage_in_bytes", "memory.max": "memory.limit_in_bytes"}


def cgfile(cgroup, name):
    return os.path.join(cgroup, FILES[name] if V1 and name in FILES else name)


def setup_cgroups():
    if not V1:
        cgwb_pressure.setup_cgroup2()
        return
    os.makedirs(V1ROOT, exist_ok=True)
    if os.system("mount -t cgroup -o memory none %s" % V1ROOT) != 0:
        raise RuntimeError("cannot mount the cgroup v1 memory controller (in use on v2?)")


def write(path, value):
    with open(path, "w") as f:
        f.write(value)


def enter(cgroup):
    write(os.path.join(cgroup, "cgroup.procs"), str(os.getpid()))


def memcg_stat(cgroup, key):
    if V1:
        # v1's memory.stat has no pgscan, and limit reclaim is not in
        # /proc/vmstat: count the times s5 hit its limit (and reclaimed)
        return int(open(os.path.join(cgroup, "memory.failcnt")).read())
    for line in open(os.path.join(cgroup, "memory.stat")):
        k, v = line.split()
        if k == key:
            return int(v)
    return 0


def populate(work, count):
    os.makedirs(CG, exist_ok=True)
    if not V1:
        write(os.path.join(CG, "cgroup.subtree_control"), "+memory")
    mnts = []
    for i in range(count):
        cg = os.path.join(CG, "m%d" % i)
        os.mkdir(cg)
        enter(cg)
        mnt = os.path.join(work, "t%d" % i)
        os.mkdir(mnt)
        fsutil.mount("tmpfs", "none", mnt)
        with open(os.path.join(mnt, "f"), "wb") as f:
            f.write(b"x" * 8192)
        mnts.append(mnt)
    enter(ROOT)
    return mnts


def start_reader(work):
    """A process in s5/hog that re-reads a file from ext4 on a loop device:
    page cache that reclaim keeps taking back under s5's memory.max."""
    src = fsutil.make_fs("ext4", work, size_mb=320)
    data = os.path.join(work, "data")
    os.mkdir(data)
    fsutil.mount("ext4", src, data)
    big = os.path.join(data, "big")
    subprocess.run(["dd", "if=/dev/zero", "of=" + big, "bs=1M", "count=192"],
                   check=True, stderr=subprocess.DEVNULL)
    # written from the root cgroup: drop its page cache, so that the
    # reader's reads are charged to s5/hog
    os.sync()
    write("/proc/sys/vm/drop_caches", "1")
    hog = os.path.join(CG, "hog")
    os.mkdir(hog)
    current = int(open(cgfile(CG, "memory.current")).read())
    write(cgfile(CG, "memory.max"), str(current + (64 << 20)))
    pid = os.fork()
    if pid == 0:
        enter(hog)
        while True:
            with open(big, "rb") as f:
                while f.read(1 << 20):
                    pass
    # measure only once reclaim is really running in s5
    scanned = memcg_stat(CG, "pgscan")
    deadline = time.monotonic() + 120
    while memcg_stat(CG, "pgscan") < scanned + (100 if V1 else 10000):
        if time.monotonic() > deadline:
            raise RuntimeError("no reclaim in %s after 120 s" % CG)
        time.sleep(0.2)
    return pid, src, data


def probe(work, count):
    mnt = os.path.join(work, "probe")
    os.makedirs(mnt, exist_ok=True)
    mount_us, umount_us = [], []
    for _ in range(count):
        t0 = time.monotonic_ns()
        fsutil.mount("tmpfs", "none", mnt)
        t1 = time.monotonic_ns()
        fsutil.umount(mnt)
        t2 = time.monotonic_ns()
        mount_us.append((t1 - t0) // 1000)
        umount_us.append((t2 - t1) // 1000)
        time.sleep(0.01)
    return sorted(mount_us), sorted(umount_us)


def record(phase, memcgs, mount_us, umount_us, extra):
    rec = {"scenario": "S5", "phase": phase, "memcgs": memcgs, "probes": len(mount_us),
           "mount_us": mount_us, "umount_us": umount_us}
    for name, lat in (("mount", mount_us), ("umount", umount_us)):
        for p in (50, 95, 99):
            rec["%s_p%d_us" % (name, p)] = fsutil.percentile(lat, p)
        rec["%s_max_us" % name] = lat[-1]
    rec.update(extra)
    print(json.dumps(rec), flush=True)


def main():
    args = sys.argv[1:]
    count_locks = 0
    if args[0] == "--count-locks":
        count_locks = float(args[1])
        args = args[2:]
    memcgs, probes = int(args[0]), int(args[1])
    work = tempfile.mkdtemp(prefix="s5-")
    setup_cgroups()
    if count_locks:
        tracer.setup(tracer.RECLAIM_LOCKS)
    mnts = populate(work, memcgs)
    if not count_locks:
        record("baseline", memcgs, *probe(work, probes), {})
    pid, src, data = start_reader(work)
    scanned = memcg_stat(CG, "pgscan")
    t0 = time.monotonic()
    try:
        if count_locks:
            tracer.start()
            time.sleep(count_locks)
            calls = tracer.stop()
            print(json.dumps({"scenario": "S5-locks", "memcgs": memcgs,
                              "cgroup": "v1" if V1 else "v2",
                              "seconds": count_locks,
                              "pages_scanned": memcg_stat(CG, "pgscan") - scanned,
                              "calls": tracer.reclaim_lock_calls(calls)}), flush=True)
        else:
            mount_us, umount_us = probe(work, probes)
            record("reclaim", memcgs, mount_us, umount_us,
                   {"pages_scanned": memcg_stat(CG, "pgscan") - scanned,
                    "seconds": round(time.monotonic() - t0, 1)})
    finally:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
    fsutil.umount(data)
    fsutil.release_fs(src)
    for mnt in mnts:
        fsutil.umount(mnt)


if __name__ == "__main__":
    main()
