# Shared settings and helpers for the scripts in this directory (sourced).
top=${top:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
WORK=${WORK:-$top/work}			# ignored: base tree, build output, results
KSRC=$WORK/linux			# git tree: base commit + series
OUT=$WORK/out				# one build directory per kernel variant
VENV=$WORK/venv
VIRTME_NG_VERSION=1.42
SERIES_BASE=${SERIES_BASE:-$top/patches/BASE}	# overridable for tests
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/ccache}

die() { echo "error: $*" >&2; exit 1; }
info() { echo ">> $*" >&2; }

# base_field NAME: a value from patches/BASE ("name value" lines)
base_field() {
	awk -v k="$1" '$1 == k { print $2 }' "$SERIES_BASE"
}
