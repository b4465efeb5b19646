#!/usr/bin/python3
"""Host-side check of umount-grace-periods' judging on synthetic traces (the
conditional wait never slept in the guest runs, so its path was not seen
there): bench/tracer.all_waits() folds cond_synchronize_rcu_expedited()'s
tail call and its callee into one wait 'via' it; judge() passes 4 of 10
sleeps and fails a grace period started right before the wait (g6.2's
pattern) on both the placement and the bound.  Run from bench/:
  SCRATCH=/tmp python3 ../results/guest-umount-20261128/judge-synthetic.py"""
import collections, subprocess, sys
src = subprocess.check_output(["sed", "-n", "/^exec python3/,/^PY$/p",
                               "../tests/guest/umount-grace-periods.sh"], text=True)
src = "\n".join(src.splitlines()[1:-2])      # drop "exec ...", "main()", "PY"
sys.argv = ["x", "."]
exec(src)
traced = set(tracer.GRACE_PERIOD + tracer.FLUSHES + tracer.OTHER_WAITS + tracer.WAIT_WRAPPERS
             + tracer.POLLED + tracer.MARKERS)
def umount(sleep, late=False, tail=True):
    c = [(0.0, "synchronize_rcu_expedited", "namespace_unlock")]
    if not late: c.append((1.0, "start_poll_synchronize_rcu", "generic_shutdown_super"))
    c.append((1.1, "__flush_workqueue", "close_ctree"))
    if late: c.append((1.15, "start_poll_synchronize_rcu", "generic_shutdown_super"))
    c.append((1.2, "cond_synchronize_rcu_expedited", "generic_shutdown_super"))
    if sleep: c.append((1.2001, "synchronize_rcu_expedited",
                        "generic_shutdown_super" if tail else "cond_synchronize_rcu_expedited"))
    c.append((1.25, "flush_delayed_work", "bdi_unregister"))
    return c
for label, us, want in (("4 of 10 slept (tail call and callee)", [umount(i < 4, tail=i % 2) for i in range(10)], 0),
                        ("started at the end, all slept", [umount(True, True) for _ in range(10)], 2)):
    per, polls, bad = [], [], []
    for calls in us:
        w = tracer.all_waits(calls, traced)
        per.append(collections.Counter((f, c, v) for _, f, c, v in w))
        polls.append(poll_of(calls, w))
    PERSB_MAX_WAITS = 5
    judge("btrfs", per, polls, bad)
    print("%s -> %d failures (want %d): %s" % (label, len(bad), want, bad))
    assert len(bad) == want
