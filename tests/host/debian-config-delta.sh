# scripts/build-kernel debian keeps Debian's config whole: the queue's config
# differs from Debian's only in what configs/debian.config sets and in the
# series' own (off) options, and an option of Debian's that the build would
# lose fails it, named.  Kconfig only, about 10 s.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/scripts/lib.sh"
"$top/scripts/apply-series" --force >/dev/null
OUT=$SCRATCH/debian-config "$top/scripts/build-kernel" --config-only debian
delta=$SCRATCH/debian-config/patched-debian/config-vs-debian
cat "$delta"
grep -q '^CONFIG_MODULE_SIG_KEY=' "$delta" || { echo "the signing key path should differ"; exit 1; }

# an option Debian has and this tree cannot keep must stop the build
fake=$SCRATCH/debian-config-lost
cp "$(debian_headers)/.config" "$fake"
echo 'CONFIG_NOT_IN_THIS_TREE=y' >> "$fake"
if DEBIAN_CONFIG=$fake OUT=$SCRATCH/debian-config "$top/scripts/build-kernel" --config-only debian \
	> "$SCRATCH/debian-config.err" 2>&1; then
	echo "a lost Debian option passed"; exit 1
fi
cat "$SCRATCH/debian-config.err"
grep -q 'CONFIG_NOT_IN_THIS_TREE=y=(none)' "$SCRATCH/debian-config.err" ||
	{ echo "the error does not name the lost option"; exit 1; }
