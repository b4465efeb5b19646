#!/bin/bash
# Non-lazy umount(2) racing path walks, mountinfo readers and d_path: see
# umount-race.py.
exec python3 "$TESTS/guest/umount-race.py" "$@"
