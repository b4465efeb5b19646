#!/bin/bash
# Unregistration cannot be held off by reclaim: an ext4 superblock whose
# dentries and inodes are charged to MEMCGS memcgs is unmounted while, on
# every CPU, a loop drives memcg reclaim (memory.reclaim) through all of
# them, so that memcg walks keep finding its shrinkers in shrinker_idr.
# umount(2) (which stops the superblock's, ext4's extent-status, jbd2 and
# mbcache shrinkers) must return within BOUND seconds.  Before each
# shrinker's entry refused new references once unregistration had begun,
# walks overlapping on two CPUs could keep its count above zero for ever.
# Also fails if the objects were not spread over the memcgs or reclaim did
# not shrink them (then the test proved nothing).
. "$TESTS/guest/lib.sh"
memcgs=${MEMCGS:-32} files=${FILES:-100} bound=${BOUND:-20} warmup=${WARMUP:-3}
dbg=/sys/kernel/debug/shrinker
cg=/sys/fs/cgroup/unreg-reclaim
[ -d "$dbg" ] || skip "no $dbg (CONFIG_SHRINKER_DEBUG off)"
grep -qw memory /sys/fs/cgroup/cgroup.controllers 2>/dev/null || skip "no cgroup2 memory controller"

dev=$(make_fs ext4 "$SCRATCH") || { echo "$dev"; exit 1; }
mnt=$SCRATCH/mnt
mkdir -p "$mnt"
before=$(ls "$dbg")
mount -t ext4 "$dev" "$mnt" || fail "mount ext4"
sbdir=$(comm -13 <(echo "$before") <(ls "$dbg") | grep '^sb-ext4' | head -1)
[ -n "$sbdir" ] || fail "no new sb-ext4 entry in $dbg after mount"

echo +memory > /sys/fs/cgroup/cgroup.subtree_control
mkdir -p "$cg"
echo +memory > "$cg/cgroup.subtree_control"
for i in $(seq "$memcgs"); do
	mkdir -p "$cg/$i"
	# dentries and inodes created here are charged to memcg $i
	sh -c "echo \$\$ > $cg/$i/cgroup.procs; mkdir $mnt/d$i && cd $mnt/d$i &&
		for f in \$(seq $files); do : > f\$f; done" || fail "populating memcg $i"
done
sync
# count file: "memcg-inode objects" per memcg with objects on this sb
charged=$(awk '$2 > 0' "$dbg/$sbdir/count" | wc -l)
objs0=$(awk '{ s += $2 } END { print s + 0 }' "$dbg/$sbdir/count")
echo "# $charged memcgs hold $objs0 objects of $sbdir"
[ "$charged" -ge $((memcgs / 2)) ] || fail "only $charged of $memcgs memcgs hold objects of $sbdir"

stop=$SCRATCH/stop
rm -f "$stop"
reclaim_loop() { # cpu
	local n=0 i
	while [ ! -e "$stop" ]; do
		for i in $(seq "$memcgs"); do
			echo 1M > "$cg/$i/memory.reclaim" 2>/dev/null
			n=$((n + 1))
		done
	done
	echo "$n" > "$SCRATCH/reclaims.$1"
}
pids=()
for cpu in $(seq 0 $(( $(nproc) - 1 ))); do
	taskset -c "$cpu" bash -c "$(declare -f reclaim_loop); stop=$stop memcgs=$memcgs cg=$cg SCRATCH=$SCRATCH reclaim_loop $cpu" &
	pids+=($!)
done
sleep "$warmup"
objs1=$(awk '{ s += $2 } END { print s + 0 }' "$dbg/$sbdir/count")
echo "# after ${warmup} s of reclaim on $(nproc) CPUs: $objs1 objects"

t0=$(date +%s%N)
umount "$mnt" & up=$!
# a umount stuck in the kernel cannot be killed: poll it, never wait blindly
for _ in $(seq $((bound * 10))); do
	kill -0 "$up" 2>/dev/null || break
	sleep 0.1
done
took=$(( ($(date +%s%N) - t0) / 1000000 ))
if kill -0 "$up" 2>/dev/null; then
	echo "# stacks of D-state tasks:"
	for p in /proc/[0-9]*; do
		[ "$(awk '{ print $3 }' "$p/stat" 2>/dev/null)" = D ] && sed 's/^/#   /' "$p/stack"
	done
	touch "$stop"
	fail "umount did not return within $bound s while memcg reclaim ran on every CPU"
fi
wait "$up"
rc=$?
touch "$stop"
wait "${pids[@]}"
for i in $(seq "$memcgs"); do rmdir "$cg/$i" 2>/dev/null; done
rmdir "$cg" 2>/dev/null
echo "# umount under reclaim took $took ms (bound ${bound} s); reclaim writes per CPU: $(cat "$SCRATCH"/reclaims.* | paste -sd ' ')"
[ $rc -eq 0 ] || fail "umount failed (exit $rc)"
[ "$objs1" -lt "$objs0" ] || fail "memcg reclaim did not shrink $sbdir ($objs0 -> $objs1 objects)"
drop_fs "$dev"
