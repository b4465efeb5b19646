#!/usr/bin/python3
"""Reclaim calls the shrinkers without taking a lock itself (capability 1,
lockless shrink_slab()).

Stock 6.1 takes shrinker_rwsem with down_read_trylock() in shrink_slab()
(global path, memcg == root) and in shrink_slab_memcg() (a non-root memcg);
the series walks the shrinkers under SRCU and reclaim takes no lock.  This
test fails if a kernel puts one back.

How: the function tracer, limited to this task (set_ftrace_pid, plus the
kswapd threads), on every lock-acquiring function the kernel can trace
(rwsems, mutexes, semaphores, spin/rw locks, their trylocks and lockdep
variants), on shrink_slab, shrink_slab_memcg (if not inlined),
do_shrink_slab, __srcu_read_lock and the superblock shrinker's callbacks.
Each event names its direct caller (the return address, not the nearest
traced function), so "down_read_trylock <-shrink_slab" is a lock
shrink_slab() takes itself, while the callbacks' own locks (super_cache_scan's
trylock of s_umount, list_lru's spinlocks) name the callback or its helpers
and are allowed.  A kprobe event on each entry into the walk (shrink_slab;
stock's gcc splits it into shrink_slab.part.0, the global path, and
shrink_slab_memcg(), called from shrink_node()) records its memcg
argument ($arg3), one on try_to_free_mem_cgroup_pages() the memcg memory.reclaim
reclaims (the root memcg when the root's file is written: the kernel has no
KALLSYMS_ALL to read root_mem_cgroup), so each call is known to take the
global path (memcg == root) or the memcg path (shrink_slab_memcg(), inlined
or not: it is inlined in the series' test build); the calls of one task
that follow it (do_shrink_slab, the callbacks, locks) are counted for that
path.  In phase 1 every shrink_slab() call must name the memcg reclaimed
(a check that $arg3 is the memcg).

Driven by memory.reclaim (proactive reclaim, try_to_free_mem_cgroup_pages()
-> shrink_node() -> shrink_slab() per memcg and priority):
  1. a memcg whose task made LOOKUPS negative dentries on an ext4 mount
     (their list_lru sets the superblock shrinker's bit in the memcg):
     memcg path only;
  2. the root cgroup (GLOBAL_RECLAIM, default 16M): shrink_slab() with the
     root memcg walks every registered shrinker (global path), and with
     each other memcg.

Fails if a lock-acquiring function was called by shrink_slab(),
shrink_slab_memcg() or do_shrink_slab(), or if the positive controls miss:
each path must have been entered, must have called do_shrink_slab() and
super_cache_count(), and the callbacks' own trylock of s_umount must have
been seen (the tracer sees locks and their callers).  A trace that lost
events fails too.  Exit 0 pass, 1 fail, 4 skip.

Phase 3 (issue 45, P10) closes the first phases' blind spot, a lock taken
through an out-of-line helper that reclaim calls (its direct caller is the
helper, e.g. shrinker_entry_tryget()): the function_graph tracer, with
set_graph_function on the walk's entries, records every lock function called
anywhere below shrink_slab(), at any depth, with the traced functions it is
nested in.  The shrinkers' callbacks (every count_objects/scan_objects a
kprobe on do_shrink_slab() saw in phases 1 and 2) are in set_graph_notrace,
and so are the scheduler (cond_resched()) and softirqs run on interrupt exit
(hard interrupts are left out by funcgraph-irqs=0): none of them is the
walk.  super_cache_count() and super_cache_scan() stay traced: a lock below
them is a callback's, allowed, and the s_umount trylock super_cache_scan()
takes through trylock_super(), which is not traced, must be seen below it
(the positive control: a lock reached through an untraced helper is seen).
The same two reclaims run again (the memcg's dentries made again first).
Fails if any other lock function was called below the walk, if a callback
the walk called was neither known nor traced, or if the controls miss.

Patching: under TCG, ftrace's live patching of a function another vCPU
(or the patching one's interrupt) runs can freeze the guest: the vCPU traps
in an int3 the patch has already removed and runs its stale translation of
it again (CI froze in this test twice; results/ci-hang-20261128/).  The
tracers (function and, in phase 3, function_graph), their filters and
the kprobes are switched with every CPU but CPU0 offline
(guestlib.one_cpu_online).

Not seen: a lock inlined as atomics (bit spinlocks, a hand-rolled lock), a
lock in a path these two reclaims do not take (kswapd and direct reclaim
call the same shrink_slab(), and are counted if they run meanwhile).
"""
import collections
import errno
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from guestlib import (SCRATCH, drop_fs, fail, make_fs, mount, one_cpu_online, skip, umount,  # noqa: E402
                      write)

T = "/sys/kernel/tracing"
CG = "/sys/fs/cgroup"
MEMCG = os.path.join(CG, "shrink-slab-lockless")
LOOKUPS = int(os.environ.get("LOOKUPS", "5000"))
GLOBAL_RECLAIM = os.environ.get("GLOBAL_RECLAIM", "16M")
# Asked of the leaf memcg: about what its dentries and inodes take.  More
# than it holds makes memory.reclaim retry every priority until EAGAIN, and
# with CONFIG_SWAP that was 120000 shrink_slab() calls, past the buffer.
MEMCG_RECLAIM = os.environ.get("MEMCG_RECLAIM", "1M")
PAGE_CACHE_MB = 2 * int(GLOBAL_RECLAIM.rstrip("M"))
GROUP = "shrink_slab_lockless"
# shrink_slab()'s memcg, and the memcg memory.reclaim was written to (the
# kernel lacks KALLSYMS_ALL: root_mem_cgroup cannot be read by name, but it
# is try_to_free_mem_cgroup_pages()'s target when the root's file is written)
# Each entry into the walk (shrink_slab, or the parts of it gcc split out:
# stock 6.1 has shrink_slab.part.0 for the global path and calls
# shrink_slab_memcg() from shrink_node()) gets a probe "ssN" or "smN"; main()
# adds them.
KPROBES = {"tf": "try_to_free_mem_cgroup_pages memcg=$arg1:x64"}

# Functions that acquire a lock, by name, as available_filter_functions
# lists them (lockdep kernels add the _nested variants).  Unlocks are left
# out: no unlock without a lock.
LOCK_RE = re.compile(
    r"^(down|down_(read|write)|down_(read|write)_\w+|down_(trylock|interruptible|killable|timeout)"
    r"|mutex_(lock|trylock)(_\w+)?|ww_mutex_(lock|trylock)(_\w+)?"
    r"|_raw_(spin|read|write)_(try)?lock(_\w+)?"
    r"|percpu_down_(read|write)\w*|__percpu_down_read\w*|rt_mutex_(lock|trylock)\w*)$")
# Reclaim's own shrinker-walking functions: a lock whose caller is one of
# these is a lock reclaim takes, not one a shrinker callback takes.
CORE = ("shrink_slab", "shrink_slab_memcg", "do_shrink_slab")
CALLBACKS = ("super_cache_count", "super_cache_scan")
# the trylock of s_umount the superblock shrinker's scan takes
CALLBACK_LOCK = ("down_read_trylock", ("super_cache_scan", "trylock_super"))
OTHERS = ("__srcu_read_lock",)

# Phase 3: the callbacks do_shrink_slab() is about to call (struct
# shrinker's first two members), read by a kprobe in every phase
CB_PROBE = "do_shrink_slab count=+0($arg2):symbol scan=+8($arg2):symbol"
CB = re.compile(r"cb: .*count=([A-Za-z_][\w.]*)\+\S*(?: \[\w+\])? scan=([A-Za-z_][\w.]*)\+")
# What may run below the walk and is not the walk: the scheduler through
# cond_resched(), hard interrupts (left out by funcgraph-irqs=0 too) and the
# softirqs run on their exit or at bh enable (handle_softirqs() in 6.1.192:
# the timer softirq's and rcu_core()'s spinlocks showed up below the walk
# without it), and preemptible RCU's unlock, which reports a quiescent state
# under the rcu_node lock when a grace period asked for one.  Their subtrees
# go untraced.
NOT_THE_WALK = ("__cond_resched", "schedule", "preempt_schedule", "preempt_schedule_notrace",
                "__do_softirq", "do_softirq", "handle_softirqs", "irq_exit_rcu",
                "__sysvec_apic_timer_interrupt", "__sysvec_call_function",
                "__sysvec_call_function_single", "rcu_preempt_deferred_qs_irqrestore")
# Inside super_cache_scan(), after its trylock of s_umount: the callback's
# own work, left untraced only to keep the trace small
CALLBACK_BULK = ("prune_dcache_sb", "prune_icache_sb")
GRAPH_OPTIONS = {"funcgraph-proc": "1", "funcgraph-irqs": "0"}
# a function_graph line: " 1)  python3-245   |   0.380 us    |    mutex_trylock();"
GLINE = re.compile(r"^\s*\d+\)\s+(?P<comm>.*?)-(?P<pid>\d+)\s+\|.*\|\s(?P<body>.*?)\s*$")

LINE = re.compile(r"^\s*(?P<comm>.*?)-(?P<pid>\d+)\s+(?:\(.*?\)\s+)?\[\d+\]\s+(?:\S+\s+)?"
                  r"[\d.]+:\s+(?P<rest>.*)$")
FUNC = re.compile(r"^(\S+)\s+<-(\S+)$")
PROBE = re.compile(r"^(ss|sm|tf)\d*: .*memcg=(0x[0-9a-f]+)")
MARK = re.compile(r"^tracing_mark_write: phase (\S+)")


def base(name):
    """shrink_slab.constprop.0 -> shrink_slab; drop a +offset"""
    return name.split("+")[0].split(".")[0]


def rd(name):
    with open(os.path.join(T, name)) as f:
        return f.read()


def tw(name, value, append=False):
    # os.open: Python's append mode seeks to the end, which tracefs refuses;
    # a filter file takes one name per write(2)
    fd = os.open(os.path.join(T, name), os.O_WRONLY | (os.O_APPEND if append else os.O_TRUNC))
    try:
        data = value.encode()
        while data:
            data = data[os.write(fd, data):]
    finally:
        os.close(fd)


def kswapd_pids():
    pids = []
    for p in os.listdir("/proc"):
        if p.isdigit():
            try:
                if open(f"/proc/{p}/comm").read().startswith("kswapd"):
                    pids.append(p)
            except OSError:
                pass
    return pids


def reclaim(path, amount):
    """write memory.reclaim; EAGAIN (less reclaimed than asked) is fine"""
    try:
        write(path, amount)
        return "done"
    except OSError as e:
        if e.errno != errno.EAGAIN:
            raise
        return "EAGAIN"


def populate(mnt):
    """negative dentries on the ext4 mount, made by a task in MEMCG"""
    pid = os.fork()
    if pid == 0:
        try:
            write(os.path.join(MEMCG, "cgroup.procs"), str(os.getpid()))
            for i in range(LOOKUPS):
                os.path.exists(os.path.join(mnt, "n%d" % i))
            os._exit(0)
        except BaseException as e:  # noqa: B902
            print("populate: %r" % e, flush=True)
            os._exit(1)
    _, status = os.waitpid(pid, 0)
    if status != 0:
        fail("the task in the memcg failed to make its dentries")
    # Clean page cache outside MEMCG for the root's memory.reclaim to find.
    # Without it that reclaim retried every priority over every memcg the
    # earlier tests left behind before giving up with EAGAIN: 106000 traced
    # shrink_slab() calls, 4 minutes under TCG (CI-order run, 2026-11-25).
    with open(os.path.join(mnt, "page-cache"), "wb") as f:
        f.write(b"\0" * (PAGE_CACHE_MB << 20))
        os.fsync(f.fileno())


def setup_tracing(funcs, graph=(), notrace=()):
    """the function tracer on FUNCS, or, with GRAPH, the function_graph
    tracer below the functions in GRAPH, with NOTRACE's subtrees left out"""
    saved = {"tracing_on": rd("tracing_on").strip()}
    for o in GRAPH_OPTIONS:
        saved["options/" + o] = rd("options/" + o).strip()
    # "7 (expanded: 1408)" before first use: restore the size it expands to
    size = rd("buffer_size_kb")
    saved["buffer_size_kb"] = (re.search(r"expanded: (\d+)", size)
                               or re.match(r"(\d+)", size)).group(1)
    saved["trace_clock"] = re.search(r"\[(\w+)\]", rd("trace_clock")).group(1)
    tw("tracing_on", "0")
    tw("trace_clock", "global")
    tw("buffer_size_kb", "8192")
    # the text is patched with one vCPU running (guestlib.one_cpu_online),
    # and only while nothing traces: tracer off, then filters
    with one_cpu_online():
        tw("current_tracer", "nop")
        tw("set_ftrace_filter", "\n".join(funcs) + "\n")
        tw("set_ftrace_pid", " ".join([str(os.getpid())] + kswapd_pids()) + "\n")
        for name, probe in KPROBES.items():
            try:
                tw("kprobe_events", "p:%s/%s %s\n" % (GROUP, name, probe), append=True)
            except OSError as e:
                log = rd("error_log").strip().splitlines()[-3:]
                cleanup_tracing(saved)
                fail("cannot add the kprobe event %s: %s (%s)" % (probe, e, " / ".join(log)))
            tw("events/%s/%s/enable" % (GROUP, name), "1")
        if graph:
            tw("set_graph_function", "\n".join(graph) + "\n")
            tw("set_graph_notrace", "\n".join(notrace) + "\n")
            for o, v in GRAPH_OPTIONS.items():
                tw("options/" + o, v)
            tw("current_tracer", "function_graph")
        else:
            tw("current_tracer", "function")
    tw("trace", "")
    return saved


def cleanup_tracing(saved):
    tw("tracing_on", "0")
    with one_cpu_online():
        tw("current_tracer", "nop")
        for name in KPROBES:
            try:
                tw("events/%s/%s/enable" % (GROUP, name), "0")
            except OSError:
                pass
            try:
                tw("kprobe_events", "-:%s/%s\n" % (GROUP, name), append=True)
            except OSError:
                pass
        tw("set_ftrace_filter", "\n")
        tw("set_ftrace_pid", "\n")
        tw("set_graph_function", "\n")
        tw("set_graph_notrace", "\n")
    for o in GRAPH_OPTIONS:
        tw("options/" + o, saved["options/" + o])
    tw("trace_clock", saved["trace_clock"])
    tw("buffer_size_kb", saved["buffer_size_kb"])
    tw("tracing_on", saved["tracing_on"])


def lost_events():
    lost = 0
    for cpu in os.listdir(os.path.join(T, "per_cpu")):
        for line in rd(os.path.join("per_cpu", cpu, "stats")).splitlines():
            k, _, v = line.partition(":")
            if k.strip() in ("overrun", "dropped events"):
                lost += int(v)
    return lost


def analyse(lines, me):
    """Per path, what the shrink_slab() calls of this task made; and every
    lock, of any traced task, whose caller is reclaim's own shrinker code"""
    events = []             # (pid, comm, phase of this task, kind, a, b)
    phase = None
    for line in lines:
        m = LINE.match(line)
        if not m:
            continue
        pid, comm, rest = int(m.group("pid")), m.group("comm"), m.group("rest")
        mk = MARK.match(rest)
        if mk:
            if pid == me:
                phase = mk.group(1)
            continue
        mp = PROBE.match(rest)
        mf = FUNC.match(rest)
        if mp:
            events.append((pid, comm, phase, mp.group(1), int(mp.group(2), 16), None))
        elif mf:
            events.append((pid, comm, phase, "fn", base(mf.group(1)), base(mf.group(2))))
    # the memcg each phase's memory.reclaim reclaimed from
    target = collections.defaultdict(set)
    for pid, comm, ph, kind, a, b in events:
        if pid == me and kind == "tf":
            target[ph].add(a)
    root = target["global"].pop() if len(target["global"]) == 1 else None
    leaf = target["memcg"].pop() if len(target["memcg"]) == 1 else None
    r = {"root": root, "leaf": leaf, "calls": collections.Counter(),
         "child": collections.defaultdict(collections.Counter),
         "bad": collections.Counter(), "cb_locks": collections.Counter(),
         "callers": collections.Counter(), "others": collections.Counter(),
         "not_leaf": 0}
    path_of = {}            # pid -> path of its current shrink_slab() call
    last = {}               # pid -> (probe kind, memcg) of its last entry
    for pid, comm, ph, kind, a, b in events:
        if kind in ("ss", "sm"):
            path = "global" if a == root else "memcg"
            path_of[pid] = path
            # shrink_slab() handing its call on to shrink_slab_memcg()
            same = kind == "sm" and last.get(pid) == ("ss", a)
            last[pid] = (kind, a)
            if same:
                continue
            if pid == me:
                r["calls"][(ph, path)] += 1
                # phase 1 reclaims a leaf memcg: every call is for it
                if ph == "memcg" and a != leaf:
                    r["not_leaf"] += 1
            else:
                r["others"]["%s %s" % (comm, path)] += 1
        elif kind == "fn":
            f, c = a, b
            path = path_of.get(pid, "?")
            if f in ("shrink_slab", "shrink_slab_memcg") and c not in CORE:
                r["callers"]["%s <-%s" % (f, c)] += 1
            elif LOCK_RE.match(f) and c in CORE:
                r["bad"]["%s <-%s (%s path, %s)" % (f, c, path, comm)] += 1
            elif f == CALLBACK_LOCK[0] and c in CALLBACK_LOCK[1]:
                r["cb_locks"]["%s <-%s" % (f, c)] += 1
            elif pid == me and (c in CORE or f in CALLBACKS):
                r["child"][path][f] += 1
    return r


def callbacks_of(lines):
    """the count/scan callbacks the cb kprobe saw do_shrink_slab() about
    to call"""
    cbs = set()
    for line in lines:
        m = CB.search(line)
        if m:
            cbs.update(base(x) for x in m.groups())
    return cbs


def analyse_graph(lines, entries, known):
    """Phase 3: walk each task's function_graph calls with a stack; every
    lock function below a walk entry that no callback encloses is a lock
    reclaim takes itself"""
    entries = {base(e) for e in entries}
    stacks = collections.defaultdict(list)
    r = {"bad": collections.Counter(), "cb_locks": collections.Counter(), "walks": 0,
         "do_shrink_slab": 0, "unknown_cbs": set(), "unbalanced": 0}
    for line in lines:
        m = GLINE.match(line)
        if not m:
            continue
        pid, body = int(m.group("pid")), m.group("body").strip()
        st = stacks[pid]
        if body.startswith("/*"):
            c = CB.search(body)
            if c and any(x for x in st if x in entries):
                r["unknown_cbs"].update(base(x) for x in c.groups() if base(x) not in known)
            continue
        if body == "}" or body.startswith("} "):
            if st:
                st.pop()
            else:
                r["unbalanced"] += 1
            continue
        fm = re.match(r"^([A-Za-z_][\w.]*)\(\)\s*(\{|;)$", body)
        if not fm:
            continue
        f, opens = base(fm.group(1)), fm.group(2) == "{"
        inside = [x for x in st if x in entries]
        if f in entries and not inside:
            r["walks"] += 1
        if f == "do_shrink_slab" and inside:
            r["do_shrink_slab"] += 1
        if LOCK_RE.match(f) and inside:
            # the frames below the innermost entry into the walk
            k = max(i for i, x in enumerate(st) if x in entries)
            below = st[k + 1:]
            if any(LOCK_RE.match(x) for x in below):
                pass    # part of an outer lock call, counted there
            elif any(x in CALLBACKS for x in below):
                r["cb_locks"]["%s below %s" % (f, [x for x in below if x in CALLBACKS][-1])] += 1
            else:
                r["bad"]["%s below %s (traced frames: %s; comm %s)" % (
                    f, st[k], " > ".join(st[k:]), m.group("comm").strip())] += 1
        if opens:
            st.append(f)
    return r


def phase3(mnt, locks, entries, known, avail):
    """function_graph over the walk: see the module docstring"""
    untraceable = sorted(c for c in known if c not in avail)
    if untraceable:
        return ["callbacks not traceable, their locks could not be told from the walk's: %s"
                % ", ".join(untraceable)]
    notrace = sorted((set(known) - set(CALLBACKS))
                     | {f for f in NOT_THE_WALK + CALLBACK_BULK if f in avail})
    funcs = sorted(set(locks + entries + ["do_shrink_slab"] + list(CALLBACKS) + notrace))
    populate(mnt)
    saved = setup_tracing(funcs, graph=entries, notrace=notrace)
    try:
        tw("tracing_on", "1")
        r1 = reclaim(os.path.join(MEMCG, "memory.reclaim"), MEMCG_RECLAIM)
        r2 = reclaim(os.path.join(CG, "memory.reclaim"), GLOBAL_RECLAIM)
        tw("tracing_on", "0")
        lost = lost_events()
        with open(os.path.join(T, "trace")) as f:
            lines = f.readlines()
    finally:
        cleanup_tracing(saved)
    r = analyse_graph(lines, entries, set(known) | set(CALLBACKS))
    print("# phase 3 (function_graph below %s; %d callbacks and %s untraced): memory.reclaim "
          "memcg %s, root %s; %d walks, %d do_shrink_slab() calls in them, %d trace lines" % (
              ", ".join(entries), len(set(known) - set(CALLBACKS)),
              ", ".join(f for f in NOT_THE_WALK if f in avail), r1, r2, r["walks"],
              r["do_shrink_slab"], len(lines)))
    print("# phase 3: locks below the callbacks left traced (allowed): %s" % (
        ", ".join("%s %d" % kv for kv in sorted(r["cb_locks"].items())) or "none"))
    problems = []
    for what, v in sorted(r["bad"].items()):
        print("FAIL: reclaim takes a lock itself (phase 3): %s: %d calls" % (what, v))
    if lost:
        problems.append("phase 3: the trace lost %d events (buffer overrun)" % lost)
    if not r["walks"] or not r["do_shrink_slab"]:
        problems.append("phase 3: saw no reclaim: %d walks, %d do_shrink_slab() in them"
                        % (r["walks"], r["do_shrink_slab"]))
    if not any(k.startswith(CALLBACK_LOCK[0] + " below super_cache_scan") for k in r["cb_locks"]):
        problems.append("phase 3: saw no %s() below super_cache_scan(): the graph does not show "
                        "a lock reached through an untraced helper (trylock_super())"
                        % CALLBACK_LOCK[0])
    if r["unknown_cbs"]:
        problems.append("phase 3: the walk called callbacks phases 1 and 2 did not see, whose "
                        "locks cannot be told from the walk's: %s"
                        % ", ".join(sorted(r["unknown_cbs"])))
    return problems + (["reclaim takes a lock itself (phase 3)"] if r["bad"] else [])


def main():
    if not os.path.exists(os.path.join(T, "available_filter_functions")):
        os.system("mount -t tracefs none %s 2>/dev/null" % T)
    if not os.path.exists(os.path.join(T, "available_filter_functions")):
        skip("no function tracer")
    if not os.path.exists(os.path.join(T, "kprobe_events")):
        skip("no kprobe events (CONFIG_KPROBE_EVENTS)")
    if "memory" not in open(os.path.join(CG, "cgroup.controllers")).read().split():
        skip("no memory controller on cgroup2 at %s" % CG)
    # the root's memory files appear once the controller is enabled below it
    write(os.path.join(CG, "cgroup.subtree_control"), "+memory")
    if not os.path.exists(os.path.join(CG, "memory.reclaim")):
        skip("no memory.reclaim")

    avail = set()
    for line in open(os.path.join(T, "available_filter_functions")):
        avail.add(line.split()[0])
    entries = sorted(a for a in avail if base(a) in ("shrink_slab", "shrink_slab_memcg"))
    if not any(base(a) == "shrink_slab" for a in entries):
        fail("shrink_slab is not in available_filter_functions (inlined?): cannot see reclaim")
    for i, a in enumerate(entries):
        KPROBES["%s%d" % ("sm" if base(a) == "shrink_slab_memcg" else "ss", i)] = \
            "%s memcg=$arg3:x64" % a
    KPROBES["cb"] = CB_PROBE
    missing = [f for f in ("do_shrink_slab", "super_cache_count") if f not in avail]
    if missing:
        fail("%s not traceable: the positive control cannot work" % ", ".join(missing))
    locks = sorted(a for a in avail if LOCK_RE.match(a))
    if CALLBACK_LOCK[0] not in locks:
        fail("%s not traceable" % CALLBACK_LOCK[0])
    have = [a for a in avail if base(a) in CORE + CALLBACKS + OTHERS
            + CALLBACK_LOCK[1]]
    print("# tracing %d lock functions (%s, ...); entries into the shrinker walk: %s%s" % (
        len(locks), ", ".join(locks[:6]), ", ".join(entries),
        "" if any(base(a) == "shrink_slab_memcg" for a in entries)
        else " (shrink_slab_memcg inlined)"), flush=True)

    mnt = os.path.join(SCRATCH, "shrink-slab-lockless")
    os.makedirs(mnt, exist_ok=True)
    dev = make_fs("ext4")
    err = mount(dev, mnt, "ext4")
    if err:
        drop_fs(dev)
        fail("mount ext4: %s" % os.strerror(err))
    if os.path.isdir(MEMCG):
        os.rmdir(MEMCG)
    os.mkdir(MEMCG)
    saved = None
    try:
        populate(mnt)
        saved = setup_tracing(sorted(set(locks + have)))
        tw("tracing_on", "1")
        tw("trace_marker", "phase memcg\n")
        r1 = reclaim(os.path.join(MEMCG, "memory.reclaim"), MEMCG_RECLAIM)
        tw("trace_marker", "phase global\n")
        r2 = reclaim(os.path.join(CG, "memory.reclaim"), GLOBAL_RECLAIM)
        tw("tracing_on", "0")
        lost = lost_events()
        with open(os.path.join(T, "trace")) as f:
            lines = f.readlines()
        r = analyse(lines, os.getpid())
        known = callbacks_of(lines)
        del lines
        cleanup_tracing(saved)
        saved = None
        print("# callbacks the walk called in phases 1 and 2: %s" % ", ".join(sorted(known)),
              flush=True)
        graph_problems = phase3(mnt, locks, entries, known, avail)
    finally:
        if saved:
            cleanup_tracing(saved)
        os.rmdir(MEMCG)
        umount(mnt)
        drop_fs(dev)
        os.unlink(os.path.join(SCRATCH, "ext4.img"))

    calls, child = r["calls"], r["child"]
    n = {p: sum(v for (ph, pa), v in calls.items() if pa == p) for p in ("global", "memcg")}
    print("# memory.reclaim: memcg %s %s, root %s %s; memcgs reclaimed: root %s, leaf %s" % (MEMCG_RECLAIM,
        r1, GLOBAL_RECLAIM, r2, r["root"] and hex(r["root"]), r["leaf"] and hex(r["leaf"])))
    print("# shrink_slab() calls of this task by phase/path: %s; their callers: %s" % (
        ", ".join("%s/%s %d" % (ph, pa, v) for (ph, pa), v in sorted(calls.items(), key=str)),
        ", ".join("%s %d" % kv for kv in sorted(r["callers"].items()))))
    if r["others"]:
        print("# shrink_slab() calls of kswapd or other tasks: %s" % ", ".join(
            "%s %d" % kv for kv in sorted(r["others"].items())))
    for path in ("global", "memcg"):
        print("# %s path: %d shrink_slab() calls; called by reclaim's shrinker code or "
              "callbacks: %s" % (path, n[path], ", ".join(
                  "%s %d" % kv for kv in sorted(child[path].items()))))
    print("# locks the shrinker callbacks take (allowed): %s" % (
        ", ".join("%s %d" % kv for kv in sorted(r["cb_locks"].items())) or "none"))

    problems = list(graph_problems)
    if lost:
        problems.append("the trace lost %d events (buffer overrun)" % lost)
    if r["root"] is None or r["leaf"] is None or r["root"] == r["leaf"]:
        problems.append("saw no reclaim: memory.reclaim's targets not seen (root %s, leaf %s)"
                        % (r["root"], r["leaf"]))
    if r["not_leaf"]:
        problems.append("%d shrink_slab() calls of phase 1 had another memcg than the one "
                        "reclaimed: the kprobe does not read shrink_slab()'s memcg"
                        % r["not_leaf"])
    if not calls.get(("memcg", "memcg")):
        problems.append("saw no reclaim: no shrink_slab() call for the memcg in phase 1")
    if not calls.get(("global", "global")):
        problems.append("saw no reclaim: no shrink_slab() call with the root memcg in phase 2")
    for path in ("global", "memcg"):
        for f in ("do_shrink_slab", "super_cache_count"):
            if not child[path][f]:
                problems.append("saw no reclaim: no %s() on the %s path" % (f, path))
    if not r["cb_locks"]:
        problems.append("saw no down_read_trylock() of s_umount in super_cache_scan(): "
                        "the tracer does not see the locks shrinkers take")
    for what, v in sorted(r["bad"].items()):
        print("FAIL: reclaim takes a lock itself: %s: %d calls" % (what, v))
    for p in problems:
        print("FAIL: " + p)
    if r["bad"] or problems:
        sys.exit(1)
    print("ok: %d global-path and %d memcg-path shrink_slab() calls, %d do_shrink_slab(), "
          "no lock taken by %s, nor (phase 3) anywhere below the walk outside a callback" % (
              n["global"], n["memcg"],
              child["global"]["do_shrink_slab"] + child["memcg"]["do_shrink_slab"],
              ", ".join(c + "()" for c in CORE)))


if __name__ == "__main__":
    main()
