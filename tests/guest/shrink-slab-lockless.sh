#!/bin/bash
# Reclaim (global and memcg paths of shrink_slab()) takes no lock itself:
# see shrink-slab-lockless.py.  Test config only: tracing every lock
# function of a KASAN and lockdep kernel under TCG stalled a page fault for
# 22 s (a soft lockup report, cold run of 2026-11-25), and the locks reclaim
# takes do not depend on the config.
. "$TESTS/guest/lib.sh"
[ "${EXPECT_VARIANT:-}" = debug ] &&
	skip "tracing every lock function under KASAN and lockdep starves the guest; the locks do not depend on the config: test config only"
# KCSAN: the tracer's text patching, done with one CPU online, took 244 s,
# and phase 3 had not ended at the 600 s limit (results/kcsan-20261128-170126)
[ "${EXPECT_VARIANT:-}" = kcsan ] &&
	skip "tracing every lock function of the KCSAN kernel under TCG outlasts its limit; the locks do not depend on the config: test config only"
exec python3 "$TESTS/guest/shrink-slab-lockless.py" "$@"
