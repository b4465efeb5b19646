#!/usr/bin/env python3
"""S4: mount many filesystems, then time umount2(2) of each.

    mass_umount.py N_TMPFS N_EXT4

Prints one JSON object per filesystem type with the total time and the
per-umount latency distribution in microseconds.
"""
import json
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fsutil  # noqa: E402


def run(fstype, count, work):
    sources, mnts = [], []
    for i in range(count):
        mnt = os.path.join(work, "%s-%d" % (fstype, i))
        os.mkdir(mnt)
        src = fsutil.make_fs(fstype, work, size_mb=16) if fstype != "tmpfs" else "none"
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


def main():
    n_tmpfs, n_ext4 = int(sys.argv[1]), int(sys.argv[2])
    work = tempfile.mkdtemp(prefix="s4-")
    for fstype, n in (("tmpfs", n_tmpfs), ("ext4", n_ext4)):
        if n:
            print(json.dumps(run(fstype, n, work)))


if __name__ == "__main__":
    main()
