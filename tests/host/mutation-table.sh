# scripts/mutation-table: a later run's verdict replaces an earlier one's;
# a survivor its header expects is "as expected" with the header's reason, one
# it does not expect is marked, and a mutant no run reached is "not run".
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
fail() { echo "$*"; exit 1; }
m=$SCRATCH/table-mutants r=$SCRATCH/table-runs
mkdir -p "$m" "$r/a" "$r/b"
mutant() {	# NAME EXPECT
	printf '# guarantee: G9.1 a guarantee\n# what: break %s\n# killed-by: ^boot$\n# expect: %s\ndiff --git a/x b/x\n' \
		"$1" "$2" > "$m/$1.diff"
}
mutant g9.1-a "killed -- by boot"
mutant g9.1-b "survives -- only a detector sees it"
mutant g9.1-c "killed -- by boot"
mutant g9.1-d "killed -- by boot"
printf 'mutant\tguarantee\tverdict\tseconds\tdetail\n' | tee "$r/a/summary.tsv" > "$r/b/summary.tsv"
printf 'control\t-\tpassed\t9\t\ng9.1-a\tG9.1\tsurvived\t9\t\ng9.1-b\tG9.1\tsurvived\t9\t\n' >> "$r/a/summary.tsv"
printf 'g9.1-a\tG9.1\tkilled\t9\tnot ok: boot\ng9.1-c\tG9.1\tsurvived\t9\t\n' >> "$r/b/summary.tsv"
out=$(MUTANTS=$m "$top/scripts/mutation-table" "$r/a" "$r/b") || fail "mutation-table failed: $out"
grep -q '^| G9.1 a guarantee | 4 | 1 |$' <<<"$out" || fail "guarantee row: $out"
grep -q '`g9.1-a`.*| killed: not ok: boot |$' <<<"$out" || fail "the later run's kill: $out"
grep -q '`g9.1-b`.*survived, as expected: only a detector sees it' <<<"$out" || fail "expected survivor: $out"
grep -q '`g9.1-c`.*| \*\*survived\*\* |$' <<<"$out" || fail "unexpected survivor not marked: $out"
grep -q '`g9.1-d`.*| \*\*not run\*\* |$' <<<"$out" || fail "not run: $out"
grep -q '^1 killed, 1 not run, 2 survived of 4 mutants$' <<<"$out" || fail "totals: $out"
MUTANTS=$m "$top/scripts/mutation-table" "$r/none" > /dev/null 2>&1 && fail "a missing run directory passed"
printf 'before\n<!-- mutation-table begin -->\nstale\n<!-- mutation-table end -->\nafter\n' > "$r/doc.md"
MUTANTS=$m "$top/scripts/mutation-table" --into "$r/doc.md" "$r/a" "$r/b" || fail "--into failed"
[ "$(head -2 "$r/doc.md")" = "$(printf 'before\n<!-- mutation-table begin -->')" ] &&
	[ "$(tail -2 "$r/doc.md")" = "$(printf '<!-- mutation-table end -->\nafter')" ] &&
	! grep -q stale "$r/doc.md" && grep -q '^1 killed, 1 not run' "$r/doc.md" || fail "--into: $(cat "$r/doc.md")"
echo plain > "$r/plain.md"
MUTANTS=$m "$top/scripts/mutation-table" --into "$r/plain.md" "$r/a" 2>/dev/null && fail "--into a file without the markers passed"
exit 0
