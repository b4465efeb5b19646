#!/bin/bash
# An RCU path walk held across the shutdown of the superblock it walks in:
# the series' kselftest tools/testing/selftests/filesystems/rcu_walk_umount/
# (its header says how), run on the kernel tree under test for every
# filesystem the test config mounts: btrfs, FUSE (fuse2fs), 9p (diod over a
# socketpair), NFSv4 over 127.0.0.1 (the guest's own nfsd exporting a
# tmpfs) -- each with a bdi of its own, the last three
# without a block device -- and ext4, the control (its
# disk's bdi; no grace period on 6.1 either).  For all but ext4 the
# superblock's shutdown must not finish under the walk; ext4's must.
# Kept as a scenario so that its name (the mutants' killed-by, settings,
# expected results) stays; RCU_WALK_FS narrows the filesystems (default:
# all), CYCLES and HOLD_MS pass through.
# The walker waits as a preempted one would, which needs preemptible RCU
# (configs/test.config: Debian's PREEMPT_DYNAMIC).
. "$TESTS/guest/lib.sh"
t=$KTREE/tools/testing/selftests/filesystems/rcu_walk_umount/rcu_walk_umount.py
# the series ships it (after its test module)
[ -x "$t" ] || fail "$t is missing or not executable"
# shellcheck disable=SC2086 # RCU_WALK_FS is a list of words
exec python3 "$t" ${RCU_WALK_FS:-}
