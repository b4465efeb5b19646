# Shared settings and helpers for the scripts in this directory (sourced).
top=${top:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
WORK=${WORK:-$top/work}			# ignored: base tree, build output, results
KSRC=$WORK/linux			# git tree: base commit + series
OUT=${OUT:-$WORK/out}			# one build directory per kernel variant
VENV=$WORK/venv
VIRTME_NG_VERSION=1.42
MATPLOTLIB_VERSION=3.9.2
SERIES_BASE=${SERIES_BASE:-$top/patches/BASE}	# overridable for tests
# Kernel parameters of the test and peer-suite VMs, not the benchmarks':
# slub_debug=A marks kmalloc-512 for failslab's cache filter, so that
# fault-inject-mount can count only that cache's allocations and aim at a
# shrinker_info expansion's unit of deferred counts.  The mark does nothing
# until the filter is switched on; it only keeps other caches from merging
# into it.
TEST_VM_ARGS="slub_debug=A,kmalloc-512"
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/ccache}

die() { echo "error: $*" >&2; exit 1; }
info() { echo ">> $*" >&2; }

# base_field NAME: a value from patches/BASE ("name value" lines)
base_field() {
	awk -v k="$1" '$1 == k { print $2 }' "$SERIES_BASE"
}

# lock_work: one test/bench/report run at a time (they share work/linux and
# the build directories)
lock_work() {
	mkdir -p "$WORK"
	exec 9> "$WORK/.lock"
	flock -n 9 || die "another test, bench or report run holds $WORK/.lock"
}

# series_patches DIR: the patch files DIR/series lists, in order
series_patches() {
	sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$1/series"
}

# same_queue DIR1 DIR2: both hold the same series file and listed patches
same_queue() {
	cmp -s "$1/series" "$2/series" || return 1
	local p
	for p in $(series_patches "$1"); do
		cmp -s "$1/$p" "$2/$p" || return 1
	done
}
