# scripts/check-kabi's layout check sees what genksyms cannot: the queue
# passes with its allowlisted layout changes; the queue plus a member of
# struct shrink_control hidden behind __GENKSYMS__ (no CRC changes; v9's
# experimental E3 did this) fails on exactly that; an allowlist missing an
# entry fails on the finding it covered; an entry that matches no finding
# fails as stale; the experimental group passes.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/scripts/lib.sh"
bad=0
allow=$top/patches/kabi-layout.allow

# check NAME WANT_RC CMD...: run CMD, show its layout lines, compare its exit
# status; its output is left in $result
check() {
	local name=$1 want=$2 out rc t
	shift 2
	out=$("$@" 2>&1)
	rc=$?
	echo "== $name: exit $rc"
	grep -E '^(layout|LAYOUT|type probe)' <<<"$out"
	[ "$rc" = "$want" ] || { echo "$name: exit $rc, expected $want"; tail -5 <<<"$out"; bad=1; }
	result=$out
}

"$top/scripts/apply-series" --force >/dev/null || exit 1
check "the queue" 0 "$top/scripts/check-kabi" --quick
grep -q '^LAYOUT ALLOWED SIZE struct backing_dev_info' <<<"$result" || { echo "the queue: no allowed bdi finding"; bad=1; }
! grep -q '^LAYOUT CHANGED' <<<"$result" || { echo "the queue: a layout change not allowed"; bad=1; }

# the allowlist's own rules, on the layouts that run kept
st=$(sed -n 's/^>> kABI: results kept in //p' <<<"$result")
[ -f "$st/series.layout" ] || { echo "no layouts kept in $st"; exit 1; }
first=$(grep -v -e '^#' -e '^$' "$allow" | head -1)
grep -v -xF "$first" "$allow" > "$SCRATCH/allow-minus-one"
check "allowlist without its first entry" 1 "$top/scripts/kabi-layout" compare "$st/base.layout" "$st/series.layout" "$SCRATCH/allow-minus-one"
grep -qxF "LAYOUT CHANGED ${first%%	*}" <<<"$result" || { echo "missing: LAYOUT CHANGED ${first%%	*}"; bad=1; }

{ cat "$allow"; printf 'SIZE struct file 232 -> 240\tno such change\n'; } > "$SCRATCH/allow-stale"
check "allowlist with a stale entry" 1 "$top/scripts/kabi-layout" compare "$st/base.layout" "$st/series.layout" "$SCRATCH/allow-stale"
grep -q '^LAYOUT STALE ALLOW ENTRY SIZE struct file' <<<"$result" || { echo "missing: the stale entry"; bad=1; }

# a member hidden from genksyms, as v9's experimental patch E3 added it
# (tests/host/fixtures/hidden-shrink-control-member.diff), on the queue
git -C "$KSRC" apply "$top/tests/host/fixtures/hidden-shrink-control-member.diff" &&
	git -C "$KSRC" -c user.name=test -c user.email=test@example.org \
		commit -q -a -m "fixture: a member of shrink_control hidden from genksyms" || exit 1
check "a hidden shrink_control member" 1 "$top/scripts/check-kabi" --quick
grep -q 'probed: [0-9]* unchanged, 0 changed' <<<"$result" ||
	{ echo "the hidden member: the CRC type probe should see nothing (hidden from genksyms)"; bad=1; }
grep -qx 'LAYOUT CHANGED SIZE struct shrink_control 32 -> 40' <<<"$result" ||
	{ echo "missing: LAYOUT CHANGED SIZE struct shrink_control 32 -> 40"; bad=1; }

# the experimental group changes no type a module sees
if [ -f "$top/patches/experimental/series" ]; then
	"$top/scripts/apply-series" --force --experimental >/dev/null || exit 1
	check "with the experimental group" 0 "$top/scripts/check-kabi" --quick
	! grep -q '^LAYOUT CHANGED' <<<"$result" || { echo "the experimental group: a layout change"; bad=1; }
fi
exit $bad
