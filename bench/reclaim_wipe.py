#!/usr/bin/env python3
"""S8: does a squeeze with clean page cache to reclaim wipe the metadata
working set?

A tree of files on ext4 (/dev/vda, read-only) is walked once, so its dentries
and inodes are cached.  With swap on /dev/vdc, an mlocked hog takes memory
until MemFree is down to S8_FREE_MB, and a buffered writer on XFS (/dev/vdd;
XFS page cache is allocated GFP_NOFS, so its direct reclaim cannot run the
superblock shrinkers and defers their work) writes S8_WRITE_MB.  The hog is
released, the tree's block device cache dropped (blockdev --flushbufs:
inode table blocks outlive their inodes there) and the tree walked again.
A kernel that keeps the working set re-reads nothing; one whose reclaim
wiped the caches re-reads the tree's inode tables.

One JSON object: re-walk read I/Os and sectors (total and per 10k files),
dentry and ext4 inode objects before, after the squeeze and after the
re-walk, shrinker calls that scanned at least their whole cache, reclaim
counters per 10k pages written (/proc/vmstat), and the trace counts of
reclaim_common.trace_stop().
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reclaim_common as rc  # noqa: E402

FREE_MB = int(os.environ.get("S8_FREE_MB", "300"))
WRITE_MB = int(os.environ.get("S8_WRITE_MB", "3072"))
TREE, SWAP, SCRATCH = "vda", "vdc", "vdd"
CACHES = ("dentry", "ext4_inode_cache")


def main():
    rc.sh("mkswap", "-f", "/dev/" + SWAP)
    rc.sh("swapon", "/dev/" + SWAP)
    rc.mount(TREE, "tree", "ro,noatime")
    rc.mount(SCRATCH, "scratch", mkfs_xfs=True)
    rc.trace_setup()
    try:
        t = rc.now()
        files = rc.walk(rc.MNT + "/tree")
        walk_s = rc.now() - t
        warm = rc.slab_objects(*CACHES)
        hog = rc.squeeze("S8", FREE_MB, "MemFree")
        if not hog:
            return 1
        before = rc.vmstat()
        rc.trace_start()
        t = rc.now()
        buf = b"w" * (1 << 20)
        with open(rc.MNT + "/scratch/big", "wb") as f:
            for _ in range(WRITE_MB):
                f.write(buf)
            os.fsync(f.fileno())
        write_s = rc.now() - t
        trace = rc.trace_stop()
        vm = rc.vm_delta(before, rc.vmstat())
        squeezed = rc.slab_objects(*CACHES)
        hog_oom_killed = hog.release()
        os.unlink(rc.MNT + "/scratch/big")
        # the inode tables' blocks stay in the block device's page cache
        # after their inodes are freed, and the re-walk would read nothing:
        # drop them, so that every inode the squeeze freed costs a read
        rc.sh("blockdev", "--flushbufs", "/dev/" + TREE)
        io0 = rc.disk_reads(TREE)
        t = rc.now()
        rc.walk(rc.MNT + "/tree")
        rewalk_s = rc.now() - t
        io1 = rc.disk_reads(TREE)
        after = rc.slab_objects(*CACHES)
        pages = WRITE_MB * 256
        reads, sectors = io1[0] - io0[0], io1[1] - io0[1]
        print(json.dumps({
            "scenario": "S8", "files": files, "write_mb": WRITE_MB, "free_mb": FREE_MB,
            "hog_locked_mb": hog.locked_mb, "hog_oom_killed": hog_oom_killed,
            "rewalk_read_ios": reads, "rewalk_read_sectors": sectors,
            "rewalk_read_ios_per_10k_files": rc.per_10k(reads, files),
            "inodes_warm": warm["ext4_inode_cache"], "dentries_warm": warm["dentry"],
            "inodes_after_squeeze": squeezed["ext4_inode_cache"],
            "dentries_after_squeeze": squeezed["dentry"],
            "inodes_kept_pct": round(100 * squeezed["ext4_inode_cache"] / max(1, warm["ext4_inode_cache"]), 1),
            "inodes_after_rewalk": after["ext4_inode_cache"],
            **{k: v for k, v in vm.items()},
            **{k + "_per_10k_pages": rc.per_10k(v, pages) for k, v in vm.items()},
            **{k: v for k, v in trace.items()},
            "walk_s": round(walk_s, 1), "write_s": round(write_s, 1),
            "rewalk_s": round(rewalk_s, 1)}), flush=True)
    finally:
        rc.put(rc.TRACING + "/tracing_on", 0)
        rc.sh("umount", rc.MNT + "/scratch")
        rc.sh("umount", rc.MNT + "/tree")
        rc.sh("swapoff", "/dev/" + SWAP)
    return 0


if __name__ == "__main__":
    sys.exit(main())
