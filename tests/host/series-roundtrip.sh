# Applying patches/ to the base and exporting again reproduces every patch
# file and the series byte for byte.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$SCRATCH/roundtrip
"$top/scripts/apply-series" --force
mkdir -p "$out"
cp "$top/patches/series" "$out/"
"$top/scripts/export-series" "$out"
diff -r -x BASE -x '0000-*' "$top/patches" "$out"
n=$(grep -c '\.patch$' "$out/series")
[ "$n" -ge 1 ] || { echo "the series holds no patch: nothing round-tripped"; exit 1; }
echo "$n patches round-tripped unchanged"
