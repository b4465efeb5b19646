# The series walks shrinkers under SRCU, so SRCU must be built in every
# configuration, not only when something selects it.  m68k tinyconfig with
# EXPERT=y, BLOCK=n and PERF_EVENTS=n selects nothing that selects SRCU: on
# the base it lacks CONFIG_SRCU (checked, so that this test can tell), with
# the series it must have it.  Kconfig only: no m68k compiler is needed.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/scripts/lib.sh"
"$top/scripts/apply-series" --force >/dev/null
srcu_in_small_config() {	# prints CONFIG_SRCU's value (or "unset")
	local o=$SCRATCH/srcu-$1
	rm -rf "$o"
	mkdir -p "$o"
	make -s -C "$KSRC" O="$o" ARCH=m68k tinyconfig >/dev/null 2>&1
	"$KSRC/scripts/config" --file "$o/.config" -e EXPERT -d BLOCK -d PERF_EVENTS
	make -s -C "$KSRC" O="$o" ARCH=m68k olddefconfig >/dev/null 2>&1
	sed -n 's/^CONFIG_SRCU=//p' "$o/.config" | grep . || echo unset
}
patched=$(srcu_in_small_config patched)
git -C "$KSRC" checkout -q base
base=$(srcu_in_small_config base)
git -C "$KSRC" checkout -q main
echo "CONFIG_SRCU in m68k tinyconfig without BLOCK/PERF_EVENTS: base $base, series $patched"
[ "$base" = unset ] || { echo "the base already has SRCU here: the test no longer tells"; exit 1; }
[ "$patched" = y ] || { echo "with the series, SRCU is still missing"; exit 1; }
