#!/usr/bin/env python3
"""S7: a metadata-heavy workload while free memory is squeezed step by step.

    reclaim_squeeze.py SECONDS AVAILABLE_MB... (filesystems from S7_FSTYPES)

For each filesystem (a loop device on an image in S7_IMAGE_DIR, a directory
the host shares, so that the filesystem's IO does not need guest memory;
without it the image is in guest tmpfs, mounted with discard):
S7_WORKERS processes (oom_score_adj 1000, the OOM killer's first choice)
create S7_FILE_BYTES files
(data and a dirty inode each), chmod them (another inode update) and unlink
the oldest once S7_LIVE files exist, while a tree of S7_CACHED files, read
once, keeps the inode and dentry caches -- the superblock shrinker's work
-- large.  Between steps, with dirty data written back, a hog process mlocks
anonymous memory until MemAvailable is down to each AVAILABLE_MB in turn;
each step runs SECONDS, the workers going on where they stopped.  A step the
hog cannot reach (mlock fails, or the OOM killer took it) is a record with
"error" and ends that filesystem's steps.

Per step, one JSON object: file creates per second; direct reclaims and
their latency p50/p99/max (vmscan:mm_vmscan_direct_reclaim_begin/end);
objects the shrinkers were asked to scan per direct reclaim and the largest
deferred count one shrinker call inherited (vmscan:mm_shrink_slab_start);
the same scanned by kswapd; allocation stalls and OOM kills (/proc/vmstat);
throttles by task and reason (mm_vmscan_throttled); and with the experimental
group (scripts/bench --experimental), work direct reclaim deferred to kswapd
and shrinker back-offs (its own events).
"""
import ctypes
import json
import mmap
import os
import re
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fsutil  # noqa: E402
from reclaim_common import Hog, meminfo, put  # noqa: E402

TRACING = "/sys/kernel/tracing"
EVENTS = ["vmscan/mm_vmscan_direct_reclaim_begin", "vmscan/mm_vmscan_direct_reclaim_end",
          "vmscan/mm_shrink_slab_start", "vmscan/mm_vmscan_throttled"]
# the experimental group's own events, absent from stock and the queue
SERIES_EVENTS = ["vmscan/mm_shrink_slab_defer", "vmscan/mm_shrinker_backoff"]
FSTYPES = os.environ.get("S7_FSTYPES", "xfs ext4").split()
WORKERS = int(os.environ.get("S7_WORKERS", "2"))
LIVE = int(os.environ.get("S7_LIVE", "20000"))
FILE_BYTES = int(os.environ.get("S7_FILE_BYTES", "4096"))
CACHED = int(os.environ.get("S7_CACHED", "40000"))
IMAGE_DIR = os.environ.get("S7_IMAGE_DIR")

# "  python3-245  [001] .....  45.123456: mm_shrink_slab_start: ..."
LINE = re.compile(r"^\s*(\S+)-(\d+)\s+.*?\s([\d.]+):\s+(\w+):\s(.*)$")
SLAB_START = re.compile(r"objects to shrink (-?\d+) .* total_scan (-?\d+)")
SLAB_DEFER = re.compile(r" deferred (\d+) total deferred")
THROTTLED = re.compile(r"usect_delayed=(\d+) reason=(\w+)")

def vmstat():
    return {k: int(v) for k, v in (line.split() for line in open("/proc/vmstat"))}


def worker(d, stop_at, counter):
    """create, chmod, unlink, going on from file counter[0]; files made so
    far in counter[0] (shared memory, so that a worker the OOM killer takes
    still counts and the next step goes on from there)"""
    put("/proc/self/oom_score_adj", 1000)
    os.makedirs(d, exist_ok=True)
    buf = b"m" * FILE_BYTES
    n = counter[0]
    while time.monotonic() < stop_at:
        p = os.path.join(d, str(n))
        try:
            fd = os.open(p, os.O_CREAT | os.O_WRONLY | os.O_TRUNC, 0o644)
            if buf:
                os.write(fd, buf)
            os.close(fd)
            os.chmod(p, 0o600)
            if n >= LIVE:
                try:
                    os.unlink(os.path.join(d, str(n - LIVE)))
                except FileNotFoundError:	# a killed worker's
                    pass
        except OSError:
            time.sleep(0.01)	# ENOSPC or ENOMEM: back off, keep counting time
            continue
        n += 1
        counter[0] = n


def run_step(mnt, seconds, shared):
    """one step of the workload; shared: the workers' file counters (an
    anonymous shared mapping, WORKERS longs)"""
    counters = (ctypes.c_long * WORKERS).from_buffer(shared)
    put(f"{TRACING}/trace", "")
    put(f"{TRACING}/tracing_on", 1)
    before = vmstat()
    stop_at = time.monotonic() + seconds
    made_before = sum(counters)
    pids = []
    for w in range(WORKERS):
        pid = os.fork()
        if pid == 0:
            try:	# a forked worker must never return into the driver's code
                worker(os.path.join(mnt, f"w{w}"), stop_at,
                       (ctypes.c_long * 1).from_buffer(shared, 8 * w))
            except BaseException as e:
                print(f"worker {w}: {e!r}", file=sys.stderr, flush=True)
                os._exit(1)
            os._exit(0)
        pids.append(pid)
    killed = 0
    for pid in pids:
        _, status = os.waitpid(pid, 0)
        killed += os.WIFSIGNALED(status)
    created = sum(counters) - made_before
    del counters
    put(f"{TRACING}/tracing_on", 0)
    after = vmstat()
    return created / seconds, killed, {k: after.get(k, 0) - before.get(k, 0) for k in after}


def parse_trace():
    inside = {}	# pid -> [begin time, objects to scan, largest inherited]
    stalls, scans, inherited = [], [], []
    kswapd_scan = 0
    # deferred to kswapd by direct reclaim, shrinker back-offs, throttles
    extra = {"deferred_to_kswapd": 0, "backoffs": 0}
    with open(f"{TRACING}/trace") as f:
        for line in f:
            m = LINE.match(line)
            if not m:
                continue
            comm, pid, ts, event, rest = m.groups()
            ts = float(ts)
            if event == "mm_vmscan_direct_reclaim_begin":
                inside[pid] = [ts, 0, 0]
            elif event == "mm_vmscan_direct_reclaim_end" and pid in inside:
                begin, scan, inh = inside.pop(pid)
                stalls.append((ts - begin) * 1e6)
                scans.append(scan)
                inherited.append(inh)
            elif event == "mm_shrink_slab_start":
                s = SLAB_START.search(rest)
                if not s:
                    continue
                nr, total = int(s.group(1)), int(s.group(2))
                if pid in inside:
                    inside[pid][1] += total
                    inside[pid][2] = max(inside[pid][2], nr)
                elif comm.startswith("kswapd"):
                    kswapd_scan += total
            elif event == "mm_shrink_slab_defer":
                d = SLAB_DEFER.search(rest)
                extra["deferred_to_kswapd"] += int(d.group(1)) if d else 0
            elif event == "mm_shrinker_backoff":
                extra["backoffs"] += 1
            elif event == "mm_vmscan_throttled":
                t = THROTTLED.search(rest)
                if t:
                    who = "kswapd" if comm.startswith("kswapd") else "direct"
                    reason = t.group(2).replace("VMSCAN_THROTTLE_", "").lower()
                    key = f"throttled_{who}_{reason}"
                    extra[key] = extra.get(key, 0) + 1
                    extra[key + "_ms"] = extra.get(key + "_ms", 0) + int(t.group(1)) // 1000
    return sorted(stalls), sorted(scans), max(inherited or [0]), kswapd_scan, extra


def pct(values, p):
    v = fsutil.percentile(values, p)
    return None if v is None else round(v)


def one_fs(fstype, seconds, steps, work):
    images = tempfile.mkdtemp(prefix="s7-images.", dir=IMAGE_DIR) if IMAGE_DIR else work
    # 4 GiB: ext4 then has 262144 inodes (the workload keeps about S7_CACHED +
    # S7_WORKERS * S7_LIVE); the image is sparse
    src = fsutil.make_fs(fstype, images, size_mb=4096)
    mnt = os.path.join(work, "mnt-" + fstype)
    os.makedirs(mnt)
    # discard: blocks the workload frees go back to the image's tmpfs
    fsutil.mount(fstype, src, mnt, None if IMAGE_DIR else "discard")
    cached = os.path.join(mnt, "cached")
    os.makedirs(cached)
    for i in range(CACHED):
        if i % 1000 == 0:
            os.makedirs(os.path.join(cached, str(i // 1000)))
        open(os.path.join(cached, str(i // 1000), str(i)), "w").close()
    os.sync()
    # oom_score_adj 0: the OOM killer takes the workers (1000) first and
    # then the hog, which ends the run's steps; at most 64 MiB a step, and
    # written back first (squeezing past dirty page cache, which
    # MemAvailable counts, went into the OOM killer)
    hog = Hog(oom_score_adj=0, max_step_mb=64)
    shared = mmap.mmap(-1, 8 * WORKERS, flags=mmap.MAP_SHARED | mmap.MAP_ANONYMOUS)
    try:
        for i, target in enumerate(steps):
            why = hog.squeeze_to(target)
            if why:
                print(json.dumps({"scenario": "S7", "fs": fstype, "available_mb": target,
                                  "error": why}), flush=True)
                break
            available = meminfo("MemAvailable")
            rate, killed, vm = run_step(mnt, seconds, shared)
            stalls, scans, inherited, kswapd_scan, extra = parse_trace()
            print(json.dumps({
                "scenario": "S7", "fs": fstype, "available_mb": target,
                "available_at_start_mb": available, "locked_mb": hog.locked_mb,
                "creates_per_s": round(rate, 1), "workers_killed": killed,
                "direct_reclaims": len(stalls),
                "stall_us_p50": pct(stalls, 50), "stall_us_p99": pct(stalls, 99),
                "stall_us_max": round(max(stalls)) if stalls else None,
                "slab_scan_per_direct_p50": pct(scans, 50),
                "slab_scan_per_direct_p99": pct(scans, 99),
                "slab_scan_per_direct_max": max(scans) if scans else None,
                "deferred_inherited_max": inherited, "kswapd_slab_scan": kswapd_scan,
                "allocstall": sum(v for k, v in vm.items() if k.startswith("allocstall")),
                "oom_kill": vm.get("oom_kill", 0),
                "slabs_scanned": vm.get("slabs_scanned", 0),
                "pgscan_direct": vm.get("pgscan_direct", 0),
                **extra, "seconds": seconds}), flush=True)
    finally:
        hog.release()
        fsutil.umount(mnt)
        fsutil.release_fs(src)
        if IMAGE_DIR:
            shutil.rmtree(images)


def main():
    seconds = int(sys.argv[1])
    steps = [int(a) for a in sys.argv[2:]]
    put(f"{TRACING}/tracing_on", 0)
    put(f"{TRACING}/buffer_size_kb", 8192)
    events = EVENTS + [e for e in SERIES_EVENTS if os.path.exists(f"{TRACING}/events/{e}")]
    for e in events:
        put(f"{TRACING}/events/{e}/enable", 1)
    work = tempfile.mkdtemp(prefix="s7.", dir="/tmp")
    fsutil.mount("tmpfs", "none", work)
    try:
        for fstype in FSTYPES:
            one_fs(fstype, seconds, steps, work)
    finally:
        for e in events:
            put(f"{TRACING}/events/{e}/enable", 0)
        fsutil.umount(work)


if __name__ == "__main__":
    main()
