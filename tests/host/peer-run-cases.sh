# guest/peer-run's reading of a kselftest's TAP lines ("cases" in
# tests/peers/kselftests.list): one result per case, a line repeated by a
# forked child's exit() counted once, kselftest.h's and the harness's SKIP
# forms, a case reported both ways a failure, nested (indented) lines not
# cases of their own.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
python3 - "$top/guest/peer-run" <<'PY'
import importlib.machinery, importlib.util, sys
loader = importlib.machinery.SourceFileLoader("peer_run", sys.argv[1])
spec = importlib.util.spec_from_loader("peer_run", loader)
pr = importlib.util.module_from_spec(spec)
loader.exec_module(pr)
out = """ok 1 test_kmem_basic
ok 1 test_kmem_basic
memory.current = 4198400
slab + anon + file + kernel_stack = 3464472
not ok 2 test_kmem_memcg_deletion
ok 1 test_kmem_basic
not ok 2 test_kmem_memcg_deletion
ok 3 # SKIP test_skipped_by_kselftest_h
ok 4 harness_case # SKIP no such thing
not ok 5 test_x
ok 5 test_x
    ok 1 nested
"""
got = pr.tap_cases(out)
want = {"test_kmem_basic": "pass", "test_kmem_memcg_deletion": "fail",
        "test_skipped_by_kselftest_h": "skip", "harness_case": "skip", "test_x": "fail"}
bad = {k: v for k, v in got.items() if want.get(k) != v[0]}
if bad or set(got) != set(want):
    sys.exit(f"tap_cases: got {got}, want {want}")
PY
