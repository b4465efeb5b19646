# An option export-series does not know is refused, and writes nothing:
# it used to take any argument as the output directory ("--help/").
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$SCRATCH" || exit 1
rm -rf ./--dry-run
if err=$("$top/scripts/export-series" --dry-run 2>&1); then
	echo "export-series accepted --dry-run"
	exit 1
fi
echo "$err"
grep -q "unknown arguments: --dry-run" <<<"$err" || exit 1
[ ! -e ./--dry-run ] || { echo "export-series created ./--dry-run"; exit 1; }
"$top/scripts/export-series" --help | grep -q "scripts/export-series \[--quiet\]"
