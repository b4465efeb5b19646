#!/bin/bash
# bdi_list's RCU readers racing the umount of a superblock with its own bdi
# (btrfs) stay safe.  (Its wait counts, "no grace period in bdi_unregister()",
# moved to umount-grace-periods, which fails on a wait from any caller not on
# its allowlist, bdi_unregister() and bdi_remove_from_list() included.)
#   race    RACE_CYCLES btrfs mount, write, umount cycles while other tasks
#           walk bdi_list under RCU: sync(2) (wakeup_flusher_threads(), and
#           laptop_sync_completion() with vm.laptop_mode set) and writes of
#           vm.dirtytime_expire_seconds (wakeup_dirtytime_writeback() at
#           once).  After each umount(2) returns, the bdi must be gone from
#           /sys/class/bdi and the loop device must open O_EXCL.  Each walker
#           must have run (count > 0) and not died.  A KASAN report (a walker
#           reading a freed bdi) fails the run on the host.
. "$TESTS/guest/lib.sh"
require mkfs.btrfs python3 losetup

dev=$(make_fs btrfs "$SCRATCH")
trap 'drop_fs "$dev"' EXIT
python3 - "$dev" "$SCRATCH/bdi-mnt" "${RACE_CYCLES:-200}" <<'PY'
import glob, os, signal, subprocess, sys, threading, time
dev, mnt, cycles = sys.argv[1], sys.argv[2], int(sys.argv[3])
os.makedirs(mnt, exist_ok=True)
stop = threading.Event()
walks = {"sync 1": 0, "sync 2": 0, "dirtytime": 0}
died = []
laptop = open("/proc/sys/vm/laptop_mode").read()
dirtytime = open("/proc/sys/vm/dirtytime_expire_seconds").read()


def put(path, value):
    with open(path, "w") as f:
        f.write(value)


def syncs(name):
    while not stop.is_set():
        os.sync()
        walks[name] += 1


def dirtytime_wakeups(name):
    while not stop.is_set():
        put("/proc/sys/vm/dirtytime_expire_seconds", "43200")
        walks[name] += 1


def walker(name, fn):
    try:
        fn(name)
    except Exception as e:
        died.append("%s walker died after %d walks: %r" % (name, walks[name], e))


def btrfs_bdis():
    return {os.path.basename(p) for p in glob.glob("/sys/class/bdi/btrfs-*")}


# cut by its time limit (SIGTERM), still restore laptop_mode and the
# dirtytime expiry: a test after this one found XFS's sync flushing its
# log work (laptop mode) when they were left set
signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
put("/proc/sys/vm/laptop_mode", "5")
threads = [threading.Thread(target=walker, args=(name, fn))
           for name, fn in (("sync 1", syncs), ("sync 2", syncs), ("dirtytime", dirtytime_wakeups))]
for t in threads:
    t.start()
bad, start = [], time.time()
try:
    for i in range(cycles):
        before = btrfs_bdis()
        subprocess.run(["mount", "-t", "btrfs", dev, mnt], check=True)
        with open(os.path.join(mnt, "f%d" % i), "w") as f:
            f.write("x" * 65536)
        ours = btrfs_bdis() - before
        if not ours:
            bad.append("cycle %d: the mount added no btrfs-N to /sys/class/bdi" % i)
        r = subprocess.run(["umount", mnt])
        if r.returncode:
            bad.append("cycle %d: umount exit %d" % (i, r.returncode))
            break
        left = ours & btrfs_bdis()
        if left:
            bad.append("cycle %d: %s still in /sys/class/bdi after umount returned" % (i, left))
        try:
            os.close(os.open(dev, os.O_RDONLY | os.O_EXCL))
        except OSError as e:
            bad.append("cycle %d: %s busy after umount returned: %s" % (i, dev, e.strerror))
finally:
    stop.set()
    for t in threads:
        t.join()
    put("/proc/sys/vm/laptop_mode", laptop)
    put("/proc/sys/vm/dirtytime_expire_seconds", dirtytime)
bad += died + ["the %s walker did nothing" % w for w, n in walks.items() if n == 0]
for b in bad:
    print("FAIL: " + b)
print("# race: %d btrfs umounts in %.0f s, meanwhile %d + %d sync(2) and %d dirtytime wakeups "
      "walked bdi_list" % (i + 1, time.time() - start, walks["sync 1"], walks["sync 2"],
                           walks["dirtytime"]))
sys.exit(1 if bad else 0)
PY
