#!/bin/bash
# run 3: every changed scenario once, final branch (8aa1a3f), CI order
cd /work/wt/guest-proj
start=$(date +%s)
nice -n 19 scripts/run-vm --timeout 2700 --memory 2G --append "slub_debug=A,kmalloc-512 log_buf_len=16M" --rwdir /work/notes/guest2 --console /work/notes/guest2/console-r3.log /work/run/work/out/patched-test -- env EXPECT_RELEASE=6.1.192+ EXPECT_VARIANT=test GUEST_BUDGET=2400 /work/wt/guest-proj/guest/run-tests /work/notes/guest2/r3 /work/main/work/linux '^bdi-umount$|^umount-grace-periods$|^quota-umount$|^umount-race$|^cgwb-idle-umount$|^fault-inject-mount$|^shrink-slab-lockless$'
echo "rc=$? wall=$(( $(date +%s) - start )) s"
