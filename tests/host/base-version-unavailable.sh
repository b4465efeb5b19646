# fetch-base stops with a clear message for a version apt cannot provide,
# instead of falling back to another version.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
sed 's/^version .*/version 6.1.999-9/' "$top/patches/BASE" > "$SCRATCH/BASE.nover"
err=$(SERIES_BASE=$SCRATCH/BASE.nover "$top/scripts/fetch-base" 2>&1)
rc=$?
echo "$err"
[ $rc -ne 0 ] || { echo "fetch-base accepted an unavailable version"; exit 1; }
grep -q "linux-source-6.1 version 6.1.999-9 is not available" <<<"$err"
