#!/bin/bash
# Does switching the function tracer on the kernel's lock functions on and
# off, while other tasks take those locks, hang a TCG guest?
T=/sys/kernel/tracing
mountpoint -q $T || mount -t tracefs nodev $T
grep -E '^(down|down_(read|write)|down_(read|write)_[a-z_]+|down_(trylock|interruptible|killable|timeout)|mutex_(lock|trylock)(_[a-z_]+)?|_raw_(spin|read|write)_(try)?lock(_[a-z_]+)?|percpu_down_(read|write)[a-z_]*|__percpu_down_read[a-z_]*)$' \
	$T/available_filter_functions > /tmp/funcs
echo "tracing $(wc -l < /tmp/funcs) functions" > /dev/kmsg
( while :; do find / -xdev > /dev/null 2>&1; done ) &
( while :; do dd if=/dev/zero of=/tmp/x bs=1M count=64 status=none; sync; rm /tmp/x; done ) &
for i in $(seq 1 ${ROUNDS:-300}); do
	echo nop > $T/current_tracer
	cat /tmp/funcs > $T/set_ftrace_filter
	echo $$ > $T/set_ftrace_pid
	echo function > $T/current_tracer
	echo 3 > /proc/sys/vm/drop_caches
	sleep 0.1
	echo nop > $T/current_tracer
	echo > $T/set_ftrace_filter
	[ $((i % 20)) = 0 ] && echo "stress round $i" > /dev/kmsg
done
echo "stress done" > /dev/kmsg
kill %1 %2
