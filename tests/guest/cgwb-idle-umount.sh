#!/bin/bash
# An idle superblock's umount under cgroup-writeback switch pressure on other
# superblocks (S3-umount-sync-pressure as a test): bench/umount_sync.py keeps
# switches in flight on four loop-backed ext4 filesystems and traces each
# umount of an idle tmpfs and an idle ext4.  Fails if an umount waited for a
# grace period or flushed isw_wq in cgroup_writeback_umount() (the global
# wait this series removes), if an idle superblock's umount waited for
# switches (none are its own), or if the background churned no memcg.
. "$TESTS/guest/lib.sh"
[ "${EXPECT_VARIANT:-}" = debug ] &&
	skip "counts do not depend on the config; run on the test config only"
need_function_tracer
grep -qw io /sys/fs/cgroup/cgroup.controllers || skip "no io controller"
require mkfs.ext4 python3

out=$SCRATCH/s3.json
S2_WARMUP=3 python3 "$TESTS/../bench/umount_sync.py" --pressure "${CYCLES:-8}" tmpfs ext4 \
	> "$out" || fail "umount_sync.py failed"
cat "$out"
python3 - "$out" <<'PY' || exit 1
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
s3 = [r for r in recs if r["scenario"] == "S3"]
load = [r for r in recs if r["scenario"] == "S3-load"]
bad = []
if sorted(r["fs"] for r in s3) != ["ext4", "tmpfs"]:
    bad.append("expected one S3 record each for tmpfs and ext4")
if not load or load[0]["memcgs_churned"] == 0:
    bad.append("the background churned no memcg: there was no switch pressure")
for r in s3:
    for site, n in r["per_call_site"].items():
        func, caller = site.split("<-")
        if caller == "cgroup_writeback_umount" or site == "__flush_workqueue<-generic_shutdown_super":
            bad.append("%s: %s %.2f per umount (global cgroup-writeback wait)" % (r["fs"], site, n))
    if r["own_switch_drains"]:
        bad.append("%s: %d idle umounts waited for wb switches" % (r["fs"], r["own_switch_drains"]))
for b in bad:
    print("FAIL: " + b)
if not bad:
    print("ok: %d memcgs churned; no global wait, no drain in %d idle umounts per fs"
          % (load[0]["memcgs_churned"], s3[0]["cycles"]))
sys.exit(1 if bad else 0)
PY
