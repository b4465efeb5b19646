#!/usr/bin/env python3
"""S11: what makes reclaim throttle, and how long the sleeps last.

Swap on zram (S11_ZRAM_MB: compressed in memory, so swap-out needs memory
itself), an mlocked hog down to S11_AVAILABLE_MB of MemAvailable, two
workers creating and unlinking 4 KiB files on XFS (/dev/vdd) and a third
touching S11_ANON_MB of anonymous memory over and over (more than is
available: it lives partly in zram swap), while a loop freezes and thaws the XFS filesystem every 0.2 s
(trylock_super() fails during a freeze, so the superblock shrinker refuses
its work), for S11_SECONDS.

One JSON object: mm_vmscan_throttled waits by who slept (kswapd or other)
and reason, how many slept their whole timeout, OOM kills, the vmstat
deltas and the trace counts of reclaim_common.trace_stop().
"""
import json
import mmap
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reclaim_common as rc  # noqa: E402

SECONDS = int(os.environ.get("S11_SECONDS", "60"))
AVAILABLE_MB = int(os.environ.get("S11_AVAILABLE_MB", "150"))
ZRAM_MB = int(os.environ.get("S11_ZRAM_MB", "1024"))
ANON_MB = int(os.environ.get("S11_ANON_MB", "384"))
SCRATCH = "vdd"


def forked(fn):
    pid = os.fork()
    if pid == 0:
        try:
            rc.put("/proc/self/oom_score_adj", 500)
            fn()
        finally:
            os._exit(0)
    return pid


def creator(d, stop_at):
    os.makedirs(d, exist_ok=True)
    buf, n = b"c" * 4096, 0
    while time.monotonic() < stop_at:
        try:
            p = os.path.join(d, str(n))
            with open(p, "wb") as f:
                f.write(buf)
            if n >= 5000:
                os.unlink(os.path.join(d, str(n - 5000)))
        except OSError:
            time.sleep(0.01)
        n += 1


def toucher(stop_at):
    m = mmap.mmap(-1, ANON_MB << 20, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    while time.monotonic() < stop_at:
        for off in range(0, ANON_MB << 20, 4096):
            m[off] = 1


def freezer(stop_at):
    while time.monotonic() < stop_at:
        subprocess.run(["fsfreeze", "-f", rc.MNT + "/scratch"], check=False)
        time.sleep(0.2)
        subprocess.run(["fsfreeze", "-u", rc.MNT + "/scratch"], check=False)
        time.sleep(0.2)


def main():
    if not os.path.exists("/sys/block/zram0"):
        subprocess.run(["modprobe", "zram"], check=False)
    rc.put("/sys/block/zram0/disksize", ZRAM_MB << 20)
    rc.sh("mkswap", "-f", "/dev/zram0")
    rc.sh("swapon", "/dev/zram0")
    rc.mount(SCRATCH, "scratch", mkfs_xfs=True)
    rc.trace_setup()
    try:
        hog = rc.squeeze("S11", AVAILABLE_MB)
        if not hog:
            return 1
        before = rc.vmstat()
        rc.trace_start()
        stop_at = time.monotonic() + SECONDS
        pids = [forked(lambda: creator(rc.MNT + "/scratch/a", stop_at)),
                forked(lambda: creator(rc.MNT + "/scratch/b", stop_at)),
                forked(lambda: toucher(stop_at)), forked(lambda: freezer(stop_at))]
        killed = 0
        for p in pids:
            _, status = os.waitpid(p, 0)
            killed += os.WIFSIGNALED(status)
        subprocess.run(["fsfreeze", "-u", rc.MNT + "/scratch"], check=False,
                       stderr=subprocess.DEVNULL)
        trace = rc.trace_stop()
        vm = rc.vm_delta(before, rc.vmstat())
        hog_oom_killed = hog.release()
        print(json.dumps({
            "scenario": "S11", "seconds": SECONDS, "available_mb": AVAILABLE_MB,
            "hog_locked_mb": hog.locked_mb, "hog_oom_killed": hog_oom_killed,
            "workers_killed": killed,
            **{k: v for k, v in vm.items()},
            **{k: v for k, v in trace.items() if k != "by_shrinker"}}), flush=True)
    finally:
        rc.put(rc.TRACING + "/tracing_on", 0)
        rc.sh("umount", rc.MNT + "/scratch")
        rc.sh("swapoff", "/dev/zram0")
        rc.put("/sys/block/zram0/reset", 1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
