"""Background cgroup-writeback switch pressure (S2, S3 under pressure).

On each of BG_FS loop-backed ext4 filesystems, CHURNERS processes repeat:
create a memcg, move into it, write and fsync FILES new files of FILE_KB
(clean inodes attached to the memcg's writeback), move out, remove the memcg.
Removing the memcg takes its writeback offline, and cleanup_offline_cgwb()
switches every inode attached to it to the parent's: those are the inode wb
switches in flight.  One syncer per filesystem loops on syncfs(), whose
sync_inodes_sb() holds the bdi's wb_switch_rwsem for write and so keeps the
switch workers waiting: switches stay in flight longer.

Parameters come from the environment (S2_BG_FS, S2_CHURNERS, S2_FILES,
S2_FILE_KB, S2_SYNCERS, S2_BG_NICE) so that a scenario file can set them.
S2_BG_NICE is the nice value of the churners and syncers: with 2 vCPUs, a
background at nice 0 takes half the CPU from the measured umount, and its
latency then measures CPU contention more than waits.  The switch workers
are kernel threads and keep their priority.
"""
import ctypes
import os
import signal
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fsutil  # noqa: E402

CGROOT = "/sys/fs/cgroup"
_libc = ctypes.CDLL(None, use_errno=True)


def _env(name, default):
    return int(os.environ.get(name, default))


def _write(path, value):
    with open(path, "w") as f:
        f.write(value)


def setup_cgroup2():
    """cgroup v2 with the memory and io controllers on: what cgroup
    writeback needs.  Raises with the reason if the kernel lacks them."""
    if not os.path.exists(os.path.join(CGROOT, "cgroup.controllers")):
        os.makedirs(CGROOT, exist_ok=True)
        if os.system("mount -t cgroup2 none %s" % CGROOT) != 0:
            raise RuntimeError("cannot mount cgroup2 at %s" % CGROOT)
    have = open(os.path.join(CGROOT, "cgroup.controllers")).read().split()
    missing = [c for c in ("memory", "io") if c not in have]
    if missing:
        raise RuntimeError("cgroup2 lacks controllers: %s" % " ".join(missing))
    _write(os.path.join(CGROOT, "cgroup.subtree_control"), "+memory +io")


class Pressure:
    def __init__(self, workdir):
        self.workdir = workdir
        self.bg_fs = _env("S2_BG_FS", 4)
        self.churners = _env("S2_CHURNERS", 2)
        self.files = _env("S2_FILES", 2)
        self.file_kb = _env("S2_FILE_KB", 1024)
        self.syncers = _env("S2_SYNCERS", 1)
        self.nice = _env("S2_BG_NICE", 0)
        self.sources, self.mnts, self.pids = [], [], []
        self.count_dir = os.path.join(workdir, "counts")

    def params(self):
        return {"bg_fs": self.bg_fs, "churners_per_fs": self.churners, "files": self.files,
                "file_kb": self.file_kb, "syncers_per_fs": self.syncers, "nice": self.nice}

    def start(self):
        setup_cgroup2()
        os.makedirs(self.count_dir, exist_ok=True)
        for i in range(self.bg_fs):
            mnt = os.path.join(self.workdir, "bg%d" % i)
            os.makedirs(mnt, exist_ok=True)
            src = fsutil.make_fs("ext4", self.workdir, size_mb=256)
            fsutil.mount("ext4", src, mnt)
            self.sources.append(src)
            self.mnts.append(mnt)
            for c in range(self.churners):
                self._spawn(self._churn, mnt, "%d-%d" % (i, c))
            for s in range(self.syncers):
                self._spawn(self._sync, mnt, "%d-%d" % (i, s))
        self.started = time.monotonic()

    def stop(self):
        """Stop the background; return the number of memcgs churned."""
        for pid in self.pids:
            os.kill(pid, signal.SIGTERM)
        for pid in self.pids:
            os.waitpid(pid, 0)
        churned = 0
        for name in os.listdir(self.count_dir):
            if name.startswith("churn-"):
                churned += int(open(os.path.join(self.count_dir, name)).read() or 0)
        for mnt, src in zip(self.mnts, self.sources):
            fsutil.umount(mnt)
            fsutil.release_fs(src)
        return churned

    def _spawn(self, fn, mnt, tag):
        pid = os.fork()
        if pid == 0:
            stopping = []
            signal.signal(signal.SIGTERM, lambda *_: stopping.append(1))
            os.nice(self.nice)
            code = 0
            try:
                fn(mnt, tag, stopping)
            except Exception as e:  # report, but never return into the parent's code
                print("cgwb_pressure %s %s: %s" % (fn.__name__, tag, e), file=sys.stderr)
                code = 1
            os._exit(code)
        self.pids.append(pid)

    def _churn(self, mnt, tag, stopping):
        data = b"x" * (self.file_kb << 10)
        me = str(os.getpid())
        n = 0
        while not stopping:
            cg = os.path.join(CGROOT, "s2-%s-%d" % (tag, n))
            os.mkdir(cg)
            _write(os.path.join(cg, "cgroup.procs"), me)
            for j in range(self.files):
                with open(os.path.join(mnt, "c%s-%d-%d" % (tag, n, j)), "wb") as f:
                    f.write(data)
                    os.fsync(f.fileno())
            _write(os.path.join(CGROOT, "cgroup.procs"), me)
            os.rmdir(cg)
            # keep the last two rounds' files: their inodes are what the
            # offline cleanup switches
            for j in range(self.files):
                try:
                    os.unlink(os.path.join(mnt, "c%s-%d-%d" % (tag, n - 2, j)))
                except FileNotFoundError:
                    pass
            n += 1
        _write(os.path.join(self.count_dir, "churn-" + tag), str(n))

    def _sync(self, mnt, tag, stopping):
        fd = os.open(mnt, os.O_RDONLY)
        while not stopping:
            _libc.syncfs(fd)
        os.close(fd)
