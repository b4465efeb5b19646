# scripts/check-kabi's type probe sees a member that genksyms sees: the
# series' own queue passes (its additions are hidden from genksyms), and the
# same queue with the guard around shrinker_info's map_nr_max removed fails,
# naming struct shrinker_info and the structs that reach it, also when the
# tree is reached through a symlink.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/scripts/lib.sh"
"$top/scripts/apply-series" --force >/dev/null || exit 1
bad=0
out=$("$top/scripts/check-kabi" --quick 2>&1)
rc=$?
echo "$out"
[ $rc -eq 0 ] || { echo "the series: exit $rc, expected 0"; bad=1; }
grep -q 'probed: [0-9]* unchanged, 0 changed' <<<"$out" || { echo "the series: no clean type probe"; bad=1; }
git -C "$KSRC" checkout -q -b kabi-mutant
sed -i '/^\tunsigned long \*map;$/{n;s/^#ifndef __GENKSYMS__$/#if 1/}' "$KSRC/include/linux/memcontrol.h"
git -C "$KSRC" commit -q -a -m "kabi mutant: map_nr_max visible to genksyms"
git -C "$KSRC" diff --stat HEAD^ | grep -q memcontrol.h || { echo "mutation did not apply"; exit 1; }
# through a symlink, as a work/ that links elsewhere is (it once hid the change)
ln -sfn "$KSRC" "$SCRATCH/linux-via-symlink"
out=$("$top/scripts/check-kabi" --quick --tree "$SCRATCH/linux-via-symlink" 2>&1)
rc=$?
echo "$out" | head -20
[ $rc -eq 1 ] || { echo "visible member: exit $rc, expected 1"; bad=1; }
for want in 'TYPE CHANGED struct shrinker_info' 'TYPE CHANGED struct mem_cgroup '; do
	grep -qF "$want" <<<"$out" || { echo "missing: $want"; bad=1; }
done
exit $bad
