#!/usr/bin/env python3
"""S3: count grace-period waits and workqueue flushes inside umount(2).

    umount_sync.py [--pressure] CYCLES FSTYPE...

For each cycle: mount the filesystem, write a file, then trace umount2(2)
(bench/tracer.py; the superblock teardown runs as task work of the same
task on its way back to user space, so it is covered).  With --pressure,
bench/cgwb_pressure.py keeps cgroup-writeback switches in flight on other
superblocks meanwhile.  Prints one JSON object per filesystem type.

S3_SWITCH_EVIDENCE=N (with --pressure; tests/guest/cgwb-idle-umount.sh):
also record when wb switch works start and end (tracer.switch_events()),
count the runs of switch works that overlapped each umount2(2) call (marked
in the trace) and those running when it called
cgroup_writeback_umount(), and stop cycling a filesystem once N of its
umounts overlapped one (CYCLES is then the most).
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


EVIDENCE = int(os.environ.get("S3_SWITCH_EVIDENCE", "0"))


def traced_umount(target):
    """Unmount TARGET traced; return the counted waits and flushes, whether
    the umount waited for its own superblock's wb switches, how many wb
    switch works other tasks started meanwhile, and (S3_SWITCH_EVIDENCE)
    how many runs of switch works overlapped it and how many were running
    when it called cgroup_writeback_umount(), else None."""
    tracer.start()
    if EVIDENCE:
        # the umount's bounds, as events of this task: the call's whole span
        tracer.mark("umount2 begin")
    fsutil.umount(target)
    if EVIDENCE:
        tracer.mark("umount2 end")
    events = [] if EVIDENCE else None
    by_tid = tracer.stop_timed(events)
    me = threading.get_native_id()
    timed = by_tid.get(me, [])
    calls = [(f, c) for _, f, c in timed]
    plain = {tid: [(f, c) for _, f, c in cs] for tid, cs in by_tid.items()}
    running = None
    if EVIDENCE and timed:
        check = [t for t, f, _ in timed if tracer.base(f) == "cgroup_writeback_umount"]
        running = (tracer.switches_running(events, timed[0][0], timed[-1][0]),
                   tracer.switches_running(events, check[0]) if check else 0)
    return (tracer.counted(calls), tracer.own_cgwb_drain(calls),
            tracer.switch_works(plain, me), running)


def main():
    args = sys.argv[1:]
    pressure = None
    work = tempfile.mkdtemp(prefix="s3-")
    if args[0] == "--pressure":
        args.pop(0)
        pressure = cgwb_pressure.Pressure(work)
    max_cycles = int(args[0])
    mnt = os.path.join(work, "mnt")
    os.mkdir(mnt)
    tracer.setup()
    if EVIDENCE and pressure:
        tracer.switch_events(True)
    sources = {fs: fsutil.make_fs(fs, work) for fs in args[1:]}
    if pressure:
        pressure.start()
        time.sleep(float(os.environ.get("S2_WARMUP", "3")))
    for fstype, source in sources.items():
        total = collections.Counter()
        drains = 0
        switches = []
        running = []
        done = 0
        while done < max_cycles:
            fsutil.mount(fstype, source, mnt)
            with open(os.path.join(mnt, "f"), "w") as f:
                f.write("x" * 4096)
            counts, drained, works, run = traced_umount(mnt)
            total += counts
            drains += drained
            switches.append(works)
            done += 1
            if run is not None:
                running.append(run)
                if sum(1 for during, _ in running if during) >= EVIDENCE:
                    break
        cycles = done
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
                          # per umount: wb switch works other tasks ran during it
                          "switch_works_during_umount": switches,
                          # per umount (S3_SWITCH_EVIDENCE): runs of switch works
                          # that overlapped it, and those running when it called
                          # cgroup_writeback_umount()
                          "switches_running_during_umount":
                              [d for d, _ in running] if EVIDENCE else None,
                          "switches_running_at_check":
                              [c for _, c in running] if EVIDENCE else None,
                          "per_function": {f: n / cycles for f, n in per_func.items()},
                          "per_call_site": {"%s<-%s" % fc: n / cycles
                                            for fc, n in sorted(total.items())}},
                         sort_keys=True), flush=True)
    if pressure:
        print(json.dumps({"scenario": "S3-load", "memcgs_churned": pressure.stop()}),
              flush=True)
        if EVIDENCE:
            tracer.switch_events(False)
    for source in sources.values():
        fsutil.release_fs(source)


if __name__ == "__main__":
    main()
