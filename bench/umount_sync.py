#!/usr/bin/env python3
"""S3: count grace-period waits and workqueue flushes inside umount(2).

    umount_sync.py CYCLES FSTYPE...

For each cycle: mount a fresh-enough filesystem, write a file, then trace
umount2(2) with the function tracer limited to this task (set_ftrace_pid),
which also covers the superblock teardown that runs as task work on the way
back to user space.  Prints one JSON object per filesystem type.
"""
import collections
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fsutil  # noqa: E402

TRACING = "/sys/kernel/tracing"
GRACE_PERIOD = ["synchronize_rcu", "synchronize_rcu_expedited", "synchronize_srcu",
                "synchronize_srcu_expedited", "rcu_barrier", "srcu_barrier",
                "synchronize_rcu_tasks", "synchronize_rcu_tasks_rude",
                "synchronize_rcu_tasks_trace"]
FLUSHES = ["__flush_workqueue", "drain_workqueue", "flush_work", "flush_delayed_work"]


def write(name, value):
    with open(os.path.join(TRACING, name), "w") as f:
        f.write(value)


def setup_tracer():
    if not os.path.exists(os.path.join(TRACING, "trace")):
        os.system("mount -t tracefs none %s" % TRACING)
    write("tracing_on", "0")
    write("current_tracer", "nop")
    available = set(open(os.path.join(TRACING, "available_filter_functions")).read().split())
    funcs = [f for f in GRACE_PERIOD + FLUSHES if f in available]
    write("set_ftrace_filter", "\n".join(funcs) + "\n")
    write("set_ftrace_pid", str(os.getpid()))
    write("current_tracer", "function")
    return funcs


def traced_umount(target):
    write("trace", "")
    write("tracing_on", "1")
    fsutil.umount(target)
    write("tracing_on", "0")
    counts = collections.Counter()
    for line in open(os.path.join(TRACING, "trace")):
        if line.startswith("#"):
            continue
        # "  python3-123  [000] .....  12.345: func <-caller"; a call made by
        # another counted function (drain_workqueue -> __flush_workqueue)
        # is part of that call, not one more.
        fields = line.split(": ", 1)[-1].split()
        if not fields:
            continue
        caller = fields[1][2:].split("+")[0] if len(fields) > 1 and fields[1].startswith("<-") else ""
        if caller not in GRACE_PERIOD + FLUSHES:
            counts[fields[0]] += 1
    return counts


def main():
    cycles = int(sys.argv[1])
    work = tempfile.mkdtemp(prefix="s3-")
    mnt = os.path.join(work, "mnt")
    os.mkdir(mnt)
    funcs = setup_tracer()
    for fstype in sys.argv[2:]:
        source = fsutil.make_fs(fstype, work)
        total = collections.Counter()
        for _ in range(cycles):
            fsutil.mount(fstype, source, mnt)
            with open(os.path.join(mnt, "f"), "w") as f:
                f.write("x" * 4096)
            total += traced_umount(mnt)
        fsutil.release_fs(source)
        for img in os.listdir(work):
            if img.endswith(".img"):
                os.unlink(os.path.join(work, img))
        gp = sum(total[f] for f in GRACE_PERIOD)
        fl = sum(total[f] for f in FLUSHES)
        print(json.dumps({"scenario": "S3", "fs": fstype, "cycles": cycles,
                          "grace_period_waits_per_umount": gp / cycles,
                          "flushes_per_umount": fl / cycles,
                          "per_function": {f: total[f] / cycles for f in funcs if total[f]}},
                         sort_keys=True))
    # No teardown: resetting set_ftrace_pid or the tracer patches kernel text
    # again (text_poke_bp), and under TCG that cross-CPU sync once hung a
    # guest for good.  The VM is thrown away after the run anyway.
    write("tracing_on", "0")


if __name__ == "__main__":
    main()
