# A series that names a patch file that does not exist is refused clearly.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
d=$SCRATCH/missing
rm -rf "$d"
cp -r "$top/patches" "$d"
echo "no-such-fix.patch" >> "$d/series"
if err=$("$top/scripts/apply-series" --force "$d" 2>&1); then
	echo "apply-series accepted a series with a missing file"
	exit 1
fi
echo "$err"
grep -q "series names no-such-fix.patch but .* does not exist" <<<"$err"
