# fetch-base refuses a base source whose checksum differs from patches/BASE,
# naming the package and version, and never builds a tree from it.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
sed 's/^sha256 .*/sha256 0000000000000000000000000000000000000000000000000000000000000000/' \
	"$top/patches/BASE" > "$SCRATCH/BASE.bad"
mv "$WORK/linux" "$WORK/linux.keep"
err=$(SERIES_BASE=$SCRATCH/BASE.bad "$top/scripts/fetch-base" 2>&1)
rc=$?
mv "$WORK/linux.keep" "$WORK/linux"
echo "$err"
[ $rc -ne 0 ] || { echo "fetch-base accepted a wrong checksum"; exit 1; }
grep -q "checksum mismatch for linux-source-6.1 6.1.192-2" <<<"$err" || exit 1
[ ! -e "$WORK/linux.tmp" ] || { echo "left a half-made tree"; exit 1; }
