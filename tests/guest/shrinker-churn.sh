#!/bin/bash
# Shrinker registration and unregistration racing every reclaim path: tmpfs
# and (CHURN_FS, comma-separated, default ext4,xfs,btrfs) ext4, xfs and
# btrfs mount/umount cycles (each mount registers shrinkers --
# the superblock's, ext4's extent-status and mbcache, jbd2, XFS's buftarg and
# quota, btrfs's --, each umount stops the superblock's before ->kill_sb() and
# unregisters the others) while, at the same time,
#   - a loop drops slab caches (global shrink_slab over every shrinker),
#   - a process inside a memcg with a small memory.max reads files and
#     creates dentries (memcg reclaim: shrink_slab_memcg),
#   - a loop reads every shrinker's debugfs "count" and writes "scan".
# Passes when every mount and umount worked, every background loop did real
# work (each loop exits non-zero on an error or when it did nothing, after
# printing its count) and ended by the deadline; the host fails the run on
# any KASAN/lockdep/WARN/hung-task report in the kernel log.
. "$TESTS/guest/lib.sh"
# (tests/guest/settings gives the debug config its own CHURN_SECONDS and
# CHURN_FS, the filesystems churned beside tmpfs)
seconds=${CHURN_SECONDS:-20}
churn_fs=${CHURN_FS-ext4,xfs,btrfs}
dbg=/sys/kernel/debug/shrinker
[ -d "$dbg" ] || skip "no $dbg (CONFIG_SHRINKER_DEBUG off)"
[ -f /sys/fs/cgroup/cgroup.controllers ] || skip "cgroup2 not mounted"
grep -qw memory /sys/fs/cgroup/cgroup.controllers || skip "no memory controller"

ext4=$(make_fs ext4 "$SCRATCH") || { echo "$ext4"; exit 1; }
data=$SCRATCH/data
mkdir -p "$data" "$SCRATCH/t" "$SCRATCH/e"
mount -t ext4 "$ext4" "$data" || fail "mount ext4 data fs"
for i in $(seq 8); do head -c 8M /dev/zero > "$data/f$i"; done
mkdir -p "$data/d"
umount "$data" && mount -t ext4 "$ext4" "$data" || fail "remount ext4 data fs"
# the churned filesystems: name, mount source, mount point
churn=("tmpfs none $SCRATCH/t")
for fs in $(tr , "\n" <<<"$churn_fs" | sort -u); do
	case $fs in ext4|xfs|btrfs) ;; *) fail "CHURN_FS: $fs is not one of ext4, xfs, btrfs" ;; esac
	mkdir -p "$SCRATCH/$fs-img" "$SCRATCH/$fs"
	dev=$(make_fs $fs "$SCRATCH/$fs-img") || { echo "$dev"; exit 1; }
	churn+=("$fs $dev $SCRATCH/$fs")
done
end=$(( $(date +%s) + seconds ))
counts=$SCRATCH/counts
mkdir -p "$counts"

# worker_done NAME N: print and record a background loop's count; its
# status, the loop's exit status, says whether it did anything
worker_done() {
	echo "# $1: $2"
	echo "$2" > "$counts/$1"
	[ "$2" -gt 0 ] || { echo "FAIL: $1: nothing done in $seconds s"; return 1; }
}

drop_loop() {
	local n=0
	while [ "$(date +%s)" -lt "$end" ]; do
		echo 2 > /proc/sys/vm/drop_caches ||
			{ echo "FAIL: drop: drop_caches write failed after $n"; return 1; }
		n=$((n + 1))
	done
	worker_done drop "$n"
}

memcg_loop() {
	local cg=/sys/fs/cgroup/shrinker-churn n=0
	{ echo "+memory" > /sys/fs/cgroup/cgroup.subtree_control && mkdir -p "$cg" &&
		echo 24M > "$cg/memory.max" && echo $BASHPID > "$cg/cgroup.procs"; } ||
		{ echo "FAIL: memcg: cannot set up $cg"; return 1; }
	while [ "$(date +%s)" -lt "$end" ]; do
		cat "$data"/f* > /dev/null ||
			{ echo "FAIL: memcg: reading $data failed after $n rounds"; return 1; }
		# failed lookups: negative dentries charged to the memcg
		for j in $(seq 200); do { : < "$data/d/nonexistent-$n-$j"; } 2>/dev/null; done
		n=$((n + 1))
	done
	awk '$1 == "max" || $1 == "high" { s += $2 } END { print s + 0 }' "$cg/memory.events" > "$counts/memcg-events"
	grep -E '^pgscan ' "$cg/memory.stat" | awk '{ print $2 }' > "$counts/memcg-pgscan"
	echo $BASHPID > /sys/fs/cgroup/cgroup.procs
	worker_done memcg "$n"
}

debugfs_loop() {
	local n=0 d line
	while [ "$(date +%s)" -lt "$end" ]; do
		for d in "$dbg"/*/; do
			# entries vanish while we read them: only success is counted
			while read -r line; do
				set -- $line
				# a shrinker that is not memcg-aware takes memcg 0 only
				{ echo "$1 0 16" > "$d/scan" || echo "0 0 16" > "$d/scan"; } 2>/dev/null &&
					n=$((n + 1))
			done < <(cat "$d/count" 2>/dev/null)
		done
	done
	worker_done debugfs "$n"
}

# name[pid] of each background loop, for the verdict
name=()
drop_loop & name[$!]=drop
memcg_loop & name[$!]=memcg
debugfs_loop & name[$!]=debugfs
loops=("${!name[@]}")

# one mount/umount loop per filesystem, all at once: slow XFS and btrfs
# cycles (seconds each under KASAN) do not hold back tmpfs and ext4, and
# unregistrations of different superblocks race each other too
churn_loop() { # fstype source mountpoint
	local n=0
	while [ "$(date +%s)" -lt "$end" ]; do
		mount -t "$1" "$2" "$3" || { echo "FAIL: $1: mount failed in cycle $n"; return 1; }
		echo x > "$3/x" || { echo "FAIL: $1: write failed in cycle $n"; umount "$3"; return 1; }
		umount "$3" || { echo "FAIL: $1: umount failed in cycle $n"; return 1; }
		n=$((n + 1))
	done
	worker_done "$1.cycles" "$n"
}
churn_pids=()
for c in "${churn[@]}"; do
	churn_loop $c &
	churn_pids+=($!)
	set -- $c
	name[$!]=$1
done
failed=
for p in "${churn_pids[@]}"; do wait $p || failed="$failed ${name[$p]}"; done
# a background loop that is still running well after the deadline is hung
for p in "${loops[@]}"; do
	for _ in $(seq 60); do kill -0 $p 2>/dev/null || break; sleep 1; done
	kill -0 $p 2>/dev/null && fail "background loop ${name[$p]} still running 60 s after the end"
	wait $p || failed="$failed ${name[$p]}"
done
umount "$data"
drop_fs "$ext4"
for c in "${churn[@]}"; do set -- $c; drop_fs "$2"; done
rmdir /sys/fs/cgroup/shrinker-churn 2>/dev/null
[ -z "$failed" ] || fail "loop(s)$failed failed or did nothing (above)"
cycles=
for c in "${churn[@]}"; do
	set -- $c
	cycles="$cycles $1 $(cat "$counts/$1.cycles"),"
done

drops=$(cat "$counts/drop") memcg=$(cat "$counts/memcg") dbgops=$(cat "$counts/debugfs")
events=$(cat "$counts/memcg-events") pgscan=$(cat "$counts/memcg-pgscan")
echo "# $seconds s: mount/umount cycles:$cycles $drops slab drops," \
	"$memcg memcg rounds ($events max/high events, $pgscan pages scanned), $dbgops debugfs scans"
[ "${pgscan:-0}" -gt 0 ] || fail "the memcg never reclaimed: no memcg shrink_slab pressure"
exit 0
