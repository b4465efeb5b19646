#!/bin/bash
# guest: run a few tests, then shrink-slab-lockless N times; heartbeat to kmsg
out=$1 ktree=$2 n=${3:-20}
export TESTS=/work/repro-tree/tests KTREE=$ktree PATH=$PATH:/sbin:/usr/sbin
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
mountpoint -q /sys/fs/cgroup || mount -t cgroup2 none /sys/fs/cgroup
export SCRATCH=$(mktemp -d /tmp/rt.XXXXXX) EXPECT_VARIANT=test
( while sleep 30; do echo "heartbeat $(date +%s)" > /dev/kmsg; done ) &
for t in soak.sh memcg-reclaim-slab.sh; do
	timeout 900 bash $TESTS/guest/$t > $out/pre-$t.log 2>&1; echo "pre $t rc=$?" | tee -a $out/summary
done
for i in $(seq $n); do
	s=$(date +%s)
	timeout 600 bash $TESTS/guest/memcg-reclaim-slab.sh > $out/m-$i.log 2>&1
	timeout -k 10 600 bash $TESTS/guest/shrink-slab-lockless.sh > $out/s-$i.log 2>&1
	rc=$?
	echo "iter $i rc=$rc $(( $(date +%s) - s )) s" | tee -a $out/summary > /dev/kmsg
done
dmesg > $out/dmesg
echo done > $out/complete
