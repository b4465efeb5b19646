#!/bin/bash
# bcache's btree cache shrinker goes with its cache set (patch 5, "bcache:
# Unregister the btree cache shrinker unconditionally"): register a cache set
# on a loop device, see its shrinker in the shrinker debugfs, unregister the
# cache set and unload bcache, then reclaim.  A shrinker left registered is
# called in freed memory and module text (an oops fails the test through the
# runner's log check); one whose debugfs entry stays is named here.
. "$TESTS/guest/lib.sh"
require make-bcache losetup
modprobe -q bcache || skip "no bcache module (CONFIG_BCACHE)"
# a cache needs at least 1024 buckets
truncate -s 128M "$SCRATCH/cache.img" "$SCRATCH/backing.img"
c= b= cset=
# a failed test leaves no cache set or loop device to later tests
cleanup() {
	local dev
	for dev in /sys/block/bcache*/bcache/stop; do [ -e "$dev" ] && echo 1 > "$dev"; done
	[ -n "$cset" ] && [ -e "$cset" ] && echo 1 > "$cset/unregister"
	sleep 1
	[ -n "$c" ] && losetup -d "$c" 2>/dev/null
	[ -n "$b" ] && losetup -d "$b" 2>/dev/null
	true
}
trap cleanup EXIT
c=$(losetup -f --show "$SCRATCH/cache.img") || fail "losetup failed"
b=$(losetup -f --show "$SCRATCH/backing.img") || fail "losetup failed"
make-bcache --wipe-bcache --bucket 64k -C "$c" -B "$b" > /dev/null || fail "make-bcache failed"
# udev may have registered them already (bcache-tools' rules): EBUSY then
echo "$c" > /sys/fs/bcache/register 2>/dev/null
echo "$b" > /sys/fs/bcache/register 2>/dev/null
for _ in $(seq 50); do
	cset=$(ls -d /sys/fs/bcache/*-*-*-*-*/ 2>/dev/null | head -1)
	[ -n "$cset" ] && break
	sleep 0.2
done
[ -n "$cset" ] || fail "no cache set appeared in /sys/fs/bcache"
shrinkers() { ls /sys/kernel/debug/shrinker 2>/dev/null | grep bcache; }
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
[ -n "$(shrinkers)" ] || fail "the cache set registered no shrinker the debugfs shows"
echo "# cache set $(basename "$cset"), shrinker $(shrinkers)"
# some reclaim while it is there: its shrinker is called
echo 2 > /proc/sys/vm/drop_caches
for dev in /sys/block/bcache*/bcache/stop; do [ -e "$dev" ] && echo 1 > "$dev"; done
echo 1 > "$cset/unregister"
for _ in $(seq 100); do
	[ -e "$cset" ] || break
	sleep 0.2
done
[ -e "$cset" ] && fail "the cache set did not go within 20 s"
[ -z "$(shrinkers)" ] || fail "the cache set is gone and its shrinker is still registered: $(shrinkers)"
losetup -d "$c" "$b"
c= b= cset=
rmmod bcache || fail "rmmod bcache failed"
# every shrinker is called: one bcache left behind is in freed memory now
echo 2 > /proc/sys/vm/drop_caches
echo "# cache set unregistered, shrinker gone, bcache unloaded, reclaim ran"
exit 0
