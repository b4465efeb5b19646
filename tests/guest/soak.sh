#!/bin/bash
# The soak (mount/umount cycles under background load): see soak.py.
exec python3 "$TESTS/guest/soak.py" "$@"
