# scripts/peer-compare fails a test that fails on the series and passes on
# stock, lists one failing on both as known or unexplained, and in --ktap
# mode (the series alone) fails a failure tests/peers/known-failures does
# not name; a test known as flaky may fail on the series alone.  A test that
# passes on stock and is skipped or missing on the series, and a suite in
# which no test ran, fail; --ktap prints each test under its suite, so that
# scripts/ktap-summary fails an unexpected skip.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
r=$SCRATCH/peers
mkdir -p "$r/stock/ltp" "$r/patched/ltp"
printf 'a\tpass\t1\t\nb\tfail\t1\texit 1\nc\tskip\t0\tTCONF\n' > "$r/stock/ltp/ltp.tsv"
printf 'a\tpass\t1\t\nb\tfail\t1\texit 1\nc\tskip\t0\tTCONF\n' > "$r/patched/ltp/ltp.tsv"
printf 'ltp b\tfails on stock too\texit 1\n' > "$SCRATCH/known"
out=$(python3 "$top/scripts/peer-compare" "$r" "$SCRATCH/known") ||
	{ echo "same results on both kernels failed: $out"; exit 1; }
grep -q '| ltp | 3 / 1 / 1 / 1 | 3 / 1 / 1 / 1 |' <<<"$out" || { echo "wrong counts: $out"; exit 1; }
grep -q 'ltp b: known: fails on stock too' <<<"$out" || { echo "known failure not listed: $out"; exit 1; }

# a regression: a passes on stock, fails on the series
printf 'a\tfail\t1\texit 1\nb\tfail\t1\texit 1\nc\tskip\t0\tTCONF\n' > "$r/patched/ltp/ltp.tsv"
if out=$(python3 "$top/scripts/peer-compare" "$r" "$SCRATCH/known"); then
	echo "a regression passed: $out"; exit 1
fi
grep -q 'ltp a: stock pass, patched fail' <<<"$out" || { echo "regression not named: $out"; exit 1; }

# a test known to be flaky may fail on the series alone
printf 'ltp b\tfails on stock too\texit 1\nltp a\tflaky: fails on either kernel\texit 1\n' > "$SCRATCH/known-flaky"
out=$(python3 "$top/scripts/peer-compare" "$r" "$SCRATCH/known-flaky") ||
	{ echo "a flaky test's failure on the series failed: $out"; exit 1; }
grep -q 'ltp a: stock pass, patched fail.*known flaky' <<<"$out" || { echo "flaky difference not listed: $out"; exit 1; }

# passing on stock, skipped or missing on the series: a regression
printf 'a\tpass\t1\t\nb\tfail\t1\texit 1\nc\tpass\t0\t\n' > "$r/stock/ltp/ltp.tsv"
printf 'a\tpass\t1\t\nb\tfail\t1\texit 1\nc\tskip\t0\tTCONF\n' > "$r/patched/ltp/ltp.tsv"
out=$(python3 "$top/scripts/peer-compare" "$r" "$SCRATCH/known") && { echo "a skip on the series passed: $out"; exit 1; }
grep -q 'ltp a\|ltp c' <<<"${out##*fail on the series only: }" || { echo "the skip is not named: $out"; exit 1; }
printf 'a\tpass\t1\t\nb\tfail\t1\texit 1\n' > "$r/patched/ltp/ltp.tsv"
out=$(python3 "$top/scripts/peer-compare" "$r" "$SCRATCH/known") && { echo "a test missing on the series passed: $out"; exit 1; }
# a suite in which nothing ran
printf 'a\tskip\t1\tTCONF\n' > "$r/stock/ltp/ltp.tsv"
printf 'a\tskip\t1\tTCONF\n(guest)\tfail\t0\tthe guest did not finish\n' > "$r/patched/ltp/ltp.tsv"
out=$(python3 "$top/scripts/peer-compare" "$r" "$SCRATCH/known") && { echo "a suite where nothing ran passed: $out"; exit 1; }
grep -q '(no test ran on stock)' <<<"$out" || { echo "the empty suite is not named: $out"; exit 1; }

# the CI slice: the series alone; b is known, a is not
rm -r "$r/stock"
out=$(python3 "$top/scripts/peer-compare" --ktap "$r" "$SCRATCH/known") && { echo "unknown failure passed: $out"; exit 1; }
grep -q '^not ok 1 peers-ltp-patched' <<<"$out" || { echo "no failing KTAP line: $out"; exit 1; }
printf 'a\tpass\t1\t\nb\tfail\t1\texit 1\n' > "$r/patched/ltp/ltp.tsv"
out=$(python3 "$top/scripts/peer-compare" --ktap "$r" "$SCRATCH/known") || { echo "known failure failed: $out"; exit 1; }
grep -q '^ok 1 peers-ltp-patched' <<<"$out" || { echo "no passing KTAP line: $out"; exit 1; }

# each test a result under the suite: the known failure an XFAIL, a skip
# a SKIP that scripts/ktap-summary judges by tests/expected-skips
printf 'a\tpass\t1\t\nb\tfail\t1\texit 1\nc\tskip\t0\tTCONF\n' > "$r/patched/ltp/ltp.tsv"
out=$(python3 "$top/scripts/peer-compare" --ktap "$r" "$SCRATCH/known") || { echo "a known failure and a skip failed: $out"; exit 1; }
grep -qx '    ok 2 b # XFAIL known: fails on stock too' <<<"$out" || { echo "no XFAIL for b: $out"; exit 1; }
grep -qx '    ok 3 c # SKIP TCONF' <<<"$out" || { echo "no SKIP for c: $out"; exit 1; }
printf '%s\n' "$out" > "$r/peers.ktap"
printf 'peers.ktap\tc\tTCONF here\n' > "$SCRATCH/peer-skips"
"$top/scripts/ktap-summary" --expected-skips "$SCRATCH/peer-skips" "$r/peers.ktap" > /dev/null ||
	{ echo "an expected skip of a peer test failed the summary"; exit 1; }
: > "$SCRATCH/peer-skips"
"$top/scripts/ktap-summary" --expected-skips "$SCRATCH/peer-skips" "$r/peers.ktap" > /dev/null &&
	{ echo "an unexpected skip of a peer test passed the summary"; exit 1; }
printf 'a\tskip\t1\tTCONF\n' > "$r/patched/ltp/ltp.tsv"
out=$(python3 "$top/scripts/peer-compare" --ktap "$r" "$SCRATCH/known")
grep -q '^not ok 1 peers-ltp-patched' <<<"$out" || { echo "a suite where nothing ran passed: $out"; exit 1; }
printf 'a\tpass\t1\t\nb\tfail\t1\texit 1\n' > "$r/patched/ltp/ltp.tsv"

# a known failure that must give a particular reason is known only with it
printf 'ltp b\tfails on stock too\texit 1\n' > "$SCRATCH/known-says"
python3 "$top/scripts/peer-compare" --ktap "$r" "$SCRATCH/known-says" > /dev/null ||
	{ echo "known failure with its reason failed"; exit 1; }
printf 'ltp b\tfails on stock too\tWARNING at x.c\n' > "$SCRATCH/known-says"
out=$(python3 "$top/scripts/peer-compare" --ktap "$r" "$SCRATCH/known-says") &&
	{ echo "known failure with another reason passed: $out"; exit 1; }
exit 0
