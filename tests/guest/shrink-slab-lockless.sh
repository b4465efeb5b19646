#!/bin/bash
# Reclaim (global and memcg paths of shrink_slab()) takes no lock itself:
# see shrink-slab-lockless.py.
exec python3 "$TESTS/guest/shrink-slab-lockless.py" "$@"
