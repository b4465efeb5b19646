mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
mountpoint -q /sys/fs/cgroup || mount -t cgroup2 none /sys/fs/cgroup
export TESTS=/work/main/tests
rc=0
if [ 10000 -gt 0 ]; then
	SCRATCH=$(mktemp -d) SOAK_CYCLES=10000 bash $TESTS/guest/soak.sh > /work/main/work/results/soak-20261125-032756/soak.log 2>&1 || rc=1
fi
if [ 0 -gt 0 ]; then
	SCRATCH=$(mktemp -d) ROUNDS=0 bash $TESTS/guest/umount-race.sh > /work/main/work/results/soak-20261125-032756/race.log 2>&1 || rc=1
fi
echo $rc > /work/main/work/results/soak-20261125-032756/exit
dmesg > /work/main/work/results/soak-20261125-032756/dmesg
