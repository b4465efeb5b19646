# scripts/bench-compare applies capability 5's decision rule
# (docs/design/reclaim-feedback-eval.md) to synthetic boots: a count is
# "better" or "worse" only when every boot of one kernel is beyond every
# boot of the other and the medians are 20% apart (OOM kills: the ranges
# apart is enough); the group returns only with a gain users see, no harm
# and every boot with a result; fewer than 3 boots decide nothing.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)

# boots DIR KERNEL "OOM,ALLOCSTALL,REFAULTS" ...: one S9 record per boot
boots() {
	local dir=$1 kernel=$2 rep=0 v
	shift 2
	for v in "$@"; do
		rep=$((rep + 1))
		mkdir -p "$dir/$kernel/$rep"
		IFS=, read -r oom stall refault <<<"$v"
		printf '{"scenario": "S9", "oom_kill": %s, "allocstall_per_10k_files": %s, "workingset_refault_file_per_10k_files": %s}\n' \
			"$oom" "$stall" "$refault" > "$dir/$kernel/$rep/S9-unlink-hog.jsonl"
	done
}

# run NAME: bench-compare's headline for $SCRATCH/NAME
run() {
	printf 'kernel stock 6.1.192\nkernel patched 6.1.192+\nkernel experimental 6.1.192+\n' > "$SCRATCH/$1/meta.txt"
	python3 "$top/scripts/bench-compare" "$SCRATCH/$1" > /dev/null || { echo "$1: bench-compare failed"; exit 1; }
	cat "$SCRATCH/$1/headline.md"
}

expect() {
	grep -qF -- "$2" <<<"$3" || { printf '%s: wanted "%s" in:\n%s\n' "$1" "$2" "$3"; exit 1; }
}

# overlapping boots: nothing separated, the group stays
boots "$SCRATCH/overlap" stock 1,280,40 1,300,50 1,260,45
boots "$SCRATCH/overlap" patched 1,280,50 0,290,56 1,270,60
boots "$SCRATCH/overlap" experimental 0,285,72 1,275,55 1,295,58
out=$(run overlap)
expect overlap "queue against stock: no judged count worse" "$out"
expect overlap "stays experimental: no user-visible count is better" "$out"

# an OOM kill in every queue boot and none with the group: a gain (the
# ranges apart is enough for kills); the other counts overlap
boots "$SCRATCH/gain" stock 1,280,40 1,300,50 1,260,45
boots "$SCRATCH/gain" patched 1,280,50 1,290,56 1,270,60
boots "$SCRATCH/gain" experimental 0,285,55 0,275,52 0,295,58
out=$(run gain)
expect gain "conditions 1 and 2 hold (better: S9 OOM kills)" "$out"

# fewer kills in every boot, medians 17% apart: still a gain for kills
boots "$SCRATCH/kills" stock 6,280,40 6,300,50 7,260,45
boots "$SCRATCH/kills" patched 6,280,50 6,290,56 7,270,60
boots "$SCRATCH/kills" experimental 5,285,55 5,275,52 5,295,58
out=$(run kills)
expect kills "conditions 1 and 2 hold (better: S9 OOM kills)" "$out"

# the same gain with refaults beyond every queue boot and 20% up: harm
boots "$SCRATCH/harm" stock 1,280,40 1,300,50 1,260,45
boots "$SCRATCH/harm" patched 1,280,50 1,290,56 1,270,60
boots "$SCRATCH/harm" experimental 0,285,80 0,275,90 0,295,85
out=$(run harm)
expect harm "stays experimental: better: S9 OOM kills; worse: S9 file refaults per 10k files removed" "$out"

# ranges apart but medians 10% apart: not separated, so no harm
boots "$SCRATCH/close" stock 1,280,40 1,300,50 1,260,45
boots "$SCRATCH/close" patched 1,280,50 1,290,56 1,270,60
boots "$SCRATCH/close" experimental 0,285,61 0,275,62 0,295,64
out=$(run close)
expect close "conditions 1 and 2 hold" "$out"

# the queue's stalls 30% above stock in every boot: said against the queue
boots "$SCRATCH/queue-worse" stock 1,280,40 1,300,50 1,260,45
boots "$SCRATCH/queue-worse" patched 1,380,50 1,390,56 1,370,60
boots "$SCRATCH/queue-worse" experimental 1,385,55 1,375,52 1,395,58
out=$(run queue-worse)
expect queue-worse "queue against stock: worse: S9 allocstall per 10k files removed" "$out"

# a group boot that failed is not a boot without kills
boots "$SCRATCH/failed" stock 1,280,40 1,300,50 1,260,45
boots "$SCRATCH/failed" patched 1,280,50 1,290,56 1,270,60
boots "$SCRATCH/failed" experimental 0,285,55 0,275,52 0,295,58 0,280,50
touch "$SCRATCH/failed/experimental/4/FAILED"
out=$(run failed)
expect failed "stays experimental: better: S9 OOM kills; boots without a result in S9" "$out"

# two boots of the group decide nothing
boots "$SCRATCH/few" stock 1,280,40 1,300,50 1,260,45
boots "$SCRATCH/few" patched 1,280,50 1,290,56 1,270,60
boots "$SCRATCH/few" experimental 0,285,55 0,275,52
out=$(run few)
expect few "no decision: fewer than 3 boots of a kernel" "$out"
exit 0
