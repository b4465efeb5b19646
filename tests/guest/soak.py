#!/usr/bin/python3
"""Soak: SOAK_CYCLES mount/umount cycles shared out over SOAK_FS (default
tmpfs, ext4, xfs and btrfs; the block filesystems on loop devices), one
process per filesystem, all cycling at the same time (so superblocks and
their shrinkers are registered and unregistered concurrently), while
background processes, each paced so that the guest's two vCPUs still run
the cycles,
  - read every shrinker's debugfs "count" and write its "scan",
  - drop caches (drop_caches=3),
  - create memcgs (memory+io), write from a child inside each onto the
    filesystem mounted at the time (dirty pages: cgroup writeback), and
    remove them (their inodes switch writeback to the parent while the
    umounts run),
  - read mountinfo and stat the mounted trees.
Each cycle checks the file the previous cycle of the same filesystem wrote
(sha256), so data survives every umount, and writes a new one; every
umount(2) must detach the mount (EBUSY, while a memcg writer has a file
open, is retried for up to 10 s).  With kmemleak, nothing allocated through
mount, the shrinkers, list_lru or cgroup writeback may leak.  Prints the
counts the README's reliability table quotes, and fails unless each of them
is what the run implies: every cycle's predecessor read back byte for byte,
and at least one count+scan, drop_caches, memcg written from and removed
and stat walk (EBUSY retries are counted, not required: they are a race).  A stressor that hits an error exits non-zero,
which fails the test.  Exit 0 pass, 1 fail, 4 skip.

The cycles and the stressors are system calls from long-lived Python
processes rather than shell commands: under TCG on the debug config a
fork+exec costs tens of milliseconds, and the shell version spent most of
its 5.5 s per cycle starting programs, not mounting.
"""
import errno
import glob
import hashlib
import os
import random
import signal
import sys
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from guestlib import (SCRATCH, drop_fs, fail, kmemleak_check, make_fs, mount,  # noqa: E402
                      mount_debugfs, skip, umount, write)

CYCLES = int(os.environ.get("SOAK_CYCLES", "400"))
FSS = os.environ.get("SOAK_FS", "tmpfs ext4 xfs btrfs").replace(",", " ").split()
CG = "/sys/fs/cgroup/soak"
STOP = os.path.join(SCRATCH, "soak-stop")


def count(name, n):
    write(os.path.join(SCRATCH, "n-" + name), str(n))


def stopped():
    return os.path.exists(STOP)


# The stressors make their first pass before they look for STOP, so that
# even a short run has the work of each (but the memcg writers: they wait
# for a mount).
def debugfs_scans():
    n = 0
    while True:
        # a superblock's directory may go away under us: quietly, and
        # only a count and a scan that both worked are counted
        for d in glob.glob("/sys/kernel/debug/shrinker/*/"):
            try:
                with open(d + "count") as f:
                    f.read()
                write(d + "scan", "0 0 128")
            except OSError:
                continue
            n += 1
        count("debugfs", n)
        if stopped():
            break
        time.sleep(0.2)


def drop_caches():
    n = 0
    while True:
        write("/proc/sys/vm/drop_caches", "3")
        n += 1
        count("drop", n)
        if stopped():
            break
        time.sleep(1)


def memcg_writers():
    n = 0
    data = os.urandom(262144)
    scratch_dev = os.stat(SCRATCH).st_dev
    while not stopped():
        time.sleep(0.2)
        mounted = [f"{SCRATCH}/m-{fs}" for fs in ("ext4", "xfs", "btrfs")
                   if fs in FSS and os.path.ismount(f"{SCRATCH}/m-{fs}")]
        if not mounted:
            continue
        # the directory, opened while still mounted, pins the mount until
        # the file is written (the umount meanwhile gets EBUSY and retries);
        # unmounted in between, it is SCRATCH's own: skip, or the files
        # would pile up in the guest's tmpfs
        try:
            dfd = os.open(random.choice(mounted), os.O_RDONLY | os.O_DIRECTORY)
        except OSError:
            continue
        if os.fstat(dfd).st_dev == scratch_dev:
            os.close(dfd)
            continue
        n += 1
        m = f"{CG}/w{n}"
        os.mkdir(m)
        # a child in the memcg dirties pages on that filesystem
        pid = os.fork()
        if pid == 0:
            code = 1
            try:
                write(m + "/cgroup.procs", str(os.getpid()))
                fd = os.open(f"cg-{n}", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644,
                             dir_fd=dfd)
                os.write(fd, data)
                os.close(fd)
                code = 0
            except OSError as e:
                print(f"# memcg writer {n}: {e}", flush=True)
            finally:
                os._exit(code)
        _, status = os.waitpid(pid, 0)
        os.close(dfd)
        if status:
            raise RuntimeError(f"memcg writer {n}: the child failed to write"
                               f" (status {status:#x})")
        os.rmdir(m)
        count("memcg", n)


def stat_walkers():
    n = 0
    while True:
        with open("/proc/self/mountinfo") as f:
            f.read()
        for fs in FSS:
            try:
                os.stat(f"{SCRATCH}/m-{fs}/data")
            except OSError:
                pass
        n += 1
        count("stat", n)
        if stopped():
            break
        time.sleep(0.1)


def start(fn):
    """fork a stressor: exit 0 when fn returns, 1 (with the traceback) when
    it raised"""
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            fn()
            code = 0
        except BaseException:
            traceback.print_exc()
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code)
    return pid


def background_count(name):
    try:
        with open(os.path.join(SCRATCH, "n-" + name)) as f:
            return int(f.read() or 0)
    except OSError:
        return 0


def cycle_fs(fs, src, cycles):
    """mount, verify, write and unmount fs cycles times; the counts go to
    SCRATCH/r-FS, a failure's message to stdout and the exit status"""
    mnt = f"{SCRATCH}/m-{fs}"
    prev, verified, busy, secs = None, 0, 0, 0.0
    for i in range(cycles):
        t0 = time.time()
        err = mount(src, mnt, fs)
        if err:
            fail(f"{fs} cycle {i}: mount: {os.strerror(err)}")
        data = f"{mnt}/data"
        if prev:
            with open(data, "rb") as f:
                got = f.read()
            if hashlib.sha256(got).hexdigest() != prev:
                fail(f"{fs} cycle {i}: the data of the previous cycle reads back wrong")
            verified += len(got)
        new = os.urandom(65536 + i % 4096)
        with open(data, "wb") as f:
            f.write(new)
        if fs != "tmpfs":
            prev = hashlib.sha256(new).hexdigest()
        for cgf in glob.glob(f"{mnt}/cg-*"):
            os.unlink(cgf)
        # a memcg writer may have a file open in it for a moment: EBUSY is
        # retried and counted, anything else fails
        for _ in range(201):
            err = umount(mnt)
            if err != errno.EBUSY:
                break
            busy += 1
            time.sleep(0.05)
        if err:
            fail(f"{fs} cycle {i}: umount: {os.strerror(err)}"
                 f"{' for 10 s' if err == errno.EBUSY else ''}")
        if os.path.ismount(mnt):
            fail(f"{fs} cycle {i}: umount returned 0 and {mnt} is still a mount point")
        secs += time.time() - t0
        if (i + 1) % 500 == 0:
            print(f"# {fs}: {i + 1} cycles, {secs:.0f} s", flush=True)
    write(f"{SCRATCH}/r-{fs}", f"{cycles} {verified} {busy} {secs:.0f}")


def verified_bytes(cycles):
    """what cycle_fs reads back over CYCLES cycles of a block filesystem:
    each cycle but the first reads its predecessor's file"""
    return sum(65536 + i % 4096 for i in range(cycles - 1))


def main():
    if CYCLES <= 0:
        skip("SOAK_CYCLES=0 for this config (scripts/soak runs the long soak)")
    # SCRATCH is shared with the tests run before (umount-race counts into
    # n-stat too): no count and no stop mark of theirs may be taken for ours
    for f in glob.glob(STOP) + glob.glob(os.path.join(SCRATCH, "n-*")):
        os.unlink(f)
    mount_debugfs()
    dev = {}
    for fs in FSS:
        dev[fs] = make_fs(fs)
        os.makedirs(f"{SCRATCH}/m-{fs}", exist_ok=True)
    try:
        write("/sys/fs/cgroup/cgroup.subtree_control", "+memory +io")
    except OSError:
        try:
            write("/sys/fs/cgroup/cgroup.subtree_control", "+memory")
        except OSError:
            fail("no memory controller")
    os.makedirs(CG, exist_ok=True)
    try:
        write(CG + "/cgroup.subtree_control", "+memory +io")
    except OSError:
        write(CG + "/cgroup.subtree_control", "+memory")

    stressors = {start(fn): fn.__name__
                 for fn in (debugfs_scans, drop_caches, memcg_writers, stat_walkers)}
    began = time.time()
    share = {fs: CYCLES // len(FSS) + (k < CYCLES % len(FSS)) for k, fs in enumerate(FSS)}
    workers = {}
    for fs in FSS:
        pid = os.fork()
        if pid == 0:
            code = 1
            try:
                cycle_fs(fs, dev[fs], share[fs])
                code = 0
            except SystemExit as e:
                code = e.code
            except Exception:
                traceback.print_exc()
            finally:
                sys.stdout.flush()
                os._exit(code)
        workers[pid] = fs
    failed = []
    try:
        while workers:
            pid, status = os.wait()
            if pid in workers:
                fs = workers.pop(pid)
                if os.waitstatus_to_exitcode(status) != 0:
                    failed.append(fs)
                    for other in workers:
                        os.kill(other, signal.SIGTERM)
            elif pid in stressors:
                # one that died early: its status is collected here
                if os.waitstatus_to_exitcode(status) != 0:
                    failed.append(stressors[pid])
                del stressors[pid]
    finally:
        open(STOP, "w").close()
        for pid in list(stressors) + list(workers):
            try:
                _, status = os.waitpid(pid, 0)
            except ChildProcessError:
                continue
            if pid in stressors and os.waitstatus_to_exitcode(status) != 0:
                failed.append(stressors[pid])
    secs = time.time() - began
    for fs in FSS:
        drop_fs(dev[fs])
    for m in glob.glob(CG + "/w*") + [CG]:
        try:
            os.rmdir(m)
        except OSError:
            pass
    if failed:
        fail("failed: " + ", ".join(failed))
    res = {}
    for fs in FSS:
        with open(f"{SCRATCH}/r-{fs}") as f:
            res[fs] = [int(x) for x in f.read().split()]
    per_fs = ", ".join(f"{fs} {res[fs][0]} ({res[fs][3]} s)" for fs in FSS)
    print(f"# soak: {sum(r[0] for r in res.values())} cycles ({per_fs}) in {secs:.0f} s;"
          f" {sum(r[1] for r in res.values())} bytes read back and verified;"
          f" background: {background_count('debugfs')} shrinker count+scan,"
          f" {background_count('drop')} drop_caches, {background_count('memcg')} memcgs"
          f" written from and removed, {background_count('stat')} stat walks;"
          f" {sum(r[2] for r in res.values())} umounts retried (busy)", flush=True)
    bad = [f"{fs}: {res[fs][1]} bytes verified, its cycles wrote {verified_bytes(share[fs])}"
            for fs in FSS if fs != "tmpfs" and res[fs][1] != verified_bytes(share[fs])]
    # memcg writers use the block filesystems only
    block = any(fs in FSS for fs in ("ext4", "xfs", "btrfs"))
    bad += [f"no {what}" for name, what in (
        ("debugfs", "shrinker count+scan"), ("drop", "drop_caches"),
        ("memcg", "memcg written from and removed"), ("stat", "stat walk"))
        if background_count(name) == 0 and (block or name != "memcg")]
    # EBUSY retries are printed, not required: whether a umount meets a
    # writer's open file is a race, and short (debug) runs may see none
    for b in bad:
        print("FAIL: " + b, flush=True)
    if bad:
        sys.exit(1)
    kmemleak_check()


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, lambda *a: sys.exit(1))
    main()
