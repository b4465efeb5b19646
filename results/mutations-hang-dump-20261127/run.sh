#!/bin/bash
# scripts/test's hang check (vm-hang-is-dumped) against run-vm as committed
# and against two mutants, in a throw-away clone:
#   no-nmi:   the timer at the limit sends no NMI (as run-vm before adafff8);
#   no-panic: the guest is booted without unknown_nmi_panic (NMI ignored).
#   run.sh REPO KERNEL_BUILD_DIR   (WORK must point at a work dir with the venv)
set -u
repo=$1 kdir=$2
out=$(cd "$(dirname "$0")" && pwd)
for m in none no-nmi no-panic; do
	c=$(mktemp -d)
	git clone -q "$repo" "$c/r"
	case $m in
	no-nmi) sed -i 's|"$top/scripts/vm-nmi" "$qmp" "$qmp_dir/registers" \&\& touch "$qmp_dir/nmi"|true|' "$c/r/scripts/run-vm" ;;
	no-panic) sed -i 's/ unknown_nmi_panic panic_print=0x41//' "$c/r/scripts/run-vm" ;;
	esac
	git -C "$c/r" diff --stat | sed "s/^/$m: /"
	(
		top=$c/r
		phase() { :; }
		eval "$(sed -n '/^hang_check()/,/^}/p' "$top/scripts/test")"
		mkdir -p "$c/d"
		hang_check test "$kdir" "$c/d"
	) > "$out/$m.ktap" 2>&1
	echo "$m: $(grep -E '^(not )?ok' "$out/$m.ktap")"
	rm -rf "$c"
done
