#!/bin/bash
# host: run the whole guest suite of the CI kernel N times, one boot each
n=$1 tag=$2
cd /work/repro2 || exit 1
for i in $(seq $n); do
	d=/tmp/repro/$tag-$i; mkdir -p $d
	s=$(date +%s)
	WORK=/work/main/work ./scripts/run-vm --timeout 2100 --memory 2G --append "slub_debug=A,kmalloc-512" --rwdir $d \
		--console $d/console.log /work/cold17/work/out/patched-test -- \
		env EXPECT_RELEASE=6.1.192+ EXPECT_VARIANT=test GUEST_BUDGET=1800 \
		/work/repro2/guest/run-tests $d /work/cold17/work/linux "" > /dev/null 2> $d/run-vm.err
	rc=$?
	echo "$tag $i rc=$rc $(( $(date +%s) - s )) s $(grep -c '^not ok' $d/ktap) not-ok $(tail -1 $d/ktap)" >> /tmp/repro/full-summary
done
