# The experimental group stays out of the default queue and nothing moves
# between the queues by accident: a plain apply leaves it out and an export
# then leaves patches/experimental alone; apply-series --experimental adds
# it on top, and a plain apply after that drops it without complaint (it is
# exported); a commit of patches/series above the experimental ones is
# refused by export-series.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/scripts/lib.sh"
[ -f "$top/patches/experimental/series" ] || { echo "SKIP: no experimental group"; exit 4; }
main=$(series_patches "$top/patches" | wc -l)
exp=$(series_patches "$top/patches/experimental" | wc -l)
commits() { git -C "$KSRC" rev-list --count base..HEAD; }
# copy OUT: the two series files, as export-series finds them in patches/
copy() {
	rm -rf "$1"
	mkdir -p "$1/experimental"
	cp "$top/patches/series" "$1/"
	cp "$top/patches/experimental/series" "$1/experimental/"
}

"$top/scripts/apply-series" --force
[ "$(commits)" = "$main" ] || { echo "plain apply: $(commits) commits, wanted $main"; exit 1; }
copy "$SCRATCH/plain"
"$top/scripts/export-series" "$SCRATCH/plain"
if compgen -G "$SCRATCH/plain/experimental/*.patch" > /dev/null; then
	echo "an export without the group wrote into experimental/:"; ls "$SCRATCH/plain/experimental"; exit 1
fi
cmp "$top/patches/experimental/series" "$SCRATCH/plain/experimental/series" ||
	{ echo "an export without the group changed experimental/series"; exit 1; }

"$top/scripts/apply-series" --experimental
[ "$(commits)" = $((main + exp)) ] || { echo "--experimental: $(commits) commits, wanted $((main + exp))"; exit 1; }
"$top/scripts/apply-series" --experimental 2>&1 | grep -q "already" ||
	{ echo "a second --experimental apply did not see the tree was already applied"; exit 1; }
"$top/scripts/apply-series"
[ "$(commits)" = "$main" ] || { echo "plain apply after --experimental: $(commits) commits, wanted $main"; exit 1; }

# the queue's last commit moved above the experimental ones
"$top/scripts/apply-series" --experimental
last=$(git -C "$KSRC" rev-parse "HEAD~$exp")
git -C "$KSRC" rebase -q --onto "$last~1" "$last" HEAD
git -C "$KSRC" cherry-pick "$last" > /dev/null
copy "$SCRATCH/moved"
if err=$("$top/scripts/export-series" "$SCRATCH/moved" 2>&1); then
	echo "export-series accepted a queue commit above the experimental group"; exit 1
fi
echo "$err"
grep -q "must be the top of work/linux" <<<"$err" || { echo "refused for another reason"; exit 1; }
# refuse NAME WANT: export-series must refuse, with WANT in its message
refuse() {
	copy "$SCRATCH/$1"
	if err=$("$top/scripts/export-series" "$SCRATCH/$1" 2>&1); then
		echo "$1: export-series accepted it"; exit 1
	fi
	echo "$1: $err"
	grep -q "$2" <<<"$err" || { echo "$1: refused for another reason"; exit 1; }
}

# one experimental commit renamed: the group is there only in part (a
# group of one patch cannot be; that is the all-renamed case below)
if [ "$exp" -ge 2 ]; then
	"$top/scripts/apply-series" --force --experimental
	git -C "$KSRC" commit -q --amend -m "mm: Renamed experimental commit"
	refuse renamed-one "only some of"
else
	echo "renamed-one: not run, the group has one patch"
fi
# all of them renamed: nothing says they are the group but how it was applied
"$top/scripts/apply-series" --force --experimental
git -C "$KSRC" rebase -q --exec 'git commit -q --amend -m "mm: Renamed $(git log -1 --format=%h)"' "HEAD~$exp"
refuse renamed-all "renamed?"
# a tree without the group that gains a commit of one of the group's names
"$top/scripts/apply-series" --force
echo >> "$KSRC/MAINTAINERS"
git -C "$KSRC" commit -q -a -m "$(git -C "$KSRC" mailinfo /dev/null /dev/null \
	< "$top/patches/experimental/$(series_patches "$top/patches/experimental" | head -1)" |
	sed -n 's/^Subject: //p')"
refuse group-name-without-group "only some of\|without --experimental"
echo "ok: $main patches by default, $exp more with --experimental, misplaced and renamed commits refused"
