# scripts/check-console judges a guest's whole console: it passes a clean
# boot that powers off, and fails a report anywhere in the kernel's lines
# (also after the runner's dmesg copy, also appended to a partial output
# line), a console that ends without the power-off, and a missing file;
# output that quotes a kernel report indented is not a report.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
d=$SCRATCH/console
mkdir -p "$d"
boot=("[    0.000000] Linux version 6.1.192+" "[    9.506245] Run /venv/virtme-ng-init as init process"
	"[   10.428793] virtme-ng-init: basic initialization done")
off="[  400.100000] reboot: Power down"
warn="[  399.000000] WARNING: CPU: 1 PID: 7 at fs/super.c:1 destroy_super_work+0x1/0x2"
check() { # expected-verdict description lines...
	local want=$1 what=$2
	shift 2
	printf '%s\r\n' "$@" > "$d/console.log"
	"$top/scripts/check-console" "$d/console.log" > "$d/out" 2>&1
	[ $? = "$want" ] || { echo "wrong verdict for $what:"; cat "$d/console.log" "$d/out"; exit 1; }
}
check 0 "a clean boot that powers off" "${boot[@]}" "ok 1 boot" "$off"
check 1 "a WARNING after the runner finished" "${boot[@]}" "ok 1 boot" "$warn" "$off"
check 1 "a WARNING appended to an output line" "${boot[@]}" "ok 1 bo$warn" "$off"
check 1 "no power-off (a panic, a hang)" "${boot[@]}" "ok 1 boot"
check 1 "a panic at power-off" "${boot[@]}" "[  400.000000] Kernel panic - not syncing: Fatal exception"
check 0 "a report quoted indented by a test's output" "${boot[@]}" "    # [  12.000000] WARNING: quoted" "$off"
check 0 "an expected WARNING in its brackets" "${boot[@]}" \
	"[  20.000000] t: expect WARNING from destroy_super_work" "$warn" "[  21.000000] t: end of expected WARNING" "$off"
! "$top/scripts/check-console" "$d/missing.log" > /dev/null || { echo "a missing console passed"; exit 1; }
echo "clean console passed; late, appended and shutdown reports and a missing power-off failed"
