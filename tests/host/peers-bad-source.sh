# scripts/build-peers finds each suite's source in seconds or stops with a
# message naming all three ways to provide one (a checkout, a snapshot of the
# pinned commit, a reachable upstream to clone); a snapshot of another
# commit is never used; an upstream it reaches is cloned at the pinned commit
# and built from (here a local repository stands for it).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
empty=$SCRATCH/no-snapshots
mkdir -p "$empty"
fail() { echo "$*"; exit 1; }

start=$(date +%s)
out=$(PEERS_SNAPSHOTS=$empty FSTESTS_GIT=file://$SCRATCH/no-such-repo "$top/scripts/build-peers" --resolve fstests 2>&1) &&
	fail "no source at all passed: $out"
for way in "FSTESTS_SRC=DIR" "PEERS_SNAPSHOTS=DIR holding fstests-63a29724.tar.gz" \
	"reaches file://$SCRATCH/no-such-repo" "looked in $empty"; do
	grep -qF "$way" <<<"$out" || fail "the error does not name '$way': $out"
done
[ $(( $(date +%s) - start )) -le 30 ] || fail "resolving took over 30 s"

out=$(FSTESTS_SRC=$SCRATCH/nonexistent "$top/scripts/build-peers" --resolve fstests 2>&1) && fail "missing checkout passed"
grep -q "FSTESTS_SRC=$SCRATCH/nonexistent is not a directory" <<<"$out" || fail "unclear: $out"

# snapshots that are not the pinned commit: named, not used
touch "$empty/ltp-aaaa.tar.gz"
git -C "$top" archive --prefix=ltp/ HEAD README.md | gzip > "$empty/ltp-bbbb.tar.gz"
out=$(PEERS_SNAPSHOTS=$empty LTP_GIT=file://$SCRATCH/no-such-repo "$top/scripts/build-peers" --resolve ltp 2>&1) &&
	fail "snapshots of other commits passed: $out"
grep -qF "found ltp-aaaa.tar.gz (no commit id) ltp-bbbb.tar.gz ($(git -C "$top" rev-parse HEAD))" <<<"$out" ||
	fail "the wrong snapshots are not named: $out"

# the pinned commit's snapshot among others is the one used
real=$(ls "$top"/../shared/peers/ltp-*.tar.gz 2>/dev/null | head -1)
if [ -n "$real" ]; then
	ln -s "$real" "$empty/$(basename "$real")"
	out=$(PEERS_SNAPSHOTS=$empty "$top/scripts/build-peers" --resolve ltp 2>&1) || fail "pinned snapshot refused: $out"
	grep -qx "ltp: tar $empty/$(basename "$real")" <<<"$out" || fail "not the pinned snapshot: $out"
else
	echo "# no ../shared/peers beside this clone: the pinned-snapshot case is not run"
fi

# no snapshot, an upstream that answers: cloned at the pinned commit, built
up=$SCRATCH/upstream-fstests
git init -q "$up"
printf 'all:\n\tmkdir -p ltp && printf "#!/bin/sh\\n" > ltp/fsstress && chmod +x ltp/fsstress\n' > "$up/Makefile"
git -C "$up" add Makefile && git -C "$up" -c user.name=t -c user.email=t@t commit -qm pinned
pinned=$(git -C "$up" rev-parse HEAD)
echo later >> "$up/Makefile" && git -C "$up" -c user.name=t -c user.email=t@t commit -qam later
printf 'fstests\t%s\tfile://%s\n' "$pinned" "$up" > "$SCRATCH/sources"
out=$(PEER_SOURCES=$SCRATCH/sources PEERS_SNAPSHOTS=$empty "$top/scripts/build-peers" --resolve fstests 2>&1) ||
	fail "a reachable upstream was refused: $out"
grep -qx "fstests: git file://$up" <<<"$out" || fail "not resolved to the upstream: $out"
out=$(PEER_SOURCES=$SCRATCH/sources PEERS_SNAPSHOTS=$empty "$top/scripts/build-peers" fstests 2>&1) ||
	fail "building from the clone failed: $out"
[ "$(git -C "$WORK/peers-src/fstests-$pinned" rev-parse HEAD)" = "$pinned" ] || fail "the clone is not at the pinned commit"
[ -x "$WORK/peers/fstests/ltp/fsstress" ] || fail "nothing was built from the clone: $out"
out=$(PEER_SOURCES=$SCRATCH/sources PEERS_SNAPSHOTS=$empty "$top/scripts/build-peers" --resolve fstests 2>&1)
grep -qx "fstests: dir $WORK/peers-src/fstests-$pinned" <<<"$out" || fail "the clone is not reused: $out"

out=$("$top/scripts/build-peers" nosuch 2>&1) && fail "unknown suite passed"
grep -q "unknown suite 'nosuch'" <<<"$out" || fail "unclear: $out"
exit 0
