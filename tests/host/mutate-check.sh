# scripts/mutate --check: the project's mutants all carry their header and
# apply to the queue's tree; a mutant whose context the tree does not have,
# or one without the tests that must kill it, stops it, named.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
fail() { echo "$*"; exit 1; }
# the queue alone: the host tests share one throw-away work/linux, and those
# before this one may leave the experimental group, or a commit named like
# it, on top (the mutants are diffs against the queue)
"$top/scripts/apply-series" --force > /dev/null 2>&1 || fail "apply-series failed in the scratch tree"
out=$("$top/scripts/mutate" --check 2>&1) || fail "the project's mutants: $out"
echo "# $out"
m=$SCRATCH/mutants
mkdir -p "$m"
good=$(ls "$top"/tests/mutants/*.diff | head -1)
cp "$good" "$m/a-good.diff"
sed 's/^-\(.*\)$/-\1 (not in the tree)/' "$good" > "$m/b-stale.diff"
out=$(MUTANTS=$m "$top/scripts/mutate" --check 2>&1) && fail "a mutant that does not apply passed: $out"
grep -q "b-stale.diff does not apply to work/linux's HEAD" <<<"$out" || fail "not named: $out"
rm "$m/b-stale.diff"
grep -v '^# killed-by:' "$good" > "$m/c-untested.diff"
out=$(MUTANTS=$m "$top/scripts/mutate" --check 2>&1) && fail "a mutant without its tests passed: $out"
grep -q "c-untested.diff: no '# killed-by:' line" <<<"$out" || fail "not named: $out"
exit 0
