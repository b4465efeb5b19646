"""Small helpers for guest-side scenarios: mount(2)/umount2(2) without
forking umount(8), and throw-away filesystems on loop devices."""
import ctypes
import os
import subprocess

_libc = ctypes.CDLL(None, use_errno=True)


def _check(ret, what):
    if ret != 0:
        err = ctypes.get_errno()
        raise OSError(err, "%s: %s" % (what, os.strerror(err)))


MS_REC = 0x4000
MS_PRIVATE = 1 << 18
CLONE_NEWNS = 0x00020000


def mount(fstype, source, target, data=None, flags=0):
    _check(_libc.mount(source.encode(), target.encode(),
                       fstype.encode() if fstype else None, flags,
                       data.encode() if data else None), "mount %s" % target)


def unshare(flags):
    _check(_libc.unshare(flags), "unshare")


def setns(fd, nstype):
    _check(_libc.setns(fd, nstype), "setns")


def umount(target):
    _check(_libc.umount2(target.encode(), 0), "umount2 %s" % target)


def make_fs(fstype, workdir, size_mb=320):
    """Create an empty filesystem; return the source to mount ("none" for
    tmpfs, else a loop device backed by a sparse file in workdir)."""
    if fstype == "tmpfs":
        return "none"
    if fstype in ("xfs", "btrfs"):
        subprocess.run(["modprobe", "-q", fstype], check=False)
    img = os.path.join(workdir, "%s-%d.img" % (fstype, len(os.listdir(workdir))))
    with open(img, "wb") as f:
        f.truncate(size_mb << 20)
    subprocess.run(["mkfs." + fstype, "-q"] + (["-F"] if fstype == "ext4" else ["-f"])
                   + [img], check=True, stdout=subprocess.DEVNULL)
    dev = subprocess.run(["losetup", "-f", "--show", img], check=True,
                         capture_output=True, text=True).stdout.strip()
    return dev


def release_fs(source):
    if source.startswith("/dev/loop"):
        subprocess.run(["losetup", "-d", source], check=False)


def percentile(sorted_values, p):
    """Nearest-rank percentile of an already sorted list."""
    if not sorted_values:
        return None
    k = max(0, min(len(sorted_values) - 1, -(-len(sorted_values) * p // 100) - 1))
    return sorted_values[int(k)]
