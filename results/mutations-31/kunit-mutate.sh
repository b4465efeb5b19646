#!/bin/bash
# Mutation run of the capability-5 KUnit cases (mm/shrinker_test.c, in
# patches/experimental/): each mutant puts back one behaviour the patch
# replaces, in a tree at base + queue + the patch; the shrinker suite must
# fail on each, in the case named.
#   results/mutations-31/kunit-mutate.sh KTREE OUT RESULTS_DIR
# KTREE: a git tree with the patch at HEAD (restored after each mutant);
# OUT: its build directory with the test config; run from the repo top.
set -u
ktree=$1 out=$2 res=$3
top=$(pwd)
mkdir -p "$res"
mutants=(
	"direct-takes-nothing|the first form: direct reclaim takes no deferred work|s/nr = short_of_batch > 0 ?/nr = 0 \&\& short_of_batch > 0 ?/"
	"kswapd-takes-nothing|kswapd scans no deferred work|s/return max(nr >> priority, min(linear, delta));/return 0;/"
	"kswapd-unbounded-linear|kswapd's linear share without the bound (seed 004 as written)|s/return max(nr >> priority, min(linear, delta));/return linear;/"
	"gate-removed|direct reclaim takes what completes a batch whether or not stock would have called|s/if (take <= 0 || (old >> shift) < take)/if (take <= 0)/"
	"kswapd-floor-dropped|kswapd's share without its floor of count >> priority|s/return max(nr >> priority, min(linear, delta));/return min(linear, delta);/"
	"cap-dropped|adds to a deferred count not capped|s/new = min(old + nr, cap);/new = old + nr;/"
	"direct-takes-all|stock: direct reclaim takes the count and scans count >> priority|s/^\t\ttotal_scan = nr;$/\t\tnr += take_nr_deferred(shrinker, shrinkctl, LONG_MAX, 0); total_scan = nr >> priority;/"
)
for m in "${mutants[@]}"; do
	IFS='|' read -r name what expr <<<"$m"
	git -C "$ktree" checkout -q -- mm/vmscan.c
	sed -i "$expr" "$ktree/mm/vmscan.c"
	if git -C "$ktree" diff --quiet -- mm/vmscan.c; then
		echo "== $name: the mutation did not apply" | tee -a "$res/summary.txt"; continue
	fi
	git -C "$ktree" diff -- mm/vmscan.c > "$res/$name.diff"
	if ! make -s -C "$ktree" O="$out" ARCH=x86_64 CC="ccache gcc" -j2 bzImage > "$res/$name.build" 2>&1; then
		echo "== $name: build failed" | tee -a "$res/summary.txt"; continue
	fi
	"$top/scripts/run-vm" --timeout 900 --rwdir "$res" --console "$res/$name.console" "$out" -- \
		sh -c "cat /sys/kernel/debug/kunit/shrinker/results > $res/$name.ktap"
	{
		echo "== $name ($what): $(grep -c '^    not ok' "$res/$name.ktap") cases failed"
		grep -E '^    not ok|^    # (seeks|nofs|direct|kswapd)' "$res/$name.ktap"
	} | tee -a "$res/summary.txt"
done
git -C "$ktree" checkout -q -- mm/vmscan.c
