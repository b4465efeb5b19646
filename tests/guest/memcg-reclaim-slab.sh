#!/bin/bash
# memcg reclaim still frees a memcg's own slab objects: negative dentries
# made by a task in a memcg on ext4 are charged to it, and memory.reclaim
# (proactive memcg reclaim) must free most of them through the superblock
# shrinker.  With the experimental group (patches/experimental/), deferred
# shrinker work is taken back only by kswapd and memcg reclaim; kswapd never
# runs for a memcg, so this is the reclaimer that must not be starved of it.
# On the queue alone it checks memcg reclaim of slab as such.
. "$TESTS/guest/lib.sh"
require mkfs.ext4 python3
cg=/sys/fs/cgroup
grep -qw memory $cg/cgroup.controllers || skip "no memory controller"
[ -e $cg/cgroup.subtree_control ] || skip "no cgroup2 at $cg"
echo +memory > $cg/cgroup.subtree_control || fail "cannot enable the memory controller"
dir=$SCRATCH/memcg-reclaim
mkdir -p "$dir/mnt"
dev=$(make_fs ext4 "$dir")
mount "$dev" "$dir/mnt" || fail "mount failed"
m=$cg/memcg-reclaim-slab
mkdir $m || fail "mkdir $m"
[ -e $m/memory.reclaim ] || { rmdir $m; umount "$dir/mnt"; drop_fs "$dev"; skip "no memory.reclaim"; }

slab() { sed -n 's/^slab_reclaimable //p' $m/memory.stat; }

# lookups of names that do not exist, from a task in the memcg
sh -c 'echo $$ > '$m'/cgroup.procs && exec python3 -c "
import os, sys
d = sys.argv[1]
for i in range(int(sys.argv[2])):
    os.path.exists(os.path.join(d, \"n%d\" % i))
" '"$dir/mnt ${LOOKUPS:-200000}" || fail "lookups failed"
before=$(slab)
echo "slab_reclaimable after the lookups: $before bytes"
[ "$before" -gt $((4 << 20)) ] || fail "only $before bytes of slab charged to the memcg: the setup did not work"
# memory.reclaim returns EAGAIN when it fell short of the amount asked
echo 1G > $m/memory.reclaim 2>/dev/null
after=$(slab)
echo "slab_reclaimable after memory.reclaim: $after bytes"
rmdir $m
umount "$dir/mnt"
drop_fs "$dev"
[ "$after" -lt $((before / 2)) ] ||
	fail "memcg reclaim freed too little of the memcg's slab: $before -> $after bytes"
echo "memcg reclaim freed $((before - after)) of $before bytes"
