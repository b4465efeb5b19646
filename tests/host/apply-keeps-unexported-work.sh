# apply-series refuses to reset a tree holding commits or edits that are not
# exported to patches/, and --force overrides that.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
k=$WORK/linux
"$top/scripts/apply-series" --force || exit 1
echo "# new work" >> "$k/MAINTAINERS"
if "$top/scripts/apply-series" 2>"$SCRATCH/err1"; then
	echo "uncommitted edit was thrown away"; exit 1
fi
grep -q "uncommitted changes" "$SCRATCH/err1" || { cat "$SCRATCH/err1"; exit 1; }
git -C "$k" -c user.name=t -c user.email=t@t commit -q -am "test: unexported commit"
if "$top/scripts/apply-series" 2>"$SCRATCH/err2"; then
	echo "unexported commit was thrown away"; exit 1
fi
grep -q "commits that differ from" "$SCRATCH/err2" || { cat "$SCRATCH/err2"; exit 1; }
"$top/scripts/apply-series" --force || exit 1
! git -C "$k" log --format=%s | grep -q "test: unexported commit"
