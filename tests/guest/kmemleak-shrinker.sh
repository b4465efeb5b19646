#!/bin/bash
# Nothing the shrinker core, mount, list_lru, cgroup writeback or a bdi
# allocates leaks: after the KUnit suite, the earlier scenarios (soak and
# umount-race included: on the debug config they leave their own scan to
# this one) and a few more superblock and module shrinker lifetimes
# here (registered, stopped with unregister_shrinker_initiate(), finalized
# from the superblock's destroy work or at module unload), kmemleak finds no
# unreferenced object whose allocation backtrace passes through one of
# them.  Leaks elsewhere in the kernel are listed, not failed on:
# they are 6.1's, not the series'.  Runs last; needs CONFIG_DEBUG_KMEMLEAK
# (debug config).
. "$TESTS/guest/lib.sh"
kml=/sys/kernel/debug/kmemleak
[ -e "$kml" ] || skip "no $kml (CONFIG_DEBUG_KMEMLEAK off)"
# shrinker registration, and the sites guestlib.py's kmemleak_check() looks
# for (soak and umount-race leave their scan to this one on the debug config)
ours='shrinker|list_lru|alloc_super|path_mount|vfs_get_tree|fill_super|inode_switch_wbs|cgwb|alloc_vfsmnt|bdi_'

mkdir -p "$SCRATCH/t"
ext4=$(make_fs ext4 "$SCRATCH") || { echo "$ext4"; exit 1; }
mkdir -p "$SCRATCH/e"
for i in $(seq 10); do
	mount -t tmpfs none "$SCRATCH/t" && umount "$SCRATCH/t" || fail "tmpfs cycle $i"
	mount -t ext4 "$ext4" "$SCRATCH/e" && umount "$SCRATCH/e" || fail "ext4 cycle $i"
done
drop_fs "$ext4"
if modprobe -q test_shrinker_unload 2>/dev/null; then
	rmmod test_shrinker_unload || fail "rmmod test_shrinker_unload"
fi
# let RCU/SRCU callbacks and the superblocks' destroy work run; kmemleak
# reports an object only once it is older than 5 s
sleep 10
echo scan > "$kml" && echo scan > "$kml" || fail "kmemleak scan failed"
report=$SCRATCH/kmemleak
cat "$kml" > "$report"
total=$(grep -c '^unreferenced object' "$report")
mine=$(awk -v re="$ours" '
	/^unreferenced object/ { if (obj != "" && hit) n++; obj = $0; hit = 0; next }
	$0 ~ re { hit = 1 }
	END { if (obj != "" && hit) n++; print n + 0 }' "$report")
echo "# kmemleak: $total unreferenced objects, $mine allocated through the shrinkers, mount, list_lru, cgroup writeback or a bdi"
if [ "$mine" -gt 0 ]; then
	sed 's/^/# /' "$report" | head -80
	fail "$mine leaked object(s) allocated by the shrinkers, mount, list_lru, cgroup writeback or a bdi"
fi
[ "$total" -eq 0 ] || grep -A12 '^unreferenced object' "$report" | head -30 | sed 's/^/# (not ours) /'
exit 0
