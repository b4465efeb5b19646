#!/bin/bash
# In the guest: the instrumented test_memcontrol N times, set up as
# guest/peer-run runs the kselftests (512M zram swap, cgroup2 with
# nsdelegate, cwd on a fresh ext4), each run's output kept.
out=$1 n=$2
mkdir -p "$out"
z=$(cat /sys/class/zram-control/hot_add)
echo 512M > /sys/block/zram$z/disksize && mkswap /dev/zram$z > /dev/null && swapon /dev/zram$z
mountpoint -q /sys/fs/cgroup || mount -t cgroup2 -o nsdelegate none /sys/fs/cgroup
mount -o remount,nsdelegate /sys/fs/cgroup 2> /dev/null
mkdir -p /tmp/ml && truncate -s 700M /tmp/ml.img && mkfs.ext4 -q -F /tmp/ml.img &&
	mount -o loop /tmp/ml.img /tmp/ml || exit 1
cp /work/notes/s6/memcg-low/src/test_memcontrol_dbg /tmp/ml/
cd /tmp/ml || exit 1
uname -r > "$out/uname"
for i in $(seq "$n"); do
	./test_memcontrol_dbg > "$out/run$i.txt" 2>&1
	echo "$i $(grep -E '^(not )?ok 4 ' "$out/run$i.txt") | $(grep 'memcg_low: check' "$out/run$i.txt")" >> "$out/summary.txt"
done
swapoff /dev/zram$z
echo done > "$out/complete"
