# Applying patches/ to the base and exporting again reproduces every patch
# file and the series byte for byte; with --experimental, the experimental
# group's too.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/scripts/lib.sh"

# roundtrip OUT [--experimental]: apply, export into OUT, compare
roundtrip() {
	local out=$1 f
	"$top/scripts/apply-series" --force ${2:-}
	mkdir -p "$out"
	cp "$top/patches/series" "$out/"
	if [ -n "${2:-}" ]; then
		mkdir -p "$out/experimental"
		cp "$top/patches/experimental/series" "$out/experimental/"
	fi
	"$top/scripts/export-series" "$out"
	for f in series $(series_patches "$top/patches"); do
		diff -u "$top/patches/$f" "$out/$f" || { echo "$f changed in the round trip"; exit 1; }
	done
	[ -n "${2:-}" ] || return 0
	for f in series $(series_patches "$top/patches/experimental"); do
		diff -u "$top/patches/experimental/$f" "$out/experimental/$f" ||
			{ echo "experimental/$f changed in the round trip"; exit 1; }
	done
}

roundtrip "$SCRATCH/roundtrip"
n=$(grep -c '\.patch$' "$SCRATCH/roundtrip/series")
[ "$n" -ge 1 ] || { echo "the series holds no patch: nothing round-tripped"; exit 1; }
echo "$n patches round-tripped unchanged"
for f in "$top"/patches/*.patch; do
	case $(basename "$f") in 0000-*) continue ;; esac
	grep -qx "$(basename "$f")" <(series_patches "$top/patches") ||
		{ echo "$(basename "$f") is not listed in patches/series"; exit 1; }
done
if [ -f "$top/patches/experimental/series" ]; then
	roundtrip "$SCRATCH/roundtrip-experimental" --experimental
	echo "$(series_patches "$top/patches/experimental" | wc -l) experimental patches round-tripped unchanged"
	for f in "$top"/patches/experimental/*.patch; do
		grep -qx "$(basename "$f")" <(series_patches "$top/patches/experimental") ||
			{ echo "experimental/$(basename "$f") is not listed in patches/experimental/series"; exit 1; }
	done
fi
