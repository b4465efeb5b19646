#!/usr/bin/env python3
"""S9: rm -rf of a large XFS tree while a hog leaves little memory.

XFS frees unlinked inodes in the background (inodegc); the memory they hold
comes back only when inodegc runs, and its shrinker (count 4096, seeks 0)
is what makes reclaimers flush it.  A tree of files on XFS (/dev/vdb,
attached with snapshot=on, so every boot starts from the same image) is
mounted, an mlocked hog (oom_score_adj 1000) takes memory until MemAvailable
is down to S9_AVAILABLE_MB, and `rm -rf` removes the tree.

One JSON object: OOM kills (the hog is the OOM killer's first choice: a
kill shows as a dead hog), reclaim counters per 10k files removed, the
peak of xfs_inode objects (sampled every 0.2 s), inodegc shrinker calls
by kswapd and by other reclaimers (mm_shrink_slab_start) and the inodegc
scans they led to (xfs_inodegc_shrinker_scan), and the trace counts of
reclaim_common.trace_stop().
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reclaim_common as rc  # noqa: E402

AVAILABLE_MB = int(os.environ.get("S9_AVAILABLE_MB", "150"))
TREE = "vdb"


def main():
    subprocess.run(["modprobe", "-q", "xfs"], check=False)
    rc.mount(TREE, "unlink", "noatime")
    # the inodegc shrinker's own event: its scan runs (and throttles rm
    # through shrinker_hits) only when a call reaches a whole batch, which
    # mm_shrink_slab_start, logged before the batch check, cannot tell
    rc.trace_setup(extra_events=["xfs/xfs_inodegc_shrinker_scan"])
    try:
        files = sum(len(os.listdir(os.path.join(rc.MNT + "/unlink", d))) for d in os.listdir(rc.MNT + "/unlink"))
        hog = rc.squeeze("S9", AVAILABLE_MB)
        if not hog:
            return 1
        before = rc.vmstat()
        rc.trace_start()
        t = rc.now()
        rm = subprocess.Popen(["sh", "-c", "rm -rf %s/unlink/* && sync" % rc.MNT])
        peak = 0
        while rm.poll() is None:
            peak = max(peak, rc.slab_objects("xfs_inode")["xfs_inode"])
            rc.time.sleep(0.2)
        rm_s = rc.now() - t
        trace = rc.trace_stop()
        vm = rc.vm_delta(before, rc.vmstat())
        hog_oom_killed = hog.release()
        gc = trace["by_shrinker"].get("xfs_inodegc_shrinker_scan", {})
        print(json.dumps({
            "scenario": "S9", "files": files, "available_mb": AVAILABLE_MB,
            "hog_locked_mb": hog.locked_mb, "hog_oom_killed": hog_oom_killed,
            "rm_status": rm.returncode, "xfs_inode_peak": peak,
            "inodegc_calls_kswapd": gc.get("calls_kswapd", 0),
            "inodegc_calls_other": gc.get("calls_other", 0),
            **{k: v for k, v in vm.items()},
            **{k + "_per_10k_files": rc.per_10k(v, files) for k, v in vm.items()},
            **{k: v for k, v in trace.items() if k != "by_shrinker"},
            "rm_s": round(rm_s, 1)}), flush=True)
    finally:
        rc.put(rc.TRACING + "/tracing_on", 0)
        rc.sh("umount", rc.MNT + "/unlink")
    return 0


if __name__ == "__main__":
    sys.exit(main())
