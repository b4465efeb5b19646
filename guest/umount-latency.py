#!/usr/bin/env python3
"""Time umount(2) of one filesystem over repeated mount/umount cycles.

    umount-latency.py FSTYPE SOURCE MOUNTPOINT CYCLES

mount(2) and umount2(2) are called directly (umount(8) parses the mount
table and forks, which dominates under TCG).  A small file is written in
each cycle.  Prints one umount latency in microseconds per line.
"""
import ctypes
import os
import sys
import time

libc = ctypes.CDLL(None, use_errno=True)


def check(ret, what):
    if ret != 0:
        err = ctypes.get_errno()
        sys.exit("%s: %s" % (what, os.strerror(err)))


def main():
    fstype, source, target, cycles = sys.argv[1:5]
    for _ in range(int(cycles)):
        check(libc.mount(source.encode(), target.encode(), fstype.encode(), 0, None),
              "mount")
        with open(os.path.join(target, "f"), "w") as f:
            f.write("x")
        t0 = time.monotonic_ns()
        check(libc.umount2(target.encode(), 0), "umount2")
        t1 = time.monotonic_ns()
        print((t1 - t0) // 1000)


if __name__ == "__main__":
    main()
