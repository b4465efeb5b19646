#!/bin/bash
# Allocation failures injected into mount(2): see fault-inject-mount.py.
exec python3 "$TESTS/guest/fault-inject-mount.py" "$@"
