# A series whose patch does not apply stops with an error naming that patch
# file and git's reason, and a non-zero exit status.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
broken=$SCRATCH/broken
rm -rf "$broken"
cp -r "$top/patches" "$broken"
victim=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$broken/series" | head -1)
[ -n "$victim" ] || { echo "empty series"; exit 1; }
# change the first context line of the first hunk
awk '/^@@/ && !h { h = 1; print; next }
     h == 1 && /^ / { print " THIS LINE IS NOT IN THE BASE"; h = 2; next }
     { print }' "$top/patches/$victim" > "$broken/$victim"
! cmp -s "$top/patches/$victim" "$broken/$victim" || { echo "could not corrupt $victim"; exit 1; }
if err=$("$top/scripts/apply-series" --force "$broken" 2>&1); then
	echo "apply-series succeeded on a broken series"
	exit 1
fi
echo "$err"
grep -q "error: patch $victim does not apply" <<<"$err" || { echo "error does not name $victim"; exit 1; }
grep -v "^error: patch $victim does not apply" <<<"$err" | grep -q "patch failed:" ||
	{ echo "git's reason missing"; exit 1; }
# the tree must not be left in the middle of git am
[ ! -d "$WORK/linux/.git/rebase-apply" ] || { echo "git am left half-done"; exit 1; }
