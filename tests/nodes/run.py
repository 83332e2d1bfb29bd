"""Runs the test_* functions of tests/nodes/test_nodes.py in order and prints one line each;
exits 1 if any failed. (The standard library only; the server is scripts/pg-cluster's.)"""
import sys
import time
import traceback

import test_nodes

failed = 0
names = sys.argv[1:]
for test in [getattr(test_nodes, name) for name in dir(test_nodes) if name.startswith("test_")]:
    if names and not any(name in test.__name__ for name in names):
        continue
    started = time.monotonic()
    try:
        test()
        print(f"ok    {test.__name__} ({time.monotonic() - started:.1f}s)", flush=True)
    except Exception:
        failed += 1
        print(f"FAIL  {test.__name__}", flush=True)
        traceback.print_exc()
sys.exit(1 if failed else 0)
