#!/bin/bash
# run 2: evidence boot. TESTS=/work/notes/guest2/mut/tests: a copy of the worktree's
# tests/ and bench/ at 9a46332 (unmutated files byte-identical) plus mutated copies:
#   umount-grace-periods-noallow: the ext4_sync_fs allowlist entry removed
#   umount-race-nocreate: watch list sees nothing the mount creates
#   umount-race-old-nocreate: the same mutation of 3991553's umount-race (no control)
#   cgwb-idle-umount-nofiles: the background switches no inode (S2_FILES=0)
cd /work/wt/guest-proj
start=$(date +%s)
nice -n 19 scripts/run-vm --timeout 2700 --memory 2G --append "slub_debug=A,kmalloc-512 log_buf_len=16M" --rwdir /work/notes/guest2 --console /work/notes/guest2/console-r2.log /work/run/work/out/patched-test -- env TESTS=/work/notes/guest2/mut/tests EXPECT_RELEASE=6.1.192+ EXPECT_VARIANT=test GUEST_BUDGET=2400 /work/wt/guest-proj/guest/run-tests /work/notes/guest2/r2 /work/main/work/linux '^umount-grace-periods$|^umount-grace-periods-noallow$|^umount-race-nocreate$|^umount-race-old-nocreate$|^cgwb-idle-umount-nofiles$|^bdi-umount$'
echo "rc=$? wall=$(( $(date +%s) - start )) s"
