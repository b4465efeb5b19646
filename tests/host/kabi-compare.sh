# scripts/check-kabi's verdict on made-up data: an unchanged CRC passes, a
# changed CRC and a removed export fail and are named, an added export is
# listed, a symbol no file exports (a macro) is counted as not compared.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
d=$SCRATCH/kabi-compare
mkdir -p "$d"
printf '0x00000001\tkeep\tvmlinux\tEXPORT_SYMBOL\t\n0x00000002\tretyped\tvmlinux\tEXPORT_SYMBOL\t\n0x00000003\tgone\tfs/x\tEXPORT_SYMBOL_GPL\t\n0x00000004\tmacro\tvmlinux\tEXPORT_SYMBOL\t\n' > "$d/ref"
printf 'keep fs/a.c\nretyped fs/a.c\ngone fs/x.c\n' > "$d/base-exports"
printf 'keep fs/a.c\nretyped fs/a.c\nfresh fs/a.c\n' > "$d/new-exports"
printf '0x00000001 keep\n0x000000ff retyped\n0x00000010 fresh\n' > "$d/crcs"
bad=0
out=$("$top/scripts/check-kabi" --compare "$d/ref" "$d/crcs" "$d/base-exports" "$d/new-exports")
rc=$?
echo "$out"
[ $rc -eq 1 ] || { echo "exit $rc, expected 1"; bad=1; }
for want in '3 compared: 1 unchanged, 1 changed, 1 removed' 'CHANGED retyped 0x00000002 -> 0x000000ff' \
	'REMOVED gone' 'added fresh 0x00000010' 'not compared: 1 exported by a macro'; do
	grep -qF "$want" <<<"$out" || { echo "missing: $want"; bad=1; }
done
# the same data with the CRC restored and the export kept passes
printf 'gone fs/x.c\n' >> "$d/new-exports"
printf '0x00000002 retyped\n0x00000003 gone\n' >> "$d/crcs"
out=$("$top/scripts/check-kabi" --compare "$d/ref" "$d/crcs" "$d/base-exports" "$d/new-exports")
rc=$?
echo "$out"
[ $rc -eq 0 ] || { echo "unchanged ABI: exit $rc, expected 0"; bad=1; }
exit $bad
