#!/usr/bin/env python3
"""S10: a memcg-limited container reclaiming its own metadata, with no
global memory pressure (kswapd never runs: memcg limit reclaim is the only
reclaimer, and it runs in the container's tasks with GFP_KERNEL for slab
and GFP_NOFS for XFS page cache).

In a cgroup v2 memcg with memory.max S10_MAX_MB, one task walks the first
S10_FILES files of the ext4 tree (/dev/vda, read-only; 300k files hold
about 390 MiB of dentries and inodes, which fit under the limit) while
another writes S10_WRITE_MB to XFS (/dev/vdd); then the walk is repeated in
the same memcg.  Whatever of the walk's dentries and inodes the limit
reclaim freed, rather than the writer's page cache, is read again.

One JSON object: memory.events (high, max, oom, oom_kill) during the
squeeze, slab and file bytes in memory.stat after it, re-walk read I/Os and
sectors (per 10k files), pgscan_kswapd over the scenario (0 if it is what it
claims), the vmstat deltas and the trace counts of reclaim_common.trace_stop().
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reclaim_common as rc  # noqa: E402

MAX_MB = int(os.environ.get("S10_MAX_MB", "512"))
FILES = int(os.environ.get("S10_FILES", "300000"))
WRITE_MB = int(os.environ.get("S10_WRITE_MB", "2048"))
TREE, SCRATCH = "vda", "vdd"
CGROOT = "/sys/fs/cgroup"
CG = CGROOT + "/s10"


def events():
    return {k: int(v) for k, v in (line.split() for line in open(CG + "/memory.events"))}


def stat(key):
    for line in open(CG + "/memory.stat"):
        k, v = line.split()
        if k == key:
            return int(v)
    return 0


def in_cgroup(fn):
    """run fn() in a child inside the memcg; returns the pid"""
    pid = os.fork()
    if pid == 0:
        try:
            rc.put(CG + "/cgroup.procs", os.getpid())
            fn()
        finally:
            os._exit(0)
    return pid


def walk_first(n):
    done = 0
    for d in sorted(os.listdir(rc.MNT + "/tree")):
        if d == "lost+found":
            continue
        for name in os.listdir(os.path.join(rc.MNT + "/tree", d)):
            os.lstat(os.path.join(rc.MNT + "/tree", d, name))
            done += 1
            if done >= n:
                return


def write():
    buf = b"w" * (1 << 20)
    with open(rc.MNT + "/scratch/big", "wb") as f:
        for _ in range(WRITE_MB):
            f.write(buf)
        os.fsync(f.fileno())


def main():
    if not os.path.exists(CGROOT + "/cgroup.controllers"):
        rc.sh("mount", "-t", "cgroup2", "none", CGROOT)
    if "memory" not in open(CGROOT + "/cgroup.controllers").read().split():
        print("S10: cgroup2 has no memory controller", file=sys.stderr)
        return 1
    rc.put(CGROOT + "/cgroup.subtree_control", "+memory")
    os.makedirs(CG, exist_ok=True)
    rc.put(CG + "/memory.max", MAX_MB << 20)
    rc.mount(TREE, "tree", "ro,noatime")
    rc.mount(SCRATCH, "scratch", mkfs_xfs=True)
    rc.trace_setup()
    try:
        ev0, before = events(), rc.vmstat()
        rc.trace_start()
        t = rc.now()
        pids = [in_cgroup(lambda: walk_first(FILES)), in_cgroup(write)]
        for p in pids:
            os.waitpid(p, 0)
        squeeze_s = rc.now() - t
        trace = rc.trace_stop()
        ev1 = events()
        slab, file = stat("slab"), stat("file")
        io0 = rc.disk_reads(TREE)
        t = rc.now()
        os.waitpid(in_cgroup(lambda: walk_first(FILES)), 0)
        rewalk_s = rc.now() - t
        io1 = rc.disk_reads(TREE)
        ev2 = events()
        vm = rc.vm_delta(before, rc.vmstat())
        reads, sectors = io1[0] - io0[0], io1[1] - io0[1]
        print(json.dumps({
            "scenario": "S10", "files": FILES, "max_mb": MAX_MB, "write_mb": WRITE_MB,
            **{"events_" + k: ev1.get(k, 0) - ev0.get(k, 0) for k in ("high", "max", "oom", "oom_kill")},
            "events_max_rewalk": ev2.get("max", 0) - ev1.get("max", 0),
            "memcg_slab_mb": slab >> 20, "memcg_file_mb": file >> 20,
            "rewalk_read_ios": reads, "rewalk_read_sectors": sectors,
            "rewalk_read_ios_per_10k_files": rc.per_10k(reads, FILES),
            **{k: v for k, v in vm.items()},
            **{k: v for k, v in trace.items() if k != "by_shrinker"},
            "squeeze_s": round(squeeze_s, 1), "rewalk_s": round(rewalk_s, 1)}), flush=True)
    finally:
        rc.put(rc.TRACING + "/tracing_on", 0)
        rc.sh("umount", rc.MNT + "/scratch")
        rc.sh("umount", rc.MNT + "/tree")
        try:
            os.rmdir(CG)
        except OSError:
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
