# tests/peers/known-failures as scripts/peer-compare reads it: an entry
# without the text the failure must contain is rejected; a timeout or a test
# that did not run never matches an entry; a failure whose reason and kept
# output (SUITE-failed/NAME.*, written by guest/peer-run) lack the entry's
# text is not known; with the text in its output, it is.  The project's own
# list must be well-formed.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cmp=$top/scripts/peer-compare
r=$SCRATCH/peers-known
d=$r/patched/ci
rm -rf "$r"
mkdir -p "$d/kselftests-failed" "$d/fstests-ext4-failed"

# the project's list is well-formed (and names no timeout)
out=$(python3 "$cmp" "$d" "$top/tests/peers/known-failures" 2>&1)
[ $? -le 1 ] || { echo "tests/peers/known-failures rejected: $out"; exit 1; }

# an entry without the required text: rejected with a clear error, in both modes
printf 'cgroup:test_kmem\tfail\t20\texit 1\n' > "$d/kselftests.tsv"
printf 'kselftests cgroup:test_kmem\tneeds negative dentries under /\n' > "$SCRATCH/known-2col"
out=$(python3 "$cmp" --ktap "$r" "$SCRATCH/known-2col" 2>&1)
rc=$?
[ $rc = 2 ] || { echo "an entry without its text: exit $rc, not 2: $out"; exit 1; }
grep -q "known-2col:1: .*not 3" <<<"$out" || { echo "no clear error for the entry without its text: $out"; exit 1; }
grep -q '^not ok 1 peers-known-failures' <<<"$out" || { echo "--ktap: no failing KTAP line: $out"; exit 1; }
python3 "$cmp" "$r" "$SCRATCH/known-2col" > /dev/null 2>&1 && { echo "table mode accepted an entry without its text"; exit 1; }
printf 'kselftests cgroup:test_kmem\tneeds negative dentries\t\n' > "$SCRATCH/known-empty"
out=$(python3 "$cmp" --ktap "$r" "$SCRATCH/known-empty" 2>&1)
[ $? = 2 ] && grep -q "no text the recorded failure must contain" <<<"$out" ||
	{ echo "an entry with an empty text was not rejected: $out"; exit 1; }
printf 'kselftests cgroup:test_kmem\t\tnot ok 1\n' > "$SCRATCH/known-noreason"
out=$(python3 "$cmp" --ktap "$r" "$SCRATCH/known-noreason" 2>&1)
[ $? = 2 ] && grep -q "no reason" <<<"$out" || { echo "an entry without a reason was not rejected: $out"; exit 1; }

# the failure's output has the text: known; without it: not known
printf 'kselftests cgroup:test_kmem\tneeds negative dentries under /\tnot ok 1 test_kmem_basic\n' > "$SCRATCH/known"
printf 'TAP version 13\n1..6\nnot ok 1 test_kmem_basic\nok 2 test_kmem_memcg_deletion\n' \
	> "$d/kselftests-failed/cgroup:test_kmem.log"
out=$(python3 "$cmp" --ktap "$r" "$SCRATCH/known") || { echo "failure with its text in its output not known: $out"; exit 1; }
grep -q 'ok 1 cgroup:test_kmem # XFAIL known: needs negative' <<<"$out" || { echo "not listed as known: $out"; exit 1; }
printf 'TAP version 13\n1..6\nok 1 test_kmem_basic\nnot ok 2 test_kmem_memcg_deletion\n' \
	> "$d/kselftests-failed/cgroup:test_kmem.log"
out=$(python3 "$cmp" --ktap "$r" "$SCRATCH/known") && { echo "failure without the text passed as known: $out"; exit 1; }
grep -q 'not ok 1 cgroup:test_kmem # NOT KNOWN (exit 1)' <<<"$out" || { echo "not listed as not known: $out"; exit 1; }
# no output kept at all, and the reason lacks the text: not known
rm "$d/kselftests-failed/cgroup:test_kmem.log"
python3 "$cmp" --ktap "$r" "$SCRATCH/known" > /dev/null && { echo "failure without any output passed as known"; exit 1; }
# matched exactly: another case or spacing is not the text
printf 'not OK 1 test_kmem_basic\nnot ok 1  test_kmem_basic\n' > "$d/kselftests-failed/cgroup:test_kmem.log"
python3 "$cmp" --ktap "$r" "$SCRATCH/known" > /dev/null && { echo "an inexact text matched"; exit 1; }

# a timeout never matches, not even when its output (or its reason) has the text
printf 'not ok 1 test_kmem_basic\n' > "$d/kselftests-failed/cgroup:test_kmem.log"
for why in 'timed out after 600 s (limit 600 s)' 'not run: suite budget spent' \
	'timed out after 600 s: not ok 1 test_kmem_basic'; do
	printf 'cgroup:test_kmem\tfail\t600\t%s\n' "$why" > "$d/kselftests.tsv"
	out=$(python3 "$cmp" --ktap "$r" "$SCRATCH/known") && { echo "'$why' matched a known entry: $out"; exit 1; }
	grep -q 'not ok 1 cgroup:test_kmem # NOT KNOWN' <<<"$out" || { echo "'$why' not listed as not known: $out"; exit 1; }
done
# ... nor an entry written for the timeout itself
printf 'fstests-ext4 generic/738\tran out of time\tnot run: timed out\n' > "$SCRATCH/known-timeout"
rm "$d/kselftests.tsv"
printf 'generic/738\tfail\t600\tnot run: timed out\n' > "$d/fstests-ext4.tsv"
out=$(python3 "$cmp" --ktap "$r" "$SCRATCH/known-timeout") && { echo "a timeout matched its own entry: $out"; exit 1; }
printf 'generic/738\tfail\t600\ttimed out: ./check killed after 600 s (its own limit, 600 s)\n' > "$d/fstests-ext4.tsv"
printf 'fstests-ext4 generic/738\tran out of time\ttimed out\n' > "$SCRATCH/known-timeout"
python3 "$cmp" --ktap "$r" "$SCRATCH/known-timeout" > /dev/null && { echo "a timeout matched 'timed out'"; exit 1; }

# an fstest's kept .out.bad is searched too; a flaky entry needs its text as well
printf 'generic/604\tfail\t89\t- output mismatch (see /tmp/x/results/generic/604.out.bad)\n' > "$d/fstests-ext4.tsv"
printf 'fstests-ext4 generic/604\tflaky: umount in the background\talready mounted\n' > "$SCRATCH/known-604"
printf 'QA output created by 604\nmount: /dev/loop1 already mounted on /x/scratch.\n' > "$d/fstests-ext4-failed/generic-604.out.bad"
python3 "$cmp" --ktap "$r" "$SCRATCH/known-604" > /dev/null || { echo "604 with its text in .out.bad not known"; exit 1; }
printf 'QA output created by 604\nsomething else\n' > "$d/fstests-ext4-failed/generic-604.out.bad"
python3 "$cmp" --ktap "$r" "$SCRATCH/known-604" > /dev/null && { echo "604 without its text known"; exit 1; }
# both kernels: a flaky test failing on the series only, without its text, is a regression
mkdir -p "$r/stock/ci"
printf 'generic/604\tpass\t80\t\n' > "$r/stock/ci/fstests-ext4.tsv"
out=$(python3 "$cmp" "$r" "$SCRATCH/known-604") && { echo "flaky without its text passed side by side: $out"; exit 1; }
printf 'mount: /dev/loop1 already mounted on /x/scratch.\n' > "$d/fstests-ext4-failed/generic-604.out.bad"
out=$(python3 "$cmp" "$r" "$SCRATCH/known-604") || { echo "flaky with its text failed side by side: $out"; exit 1; }
exit 0
