#!/bin/bash
# The guest booted the kernel the host built, with the config it asked for.
. "$TESTS/guest/lib.sh"
echo "# running $(uname -r)"
[ "$(uname -r)" = "$EXPECT_RELEASE" ] || fail "running $(uname -r), expected $EXPECT_RELEASE"
cfg=$(zcat /proc/config.gz) || fail "no /proc/config.gz"
for opt in CONFIG_SHRINKER_DEBUG=y CONFIG_MEMCG=y CONFIG_CGROUP_WRITEBACK=y CONFIG_XFS_FS=m CONFIG_BTRFS_FS=m; do
	grep -qx "$opt" <<<"$cfg" || fail "$opt missing from the running config"
done
if [ "$EXPECT_VARIANT" = debug ]; then
	for opt in CONFIG_KASAN=y CONFIG_PROVE_LOCKING=y CONFIG_DEBUG_LIST=y; do
		grep -qx "$opt" <<<"$cfg" || fail "$opt missing from the debug kernel"
	done
fi
[ -d /sys/kernel/debug/shrinker ] || fail "no /sys/kernel/debug/shrinker"
exit 0
