# scripts/build-peers stops with a message naming the fix when a suite's
# source is missing: no snapshot and no checkout, a checkout that does not
# exist, or two snapshots to choose from.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
empty=$SCRATCH/no-snapshots
mkdir -p "$empty"
out=$(PEERS_SNAPSHOTS=$empty "$top/scripts/build-peers" fstests 2>&1) && { echo "no snapshot passed"; exit 1; }
grep -q "no fstests snapshot in $empty and FSTESTS_SRC not set" <<<"$out" || { echo "unclear: $out"; exit 1; }
out=$(FSTESTS_SRC=$SCRATCH/nonexistent "$top/scripts/build-peers" fstests 2>&1) && { echo "missing checkout passed"; exit 1; }
grep -q "FSTESTS_SRC=$SCRATCH/nonexistent is not a directory" <<<"$out" || { echo "unclear: $out"; exit 1; }
touch "$empty/ltp-aaaa.tar.gz" "$empty/ltp-bbbb.tar.gz"
out=$(PEERS_SNAPSHOTS=$empty "$top/scripts/build-peers" ltp 2>&1) && { echo "two snapshots passed"; exit 1; }
grep -q "several ltp snapshots" <<<"$out" || { echo "unclear: $out"; exit 1; }
out=$("$top/scripts/build-peers" nosuch 2>&1) && { echo "unknown suite passed"; exit 1; }
grep -q "unknown suite 'nosuch'" <<<"$out" || { echo "unclear: $out"; exit 1; }
exit 0
