# Applying patches/ to the base and exporting again reproduces every patch
# file and the series byte for byte.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$SCRATCH/roundtrip
"$top/scripts/apply-series" --force
mkdir -p "$out"
cp "$top/patches/series" "$out/"
"$top/scripts/export-series" "$out"
. "$top/scripts/lib.sh"
for f in series $(series_patches "$top/patches"); do
	diff -u "$top/patches/$f" "$out/$f" || { echo "$f changed in the round trip"; exit 1; }
done
n=$(grep -c '\.patch$' "$out/series")
[ "$n" -ge 1 ] || { echo "the series holds no patch: nothing round-tripped"; exit 1; }
echo "$n patches round-tripped unchanged"
for f in "$top"/patches/*.patch; do
	case $(basename "$f") in 0000-*) continue ;; esac
	grep -qx "$(basename "$f")" <(series_patches "$top/patches") ||
		{ echo "$(basename "$f") is not listed in patches/series"; exit 1; }
done
