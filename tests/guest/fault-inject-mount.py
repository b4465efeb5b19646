#!/usr/bin/python3
"""Every allocation a mount makes can fail, and the mount then fails cleanly.

failslab and fail_page_alloc, limited to this task, fail allocations inside
mount(2), including GFP_KERNEL ones and order-0 pages:
  sweep   /proc/thread-self/fail-nth fails the 1st, 2nd, ... fault-injectable
          allocation of one mount of each filesystem in FI_FS (comma-
          separated, default tmpfs,ext4; ext4, xfs and btrfs on loop
          devices) until a mount makes fewer allocations than asked: every
          allocation of that mount has failed once (superblock, shrinker
          preallocation, list_lru, debugfs entries, the filesystem's own);
  memcg   (MEMCGS=0 skips it) with MEMCGS memory cgroups alive and this task in one of them,
          tmpfs mounts that stay mounted line up a mount whose shrinker id
          outgrows the shrinker_info maps, so that it expands the maps of
          every memcg; the maps' own allocation inside that expansion
          fails (the mount must fail cleanly, and then expand in full
          without faults), then each allocation of the first file created
          in it fails in turn (list_lru's per-memcg lists).  While the
          expansion is aimed at, only kmalloc-512 allocations count
          (failslab's cache filter, with the cache marked by the boot
          parameter slub_debug=A,kmalloc-512 that scripts/test and
          scripts/peers give; fail_page_alloc's min-order above
          MAX_ORDER): since v10 an expansion allocates one 512-byte unit
          of deferred counts per memcg for the new ids (the infos
          themselves are smaller), and kmemleak's, debugobjects' and the
          slab refills' allocations, which come at irregular places in
          the expansion, are left out.  The failure that hit is identified by its
          report's stack (a kmalloc from the shrinker preallocation).
fail-nth, not the probability mode with /proc/self/make-it-fail: both are
limited to this task, but the probability mode also fails the task's own
page faults on the guest's 9p root (SIGBUS in the test, and files whose
reads failed then fail for other processes too).
Each failed mount must return an errno, the same mount without faults must
then succeed and unmount, nothing may WARN (the host checks the kernel log).
With CONFIG_DEBUG_KMEMLEAK, nothing this test's task allocated under
mount(2) may leak.  kmemleak is not cleared: objects leaked before this test
stay reported for kmemleak-shrinker's scan at the end of the run (a "clear"
here hid the leaks of every test before it, umount-race's and soak's
included, which leave their scan to kmemleak-shrinker on the debug config),
and are only counted here.
Prints the injected failures and the distinct call sites they hit (from the
fault-injection reports' stacks; __GFP_NOWARN allocations are failed but not
reported).  Exit 0 pass, 1 fail, 4 skip.
"""
import atexit
import collections
import errno
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import guestlib  # noqa: E402
from guestlib import SCRATCH, fail, mount, skip  # noqa: E402

DBG = "/sys/kernel/debug"
FS = [f for f in os.environ.get("FI_FS", "tmpfs,ext4").replace(",", " ").split()]
MEMCGS = int(os.environ.get("MEMCGS", "1000"))
FAILSLAB_CACHES = ("kmalloc-512",)


def put(path, value):
    with open(path, "w") as f:
        f.write(str(value))


def kmsg(msg):
    put("/dev/kmsg", "fault-inject-mount: " + msg)


def devkmsg_unlimited():
    """/dev/kmsg drops writes past 10 in 5 s by default: the marks (and the
    brackets of expected warnings) must all arrive"""
    old = open("/proc/sys/kernel/printk_devkmsg").read().strip()
    if old != "on":
        put("/proc/sys/kernel/printk_devkmsg", "on\n")
    return old


def umount(dst):
    err = guestlib.umount(dst)
    if err:
        fail(f"umount {dst}: {os.strerror(err)}")


def make_dev(fs):
    if fs == "tmpfs":
        return "none"
    if fs in ("xfs", "btrfs"):
        subprocess.run(["modprobe", "-q", fs], check=True)
    img = f"{SCRATCH}/fi-{fs}.img"
    subprocess.run(["truncate", "-s", "320M", img], check=True)
    subprocess.run([f"mkfs.{fs}", "-q", "-F" if fs == "ext4" else "-f", img], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return subprocess.check_output(["losetup", "-f", "--show", img], text=True).strip()


def clean_mount(dev, mnt, fs, why):
    """without faults the mount must work (the failed one left nothing behind)"""
    e = mount(dev, mnt, fs)
    if e:
        fail(f"{fs}: mount without faults fails after {why}: {errno.errorcode.get(e, e)}")


class FailNth:
    """/proc/thread-self/fail-nth through one descriptor opened in advance:
    setting, reading and resetting the counter allocates nothing, so no
    allocation outside the syscall under test can fail"""

    def __init__(self):
        self.fd = os.open("/proc/thread-self/fail-nth", os.O_RDWR)

    def call(self, n, fn, *args):
        """fn(*args) with its n-th allocation failing; returns (fn's result,
        allocations it made if fewer than n, else None)"""
        os.pwrite(self.fd, str(n).encode(), 0)
        r = fn(*args)
        left = int(os.pread(self.fd, 32, 0))
        os.pwrite(self.fd, b"0", 0)
        return r, (n - left if left else None)


class KernelLog:
    """kernel log records written since the last call, read through one
    descriptor opened in advance"""

    def __init__(self):
        self.fd = os.open("/dev/kmsg", os.O_RDONLY | os.O_NONBLOCK)
        os.lseek(self.fd, 0, os.SEEK_END)

    def new(self):
        recs = []
        while True:
            try:
                rec = os.read(self.fd, 8192)
            except BlockingIOError:
                return recs
            except BrokenPipeError:	# records overwritten before we read them
                continue
            recs.append(rec.decode(errors="replace").split(";", 1)[-1])


def failed_maps_allocation(recs):
    """did the reported injected failure hit a shrinker_info map: a kmalloc
    (kvmalloc_node() may not show) from the shrinker preallocation, not the
    idr's (the expansion is inlined into __prealloc_shrinker() or
    prealloc_shrinker())"""
    frames = [m.group(1) for r in recs for m in [re.match(r"\s*([A-Za-z_][\w.]*)\+0x", r)] if m]
    if not any("FAULT_INJECTION: forcing a failure" in r for r in recs):
        return False
    if not {"kvmalloc_node", "__kmalloc_node", "kmalloc_node_trace"} & set(frames) or \
            any(f.startswith(("idr_", "radix_tree_")) for f in frames):
        return False
    first = [f for f in frames if not ALLOC.match(f)]
    return bool(first) and re.match(r"(__)?prealloc_(memcg_)?shrinker|expand_(one_)?shrinker_info|"
                                    r"shrinker_info_alloc", first[0]) is not None


def sweep(fs, errnos, nth, dev=None, mnt=None):
    """fail each allocation of one mount in turn until the mount makes fewer
    allocations than asked; returns the number of mounts tried and where
    the last, complete one is mounted"""
    dev = dev or make_dev(fs)
    mnt = mnt or f"{SCRATCH}/fi-{fs}"
    os.makedirs(mnt, exist_ok=True)
    n = 0
    while True:
        n += 1
        e, made = nth.call(n, mount, dev, mnt, fs)
        if e:
            errnos[errno.errorcode.get(e, str(e))] += 1
        if made is not None:	# nothing failed: every allocation has been tried
            if e:
                fail(f"{fs}: mount failed ({errno.errorcode.get(e, e)}) with no fault injected")
            return n, mnt
        if e:
            clean_mount(dev, mnt, fs, f"allocation {n} failed")
            umount(mnt)
        else:
            umount_tolerating_jbd2(dev, mnt, fs)
        if n > 20000:
            fail(f"{fs}: still allocating after 20000 injected failures")


def umount_tolerating_jbd2(dev, mnt, fs):
    """6.1's jbd2 mounts without /proc/fs/jbd2/DEV/info when creating it
    fails, then warns at umount that it cannot remove it (stock does the
    same; not the series' code): expect that one warning when the journal's
    directory is there and its info file is not"""
    d = f"/proc/fs/jbd2/{os.path.basename(dev)}-8"
    if fs != "ext4" or not os.path.isdir(d) or os.path.exists(d + "/info"):
        umount(mnt)
        return
    kmsg("6.1 jbd2: the journal's info file was not created")
    kmsg("expect WARNING from remove_proc_entry")
    umount(mnt)
    kmsg("end of expected WARNING")


def count_allocs(nth, fn, *args):
    """fn(*args) with nothing failing; returns (result, allocations made)"""
    return nth.call(10**9, fn, *args)


def create(path):
    try:
        os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o644))
        return 0
    except OSError as e:
        return e.errno


def memcg_expansion(errnos, nth):
    """with MEMCGS memcgs alive, find the mount whose shrinker id outgrows the
    shrinker_info maps (it allocates once per memcg more than the others),
    fail a map allocation in the middle of the next such mount (the mount
    must fail, and the same mount without faults then expand); then fail each allocation of the first file created in it from a memcg
    (list_lru's per-memcg lists)"""
    cg = "/sys/fs/cgroup/fault-inject"
    if "memory" not in open("/sys/fs/cgroup/cgroup.controllers").read():
        skip("no cgroup v2 memory controller")
    put("/sys/fs/cgroup/cgroup.subtree_control", "+memory")
    os.makedirs(cg, exist_ok=True)
    put(cg + "/cgroup.subtree_control", "+memory")
    for i in range(MEMCGS):
        os.makedirs(f"{cg}/m{i}", exist_ok=True)
    put(f"{cg}/m0/cgroup.procs", os.getpid())
    put(f"{DBG}/fail_page_alloc/min-order", 12)	# no page allocation counts
    log = KernelLog()
    # the series frees a superblock's shrinker id from its destroy work,
    # after a grace period: let the sweeps' ids come free first, or a late
    # free would leave a hole the mounts below fill out of order
    time.sleep(3)
    held, counts, grown = [], [], None
    pos = MEMCGS // 2
    for i in range(1000):
        mnt = f"{SCRATCH}/fi-memcg-{i}"
        os.makedirs(mnt, exist_ok=True)
        if grown is None:
            e, made = count_allocs(nth, mount, "none", mnt, "tmpfs")
            if e:
                fail(f"tmpfs mount {i} without faults: {errno.errorcode.get(e, e)}")
            held.append(mnt)
            if counts and made > min(counts) + MEMCGS // 2:
                # this id outgrew the maps; one of the next (at most
                # BITS_PER_LONG) mounts outgrows them again
                grown = i
                print(f"# memcg: {MEMCGS} memcgs; tmpfs mount {i} expanded the shrinker_info "
                      f"maps ({made} allocations, the others {min(counts)})", flush=True)
                kmsg("memcg begin")
                put(f"{DBG}/failslab/cache-filter", "Y")
            else:
                counts.append(made)
            continue
        # only kmalloc-512 allocations count from here on: in an
        # expanding mount they are the units, one per memcg, so the middle
        # one is a unit; a mount that does not expand makes fewer
        log.new()
        e, made = nth.call(pos, mount, "none", mnt, "tmpfs")
        held.append(mnt)
        if made is not None:
            continue
        maps = failed_maps_allocation(log.new())
        if not maps:
            fail(f"mount {i}: kmalloc-512 allocation {pos} failed and was not a shrinker_info "
                 f"map (mount {'returned ' + errno.errorcode.get(e, str(e)) if e else 'went on'})")
        if not e:
            fail(f"mount {i}: kmalloc-512 allocation {pos}, a shrinker_info unit, failed and "
                 f"the mount went on")
        held.pop()
        errnos[errno.errorcode.get(e, str(e))] += 1
        probe = errno.errorcode.get(e, str(e))
        break
    else:
        fail(f"1000 tmpfs mounts and no failed shrinker_info expansion (from mount {grown} "
             f"on, no 512-byte unit of deferred counts was allocated)")
    put(f"{DBG}/failslab/cache-filter", "N")
    e, made = count_allocs(nth, mount, "none", mnt, "tmpfs")
    if e or made < min(counts) + MEMCGS // 2:
        # stock 6.1: the failed mount's free_prealloced_shrinker() removed
        # id 0 (its never-assigned ->id) from shrinker_idr, and this mount
        # was given id 0 -- another shrinker's (fixed by "mm: shrinkers:
        # Never free another shrinker's memcg id")
        fail(f"mount {i} without faults after its failed expansion: "
             f"{errno.errorcode.get(e, e)}, {made} allocations (no expansion: it was given a "
             f"lower id, which a failed mount frees only when it removed another shrinker's)")
    held.append(mnt)
    put(f"{DBG}/fail_page_alloc/min-order", 0)
    print(f"# memcg: mount {i}: allocation {pos} (a shrinker_info unit) failed, the mount "
          f"returned {probe}; without faults it then "
          f"expanded in full ({made} allocations)", flush=True)
    files, n = 0, 0
    while True:
        n += 1
        e, made = nth.call(n, create, f"{held[-1]}/f{n}")
        if e:
            errnos["(create) " + errno.errorcode.get(e, str(e))] += 1
        if made is not None:
            break
        files += 1
    kmsg("memcg end")
    put("/sys/fs/cgroup/cgroup.procs", os.getpid())
    for m in held:
        umount(m)
    for i in range(MEMCGS):
        os.rmdir(f"{cg}/m{i}")
    os.rmdir(cg)
    return files


ALLOC = re.compile(r"^(dump_stack|should_fail|__should_fail|should_failslab|fail_dump|"
                   r"slab_pre_alloc_hook|kmem_cache_alloc|__kmem_cache_alloc|kmalloc|__kmalloc|"
                   r"kzalloc|kvmalloc|kvzalloc|kmalloc_trace|kmem_cache_zalloc|__alloc_pages|"
                   r"alloc_pages|prepare_alloc_pages|__folio_alloc|folio_alloc|"
                   r"__filemap_get_folio|filemap_alloc_folio|pagecache_get_page|"
                   r"__get_free_pages|get_zeroed_page|alloc_slab_page|allocate_slab|new_slab|"
                   r"___slab_alloc|__slab_alloc|slab_alloc|kmalloc_large|kmalloc_order|"
                   r"__kmalloc_node|kmalloc_node|kvmalloc_node|__vmalloc|__alloc_percpu|"
                   r"pcpu_alloc|alloc_pages_bulk|__alloc_pages_bulk|xa_|__xa_|xas_|"
                   r"radix_tree_|idr_alloc|idr_get_free|ida_alloc|mempool_alloc)")


def sites_of(scenario):
    """the first non-allocator frame of each injected failure's stack
    between the scenario's begin and end marks in the kernel log (read
    after each scenario: the ring buffer holds a few thousand stacks)"""
    log = subprocess.check_output(["dmesg"], text=True, errors="replace").splitlines()
    sites, inside, cur = collections.Counter(), False, None
    for line in log:
        m = re.search(r"fault-inject-mount: (?:sweep )?(\S+) (begin|end)", line)
        if m:
            inside = m.group(1) == scenario and m.group(2) == "begin"
            continue
        if not inside:
            continue
        if "FAULT_INJECTION: forcing a failure" in line:
            cur = []
        elif cur is not None and "</TASK>" in line:
            frames = [f for f in cur if not ALLOC.match(f)]
            sites[frames[0] if frames else "(allocator only)"] += 1
            cur = None
        elif cur is not None:
            m = re.search(r"\]\s+([A-Za-z_][\w.]*)\+0x", line)
            if m:
                cur.append(m.group(1))
    return sites


def main():
    if not os.path.exists(f"{DBG}/failslab") or not os.path.exists("/proc/thread-self/fail-nth"):
        skip("needs CONFIG_FAILSLAB, CONFIG_FAIL_PAGE_ALLOC, CONFIG_FAULT_INJECTION_DEBUG_FS")
    unmarked = [c for c in FAILSLAB_CACHES
              if open(f"/sys/kernel/slab/{c}/failslab").read().strip() != "1"]
    if MEMCGS and unmarked:
        skip(f"{', '.join(unmarked)} not marked for failslab's cache filter: boot with "
             f"slub_debug=A,{','.join(FAILSLAB_CACHES)} (scripts/test does), or MEMCGS=0")
    kml = f"{DBG}/kmemleak"
    for a in ("failslab", "fail_page_alloc"):
        put(f"{DBG}/{a}/ignore-gfp-wait", "N")
        put(f"{DBG}/{a}/verbose", 2)
        put(f"{DBG}/{a}/verbose_ratelimit_burst", 1000000)
        put(f"{DBG}/{a}/probability", 0)
    put(f"{DBG}/fail_page_alloc/ignore-gfp-highmem", "N")
    put(f"{DBG}/fail_page_alloc/min-order", 0)
    # the reports' stacks go to the ring buffer, not the slow serial console
    # (back to the kernel's default on every exit, failures included)
    subprocess.run(["dmesg", "-n", "1"])
    atexit.register(subprocess.run, ["dmesg", "-n", "7"])
    devkmsg = devkmsg_unlimited()
    errnos = collections.defaultdict(collections.Counter)
    sites = {}
    nth = FailNth()
    for fs in FS:
        start = time.time()
        kmsg(f"sweep {fs} begin")
        n, mnt = sweep(fs, errnos[fs], nth)
        kmsg(f"sweep {fs} end")
        dev = open("/proc/self/mounts").read().split(f" {mnt} ")[0].split("\n")[-1]
        umount(mnt)
        if dev.startswith("/dev/loop"):
            subprocess.run(["losetup", "-d", dev])
        sites[fs] = sites_of(fs)
        print(f"# sweep {fs}: {n - 1} allocations of a mount failed in turn, "
              f"errnos {dict(errnos[fs])}, {time.time() - start:.0f} s", flush=True)
    if MEMCGS:
        start = time.time()
        files = memcg_expansion(errnos["memcg"], nth)
        sites["memcg"] = sites_of("memcg")
        print(f"# memcg: then {files} allocations of a file creation in it failed in turn; errnos {dict(errnos['memcg'])}, "
              f"{time.time() - start:.0f} s", flush=True)
    if devkmsg != "on":
        put("/proc/sys/kernel/printk_devkmsg", devkmsg + "\n")
    total = collections.Counter()
    for scen, c in sites.items():
        total.update(c)
        print(f"# {scen}: {sum(c.values())} injected failures reported, {len(c)} distinct call sites")
    print(f"# all: {sum(total.values())} injected failures reported, {len(total)} distinct call sites:")
    for site, n in total.most_common():
        print(f"#   {n:5d} {site}")
    if os.path.exists(kml):
        time.sleep(6)
        put(kml, "scan")
        put(kml, "scan")
        leaks = open(kml).read().split("unreferenced object")[1:]
        under = [l for l in leaks if re.search(r"path_mount|do_new_mount|vfs_get_tree|alloc_super|"
                                               r"shrinker|list_lru|fill_super", l)]
        # allocated by this task (every mount of the test is its own, and
        # failslab and fail_page_alloc fail only its allocations)
        me = re.compile(r'comm "[^"]*", pid %d,' % os.getpid())
        ours = [l for l in under if me.search(l)]
        print(f"# kmemleak: {len(leaks)} unreferenced objects, {len(under)} allocated under "
              f"mount, {len(ours)} of them by this test (pid {os.getpid()}; the others "
              f"are left to kmemleak-shrinker's scan)")
        if ours:
            print("# " + ours[0].replace("\n", "\n# "))
            fail(f"{len(ours)} object(s) allocated under mount(2) leaked")


main()
