#!/usr/bin/python3
"""zram swap-ins racing zs_compact() from sysfs (no shrinker involved):
an mlocked hog leaves AVAILABLE_MB, a toucher cycles ANON_MB of anonymous
memory (1 byte per page, so objects are tiny), and a loop writes
/sys/block/zram0/compact every 10 ms for SECONDS."""
import ctypes, mmap, os, subprocess, sys, time
SECONDS = int(os.environ.get("SECONDS_", "120"))
AVAILABLE_MB = int(os.environ.get("AVAILABLE_MB", "150"))
ANON_MB = int(os.environ.get("ANON_MB", "384"))
COMPACT = os.environ.get("COMPACT", "1") == "1"
libc = ctypes.CDLL(None, use_errno=True)

def put(p, v):
    with open(p, "w") as f:
        f.write(str(v))

def avail_mb():
    for l in open("/proc/meminfo"):
        if l.startswith("MemAvailable:"):
            return int(l.split()[1]) // 1024

put("/sys/block/zram0/disksize", "1G")
subprocess.run(["mkswap", "/dev/zram0"], check=True, stdout=subprocess.DEVNULL)
subprocess.run(["swapon", "/dev/zram0"], check=True)
hog_mb = max(0, avail_mb() - AVAILABLE_MB)
hog = mmap.mmap(-1, hog_mb << 20, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
addr = ctypes.c_void_p.from_buffer(hog)
if libc.mlock(ctypes.addressof(addr), hog_mb << 20) != 0:
    for i in range(0, hog_mb << 20, 4096):
        hog[i] = 1
del addr
print("hog %d MB, available now %d MB" % (hog_mb, avail_mb()), flush=True)
stop = time.monotonic() + SECONDS
kids = []
pid = os.fork()
if pid == 0:
    m = mmap.mmap(-1, ANON_MB << 20, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    import random
    pages = ANON_MB << 8
    for i in range(0, ANON_MB << 20, 4096):
        m[i] = 1
    n = 0
    while time.monotonic() < stop:
        for _ in range(10000):
            i = random.randrange(pages) << 12
            m[i] = (m[i] + 1) & 0xff
        n += 1
    print("toucher: %d x 10000 random touches" % n, flush=True)
    os._exit(0)
kids.append(pid)
if COMPACT:
    pid = os.fork()
    if pid == 0:
        n = 0
        while time.monotonic() < stop:
            put("/sys/block/zram0/compact", 1)
            n += 1
            time.sleep(0.01)
        print("compactor: %d compactions" % n, flush=True)
        os._exit(0)
    kids.append(pid)
for k in kids:
    os.waitpid(k, 0)
print(open("/sys/block/zram0/mm_stat").read().strip(), flush=True)
subprocess.run(["swapoff", "/dev/zram0"])
