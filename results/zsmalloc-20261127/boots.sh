#!/bin/bash
# boots.sh KERNEL TAG N: N boots of zsrace.py; counts Oopses
k=$1 tag=$2 n=$3
for i in $(seq $n); do
	d=/tmp/zsrace/$tag-$i; mkdir -p $d
	WORK=/work/main/work /work/repro2/scripts/run-vm --timeout 400 --memory 1G --rwdir $d --console $d/console.log $k -- \
		sh -c "python3 /tmp/zsrace/zsrace.py > $d/out.txt 2>&1" 2> $d/run-vm.err
	rc=$?
	echo "$tag $i rc=$rc oops=$(grep -c 'BUG: kernel NULL\|Oops\|Decompression failed' $d/console.log) $(grep -m1 -o 'RIP: 0010:[a-z_]*' $d/console.log)" >> /tmp/zsrace/summary
done
