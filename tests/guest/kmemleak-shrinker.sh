#!/bin/bash
# Nothing the shrinker core allocates leaks: after the KUnit suite, the
# earlier scenarios and a few more superblock and module shrinker lifetimes
# here (registered, stopped with unregister_shrinker_initiate(), finalized
# from the superblock's destroy work or at module unload), kmemleak finds no
# unreferenced object whose allocation backtrace passes through shrinker
# registration.  Leaks elsewhere in the kernel are listed, not failed on:
# they are 6.1's, not the series'.  Runs last; needs CONFIG_DEBUG_KMEMLEAK
# (debug config).
. "$TESTS/guest/lib.sh"
kml=/sys/kernel/debug/kmemleak
[ -e "$kml" ] || skip "no $kml (CONFIG_DEBUG_KMEMLEAK off)"
ours='__prealloc_shrinker|prealloc_shrinker|register_shrinker|prealloc_memcg_shrinker|alloc_shrinker_info|expand_one_shrinker_info|expand_shrinker_info|shrinker_debugfs_add|test_shrinker_unload'

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
echo "# kmemleak: $total unreferenced objects, $mine allocated through shrinker registration"
if [ "$mine" -gt 0 ]; then
	sed 's/^/# /' "$report" | head -80
	fail "$mine leaked object(s) allocated by the shrinker core"
fi
[ "$total" -eq 0 ] || grep -A12 '^unreferenced object' "$report" | head -30 | sed 's/^/# (not ours) /'
exit 0
