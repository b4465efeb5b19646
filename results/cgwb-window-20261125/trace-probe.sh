#!/bin/bash
export PATH=$PATH:/sbin:/usr/sbin
t=/sys/kernel/tracing
mountpoint -q $t || mount -t tracefs none $t
grep -x -e path_umount -e evict_inodes -e init_wait_var_entry $t/available_filter_functions
echo "init_wait_var_entry cleanup_offline_cgwb path_umount evict_inodes" > $t/set_ftrace_filter; echo "filter rc=$?"
cat $t/set_ftrace_filter
echo function > $t/current_tracer
echo 1 > $t/events/writeback/inode_switch_wbs/enable
echo 1 > $t/tracing_on
d=$(mktemp -d); truncate -s 64M $d/img; mkfs.ext4 -q -F $d/img; mkdir $d/m
mount -o loop $d/img $d/m; echo marker-start > $t/trace_marker; umount $d/m
echo 0 > $t/tracing_on
grep -v '^#' $t/trace | tail -20
