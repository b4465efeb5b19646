#!/usr/bin/env python3
"""S3: count grace-period waits and workqueue flushes inside umount(2).

    umount_sync.py [--pressure] CYCLES FSTYPE...

For each cycle: mount the filesystem, write a file, then trace umount2(2)
(bench/tracer.py; the superblock teardown runs as task work of the same
task on its way back to user space, so it is covered).  With --pressure,
bench/cgwb_pressure.py keeps cgroup-writeback switches in flight on other
superblocks meanwhile.  Prints one JSON object per filesystem type.
"""
import collections
import json
import os
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cgwb_pressure  # noqa: E402
import fsutil  # noqa: E402
import tracer  # noqa: E402


def traced_umount(target):
    """Unmount TARGET traced; return the counted waits and flushes and
    whether the umount waited for its own superblock's wb switches."""
    tracer.start()
    fsutil.umount(target)
    calls = tracer.stop().get(threading.get_native_id(), [])
    return tracer.counted(calls), tracer.own_cgwb_drain(calls)


def main():
    args = sys.argv[1:]
    pressure = None
    work = tempfile.mkdtemp(prefix="s3-")
    if args[0] == "--pressure":
        args.pop(0)
        pressure = cgwb_pressure.Pressure(work)
    cycles = int(args[0])
    mnt = os.path.join(work, "mnt")
    os.mkdir(mnt)
    tracer.setup()
    sources = {fs: fsutil.make_fs(fs, work) for fs in args[1:]}
    if pressure:
        pressure.start()
        time.sleep(float(os.environ.get("S2_WARMUP", "3")))
    for fstype, source in sources.items():
        total = collections.Counter()
        drains = 0
        for _ in range(cycles):
            fsutil.mount(fstype, source, mnt)
            with open(os.path.join(mnt, "f"), "w") as f:
                f.write("x" * 4096)
            counts, drained = traced_umount(mnt)
            total += counts
            drains += drained
        gp = sum(n for (f, _), n in total.items() if f in tracer.GRACE_PERIOD)
        fl = sum(n for (f, _), n in total.items() if f in tracer.FLUSHES)
        per_func = collections.Counter()
        for (f, _), n in total.items():
            per_func[f] += n
        print(json.dumps({"scenario": "S3", "fs": fstype, "cycles": cycles,
                          "pressure": pressure.params() if pressure else None,
                          "grace_period_waits_per_umount": gp / cycles,
                          "flushes_per_umount": fl / cycles,
                          "own_switch_drains": drains,
                          "per_function": {f: n / cycles for f, n in per_func.items()},
                          "per_call_site": {"%s<-%s" % fc: n / cycles
                                            for fc, n in sorted(total.items())}},
                         sort_keys=True), flush=True)
    if pressure:
        print(json.dumps({"scenario": "S3-load", "memcgs_churned": pressure.stop()}),
              flush=True)
    for source in sources.values():
        fsutil.release_fs(source)


if __name__ == "__main__":
    main()
