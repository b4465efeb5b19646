# run-vm refuses, before booting, a command that would not fit the guest's
# kernel command line (virtme-ng puts it there; x86 keeps 2047 bytes and a
# longer line loses root=, so the guest panicked at boot), and accepts a
# short one as far as the boot.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
fail() { echo "$*"; exit 1; }
# scripts/test runs setup-host first; the scratch work/ borrows its venv
[ -x "$REAL_WORK/venv/bin/vng" ] || fail "no virtme-ng in $REAL_WORK/venv: run scripts/setup-host"
[ -e "$WORK/venv" ] || ln -s "$REAL_WORK/venv" "$WORK/venv"
k=$SCRATCH/fake-kernel
mkdir -p "$k/arch/x86/boot"
: > "$k/arch/x86/boot/bzImage"
long=$(printf 'x%.0s' $(seq 1200))
out=$(timeout 60 "$top/scripts/run-vm" --timeout 30 "$k" -- echo "$long" 2>&1) && fail "a 1200-byte command passed: $out"
grep -q "kernel command line would be [0-9]* bytes" <<<"$out" || fail "not said why: $out"
out=$(timeout 60 "$top/scripts/run-vm" --timeout 30 "$k" -- echo short 2>&1)
grep -q "kernel command line would be" <<<"$out" && fail "a short command was refused: $out"
exit 0
