#!/bin/bash
# Mutation run of tests/host/bench-compare-cap5.sh: each mutant breaks one
# part of capability 5's decision rule in scripts/bench-compare; the test
# must fail on every mutant and pass on the unchanged script.
#   results/mutations-31/bench-compare-mutate.sh   (from the repository top)
set -u
top=$(pwd)
mutants=(
	"unchanged|s/^//"
	"no 20% gap|s/abs(ma - mb) >= 0.2 \* max(abs(ma), abs(mb))/True/"
	"kills need the 20% gap too|s/apart = counts_kills or /apart = /"
	"two boots are enough|s/len(a) < 3 or len(b) < 3/len(a) < 2 or len(b) < 2/"
	"failed boots ignored|s/\[\"boot failed\"\] \* failed.get(k, {}).get(scen, 0)/[]/"
	"harm counts not judged|s/if v == \"worse\" and r\]/if v == \"worse\" and r == \"gain\"]/"
)
for m in "${mutants[@]}"; do
	name=${m%%|*} expr=${m#*|}
	d=$(mktemp -d)
	mkdir -p "$d/tests/host"
	cp -r "$top/scripts" "$top/bench" "$d/"
	cp "$top/tests/host/bench-compare-cap5.sh" "$d/tests/host/"
	sed -i "$expr" "$d/scripts/bench-compare"
	if [ "$name" != unchanged ] && cmp -s "$top/scripts/bench-compare" "$d/scripts/bench-compare"; then
		echo "== $name: the mutation did not apply"; continue
	fi
	mkdir "$d/scratch"
	out=$(SCRATCH=$d/scratch bash "$d/tests/host/bench-compare-cap5.sh" 2>/dev/null)
	echo "== $name: exit $?"
	[ -n "$out" ] && sed 's/^/   /' <<<"$out" | head -6
	rm -rf "$d"
done
