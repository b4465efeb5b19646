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
# log_buf_len: guest/run-tests judges each test by its slice of the kernel
# log, which the default 128 KiB ring would lose under a test's own output.
TEST_VM_ARGS="slub_debug=A,kmalloc-512 log_buf_len=16M"
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/ccache}

die() { echo "error: $*" >&2; exit 1; }

# virtme-ng's init mounts an empty tmpfs over these in the guest, which sees
# the host's root read-only otherwise: a checkout or a kernel tree below one
# is not there for the guest (its runner: "No such file or directory")
GUEST_TMPFS_DIRS=(/tmp /var/tmp /run /var/log /var/spool /var/cache)
require_guest_visible() { # DIR WHAT
	local d
	for d in "${GUEST_TMPFS_DIRS[@]}"; do
		case $(realpath -m "$1")/ in
		"$d"/*) die "$2 ($1) is below $d, which the guest's init covers with a tmpfs: clone or build elsewhere" ;;
		esac
	done
}
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

# Debian's ABI for the base, as its packages name it (6.1.0-56-amd64): the
# kernel release of scripts/build-kernel debian and of Debian's own image
debian_abi() {
	local pkg
	pkg=$(base_field kabi-headers)
	[ -n "$pkg" ] || die "patches/BASE names no kabi-headers package"
	echo "${pkg#linux-headers-}"
}

# debian_deb PKG: download Debian's package PKG, at the base's version, into
# WORK/dl once; print its path
debian_deb() {
	local pkg=$1 ver deb log
	ver=$(base_field version)
	deb=$(ls "$WORK/dl/${pkg}_${ver}_"*.deb 2>/dev/null | head -1 || true)
	if [ -z "$deb" ]; then
		apt-cache madison "$pkg" | awk '{ print $3 }' | grep -qxF "$ver" || apt-get update -qq || true
		apt-cache madison "$pkg" | awk '{ print $3 }' | grep -qxF "$ver" ||
			die "$pkg version $ver (the base's) is not available from the apt sources"
		info "downloading $pkg=$ver"
		mkdir -p "$WORK/dl"
		log=$WORK/dl/apt-$pkg.log
		(cd "$WORK/dl" && apt-get download -q "$pkg=$ver" 2>&1 >/dev/null) > "$log" ||
			die "apt-get download $pkg=$ver failed: $(cat "$log")"
		deb=$(ls "$WORK/dl/${pkg}_${ver}_"*.deb | head -1)
	fi
	echo "$deb"
}

# debian_headers: install Debian's linux-headers-ABI package of the base's
# version (what DKMS builds against) and print its directory
debian_headers() {
	local pkg ver dir
	pkg=$(base_field kabi-headers)
	ver=$(base_field version)
	dir=/usr/src/$pkg
	if [ "$(dpkg-query -W -f='${Status} ${Version}' "$pkg" 2>/dev/null)" != "install ok installed $ver" ]; then
		[ "$(id -u)" = 0 ] || die "need root to install $pkg=$ver"
		info "installing $pkg=$ver"
		apt-cache madison "$pkg" | awk '{ print $3 }' | grep -qxF "$ver" || apt-get update -qq || true
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
			"$pkg=$ver" >/dev/null || die "apt-get install $pkg=$ver failed"
	fi
	[ -f "$dir/.config" ] || die "$dir/.config missing after installing $pkg"
	echo "$dir"
}
