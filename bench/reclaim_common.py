"""Shared parts of the capability-5 scenarios (S8-S11): /proc counters, an
mlocked hog, a tree walk, and the reclaim trace events counted by who made
the call (kswapd or a direct reclaimer).

Trace events only: under TCG the text patching of kprobes and of the
scheduler's tracepoints (record-cmd) has hung guests, so record-cmd is off
and kswapd is told apart by its pid, not its name.
"""
import ctypes
import json
import mmap
import os
import re
import subprocess
import time

TRACING = "/sys/kernel/tracing"
# mount points: the guest's root is the host's, read-only; /tmp is a tmpfs
MNT = "/tmp/reclaim-mnt"
EVENTS = ["vmscan/mm_shrink_slab_start", "vmscan/mm_shrink_slab_end",
          "vmscan/mm_vmscan_direct_reclaim_begin", "vmscan/mm_vmscan_throttled"]
# the experimental group's own events
SERIES_EVENTS = ["vmscan/mm_shrink_slab_defer", "vmscan/mm_shrinker_backoff"]
VMSTAT = ["allocstall", "pgscan_direct", "pgscan_kswapd", "pgsteal_direct", "pgsteal_kswapd",
          "slabs_scanned", "workingset_refault_file", "workingset_refault_anon",
          "oom_kill", "pswpin", "pswpout", "pgpgin"]

libc = ctypes.CDLL(None, use_errno=True)

# "  <...>-245  [001] .....  45.123456: mm_shrink_slab_start: ..."
LINE = re.compile(r"^\s*.*?-(\d+)\s+(?:\(.*?\)\s+)?\[\d+\]\s+\S*\s*[\d.]+:\s+(\w+):\s(.*)$")
SLAB_START = re.compile(r"^(\S+?)\+\S+ .*?objects to shrink (-?\d+) gfp_flags (\S+) "
                        r"cache items (\d+) delta (-?\d+) total_scan (-?\d+) priority (-?\d+)")
SLAB_END = re.compile(r"^(\S+?)\+\S+ .*?unused scan count (-?\d+) new scan count (-?\d+) "
                      r"total_scan (-?\d+) last shrinker return val (-?\d+)")
THROTTLED = re.compile(r"usec_timeout=(\d+) usect_delayed=(\d+) reason=(\w+)")


def put(path, value):
    with open(path, "w") as f:
        f.write(str(value))


def meminfo(key):
    for line in open("/proc/meminfo"):
        if line.startswith(key + ":"):
            return int(line.split()[1]) >> 10
    raise KeyError(key)


def vmstat():
    v = {k: int(n) for k, n in (line.split() for line in open("/proc/vmstat"))}
    v["allocstall"] = sum(n for k, n in v.items() if k.startswith("allocstall_"))
    return v


def vm_delta(before, after):
    return {k: after.get(k, 0) - before.get(k, 0) for k in VMSTAT}


def slab_objects(*names):
    """active objects of the named slab caches (0 for a cache not there)"""
    have = {}
    for line in open("/proc/slabinfo"):
        f = line.split()
        if f and f[0] in names:
            have[f[0]] = int(f[1])
    return {n: have.get(n, 0) for n in names}


def disk_reads(dev):
    """(read I/Os, sectors read) of /dev/DEV"""
    f = open("/sys/block/%s/stat" % dev).read().split()
    return int(f[0]), int(f[2])


def sh(*cmd):
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)


def mount(dev, name, options="", mkfs_xfs=False):
    """mount /dev/DEV on MNT/NAME (after mkfs.xfs, if asked); returns the path"""
    if mkfs_xfs:
        sh("mkfs.xfs", "-q", "-f", "/dev/" + dev)
    path = os.path.join(MNT, name)
    os.makedirs(path, exist_ok=True)
    sh("mount", *(["-o", options] if options else []), "/dev/" + dev, path)
    return path


def walk(top):
    """lstat every entry under top; returns the number of files"""
    n = 0
    for d, dirs, files in os.walk(top):
        for name in files:
            os.lstat(os.path.join(d, name))
            n += 1
    return n


class Hog:
    """A child that mlocks anonymous memory in steps (at most max_step_mb
    each, written back first) until MemAvailable (or MemFree) is down to a
    target.  oom_score_adj 1000 by default: the OOM killer takes it first,
    and an OOM kill shows as a hog that died."""

    def __init__(self, oom_score_adj=1000, max_step_mb=256):
        self.oom_score_adj, self.max_step_mb = oom_score_adj, max_step_mb
        self.cmd_r, self.cmd_w = os.pipe()
        self.ack_r, self.ack_w = os.pipe()
        self.pid = os.fork()
        if self.pid == 0:
            try:
                self._child()
            finally:
                os._exit(1)
        os.close(self.cmd_r)
        os.close(self.ack_w)
        self.locked_mb = 0

    def _child(self):
        os.close(self.cmd_w)
        os.close(self.ack_r)
        put("/proc/self/oom_score_adj", self.oom_score_adj)
        held = []
        cmds = os.fdopen(self.cmd_r, "rb", buffering=0)
        for line in iter(cmds.readline, b""):
            mb = int(line)
            m = mmap.mmap(-1, mb << 20, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
            addr = ctypes.addressof(ctypes.c_char.from_buffer(m))
            ok = libc.mlock(ctypes.c_void_p(addr), ctypes.c_size_t(mb << 20)) == 0
            held.append(m)
            os.write(self.ack_w, b"ok\n" if ok else b"fail\n")
        os._exit(0)

    def squeeze_to(self, target_mb, key="MemAvailable"):
        """grow until meminfo KEY <= target_mb; None, or why it could not"""
        while meminfo(key) > target_mb:
            os.sync()
            step = max(4, min(self.max_step_mb, (meminfo(key) - target_mb) // 2))
            os.write(self.cmd_w, b"%d\n" % step)
            ack = os.read(self.ack_r, 16).strip()
            if ack != b"ok":
                return "mlock failed" if ack else "the hog was OOM-killed"
            self.locked_mb += step
        return None

    def release(self):
        """kill the hog; True if the OOM killer had killed it already (asked
        before closing its pipe, on whose end it would exit by itself)"""
        pid, status = os.waitpid(self.pid, os.WNOHANG)
        if pid == 0:
            os.kill(self.pid, 9)
            os.waitpid(self.pid, 0)
        os.close(self.cmd_w)
        return pid != 0 and os.WIFSIGNALED(status)


def squeeze(scenario, target_mb, key="MemAvailable"):
    """a Hog grown until meminfo KEY <= target_mb; or None, after printing
    the scenario's error record"""
    hog = Hog()
    why = hog.squeeze_to(target_mb, key)
    if why:
        print(json.dumps({"scenario": scenario, "error": why}), flush=True)
        return None
    return hog


def kswapd_pids():
    pids = set()
    for p in os.listdir("/proc"):
        if p.isdigit():
            try:
                if open("/proc/%s/comm" % p).read().startswith("kswapd"):
                    pids.add(p)
            except OSError:
                pass
    return pids


def trace_setup(buffer_kb=65536, extra_events=()):
    if not os.path.exists(TRACING + "/trace"):
        sh("mount", "-t", "tracefs", "none", TRACING)
    put(TRACING + "/tracing_on", 0)
    put(TRACING + "/options/record-cmd", 0)
    put(TRACING + "/buffer_size_kb", buffer_kb)
    events = EVENTS + [e for e in SERIES_EVENTS + list(extra_events)
                       if os.path.exists("%s/events/%s" % (TRACING, e))]
    # only the calls that freed something: the end event's count is freed
    # objects, and refused calls (most, under GFP_NOFS) would fill the buffer
    put(TRACING + "/events/vmscan/mm_shrink_slab_end/filter", "retval > 0")
    for e in events:
        put("%s/events/%s/enable" % (TRACING, e), 1)


def trace_start():
    put(TRACING + "/trace", "")
    put(TRACING + "/tracing_on", 1)


def trace_stop():
    """stop tracing and count the window's reclaim events:
    shrinker calls, objects asked (and of them the caller's own share, the
    rest being deferred work) and freed, by kswapd/other and by shrinker;
    calls whose total_scan was at least the whole cache (of caches of at least
    1000 objects); the largest deferred count a direct call started from;
    throttles by reason, and how many slept their whole timeout."""
    put(TRACING + "/tracing_on", 0)
    kswapd = kswapd_pids()
    c = {"direct_reclaims": 0, "shrinker_calls_kswapd": 0, "shrinker_calls_other": 0,
         "slab_scan_kswapd": 0, "slab_scan_other": 0,
         "slab_own_share_kswapd": 0, "slab_own_share_other": 0, "slab_freed_kswapd": 0,
         "slab_freed_other": 0, "whole_cache_calls": 0, "whole_cache_calls_other": 0,
         "deferred_inherited_max_other": 0, "throttled": {}, "throttled_full_timeout": 0,
         "throttled_full": {}, "inodegc_scans_kswapd": 0, "inodegc_scans_other": 0,
         "deferred_to_kswapd": 0, "backoffs": 0, "lost_events": 0, "by_shrinker": {}}
    with open(TRACING + "/trace") as f:
        for line in f:
            if line.startswith("#"):
                if "entries-in-buffer" in line:
                    m = re.search(r"entries-in-buffer/entries-written: (\d+)/(\d+)", line)
                    if m:
                        c["lost_events"] = int(m.group(2)) - int(m.group(1))
                continue
            m = LINE.match(line)
            if not m:
                continue
            pid, event, rest = m.groups()
            who = "kswapd" if pid in kswapd else "other"
            if event == "mm_shrink_slab_start":
                s = SLAB_START.match(rest)
                if not s:
                    continue
                name, nr, items, total = s.group(1), int(s.group(2)), int(s.group(4)), int(s.group(6))
                c["shrinker_calls_" + who] += 1
                c["slab_scan_" + who] += total
                # the caller's own share (delta); the rest of total_scan is
                # deferred work it took over
                c["slab_own_share_" + who] += min(total, int(s.group(5)))
                per = c["by_shrinker"].setdefault(name, {"calls_kswapd": 0, "calls_other": 0,
                                                          "scan_kswapd": 0, "scan_other": 0})
                per["calls_" + who] += 1
                per["scan_" + who] += total
                if items >= 1000 and total >= items:
                    c["whole_cache_calls"] += 1
                    if who == "other":
                        c["whole_cache_calls_other"] += 1
                if who == "other":
                    c["deferred_inherited_max_other"] = max(c["deferred_inherited_max_other"], nr)
            elif event == "mm_shrink_slab_end":
                s = SLAB_END.match(rest)
                if s and int(s.group(5)) > 0:
                    c["slab_freed_" + who] += int(s.group(5))
            elif event == "mm_vmscan_direct_reclaim_begin":
                c["direct_reclaims"] += 1
            elif event == "mm_vmscan_throttled":
                t = THROTTLED.search(rest)
                if t:
                    key = "%s_%s" % (who, t.group(3).replace("VMSCAN_THROTTLE_", "").lower())
                    c["throttled"][key] = c["throttled"].get(key, 0) + 1
                    # a wait of a jiffy or two (NOPROGRESS, CONGESTED) nearly
                    # always runs out: counted by reason, with its timeout
                    if int(t.group(2)) >= int(t.group(1)):
                        c["throttled_full_timeout"] += 1
                        full = "%s_%dus" % (key, int(t.group(1)))
                        c["throttled_full"][full] = c["throttled_full"].get(full, 0) + 1
            elif event == "xfs_inodegc_shrinker_scan":
                c["inodegc_scans_" + who] += 1
            elif event == "mm_shrink_slab_defer":
                d = re.search(r" deferred (\d+) total deferred", rest)
                c["deferred_to_kswapd"] += int(d.group(1)) if d else 0
            elif event == "mm_shrinker_backoff":
                c["backoffs"] += 1
    return c


def per_10k(value, ops):
    return None if not ops else round(value * 10000 / ops, 2)


def now():
    return time.monotonic()
