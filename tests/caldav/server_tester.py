"""Runs caldav-server-tester (pinned) against Slate and compares its verdicts with
tests/caldav/server-tester-expected.txt.

It runs through todo_only_tester.py, which adapts the tester to a server that holds tasks
only (its fixtures as tasks; checks of non-event features get their object as a VTODO).
The tester always exits 0 and its JSON lists only what differs from its defaults, so its
`--verbose` text is parsed instead (`## feature` then `Feature support level found: X`).
A feature found worse than expected fails the run; one found better is reported, so the
expected file can be raised. `--write` rewrites the expected file from this run.

Usage: server_tester.py URL USER PASSWORD [--write]
"""

import pathlib
import re
import subprocess
import sys

EXPECTED = pathlib.Path(__file__).with_name("server-tester-expected.txt")

# Worst first: a verdict's index is how good it is.
LEVELS = ["broken", "ungraceful", "unsupported", "unknown", "?", "fragile", "quirk", "full"]


def run(url, user, password):
    # Every check, through the todo-only adaptation (todo_only_tester.py says what it changes).
    command = [sys.executable, str(pathlib.Path(__file__).with_name("todo_only_tester.py")), "--caldav-url", url,
               "--caldav-username", user, "--caldav-password", password, "--verbose"]
    result = subprocess.run(command, capture_output=True, text=True, timeout=240)
    found = {}
    for block in result.stdout.split("\n## ")[1:]:
        name = block.split("\n", 1)[0].strip()
        match = re.search(r"Feature support level found: (\S+)", block)
        if match:
            found[name] = match.group(1)
    if not found:
        sys.exit("caldav-server-tester reported nothing:\n" + result.stdout[-2000:] + result.stderr[-2000:])
    return found


def rank(level):
    return LEVELS.index(level) if level in LEVELS else 0


def main():
    url, user, password = sys.argv[1:4]
    found = run(url, user, password)
    if "--write" in sys.argv:
        EXPECTED.write_text("# caldav-server-tester 1.7.0 against Slate (through todo_only_tester.py): feature and the level\n"
                            "# expected at least. Event and journal features are unsupported: Slate's collections hold tasks.\n"
                            + "".join(f"{name} {level}\n" for name, level in sorted(found.items())))
        print(f"wrote {len(found)} verdicts to {EXPECTED}")
        return
    expected = dict(line.split() for line in EXPECTED.read_text().splitlines() if line and not line.startswith("#"))
    worse = [(name, level, found.get(name, "missing")) for name, level in expected.items()
             if rank(found.get(name, "broken")) < rank(level)]
    better = [(name, expected[name], level) for name, level in found.items() if name in expected and rank(level) > rank(expected[name])]
    full = sum(1 for level in found.values() if level == "full")
    print(f"caldav-server-tester: {full} of {len(found)} features full")
    for name, was, now in better:
        print(f"  better than expected: {name} {was} -> {now}")
    for name, was, now in worse:
        print(f"  WORSE than expected: {name} expected {was}, found {now}")
    sys.exit(1 if worse else 0)


if __name__ == "__main__":
    main()
