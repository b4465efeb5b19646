#!/usr/bin/env python3
"""S2: umount(2) latency of an idle superblock while other superblocks have
cgroup-writeback inode switches in flight.

    idle_umount.py UMOUNTS CONCURRENT ROUNDS FSTYPE...

Phases, per target filesystem type (each target is mounted, left idle and
unmounted with umount2(2), timed):
  baseline             no background pressure, UMOUNTS umounts one by one
  baseline-concurrent  no pressure, ROUNDS x CONCURRENT umounts at once
  pressure             cgwb_pressure running, UMOUNTS umounts one by one
  concurrent           cgwb_pressure running, ROUNDS x CONCURRENT at once
Every umount is traced (bench/tracer.py): "global_waits" counts the umounts
that waited in cgroup_writeback_umount()'s global path (synchronize_rcu()
and flush of isw_wq), which is what the pressure must provoke on stock 6.1
for the comparison to mean anything.  One JSON object per phase and type.
"""
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


def timed_umount(mnt, out):
    tid = threading.get_native_id()
    t0 = time.monotonic_ns()
    fsutil.umount(mnt)
    out.append((tid, (time.monotonic_ns() - t0) // 1000))


def one_by_one(fstype, source, mnt, count):
    lat, hits = [], 0
    for _ in range(count):
        fsutil.mount(fstype, source, mnt)
        time.sleep(0.02)
        done = []
        tracer.start()
        timed_umount(mnt, done)
        calls = tracer.stop()
        tid, us = done[0]
        lat.append(us)
        hits += tracer.global_cgwb_wait(calls.get(tid, []))
    return lat, hits


def all_at_once(fstype, sources, mnts, rounds):
    lat, hits = [], 0
    for _ in range(rounds):
        for src, mnt in zip(sources, mnts):
            fsutil.mount(fstype, src, mnt)
        time.sleep(0.02)
        barrier = threading.Barrier(len(mnts))
        done = []

        def run(m):
            barrier.wait()
            timed_umount(m, done)

        threads = [threading.Thread(target=run, args=(m,)) for m in mnts]
        tracer.start()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        calls = tracer.stop()
        for tid, us in done:
            lat.append(us)
            hits += tracer.global_cgwb_wait(calls.get(tid, []))
    return lat, hits


def record(phase, fstype, lat, hits, extra):
    lat = sorted(lat)
    rec = {"scenario": "S2", "phase": phase, "fs": fstype, "umounts": len(lat),
           "global_waits": hits, "umount_us": lat,
           "p50_us": fsutil.percentile(lat, 50), "p95_us": fsutil.percentile(lat, 95),
           "p99_us": fsutil.percentile(lat, 99), "max_us": lat[-1]}
    rec.update(extra)
    print(json.dumps(rec), flush=True)


def main():
    count, conc, rounds = (int(a) for a in sys.argv[1:4])
    fstypes = sys.argv[4:]
    work = tempfile.mkdtemp(prefix="s2-")
    tracer.setup()
    targets = {}
    for fs in fstypes:
        mnts = []
        for i in range(conc):
            mnts.append(os.path.join(work, "%s-%d" % (fs, i)))
            os.mkdir(mnts[-1])
        srcs = [fsutil.make_fs(fs, work, size_mb=16) for _ in mnts]
        targets[fs] = (srcs, mnts)

    def measure(phase_seq, phase_conc, extra):
        for fs in fstypes:
            srcs, mnts = targets[fs]
            lat, hits = one_by_one(fs, srcs[0], mnts[0], count)
            record(phase_seq, fs, lat, hits, extra)
            lat, hits = all_at_once(fs, srcs, mnts, rounds)
            record(phase_conc, fs, lat, hits, dict(extra, concurrent=conc))

    measure("baseline", "baseline-concurrent", {})
    pressure = cgwb_pressure.Pressure(work)
    pressure.start()
    time.sleep(float(os.environ.get("S2_WARMUP", "3")))
    started = time.monotonic()
    measure("pressure", "concurrent", {"pressure": pressure.params()})
    seconds = time.monotonic() - started
    churned = pressure.stop()
    print(json.dumps({"scenario": "S2-load", "memcgs_churned": churned,
                      "seconds": round(time.monotonic() - pressure.started, 1),
                      "measured_seconds": round(seconds, 1)}))
    for srcs, _ in targets.values():
        for src in srcs:
            fsutil.release_fs(src)


if __name__ == "__main__":
    main()
