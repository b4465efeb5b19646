#!/usr/bin/env python3
"""S4: mount many filesystems, then time umount2(2) of each; and a
container-style loop of mount-namespace setups and teardowns.

    mass_umount.py RUN...    RUN: FSTYPE:COUNT (tmpfs:5000, ext4:200, btrfs:50)
                                  or unshare:COUNT[xTMPFS] (unshare:1000x4)

Prints one JSON object per run with the total time and the per-umount
latency distribution in microseconds.  An unshare run is COUNT containers,
one after the other: each is a forked child that unshares its mount
namespace (a copy of every guest mount), makes it private, mounts TMPFS
tmpfs (default 4) and then leaves it with setns(2) to the namespace it came
from.  That
setns() drops the last reference, so it is the namespace's whole teardown
(umount_tree() of every mount, namespace_unlock()), timed on its own; the
total also counts fork, unshare, the mounts and exit.
"""
import json
import os
import sys
import tempfile
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fsutil  # noqa: E402


FS_MB = {"btrfs": 128, "xfs": 300}	# their mkfs' minimum sizes


def run(fstype, count, work):
    sources, mnts = [], []
    for i in range(count):
        mnt = tempfile.mkdtemp(prefix="%s-%d-" % (fstype, i), dir=work)
        src = fsutil.make_fs(fstype, work, size_mb=FS_MB.get(fstype, 16))
        fsutil.mount(fstype, src, mnt)
        sources.append(src)
        mnts.append(mnt)
    lat = []
    start = time.monotonic_ns()
    for mnt in mnts:
        t0 = time.monotonic_ns()
        fsutil.umount(mnt)
        lat.append((time.monotonic_ns() - t0) // 1000)
    total = (time.monotonic_ns() - start) / 1e9
    for src in sources:
        fsutil.release_fs(src)
    lat.sort()
    return {"scenario": "S4", "fs": fstype, "count": count, "total_s": round(total, 4),
            "umount_us": lat,
            "p50_us": fsutil.percentile(lat, 50), "p95_us": fsutil.percentile(lat, 95),
            "p99_us": fsutil.percentile(lat, 99), "max_us": lat[-1]}


def container(dirs, home_ns, report):
    """Child: set up a namespace, tear it down, report (mounts, teardown us)."""
    fsutil.unshare(fsutil.CLONE_NEWNS)
    fsutil.mount(None, "none", "/", flags=fsutil.MS_REC | fsutil.MS_PRIVATE)
    for d in dirs:
        fsutil.mount("tmpfs", "none", d)
    with open("/proc/self/mountinfo") as f:
        mounts = sum(1 for _ in f)
    t0 = time.monotonic_ns()
    fsutil.setns(home_ns, fsutil.CLONE_NEWNS)
    os.write(report, b"%d %d" % (mounts, (time.monotonic_ns() - t0) // 1000))


def run_containers(count, per, work):
    dirs = [tempfile.mkdtemp(prefix="ctr-%d-" % i, dir=work) for i in range(per)]
    home_ns = os.open("/proc/self/ns/mnt", os.O_RDONLY)
    lat, mounts = [], None
    start = time.monotonic_ns()
    for _ in range(count):
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            code = 1
            try:
                os.close(r)
                container(dirs, home_ns, w)
                code = 0
            except BaseException:
                traceback.print_exc()
            os._exit(code)
        os.close(w)
        answer = os.read(r, 64).split()
        os.close(r)
        _, status = os.waitpid(pid, 0)
        if status != 0 or len(answer) != 2:
            raise RuntimeError("container child failed (wait status %d)" % status)
        mounts = int(answer[0])
        lat.append(int(answer[1]))
    total = (time.monotonic_ns() - start) / 1e9
    os.close(home_ns)
    lat.sort()
    return {"scenario": "S4", "fs": "unshare", "count": count, "tmpfs_per_ns": per,
            "mounts_per_ns": mounts, "total_s": round(total, 4), "umount_us": lat,
            "p50_us": fsutil.percentile(lat, 50), "p95_us": fsutil.percentile(lat, 95),
            "p99_us": fsutil.percentile(lat, 99), "max_us": lat[-1]}


def main():
    work = tempfile.mkdtemp(prefix="s4-")
    for spec in sys.argv[1:]:
        kind, _, count = spec.partition(":")
        if kind == "unshare":
            n, _, per = count.partition("x")
            rec = run_containers(int(n), int(per or 4), work)
        else:
            rec = run(kind, int(count), work)
        print(json.dumps(rec), flush=True)

if __name__ == "__main__":
    main()
