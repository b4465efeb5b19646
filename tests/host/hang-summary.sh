# scripts/hang-summary names, for a guest run-vm's NMI stopped, each CPU's
# interrupted function with its callers (not the NMI's own frames) and each
# task in state R or D, and prints nothing for a console without that panic.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
d=$SCRATCH/hang-summary
mkdir -p "$d"
t="[  742.059860]"
cat > "$d/console.log" <<LOG
$t Kernel panic - not syncing: NMI: Not continuing
$t NMI backtrace for cpu 0
$t Call Trace:
$t  <NMI>
$t  dump_stack_lvl+0x4c/0x5f
$t  nmi_cpu_backtrace.cold+0x32/0x79
$t  exc_nmi+0xd9/0x100
$t RIP: 0010:queued_spin_lock_slowpath+0x4d/0x1c0
$t  ? queued_spin_lock_slowpath+0x4d/0x1c0
$t  </NMI>
$t  <TASK>
$t  _raw_spin_lock+0x30/0x40
$t  shrink_slab+0x11/0x200
$t  </TASK>
$t NMI backtrace for cpu 1
$t RIP: 0010:amd_e400_idle+0x23/0x50
$t  default_idle_call+0x6e/0x162
$t task:python3         state:R  running task     stack:0     pid:1234  ppid:1      flags:0x00004000
$t Call Trace:
$t  <TASK>
$t  drop_slab+0x1/0x2
$t task:kworker/0:1     state:I stack:0     pid:9     ppid:2      flags:0x00004000
$t  worker_thread+0x1/0x2
$t runnable tasks:
LOG
"$top/scripts/hang-summary" "$d/console.log" > "$d/out"
want="cpu0: queued_spin_lock_slowpath < _raw_spin_lock < shrink_slab
cpu1: amd_e400_idle < default_idle_call
R python3 pid 1234: drop_slab"
[ "$(cat "$d/out")" = "$want" ] || { echo "hang-summary printed:"; cat "$d/out"; echo "wanted:"; echo "$want"; exit 1; }
sed -i 1d "$d/console.log"
[ -z "$("$top/scripts/hang-summary" "$d/console.log")" ] || { echo "a console without the NMI panic gave a summary"; exit 1; }
echo "the CPUs' interrupted frames and the running task named; nothing without the NMI panic"
