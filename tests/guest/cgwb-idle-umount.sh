#!/bin/bash
# An idle superblock's umount under cgroup-writeback switch pressure on other
# superblocks (S3-umount-sync-pressure as a test): bench/umount_sync.py keeps
# switches in flight on four loop-backed ext4 filesystems and traces each
# umount of an idle tmpfs and an idle ext4.  Fails if an umount waited for a
# grace period or flushed isw_wq in cgroup_writeback_umount() (the global
# wait this series removes), if an idle superblock's umount waited for
# switches (none are its own), or if the background churned no memcg.
# Positive control: for each filesystem, at least SWITCH_EVIDENCE (default
# 4) of the idle umounts judged must have had other superblocks' wb switches
# in flight during them: a switch work (inode_switch_wbs_work_fn(), its
# start and end recorded by the workqueue trace events) running at some
# moment of the umount2(2) call.  Each filesystem
# is unmounted until that many umounts had one, at most CYCLES (default 120)
# times.  Also printed: the umounts with a switch work running at the very
# moment they called cgroup_writeback_umount(), where 6.1 decides to wait
# (1 of 24 tmpfs and 0 of 24 ext4 umounts in a lockdep test kernel under
# TCG: too rare to require).  A background that churns memcgs without
# switching inodes (S2_FILES=0) made the old test pass with nothing in
# flight; it fails now.
. "$TESTS/guest/lib.sh"
[ "${EXPECT_VARIANT:-}" = debug ] &&
	skip "counts do not depend on the config; run on the test config only"
need_function_tracer
grep -qw io /sys/fs/cgroup/cgroup.controllers || skip "no io controller"
require mkfs.ext4 python3

out=$SCRATCH/s3.json
# Smaller files than S2's 1 MiB: the churners go round faster, and more
# memcgs removed per second keep switches in flight more of the time (with
# S2's defaults under lockdep and TCG, a switch work ran during 1 of 24
# tmpfs umounts, whose umount2(2) lasts a few milliseconds)
S2_FILE_KB=${S2_FILE_KB:-64} S2_FILES=${S2_FILES:-4} \
S2_WARMUP=3 S3_SWITCH_EVIDENCE=${SWITCH_EVIDENCE:-4} \
	python3 "$TESTS/../bench/umount_sync.py" --pressure "${CYCLES:-120}" tmpfs ext4 \
	> "$out" || fail "umount_sync.py failed"
cat "$out"
python3 - "$out" "${SWITCH_EVIDENCE:-4}" <<'PY' || exit 1
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
    during = r.get("switches_running_during_umount")
    if during is None:
        bad.append("%s: umount_sync.py did not record the switch works: cannot tell whether "
                   "switches were in flight" % r["fs"])
        continue
    met = sum(1 for n in during if n)
    at = sum(1 for n in r["switches_running_at_check"] if n)
    need = int(sys.argv[2])
    print("# %s: %d of %d idle umounts had other superblocks' wb switch works running "
          "during them (needed: %d; runs per umount: %s), %d at the moment they called "
          "cgroup_writeback_umount()" % (r["fs"], met, len(during), need,
                                        " ".join(map(str, during)), at))
    if met < need:
        bad.append("%s: only %d of %d idle umounts had a wb switch in flight during them "
                   "(want %d): no switch pressure, the lack of a wait proves nothing"
                   % (r["fs"], met, len(during), need))
for b in bad:
    print("FAIL: " + b)
if not bad:
    print("ok: %d memcgs churned; no global wait and no drain in %s idle umounts, %s of "
          "them with other superblocks' switches in flight"
          % (load[0]["memcgs_churned"], " and ".join("%d %s" % (r["cycles"], r["fs"]) for r in s3),
             " and ".join(str(sum(1 for n in r["switches_running_during_umount"] if n))
                          for r in s3)))
sys.exit(1 if bad else 0)
PY
