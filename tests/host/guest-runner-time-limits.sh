# guest/run-tests, run on the host with a plan of three scenario tests: one
# that outlives its limit (with a background child), one that passes after
# it, and one that the guest's budget no longer leaves room for.  The first
# must be a TIMEOUT with its child killed, the second must still pass (with
# the setting tests/guest/settings gives it for this variant), the third
# must be "not run", and the run must reach its end ("complete").  A test
# during which the kernel log gets a report fails, with the report named,
# even though it exited 0; a bracketed, provoked WARNING does not fail it.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
d=$SCRATCH/runner
rm -rf "$d"
mkdir -p "$d/tests/guest" "$d/results"
: > "$d/tests/kselftests"
cat > "$d/tests/guest/hang.sh" <<'SH'
sleep 300 & echo $! > "$RESULTS_DIR/child"
sleep 300
SH
echo 'sleep "${1:-0}"; echo "fine, greeting ${GREETING:-unset}"' > "$d/tests/guest/pass.sh"
# settings reach the test they name, for the variant under test only
printf 'host\tpass\tGREETING=hello\ndebug\tpass\tGREETING=wrong\n' > "$d/tests/guest/settings"
cat > "$d/tests/guest/warns.sh" <<'SH'
echo "[    2.000000] WARNING: CPU: 0 PID: 1 at mm/vmscan.c:1 shrink_slab+0x1/0x2" >> "$FAKE_KMSG"
SH
cat > "$d/tests/guest/provokes.sh" <<'SH'
{ echo "[    3.000000] expect WARNING from unregister_shrinker_finalize"
  echo "[    3.000000] WARNING: CPU: 0 PID: 1 at mm/vmscan.c:9 unregister_shrinker_finalize+0x1/0x2"
  echo "[    3.000000] end of expected WARNING"; } >> "$FAKE_KMSG"
SH
printf 'warns 10 warns.sh\nprovokes 10 provokes.sh\nhang 3 hang.sh\npass 30 pass.sh 9\nlate 30 pass.sh\n' > "$d/tests/guest/list"
# a budget of 45 s minus the 15 s reserve: hang (3 s) starts with 30 s left,
# pass (9 s) with 27, late would start with 18, under MIN_SLOT=20
start=$(date +%s)
RUN_TESTS_ON_HOST=1 FAKE_KMSG=$d/kmsg EXPECT_VARIANT=host TESTS=$d/tests RESULTS_DIR=$d/results GUEST_BUDGET=45 MIN_SLOT=20 \
	timeout 120 "$top/guest/run-tests" "$d/results" "$d" > "$d/out" 2>&1
rc=$?
cat "$d/out"
took=$(( $(date +%s) - start ))
bad=0
check() { grep -q "$1" "$d/results/ktap" || { echo "missing: $1"; bad=1; }; }
check '^not ok 1 warns # kernel report: WARNING: CPU: 0 PID: 1 at mm/vmscan.c:1 shrink_slab'
check '^ok 2 provokes$'
check '^not ok 3 hang # TIMEOUT after 3 s'
check '^ok 4 pass$'
check '^    fine, greeting hello$'
check "^not ok 5 late # not run: the guest's time budget (45 s) is used up"
[ -f "$d/results/complete" ] || { echo "the run did not reach its end"; bad=1; }
child=$(cat "$d/results/child" 2>/dev/null)
# a killed child nobody reaped is a zombie (state Z): dead
if [ -n "$child" ] && [ -e "/proc/$child" ] &&
   [ "$(awk '{ print $3 }' "/proc/$child/stat")" != Z ]; then
	echo "the timed-out test's background child $child survived"
	kill "$child"
	bad=1
fi
[ $took -lt 60 ] || { echo "took $took s: the limits did not cut the run short"; bad=1; }
echo "runner exit $rc after $took s"
exit $bad
