# scripts/ktap-summary with an expected-skips list: a listed skip counts as
# a skip, any other skip is a failure, an entry without a reason is refused,
# and the closing line and exit status say so.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
d=$SCRATCH/skips
mkdir -p "$d/test" "$d/debug"
printf 'KTAP version 1\n1..3\n# a: 5 s of its 10 s limit\nok 1 a\nok 2 b # SKIP needs lock_stat\nok 3 c\n' > "$d/test/ktap"
printf 'KTAP version 1\n1..2\nok 1 a\nok 2 b # SKIP needs lock_stat\n' > "$d/debug/ktap"
summary() { "$top/scripts/ktap-summary" --expected-skips "$d/expected" "$d/test/ktap" "$d/debug/ktap"; }

printf 'test/ktap\tb\tneeds lock_stat, a debug-only option\ndebug/ktap\tb\tsame\n' > "$d/expected"
out=$(summary) || { echo "expected skips failed the run:"; echo "$out"; exit 1; }
grep -qx '3 passed, 0 failed, 2 skipped' <<<"$out" || { echo "wrong count: $out"; exit 1; }

printf 'test/ktap\tb\tneeds lock_stat, a debug-only option\n' > "$d/expected"
out=$(summary) && { echo "a skip in debug/ktap the list does not name passed:"; echo "$out"; exit 1; }
grep -qx '3 passed, 1 failed, 1 skipped' <<<"$out" || { echo "wrong count: $out"; exit 1; }
grep -q 'FAIL b: skipped, and not an expected skip (needs lock_stat).*debug/ktap' <<<"$out" ||
	{ echo "the unexpected skip is not named: $out"; exit 1; }

printf 'test/ktap\tb\n' > "$d/expected"
out=$(summary 2>&1) && { echo "an entry without a reason was accepted"; exit 1; }
grep -q "want 'KTAP-FILE<TAB>TEST<TAB>reason'" <<<"$out" || { echo "no clear error: $out"; exit 1; }
echo "listed skips pass, an unlisted one fails, an entry without a reason is refused"
