#!/bin/bash
# Shrinker registration and unregistration racing every reclaim path: tmpfs,
# ext4, xfs and btrfs mount/umount cycles (each mount registers shrinkers --
# the superblock's, ext4's extent-status and mbcache, jbd2, XFS's buftarg and
# quota, btrfs's --, each umount stops the superblock's before ->kill_sb() and
# unregisters the others) while, at the same time,
#   - a loop drops slab caches (global shrink_slab over every shrinker),
#   - a process inside a memcg with a small memory.max reads files and
#     creates dentries (memcg reclaim: shrink_slab_memcg),
#   - a loop reads every shrinker's debugfs "count" and writes "scan".
# Passes when every mount and umount worked, every background loop did real
# work and is still alive at the end; the host fails the run on any
# KASAN/lockdep/WARN/hung-task report in the kernel log.
. "$TESTS/guest/lib.sh"
# (tests/guest/settings gives the debug config its own CHURN_SECONDS)
seconds=${CHURN_SECONDS:-20}
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
for fs in ext4 xfs btrfs; do
	mkdir -p "$SCRATCH/$fs-img" "$SCRATCH/$fs"
	dev=$(make_fs $fs "$SCRATCH/$fs-img") || { echo "$dev"; exit 1; }
	churn+=("$fs $dev $SCRATCH/$fs")
done
end=$(( $(date +%s) + seconds ))
counts=$SCRATCH/counts
mkdir -p "$counts"

drop_loop() {
	local n=0
	while [ "$(date +%s)" -lt "$end" ]; do
		echo 2 > /proc/sys/vm/drop_caches
		n=$((n + 1))
	done
	echo "$n" > "$counts/drop"
}

memcg_loop() {
	local cg=/sys/fs/cgroup/shrinker-churn n=0
	echo "+memory" > /sys/fs/cgroup/cgroup.subtree_control
	mkdir -p "$cg"
	echo 24M > "$cg/memory.max"
	echo $BASHPID > "$cg/cgroup.procs"
	while [ "$(date +%s)" -lt "$end" ]; do
		cat "$data"/f* > /dev/null
		# failed lookups: negative dentries charged to the memcg
		for j in $(seq 200); do { : < "$data/d/nonexistent-$n-$j"; } 2>/dev/null; done
		n=$((n + 1))
	done
	echo "$n" > "$counts/memcg"
	awk '$1 == "max" || $1 == "high" { s += $2 } END { print s + 0 }' "$cg/memory.events" > "$counts/memcg-events"
	grep -E '^pgscan ' "$cg/memory.stat" | awk '{ print $2 }' > "$counts/memcg-pgscan"
	echo $BASHPID > /sys/fs/cgroup/cgroup.procs
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
	echo "$n" > "$counts/debugfs"
}

drop_loop & p1=$!
memcg_loop & p2=$!
debugfs_loop & p3=$!

# one mount/umount loop per filesystem, all at once: slow XFS and btrfs
# cycles (seconds each under KASAN) do not hold back tmpfs and ext4, and
# unregistrations of different superblocks race each other too
churn_loop() { # fstype source mountpoint
	local n=0
	while [ "$(date +%s)" -lt "$end" ]; do
		mount -t "$1" "$2" "$3" || { echo "mount $1 failed in cycle $n" > "$counts/$1.err"; break; }
		echo x > "$3/x"
		umount "$3" || { echo "umount $1 failed in cycle $n" > "$counts/$1.err"; break; }
		n=$((n + 1))
	done
	echo "$n" > "$counts/$1.cycles"
}
churn_pids=()
for c in "${churn[@]}"; do
	churn_loop $c &
	churn_pids+=($!)
done
wait "${churn_pids[@]}"
cycles= cycles_total=0
for c in "${churn[@]}"; do
	set -- $c
	[ ! -f "$counts/$1.err" ] || fail "$(cat "$counts/$1.err")"
	n=$(cat "$counts/$1.cycles")
	[ "$n" -gt 0 ] || fail "no $1 mount/umount cycle completed"
	cycles="$cycles $1 $n," cycles_total=$((cycles_total + n))
done
# a background loop that is still running well after the deadline is hung
for p in $p1 $p2 $p3; do
	for _ in $(seq 60); do kill -0 $p 2>/dev/null || break; sleep 1; done
	kill -0 $p 2>/dev/null && fail "background loop $p still running 60 s after the end"
	wait $p || fail "background loop $p failed"
done
umount "$data"
drop_fs "$ext4"
for c in "${churn[@]}"; do set -- $c; drop_fs "$2"; done
rmdir /sys/fs/cgroup/shrinker-churn 2>/dev/null

drops=$(cat "$counts/drop") memcg=$(cat "$counts/memcg") dbgops=$(cat "$counts/debugfs")
events=$(cat "$counts/memcg-events") pgscan=$(cat "$counts/memcg-pgscan")
echo "# $seconds s: mount/umount cycles:$cycles $drops slab drops," \
	"$memcg memcg rounds ($events max/high events, $pgscan pages scanned), $dbgops debugfs scans"
[ "$drops" -gt 0 ] || fail "no slab drop completed"
[ "$dbgops" -gt 0 ] || fail "no debugfs scan succeeded"
[ "${pgscan:-0}" -gt 0 ] || fail "the memcg never reclaimed: no memcg shrink_slab pressure"
exit 0
