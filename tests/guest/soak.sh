#!/bin/bash
# Soak: SOAK_CYCLES mount/umount cycles, round-robin over tmpfs, ext4, xfs
# and btrfs, while in the background (each loop paced so that the guest's two
# vCPUs still run the cycles)
#   - every shrinker's debugfs "count" is read and "scan" written,
#   - caches are dropped (drop_caches=3),
#   - memcgs (memory+io) are created, written from (dirty pages on the
#     filesystem mounted at the time: cgroup writeback), and removed (their
#     inodes switch writeback to the parent while umounts run),
#   - stat walkers read mountinfo and stat the mounted tree.
# Each cycle writes a file and checks the one the previous cycle of the same
# filesystem wrote (sha256), so data survives every umount; each umount must
# detach (EBUSY while a writer has a file open is retried, up to 10 s).  With kmemleak, nothing allocated through mount,
# the shrinkers or list_lru may leak.  Prints the counts the README's
# reliability table quotes.
. "$TESTS/guest/lib.sh"
cycles=${SOAK_CYCLES:-400}
[ "$cycles" -gt 0 ] || skip "SOAK_CYCLES=0 for this config (scripts/soak runs the long soak)"
fss=${SOAK_FS:-tmpfs ext4 xfs btrfs}
stop=$SCRATCH/stop
cg=/sys/fs/cgroup/soak

declare -A dev prev
for fs in $fss; do
	dev[$fs]=$(make_fs "$fs" "$SCRATCH") || { echo "${dev[$fs]}"; exit 1; }
	mkdir -p "$SCRATCH/m-$fs"
done
echo "+memory +io" > /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null ||
	echo "+memory" > /sys/fs/cgroup/cgroup.subtree_control || fail "no memory controller"
mkdir -p "$cg"
echo "+memory +io" > "$cg/cgroup.subtree_control" 2>/dev/null || echo "+memory" > "$cg/cgroup.subtree_control"

# background stressors: each counts its rounds in SCRATCH/n-NAME
debugfs_scans() {
	local n=0 d
	while [ ! -e "$stop" ]; do
		# a superblock's directory may go away under us: quietly
		for d in /sys/kernel/debug/shrinker/*/; do
			{ cat "$d/count" > /dev/null; echo "0 0 128" > "$d/scan"; } 2>/dev/null
			n=$((n + 1))
		done
		echo $n > "$SCRATCH/n-debugfs"
		sleep 0.2
	done
}
drop_caches() {
	local n=0
	while [ ! -e "$stop" ]; do
		echo 3 > /proc/sys/vm/drop_caches
		n=$((n + 1)); echo $n > "$SCRATCH/n-drop"
		sleep 1
	done
}
memcg_writers() {
	local n=0 m mnt
	while [ ! -e "$stop" ]; do
		n=$((n + 1))
		m=$cg/w$n
		mkdir "$m" || continue
		mnt=
		for d in "$SCRATCH"/m-ext4 "$SCRATCH"/m-xfs "$SCRATCH"/m-btrfs; do
			mountpoint -q "$d" 2>/dev/null && mnt=$d
		done
		# a child in the memcg dirties pages on whatever is mounted now
		sh -c "echo \$\$ > $m/cgroup.procs && head -c 262144 /dev/urandom > ${mnt:-$SCRATCH}/cg-$n 2>/dev/null; true"
		rmdir "$m" 2>/dev/null
		echo $n > "$SCRATCH/n-memcg"
		sleep 0.2
	done
}
stat_walkers() {
	local n=0
	while [ ! -e "$stop" ]; do
		cat /proc/self/mountinfo > /dev/null
		stat "$SCRATCH"/m-*/data > /dev/null 2>&1
		n=$((n + 1)); echo $n > "$SCRATCH/n-stat"
		sleep 0.1
	done
}
debugfs_scans & drop_caches & memcg_writers & stat_walkers &
trap 'touch "$stop"; wait' EXIT

start=$(date +%s) verified=0 i=0
declare -A done_fs
set -- $fss
while [ $i -lt "$cycles" ]; do
	fs=${@:$(( i % $# + 1 )):1}
	mnt=$SCRATCH/m-$fs
	mount -t "$fs" "${dev[$fs]}" "$mnt" || fail "cycle $i: mount $fs failed"
	if [ -n "${prev[$fs]:-}" ] && [ "$fs" != tmpfs ]; then
		got=$(sha256sum < "$mnt/data" | cut -d' ' -f1)
		[ "$got" = "${prev[$fs]}" ] || fail "cycle $i: $fs data of the previous cycle reads back wrong"
		verified=$(( verified + $(stat -c %s "$mnt/data") ))
	fi
	head -c $(( 65536 + i % 4096 )) /dev/urandom > "$mnt/data"
	prev[$fs]=$(sha256sum < "$mnt/data" | cut -d' ' -f1)
	rm -f "$mnt"/cg-*
	# a memcg writer may have a file open in it for a moment: EBUSY is
	# retried and counted, anything else fails
	tries=0
	until out=$(umount "$mnt" 2>&1); do
		case $out in *busy*) ;; *) fail "cycle $i: umount $fs: $out" ;; esac
		tries=$((tries + 1)); busy=$(( ${busy:-0} + 1 ))
		[ $tries -lt 200 ] || fail "cycle $i: $fs still busy after 10 s"
		sleep 0.05
	done
	done_fs[$fs]=$(( ${done_fs[$fs]:-0} + 1 ))
	i=$((i + 1))
	[ $(( i % 100 )) -ne 0 ] || echo "# $i cycles, $(( $(date +%s) - start )) s"
done
touch "$stop"
wait
trap - EXIT
secs=$(( $(date +%s) - start ))
for fs in $fss; do drop_fs "${dev[$fs]}"; done
rmdir "$cg"/w* 2>/dev/null; rmdir "$cg" 2>/dev/null
counts=$(for fs in $fss; do printf '%s %s, ' "$fs" "${done_fs[$fs]:-0}"; done)
echo "# soak: $i cycles (${counts%, }) in $secs s; $verified bytes read back and verified;" \
	"background: $(cat "$SCRATCH/n-debugfs" 2>/dev/null || echo 0) shrinker count+scan," \
	"$(cat "$SCRATCH/n-drop" 2>/dev/null || echo 0) drop_caches," \
	"$(cat "$SCRATCH/n-memcg" 2>/dev/null || echo 0) memcgs written from and removed," \
	"$(cat "$SCRATCH/n-stat" 2>/dev/null || echo 0) stat walks; ${busy:-0} umounts retried (busy)"

kml=/sys/kernel/debug/kmemleak
if [ -e "$kml" ]; then
	sleep 10
	echo scan > "$kml"; echo scan > "$kml"
	cat "$kml" > "$SCRATCH/kmemleak"
	total=$(grep -c '^unreferenced object' "$SCRATCH/kmemleak")
	ours=$(awk '/^unreferenced object/ { if (hit) n++; hit = 0; next }
		/shrinker|list_lru|alloc_super|path_mount|vfs_get_tree|fill_super|inode_switch_wbs|cgwb/ { hit = 1 }
		END { if (hit) n++; print n + 0 }' "$SCRATCH/kmemleak")
	echo "# kmemleak: $total unreferenced objects, $ours allocated through mount, shrinkers, list_lru or cgroup writeback"
	[ "$ours" -eq 0 ] || { sed 's/^/# /' "$SCRATCH/kmemleak" | head -60; fail "$ours leaked object(s)"; }
else
	echo "# kmemleak: not in this kernel (debug config has it)"
fi
exit 0
