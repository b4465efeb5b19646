"""Helpers for the Python scenario tests (imported).  Exit codes follow
kselftest: 0 pass, 1 fail, 4 skip."""
import ctypes
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench"))
from tracer import one_cpu_online  # noqa: E402,F401 (one copy, for tests and benchmarks)

SCRATCH = os.environ.get("SCRATCH", "/tmp")
libc = ctypes.CDLL(None, use_errno=True)


def fail(msg):
    print("FAIL: " + msg, flush=True)
    sys.exit(1)


def skip(msg):
    print("SKIP: " + msg, flush=True)
    sys.exit(4)


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def make_fs(fs):
    """an empty filesystem of type fs: what mount(2) takes as its source
    (a loop device over an image in SCRATCH, or "none" for tmpfs)"""
    if fs == "tmpfs":
        return "none"
    if fs in ("xfs", "btrfs"):
        subprocess.run(["modprobe", "-q", fs], check=False)
    img = os.path.join(SCRATCH, fs + ".img")
    with open(img, "w") as f:
        f.truncate(320 << 20)
    force = "-F" if fs == "ext4" else "-f"
    try:
        subprocess.run(["mkfs." + fs, "-q", force, img], check=True,
                       stdout=subprocess.DEVNULL)
    except FileNotFoundError:
        skip(f"mkfs.{fs} not installed")
    except subprocess.CalledProcessError:
        fail(f"mkfs.{fs} failed")
    return subprocess.check_output(["losetup", "-f", "--show", img], text=True).strip()


def drop_fs(src):
    if src.startswith("/dev/loop"):
        subprocess.run(["losetup", "-d", src], check=False)


def mount(src, mnt, fs):
    """mount(2); 0 or the errno"""
    if libc.mount(src.encode(), mnt.encode(), fs.encode(), 0, None) != 0:
        return ctypes.get_errno()
    return 0


def umount(mnt, flags=0):
    """umount2(2); 0 or the errno"""
    if libc.umount2(mnt.encode(), flags) != 0:
        return ctypes.get_errno()
    return 0


def mount_debugfs():
    if not os.path.ismount("/sys/kernel/debug"):
        mount("none", "/sys/kernel/debug", "debugfs")


LEAK_SITES = ("shrinker", "list_lru", "alloc_super", "path_mount", "vfs_get_tree",
              "fill_super", "inode_switch_wbs", "cgwb", "alloc_vfsmnt", "bdi_")


def kmemleak_check():
    """with kmemleak, fail when an unreferenced object was allocated through
    mount, the shrinkers, list_lru, cgroup writeback or a bdi"""
    kml = "/sys/kernel/debug/kmemleak"
    if not os.path.exists(kml):
        print("# kmemleak: not in this kernel (debug config has it)")
        return
    if os.environ.get("KMEMLEAK_SCAN") == "0":
        # tests/guest/settings: kmemleak-shrinker's scan at the end of the
        # run looks for the same sites and saves a scan per test
        print("# kmemleak: KMEMLEAK_SCAN=0, left to kmemleak-shrinker's scan at the end")
        return
    # let RCU callbacks and the superblocks' destroy work run first
    time.sleep(10)
    write(kml, "scan")
    write(kml, "scan")
    with open(kml) as f:
        objs = f.read().split("unreferenced object")[1:]
    ours = [o for o in objs if any(w in o for w in LEAK_SITES)]
    print(f"# kmemleak: {len(objs)} unreferenced objects, {len(ours)} allocated through"
          " mount, shrinkers, list_lru, cgroup writeback or a bdi", flush=True)
    if ours:
        for line in ("unreferenced object" + ours[0]).splitlines()[:40]:
            print("# " + line)
        fail(f"{len(ours)} leaked object(s)")
