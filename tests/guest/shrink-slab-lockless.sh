#!/bin/bash
# Reclaim (global and memcg paths of shrink_slab()) takes no lock itself:
# see shrink-slab-lockless.py.  Test config only: tracing every lock
# function of a KASAN and lockdep kernel under TCG stalled a page fault for
# 22 s (a soft lockup report, cold run of 2026-11-25), and the locks reclaim
# takes do not depend on the config.
. "$TESTS/guest/lib.sh"
[ "${EXPECT_VARIANT:-}" = debug ] &&
	skip "tracing every lock function under KASAN and lockdep starves the guest; the locks do not depend on the config: test config only"
exec python3 "$TESTS/guest/shrink-slab-lockless.py" "$@"
