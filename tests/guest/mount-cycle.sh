#!/bin/bash
# mount/umount cycles of one filesystem type: data written in one cycle is
# read back intact in the next, and each umount really detaches it.
. "$TESTS/guest/lib.sh"
fs=$1 cycles=${CYCLES:-20}
dev=$(make_fs "$fs" "$SCRATCH") || { echo "$dev"; exit 1; }
case $dev in SKIP:*) echo "$dev"; exit 4 ;; FAIL:*) echo "$dev"; exit 1 ;; esac
mnt=$SCRATCH/mnt-$fs
mkdir -p "$mnt"
prev=
for i in $(seq "$cycles"); do
	mount -t "$fs" "$dev" "$mnt" || fail "mount $fs failed in cycle $i"
	if [ -n "$prev" ] && [ "$fs" != tmpfs ]; then
		got=$(sha256sum < "$mnt/data" | cut -d' ' -f1)
		[ "$got" = "$prev" ] || fail "cycle $i: data written in cycle $((i - 1)) reads back wrong"
	fi
	head -c $((64 * 1024 + i)) /dev/urandom > "$mnt/data"
	prev=$(sha256sum < "$mnt/data" | cut -d' ' -f1)
	umount "$mnt" || fail "umount $fs failed in cycle $i"
	! grep -q " $mnt " /proc/self/mountinfo || fail "$mnt still mounted after umount"
done
drop_fs "$dev"
echo "# $cycles cycles of $fs"
