# Every patch in the series is checkpatch --strict clean, or its remaining
# reports are listed with a reason in patches/checkpatch-accepted.
top=$(cd "$(dirname "$0")/../.." && pwd)
WORK=$REAL_WORK exec "$top/scripts/check-patches"
