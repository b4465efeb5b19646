"""The function tracer, set up once per boot for the scenarios that count
synchronization inside umount(2) (S2, S3).

The filter is set once and never changed again in a boot: under TCG,
re-patching kernel text while tracing (text_poke_bp) once left a guest
spinning with an RCU stall.  So there is one filter for every scenario, no
set_ftrace_pid (writing it re-patches too), and the events of one task are
picked out of the trace by thread id instead.
"""
import collections
import os
import re

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
# Of the default set, only the RCU Tasks flavours may be missing: each is
# built only when something selects it (PREEMPTION, BPF), and without it
# nothing can call it (synchronize_rcu_tasks() is then synchronize_rcu()).
DEFAULT_OPTIONAL = ["synchronize_rcu_tasks", "synchronize_rcu_tasks_rude",
                    "synchronize_rcu_tasks_trace"]

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

_LINE = re.compile(r"-(\d+)\s+(?:\(.*?\)\s+)?\[\d+\]\s+(?:\S+\s+)?[\d.]+:\s+(\S+)(?:\s+<-(\S+))?")


def _write(name, value):
    with open(os.path.join(TRACING, name), "w") as f:
        f.write(value)


def setup(functions=None, optional=()):
    """Enable the function tracer on FUNCTIONS (default: the grace-period
    waits and flushes of S2/S3), once per boot.  A function that cannot be
    traced (not in available_filter_functions: notrace, inlined, not built)
    raises, naming it, unless it is in OPTIONAL: a wait the tracer cannot
    see would otherwise count as a wait not made.  Returns the optional
    functions left out.  A boot already tracing another set cannot change
    it: that raises, naming the cause."""
    if functions is None:
        functions, optional = GRACE_PERIOD + FLUSHES + MARKERS, DEFAULT_OPTIONAL
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
    _write("set_ftrace_filter", "\n".join(funcs) + "\n")
    _write("current_tracer", "function")
    return dropped


def start():
    _write("trace", "")
    _write("tracing_on", "1")


def stop():
    """Stop tracing; return {tid: [(function, caller), ...]} of the window."""
    _write("tracing_on", "0")
    calls = collections.defaultdict(list)
    for line in open(os.path.join(TRACING, "trace")):
        if line.startswith("#"):
            continue
        m = _LINE.search(line)
        if m:
            calls[int(m.group(1))].append((m.group(2), (m.group(3) or "").split("+")[0]))
    return calls


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
