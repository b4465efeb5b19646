#!/bin/bash
# A superblock shrinker's debugfs "count" and "scan" files opened before the
# umount of that superblock and used after it: reading and writing must fail
# with an error (debugfs cut the files off when the shrinker was stopped),
# never reach the shrinker that umount freed.  KASAN on the debug config
# would report such a use; the host checks the kernel log.  tmpfs and ext4.
. "$TESTS/guest/lib.sh"
dbg=/sys/kernel/debug/shrinker
[ -d "$dbg" ] || skip "no $dbg (CONFIG_SHRINKER_DEBUG off)"
for fs in tmpfs ext4; do
	dev=$(make_fs "$fs" "$SCRATCH") || { echo "$dev"; exit 1; }
	mnt=$SCRATCH/mnt-$fs
	mkdir -p "$mnt"
	before=$(ls "$dbg")
	mount -t "$fs" "$dev" "$mnt" || fail "mount $fs"
	d=$(comm -13 <(echo "$before") <(ls "$dbg") | grep "^sb-$fs" | head -1)
	[ -n "$d" ] || fail "no new sb-$fs entry in $dbg"
	echo data > "$mnt/f"
	# a request the live shrinker accepts: root memcg, node 0
	req="$(stat -c %i /sys/fs/cgroup) 0 16"
	echo "$req" > "$dbg/$d/scan" || fail "$fs: '$req' refused by the live $d/scan"
	exec 3< "$dbg/$d/count" 4> "$dbg/$d/scan"
	umount "$mnt" || fail "umount $fs"
	# let the superblock's destroy work free the shrinker
	sleep 2
	if out=$(cat <&3 2>&1); then
		fail "$fs: reading $d/count after umount succeeded: $out"
	fi
	echo "# $fs: read after umount: $out"
	if out=$( { echo "$req" >&4; } 2>&1); then
		fail "$fs: writing $d/scan after umount succeeded"
	fi
	echo "# $fs: write after umount: $out"
	exec 3<&- 4>&-
	[ ! -e "$dbg/$d" ] || fail "$dbg/$d still exists after umount"
	drop_fs "$dev"
done
