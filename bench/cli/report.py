#!/usr/bin/env python3
"""Summarises bench/cli/run's hyperfine exports: a table of medians, the ratios
Taskwarrior ÷ Slate, the targets, and bench/cli/results/latest.json."""
import argparse
import datetime
import json
import os
import platform
import statistics

OPERATIONS = [
    ("add", "add a task", "slate add <title> #List", "task add project:List <title>"),
    ("list", "default list", "slate list (≤100 shown)", "task list (all pending)"),
    ("search", "list --search", "slate list --search WORD", "task list WORD"),
    ("done", "complete a task", "slate done N", "task N done"),
]
# Not a target: the cost of starting the process at all, for reading the others.
FLOOR = ("version", "start-up floor", "slate --version", "task --version")
LIST_CEILING_MS = 20.0
RATIO_TARGET = 10.0
RATIO_SIZE = 10000
# `slate list` on 1,000,000 tasks (100 accounts of 10,000) against the 10,000-task board alone.
MILLION_TARGET = 1.5


def load(path):
    with open(path) as f:
        data = json.load(f)
    out = {}
    for result in data["results"]:
        times = sorted(result["times"])
        out[result["command"]] = {
            "median_ms": statistics.median(times) * 1000,
            "mean_ms": result["mean"] * 1000,
            "stddev_ms": (result["stddev"] or 0) * 1000,
            "min_ms": result["min"] * 1000,
            "max_ms": result["max"] * 1000,
            "user_ms": result["user"] * 1000,
            "system_ms": result["system"] * 1000,
            "runs": len(times),
        }
    return out


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def main():
    parser = argparse.ArgumentParser()
    for name in ["results", "sizes", "out", "seconds", "load-before", "load-after", "command",
                 "slate-version", "taskwarrior-version", "hyperfine-version", "taskrc"]:
        parser.add_argument("--" + name, required=True)
    parser.add_argument("--million")
    parser.add_argument("--million-meta")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split()]

    measurements = {}
    meta = {}
    for size in sizes:
        meta[size] = json.load(open(os.path.join(args.results, "..", f"meta-{size}.json")))
        for op, *_ in OPERATIONS + [FLOOR]:
            path = os.path.join(args.results, f"{op}-{size}.json")
            if os.path.exists(path):
                measurements[(op, size)] = load(path)

    def median(op, size, tool):
        entry = measurements.get((op, size), {}).get(tool)
        return entry["median_ms"] if entry else None

    def cell(op, size, tool):
        """"42.6 ms (cpu 30.1)": the median wall-clock time, and the mean user+system CPU time."""
        entry = measurements.get((op, size), {}).get(tool)
        if not entry:
            return "–"
        return f"{entry['median_ms']:.1f} ms (cpu {entry['user_ms'] + entry['system_ms']:.1f})"

    slates = [tool for tool in ("slate", "slate-static")
              if any(tool in tools for tools in measurements.values())]

    def comparison(op):
        """The Taskwarrior command Slate is compared with: for list, `task list limit:100`,
        since Slate's default view shows at most 100 tasks."""
        return "taskwarrior-limit-100" if op == "list" else "taskwarrior"

    # Taskwarrior ÷ Slate, for every size Taskwarrior ran at.
    ratios = {}
    for size in sizes:
        for op, *_ in OPERATIONS + [FLOOR]:
            for tool in slates:
                s, t = median(op, size, tool), median(op, size, comparison(op))
                if s and t:
                    ratios[f"{op}-{size}-{tool}"] = t / s
                t = median(op, size, "taskwarrior")
                if op == "list" and s and t:
                    ratios[f"list-unlimited-{size}-{tool}"] = t / s

    largest = max(sizes)
    targets = {}
    for tool in slates:
        value = median("list", largest, tool)
        targets[f"{tool} list under {LIST_CEILING_MS:.0f} ms at {largest} tasks"] = {
            "value_ms": value, "met": value is not None and value < LIST_CEILING_MS}
    for tool in slates:
        for op, *_ in OPERATIONS:
            key = f"{op}-{RATIO_SIZE}-{tool}"
            if key in ratios:
                targets[f"{tool} {op}: at least {RATIO_TARGET:.0f}x faster than Taskwarrior at {RATIO_SIZE} tasks"] = {
                    "ratio": ratios[key], "met": ratios[key] >= RATIO_TARGET}

    million = load(args.million) if args.million else {}
    million_meta = json.load(open(args.million_meta)) if args.million_meta else {}
    # The file's real size (bench/cli/run --accounts): only 1,000,000 is the target's line.
    in_file = million_meta.get("tasksInFile", 1_000_000)
    in_file_label = f"{in_file:,} ({million_meta.get('accounts', 100)} accounts)"
    if million.get("slate-10000") and million.get("slate-1000000"):
        ratio = million["slate-1000000"]["median_ms"] / million["slate-10000"]["median_ms"]
        name = f"slate list at 1,000,000 tasks (100 accounts) within {MILLION_TARGET}x of 10,000" if in_file == 1_000_000 \
            else f"(check run, not the target) slate list at {in_file_label} within {MILLION_TARGET}x of 10,000"
        targets[name] = {
            "ratio": ratio, "met": ratio <= MILLION_TARGET,
            "value_ms": million["slate-1000000"]["median_ms"], "base_ms": million["slate-10000"]["median_ms"]}

    # The table, in Markdown: one row per operation and size.
    names = {"slate": "Slate", "slate-static": "Slate, static stdlib"}
    header = ["operation", "tasks"] + [names[t] for t in slates] + ["Taskwarrior"] + \
        [f"Taskwarrior ÷ {names[t]}" for t in slates]
    rows = []
    for op, label, slate_cmd, tw_cmd in OPERATIONS + [FLOOR]:
        for size in sizes:
            row = [f"{label}: `{slate_cmd}` vs `{tw_cmd}`", f"{size:,}"]
            row += [cell(op, size, tool) for tool in slates]
            row.append(cell(op, size, "taskwarrior"))
            key = "list-unlimited" if op == "list" else op
            row += [f"{ratios[k]:.1f}x" if (k := f"{key}-{size}-{tool}") in ratios else "–" for tool in slates]
            rows.append(row)
            if op == "list" and median(op, size, "taskwarrior-limit-100"):
                row = ["default list, Taskwarrior capped: `task list limit:100`", f"{size:,}"]
                row += ["" for _ in slates]
                row.append(cell(op, size, "taskwarrior-limit-100"))
                row += [f"{ratios[k]:.1f}x" if (k := f"{op}-{size}-{tool}") in ratios else "–" for tool in slates]
                rows.append(row)
    for name, label in (("slate-10000", "10,000 (one account)"), ("slate-1000000", in_file_label)):
        if name in million:
            entry = million[name]
            row = ["default list, one account's 10,000 tasks in a file of", label,
                   f"{entry['median_ms']:.1f} ms (cpu {entry['user_ms'] + entry['system_ms']:.1f})"]
            rows.append(row + ["" for _ in range(len(header) - len(row))])
    table = ["| " + " | ".join(header) + " |", "|" + "|".join(" --- " for _ in header) + "|"]
    table += ["| " + " | ".join(row) + " |" for row in rows]

    report = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "command": args.command,
        "seconds": int(args.seconds),
        "machine": {
            "cpu": cpu_model(), "cores": os.cpu_count(), "kernel": platform.release(),
            "loadBefore": args.load_before, "loadAfter": args.load_after,
        },
        "versions": {"slate": args.slate_version, "taskwarrior": args.taskwarrior_version,
                     "hyperfine": args.hyperfine_version},
        "taskwarriorSettings": args.taskrc,
        "datasets": {str(size): meta[size] for size in sizes}
        | ({str(in_file): million_meta} if million_meta else {}),
        "measurements": {f"{op}-{size}": tools for (op, size), tools in measurements.items()}
        | ({"list-million": million} if million else {}),
        "ratiosTaskwarriorOverSlate": {key: round(r, 2) for key, r in ratios.items()},
        "ratioNote": "Taskwarrior median ÷ Slate median, keyed operation-size-binary; list compares with "
                     "`task list limit:100` (Slate's default view shows at most 100), list-unlimited with `task list`.",
        "targets": targets,
    }
    with open(args.out, "w") as f:
        json.dump(report, f, indent=2, ensure_ascii=False)
        f.write("\n")

    print("Medians of whole-process wall-clock times (hyperfine, output to /dev/null);")
    print("in brackets the mean CPU time (user + system) of a run, which load on the machine inflates less:\n")
    print("\n".join(table))
    print()
    for name, target in targets.items():
        if "base_ms" in target:
            value = f"{target['ratio']:.2f}x ({target['value_ms']:.1f} ms against {target['base_ms']:.1f} ms)"
        else:
            value = f"{target['value_ms']:.1f} ms" if "value_ms" in target and target["value_ms"] else \
                (f"{target['ratio']:.1f}x" if "ratio" in target else "n/a")
        print(f"  {'MET   ' if target['met'] else 'MISSED'}  {name}: {value}")
    print(f"\nload average before {args.load_before}, after {args.load_after}; {args.seconds} s in all")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
