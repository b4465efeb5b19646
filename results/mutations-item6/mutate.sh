#!/bin/bash
# Make the mutated copy of tests/ and bench/ used for the failing runs:
#   results/mutations-item6/mutate.sh /tmp/mut6
# then boot with TESTS=/tmp/mut6/tests (see README.txt).  Each edit is
# checked to apply; the repository itself is not touched.
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd) dst=$1
rm -rf "$dst" && mkdir -p "$dst" && cp -a "$src/tests" "$src/bench" "$dst/"
cd "$dst"
# sub FILE OLD NEW: replace the one occurrence of OLD
sub() {
	python3 - "$@" <<'PY'
import sys
p, old, new = sys.argv[1:]
s = open(p).read()
assert s.count(old) == 1, (p, old)
open(p, "w").write(s.replace(old, new))
PY
}
g=tests/guest
cat > $g/list <<'L'
shrinker-churn-mut	300	shrinker-churn.sh
soak-mut-raise		300	soak.sh
soak-mut-quiet		300	soak.sh
umount-race-mut		300	umount-race.sh
bdi-umount-mut-nofunc	300	bdi-umount.sh
bdi-umount-mut-walkers	300	bdi-umount.sh
bdi-umount-mut-blind	300	bdi-umount.sh
L
cat > $g/settings <<'L'
test	shrinker-churn-mut	CHURN_SECONDS=8
test	soak-mut-raise		SOAK_CYCLES=40 MUT=raise
test	soak-mut-quiet		SOAK_CYCLES=40 MUT=quiet
test	umount-race-mut		ROUNDS=5 RACE_FS=tmpfs
test	bdi-umount-mut-nofunc	CYCLES=2 RACE_CYCLES=3 MUT=nofunc
test	bdi-umount-mut-walkers	RACE_CYCLES=5 MUT=walkers
test	bdi-umount-mut-blind	CYCLES=2 RACE_CYCLES=3 MUT=blind
L
# 1. shrinker-churn: the drop loop hits an error, the debugfs loop finds
#    nothing to scan (no error, 0 operations)
sub $g/shrinker-churn.sh 'echo 2 > /proc/sys/vm/drop_caches ||' 'echo 2 > /proc/sys/vm/no_such_file ||'
sub $g/shrinker-churn.sh 'for d in "$dbg"/*/; do' 'for d in "$dbg-none"/*/; do'
# 2. soak: MUT=raise, drop_caches stressor raises, memcg writers' child
#    cannot write; MUT=quiet, stressors do nothing (no error) and read-back
#    bytes go uncounted
sub $g/soak.py '        write("/proc/sys/vm/drop_caches", "3")' \
	'        write("/proc/sys/vm/drop_caches" if os.environ.get("MUT") != "raise" else "/proc/sys/vm/no_such_file", "3")'
sub $g/soak.py 'os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644,' \
	'(os.O_RDONLY if os.environ.get("MUT") == "raise" else os.O_WRONLY) | os.O_CREAT, 0o644,'
sub $g/soak.py 'glob.glob("/sys/kernel/debug/shrinker/*/")' \
	'glob.glob("/sys/kernel/debug/shrinker/*/" if os.environ.get("MUT") != "quiet" else "/nonexistent/*/")'
sub $g/soak.py 'def stat_walkers():
    n = 0' 'def stat_walkers():
    n = 0
    if os.environ.get("MUT") == "quiet":
        return'
sub $g/soak.py 'def memcg_writers():
    n = 0' 'def memcg_writers():
    n = 0
    if os.environ.get("MUT") == "quiet":
        return'
sub $g/soak.py 'verified += len(got)' 'verified += len(got) if os.environ.get("MUT") != "quiet" else 0'
# 3. umount-race: the stat walker walks a path that is never there, the
#    chdir racer dies
sub $g/umount-race.py 'os.stat(mnt + "/d/g")' 'os.stat(mnt + "/d/nonexistent")'
sub $g/umount-race.py 'def chdir_in_out(mnt):' 'def chdir_in_out(mnt):
    raise ValueError("mutant: chdir racer dies")'
# 4. bdi-umount: MUT=nofunc, the tracer is asked for a function the kernel
#    does not have; MUT=blind, the tracer cannot see synchronize_rcu_expedited;
#    MUT=walkers (no tracing), the dirtytime walker dies, a sync walker does nothing
sub bench/tracer.py 'FLUSHES = ["__flush_workqueue", "drain_workqueue", "flush_work", "flush_delayed_work"]' \
	'FLUSHES = ["__flush_workqueue", "drain_workqueue", "flush_work", "flush_delayed_work"]
if os.environ.get("MUT") == "nofunc":
    FLUSHES.append("no_such_function")
if os.environ.get("MUT") == "blind":
    GRACE_PERIOD.remove("synchronize_rcu_expedited")'
sub $g/bdi-umount.sh 'if [ "${EXPECT_VARIANT:-}" != debug ]; then' \
	'if [ "${EXPECT_VARIANT:-}" != debug ] && [ "${MUT:-}" != walkers ]; then'
sub $g/bdi-umount.sh '        put("/proc/sys/vm/dirtytime_expire_seconds", "43200")' \
	'        put("/proc/sys/vm/no_such_file" if os.environ.get("MUT") == "walkers" else "/proc/sys/vm/dirtytime_expire_seconds", "43200")'
sub $g/bdi-umount.sh 'def syncs(name):' 'def syncs(name):
    if name == "sync 2" and os.environ.get("MUT") == "walkers":
        return'
echo "mutants in $dst"
