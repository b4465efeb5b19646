# scripts/ktap-summary with an expected-results list: the run passes when
# every listed result is there with its number of cases, and fails, naming
# it, when a suite loses a case, a scenario disappears or an unlisted result
# appears; KTAP files the list does not name are not judged by it.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
d=$SCRATCH/expected-results
mkdir -p "$d/test"
suite='    KTAP version 1\n    1..3\n    ok 1 case_a\n    ok 2 case_b\n    ok 3 case_c\nok 1 kunit:shrinker\n'
printf "KTAP version 1\n1..2\n$suite"'ok 2 soak\n' > "$d/test/ktap"
printf 'KTAP version 1\n1..1\nok 1 series-roundtrip\n' > "$d/host.ktap"
printf 'test/ktap\tkunit:shrinker\t3\ntest/ktap\tsoak\t1\n' > "$d/expected"
summary() { "$top/scripts/ktap-summary" --expected-results "$d/expected" "$d/test/ktap" "$d/host.ktap"; }
fail() { echo "$*"; exit 1; }

out=$(summary) || fail "the expected results failed the run: $out"
grep -qx '5 passed, 0 failed, 0 skipped' <<<"$out" || fail "wrong count: $out"
grep -qx 'expected results: 4 leaves in the listed files' <<<"$out" || fail "no expected count: $out"

printf 'KTAP version 1\n1..2\n    ok 1 case_a\n    ok 2 case_b\nok 1 kunit:shrinker\nok 2 soak\n' > "$d/test/ktap"
out=$(summary) && fail "a suite that lost a case passed: $out"
grep -q 'FAIL kunit:shrinker: 2 results, expected 3' <<<"$out" || fail "the lost case is not named: $out"

printf "KTAP version 1\n1..1\n$suite" > "$d/test/ktap"
out=$(summary) && fail "a missing scenario passed: $out"
grep -q 'FAIL soak: expected, missing' <<<"$out" || fail "the missing scenario is not named: $out"

printf "KTAP version 1\n1..3\n$suite"'ok 2 soak\nok 3 new-scenario\n' > "$d/test/ktap"
out=$(summary) && fail "an unlisted result passed: $out"
grep -q 'FAIL new-scenario: not in the expected results' <<<"$out" || fail "the unlisted result is not named: $out"

# the list is what --list-results prints for a passing run
printf "KTAP version 1\n1..2\n$suite"'ok 2 soak\n' > "$d/test/ktap"
"$top/scripts/ktap-summary" --list-results "$d" "$d/test/ktap" > "$d/listed"
cmp -s "$d/listed" "$d/expected" || fail "--list-results differs: $(cat "$d/listed")"
echo "a lost case, a missing and an unlisted result fail; --list-results writes the list"
