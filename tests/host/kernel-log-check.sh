# check-kernel-log flags each kind of report a run must not produce and
# passes a clean boot log.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
clean=$SCRATCH/clean.log
printf '%s\n' "[    0.000000] Linux version 6.1.192" "[    1.000000] EXT4-fs (loop0): mounted filesystem" \
	"[    2.000000] kasan: KernelAddressSanitizer initialized" > "$clean"
"$top/scripts/check-kernel-log" "$clean" || { echo "a clean log was flagged"; exit 1; }
for report in \
	"WARNING: CPU: 1 PID: 42 at mm/vmscan.c:123 shrink_slab+0x1/0x2" \
	"BUG: KASAN: use-after-free in shrink_slab+0x10/0x20" \
	"BUG: kernel NULL pointer dereference, address: 0000000000000008" \
	"WARNING: possible circular locking dependency detected" \
	"WARNING: suspicious RCU usage" \
	"INFO: trying to register non-static key." \
	"turning off the locking correctness validator." \
	"INFO: task umount:123 blocked for more than 120 seconds." \
	"VFS: Busy inodes after unmount of loop0 (ext4)" \
	"Kernel panic - not syncing: Fatal exception" \
	"watchdog: BUG: soft lockup - CPU#0 stuck for 22s!" \
	"rcu: INFO: rcu_preempt self-detected stall on CPU" \
	"rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:" \
	"rcu: INFO: rcu_preempt detected expedited stalls on CPUs/tasks: {" \
	"INFO: rcu_tasks detected stalls on tasks:"; do
	log=$SCRATCH/report.log
	{ cat "$clean"; echo "[    3.000000] $report"; } > "$log"
	if "$top/scripts/check-kernel-log" "$log" >/dev/null; then
		echo "not flagged: $report"
		exit 1
	fi
done
# a provoked WARN inside its brackets passes; missing, foreign or unbracketed fails
begin="[    3.000000] shrinker_test: expect WARNING from unregister_shrinker_finalize"
end="[    3.200000] shrinker_test: end of expected WARNING"
warn="[    3.100000] WARNING: CPU: 0 PID: 1 at mm/vmscan.c:940 unregister_shrinker_finalize+0x1a/0x80"
other="[    3.100000] WARNING: CPU: 0 PID: 1 at mm/vmscan.c:123 shrink_slab+0x1/0x2"
log=$SCRATCH/expected.log
check() { # expected-verdict description lines...
	local want=$1 what=$2
	shift 2
	{ cat "$clean"; printf '%s\n' "$@"; } > "$log"
	"$top/scripts/check-kernel-log" "$log" > /dev/null
	[ $? = "$want" ] || { echo "wrong verdict for $what"; cat "$log"; exit 1; }
}
check 0 "an expected WARNING" "$begin" "$warn" "$end"
check 0 "an expected WARNING on a serial console (CR LF)" "$begin"$'\r' "$warn"$'\r' "$end"$'\r'
check 1 "an expected WARNING that did not come" "$begin" "$end"
check 1 "another WARNING in the brackets" "$begin" "$warn" "$other" "$end"
check 1 "a second WARNING in the brackets" "$begin" "$warn" "$warn" "$end"
check 1 "an unterminated bracket" "$begin" "$warn"
check 1 "the WARNING after the brackets" "$begin" "$end" "$warn"
# a provoked lockdep report, bracketed by the text it must show
lbegin="[    4.000000] lockdep-check: expect REPORT possible circular locking dependency detected"
lend="[    4.200000] lockdep-check: end of expected REPORT"
lockdep="[    4.100000] WARNING: possible circular locking dependency detected"
kasan="[    4.100000] BUG: KASAN: slab-use-after-free in shrink_slab+0x10/0x20"
check 0 "an expected lockdep report" "$lbegin" "$lockdep" "$lend"
check 1 "an expected lockdep report that did not come" "$lbegin" "$lend"
check 1 "a KASAN report in the lockdep brackets" "$lbegin" "$lockdep" "$kasan" "$lend"
check 1 "a lockdep report in WARNING brackets" "$begin" "$lockdep" "$end"
! "$top/scripts/check-kernel-log" "$SCRATCH/no-such-log" >/dev/null || { echo "a missing log passed"; exit 1; }
echo "13 kinds of report flagged, clean log passed, expected WARNINGs and lockdep reports handled"
