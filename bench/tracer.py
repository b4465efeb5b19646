"""The function tracer, set up once per boot for the scenarios that count
synchronization inside umount(2) (S2, S3).

The filter is set once and never changed again in a boot: under TCG,
re-patching kernel text while tracing (text_poke_bp) once left a guest
spinning with an RCU stall.  So there is one filter for every scenario, no
set_ftrace_pid (writing it re-patches too), and the events of one task are
picked out of the trace by thread id instead.  That one patching, and the
switching of trace events (static keys, patched the same way), is done
with every CPU but CPU0 offline (one_cpu_online(), as
tests/guest/guestlib.py's): with both vCPUs running, a vCPU that trapped in
an int3 the patch had already removed ran its stale TCG translation of it
again and froze guests (results/ci-hang-20261128/).
"""
import collections
import contextlib
import glob
import os
import re
import sys

TRACING = "/sys/kernel/tracing"
GRACE_PERIOD = ["synchronize_rcu", "synchronize_rcu_expedited", "synchronize_srcu",
                "synchronize_srcu_expedited", "rcu_barrier", "srcu_barrier",
                "synchronize_rcu_tasks", "synchronize_rcu_tasks_rude",
                "synchronize_rcu_tasks_trace"]
FLUSHES = ["__flush_workqueue", "drain_workqueue", "flush_work", "flush_delayed_work"]
# Not counted, traced so that the global cgroup-writeback wait can be told
# apart from other waits: its synchronize_rcu() and flush have this caller.
# init_wait_var_entry() is the slow path of wait_var_event(): called from
# cgroup_writeback_umount() it means the umount waited for wb switches of its
# own superblock (per-superblock drain, patched kernels only).
MARKERS = ["cgroup_writeback_umount", "init_wait_var_entry"]
# Waits the default set traces too but S2/S3 do not count (their numbers
# were taken without them): tests/guest/umount-grace-periods.sh counts every
# wait the tracer can see, these included.  rcu_sync_enter() waits for a
# grace period when its state is idle, percpu_ref_switch_to_atomic_sync()
# always; __wait_rcu_gp() is synchronize_rcu()'s wait and that of
# synchronize_rcu_mult(), whose caller it names.
OTHER_WAITS = ["__wait_rcu_gp", "rcu_barrier_tasks", "rcu_barrier_tasks_rude",
               "rcu_barrier_tasks_trace", "rcu_sync_enter", "percpu_ref_switch_to_atomic_sync",
               "flush_rcu_work", "kthread_flush_work", "kthread_flush_worker"]
# Functions that only wrap one of the waits above (a wait called by them is
# part of their caller's wait, not one more).
WAIT_WRAPPERS = ["synchronize_rcu_tasks_generic"]
# The polled grace-period API: no wait themselves; a cond_*() that finds its
# grace period not over calls synchronize_rcu*(), as a tail call (the wait
# then names cond_*()'s caller).  Patch 26's per-sb-bdi shutdown starts a
# grace period at its top and waits for what is left of it at its end.
POLLED = ["start_poll_synchronize_rcu", "start_poll_synchronize_rcu_expedited",
          "cond_synchronize_rcu", "cond_synchronize_rcu_expedited",
          "cond_synchronize_rcu_full", "cond_synchronize_rcu_expedited_full"]
# Of the default set, only the RCU Tasks flavours may be missing: each is
# built only when something selects it (PREEMPTION, BPF), and without it
# nothing can call it (synchronize_rcu_tasks() is then synchronize_rcu()).
# The additions above are optional too: whoever needs one checks for it.
DEFAULT_OPTIONAL = ["synchronize_rcu_tasks", "synchronize_rcu_tasks_rude",
                    "synchronize_rcu_tasks_trace"] + OTHER_WAITS + WAIT_WRAPPERS + POLLED

# Callers whose flush waits for work queued by the whole system, not by the
# superblock being unmounted.  Every other flush seen in S3 on 6.1.192 (ext4,
# XFS, btrfs: destroy_workqueue, ext4_sync_fs, xlog_cil_push_now, close_ctree,
# bdi_unregister, pm_runtime_remove, ...) is of a workqueue or work item the
# superblock or its own bdi owns: checked by reading each caller.
ISW_WQ = "isw_wq: inode wb switches of every superblock"
LRU_DRAIN = "mm_percpu_wq: LRU drain work on every CPU"
GLOBAL_FLUSH_CALLERS = {
    "cgroup_writeback_umount": ISW_WQ,
    # cgroup_writeback_umount() ends in a tail call of flush_workqueue(), so
    # the tracer names its caller: generic_shutdown_super() flushes nothing
    # else itself.
    "generic_shutdown_super": ISW_WQ,
    "__lru_add_drain_all": LRU_DRAIN,
    # one delayed work for all superblocks; its function waits for an SRCU
    # grace period (dquot_srcu) when dquots are being released
    "dquot_writeback_dquots": "quota_release_work: dquot releases of every superblock",
    "lru_add_drain_all": LRU_DRAIN,
}

# "  python3-245  [001] .....  45.123456: synchronize_rcu <-cgroup_writeback_umount"
# S5: lock and SRCU calls made by reclaim.  Hot functions: tracing them slows
# everything in the boot, so only a boot of its own traces them.
RECLAIM_LOCKS = ["down_read_trylock", "down_read", "down_write", "mutex_lock",
                 "__srcu_read_lock", "shrink_slab", "shrink_slab_memcg", "do_shrink_slab"]
RECLAIM_CALLERS = {"shrink_slab", "shrink_slab_memcg", "shrink_node", "shrink_node_memcgs",
                   "shrink_one", "shrink_many", "drop_slab_node", "drop_slab", "shrink_lruvec",
                   "lru_gen_shrink_node", "lru_gen_shrink_lruvec", "do_try_to_free_pages",
                   "balance_pgdat", "try_to_free_mem_cgroup_pages"}

_LINE = re.compile(r"-(\d+)\s+(?:\(.*?\)\s+)?\[\d+\]\s+(?:\S+\s+)?([\d.]+):\s+(\S+)(?:\s+<-(\S+))?")


def _write(name, value):
    with open(os.path.join(TRACING, name), "w") as f:
        f.write(value)


@contextlib.contextmanager
def one_cpu_online():
    """Every CPU but CPU0 offline for the block, back online after it.
    Under TCG, ftrace's live patching of a function that another vCPU (or
    the patching one's interrupt) runs can freeze the guest or stall it for
    a minute: the vCPU traps in an int3 the patch has already removed and
    runs its stale translation of it again (results/ci-hang-20261128/).
    Patching with one vCPU running did not.  Nested use restores nothing
    twice: an inner block finds the CPUs already offline and leaves them
    to the outer one.  (tests/guest/guestlib.py imports this one.)"""
    offlined = []
    try:
        for f in sorted(glob.glob("/sys/devices/system/cpu/cpu[1-9]*/online")):
            with open(f) as o:
                if o.read().strip() != "1":
                    continue
            with open(f, "w") as o:
                o.write("0")
            offlined.append(f)
        yield
    finally:
        # every CPU back, even after a failed write, or the later tests of
        # the boot run on fewer CPUs; the block's own exception, if any,
        # is the one that goes on
        failed = []
        for f in offlined:
            try:
                with open(f, "w") as o:
                    o.write("1")
            except OSError as e:
                failed.append(f"{f}: {e}")
        if failed:
            msg = "CPUs left offline: " + "; ".join(failed)
            if sys.exc_info()[0] is None:
                raise OSError(msg)
            print(msg, file=sys.stderr)


def setup(functions=None, optional=()):
    """Enable the function tracer on FUNCTIONS (default: the grace-period
    waits and flushes of S2/S3), once per boot.  A function that cannot be
    traced (not in available_filter_functions: notrace, inlined, not built)
    raises, naming it, unless it is in OPTIONAL: a wait the tracer cannot
    see would otherwise count as a wait not made.  Returns the optional
    functions left out.  A boot already tracing another set cannot change
    it: that raises, naming the cause."""
    if functions is None:
        functions = GRACE_PERIOD + FLUSHES + MARKERS + OTHER_WAITS + WAIT_WRAPPERS + POLLED
        optional = DEFAULT_OPTIONAL
    if not os.path.exists(os.path.join(TRACING, "trace")):
        os.system("mount -t tracefs none %s" % TRACING)
    available = set(open(os.path.join(TRACING, "available_filter_functions")).read().split())
    funcs = [f for f in functions if f in available]
    dropped = [f for f in functions if f not in available]
    missing = [f for f in dropped if f not in optional]
    if missing:
        raise RuntimeError("cannot trace %s: not in available_filter_functions"
                           % ", ".join(missing))
    if open(os.path.join(TRACING, "current_tracer")).read().strip() == "function":
        have = set(open(os.path.join(TRACING, "set_ftrace_filter")).read().split())
        if have != set(funcs):
            raise RuntimeError("the function tracer already traces another set of functions "
                               "in this boot; run this scenario in a boot of its own")
        return dropped
    _write("tracing_on", "0")
    with one_cpu_online():
        _write("set_ftrace_filter", "\n".join(funcs) + "\n")
        _write("current_tracer", "function")
    return dropped


def start():
    _write("trace", "")
    _write("tracing_on", "1")


def stop():
    """Stop tracing; return {tid: [(function, caller), ...]} of the window."""
    return {tid: [(f, c) for _, f, c in calls] for tid, calls in stop_timed().items()}


# wb switch works, start and end: the workqueue events, enabled by
# switch_events() (an opt-in: they trace every work item of the system)
_WQ_EVENT = re.compile(r"\s([\d.]+):\s+workqueue_execute_(start|end): work struct (\S+): "
                       r"function inode_switch_wbs_work_fn")
SWITCH_EVENTS = ["workqueue/workqueue_execute_start", "workqueue/workqueue_execute_end"]


def mark(text):
    """An event of the calling task in the trace (trace_marker)."""
    _write("trace_marker", text + "\n")


def switch_events(on):
    """Record (or stop recording) when wb switch works start and end.
    Enabling a trace event patches its static key: one CPU online."""
    with one_cpu_online():
        for e in SWITCH_EVENTS:
            _write(os.path.join("events", e, "enable"), "1" if on else "0")


def stop_timed(events=None):
    """Stop tracing; return {tid: [(seconds, function, caller), ...]} of the
    window, each task's calls in trace order.  With a list EVENTS, append
    the wb switch works' (seconds, "start" or "end", work) to it."""
    _write("tracing_on", "0")
    calls = collections.defaultdict(list)
    for line in open(os.path.join(TRACING, "trace")):
        if line.startswith("#"):
            continue
        if events is not None and "workqueue_execute_" in line:
            m = _WQ_EVENT.search(line)
            if m:
                events.append((float(m.group(1)), m.group(2), m.group(3)))
            continue
        m = _LINE.search(line)
        if m:
            calls[int(m.group(1))].append((float(m.group(2)), m.group(3),
                                           (m.group(4) or "").split("+")[0]))
    return calls


def switches_running(events, t, t_end=None):
    """How many runs of wb switch works (switch_events()) overlapped the
    time T, or the interval T..T_END: each work's runs are its start..end
    pairs in the window, a run whose start (end) is not in the window
    having begun before it (ending after it)."""
    t_end = t if t_end is None else t_end
    runs = collections.defaultdict(list)
    for ts, kind, work in sorted(events):
        r = runs[work]
        if kind == "start":
            r.append([ts, None])
        elif r and r[-1][1] is None:
            r[-1][1] = ts
        else:
            r.append([None, ts])
    return sum(1 for r in runs.values() for a, b in r
               if (a is None or a <= t_end) and (b is None or b >= t))


def base(name):
    """xlog_cil_push_now.isra.0 -> xlog_cil_push_now"""
    return name.split("+")[0].split(".")[0]


def all_waits(calls, traced):
    """Every grace-period wait and flush among one task's timed calls
    (stop_timed()), of the functions in TRACED (what setup() traces):
    [(seconds, function, caller, via)].  VIA names the polled call
    (cond_synchronize_rcu_expedited, ...) when the wait was made by one,
    as its tail call (the wait then names cond_*()'s caller, right after
    the cond_*() call) or its callee; CALLER is then cond_*()'s caller.
    Else VIA is "".  A wait called by another wait, or by a wrapper of one,
    is part of that wait."""
    waits = {f for f in GRACE_PERIOD + FLUSHES + OTHER_WAITS if f in traced}
    inner = waits | set(WAIT_WRAPPERS)
    conds = {f for f in POLLED if f.startswith("cond_")}
    out = []
    prev = None
    for t, f, c in calls:
        f, c = base(f), base(c)
        if f in waits and c not in inner:
            via = ""
            if prev and prev[0] in conds and c in (prev[0], prev[1]):
                via, c = prev[0], prev[1]
            out.append((t, f, c, via))
        prev = (f, c)
    return out


def switch_works(calls_by_tid, me):
    """How many wb switch works other tasks ran in the window: each starts
    with synchronize_rcu() in inode_switch_wbs_work_fn(), so a switch was
    in flight then (queued before, and done a grace period later)."""
    return sum(1 for tid, calls in calls_by_tid.items() if tid != me
               for call in calls
               if base(call[-2]) == "synchronize_rcu"
               and base(call[-1]) == "inode_switch_wbs_work_fn")


def counted(calls):
    """The grace-period waits and flushes among one task's calls, as a
    Counter of (function, caller).  A call made by another counted function
    (drain_workqueue -> __flush_workqueue) is part of that call, not one
    more."""
    waits = set(GRACE_PERIOD + FLUSHES)
    return collections.Counter((f, c) for f, c in calls if f in waits and c not in waits)


def reclaim_lock_calls(calls):
    """{"function<-caller": n} over every task, for calls made by reclaim
    (and reclaim's own shrink_slab* entries, if the tracer sees them)."""
    counts = collections.Counter()
    for task_calls in calls.values():
        for f, c in task_calls:
            if c in RECLAIM_CALLERS or f in ("shrink_slab", "shrink_slab_memcg"):
                counts["%s<-%s" % (f, c)] += 1
    return dict(counts)


def own_cgwb_drain(calls):
    """Did this task wait in cgroup_writeback_umount() for switches of its
    own superblock (the per-superblock drain)?"""
    return any(f == "init_wait_var_entry" and c == "cgroup_writeback_umount"
               for f, c in calls)


def global_cgwb_wait(calls):
    """Did this task wait in cgroup_writeback_umount()'s global path?"""
    return any(c == "cgroup_writeback_umount" and f in GRACE_PERIOD + FLUSHES
               for f, c in calls)
