"""Runs the test_* functions of the given modules in order and prints one line each;
exits 1 if any failed. (No test framework needed beyond the standard library.)"""
import importlib
import sys
import time
import traceback

failed = 0
for name in sys.argv[1:]:
    module = importlib.import_module(name)
    for test in [getattr(module, attribute) for attribute in dir(module) if attribute.startswith("test_")]:
        started = time.monotonic()
        try:
            test()
            print(f"ok    {name}.{test.__name__} ({time.monotonic() - started:.1f}s)", flush=True)
        except Exception:
            failed += 1
            print(f"FAIL  {name}.{test.__name__}", flush=True)
            traceback.print_exc()
sys.exit(1 if failed else 0)
