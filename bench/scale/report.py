"""bench/scale: the targets and the Markdown tables from the measured lines."""

SQLITE, PG1, PG2 = "sqlite, 1 node", "postgresql, 1 node", "postgresql, 2 nodes"
NODE_RATIO = 2.0   # a node's CPU per request on PostgreSQL within 2x of SQLite's
GROWTH = 1.5       # CPU per request (node + PostgreSQL) at the largest size within 1.5x of the smallest


def _by_name(store):
    return {line["name"]: line for line in store["lines"]}


def targets(sizes):
    """Node CPU per request on PostgreSQL against SQLite's (each size, each line, one and two
    nodes), and the growth of CPU per request from the smallest size to the largest."""
    out = {"node_cpu_vs_sqlite": [], "growth": []}
    for size in sizes:
        sqlite = _by_name(size["stores"][SQLITE])
        for store in (PG1, PG2):
            for name, line in _by_name(size["stores"][store]).items():
                ratio = line["node_cpu_us"] / sqlite[name]["node_cpu_us"]
                out["node_cpu_vs_sqlite"].append({"tasks": size["tasks"], "store": store, "line": name,
                                                  "sqlite_us": sqlite[name]["node_cpu_us"], "us": line["node_cpu_us"],
                                                  "ratio": ratio, "met": ratio <= NODE_RATIO})
    if len(sizes) >= 2:
        small, large = sizes[0], sizes[-1]
        for store in (SQLITE, PG1, PG2):
            before, after = _by_name(small["stores"][store]), _by_name(large["stores"][store])
            for name in before:
                growth = after[name]["cpu_us"] / before[name]["cpu_us"]
                out["growth"].append({"store": store, "line": name, "from_tasks": small["tasks"], "to_tasks": large["tasks"],
                                      "from_us": before[name]["cpu_us"], "to_us": after[name]["cpu_us"],
                                      "rps_from": before[name]["rps"], "rps_to": after[name]["rps"],
                                      "growth": growth, "met": growth <= GROWTH})
    return out


def _met(ok):
    return "met" if ok else "**missed**"


def print_tables(document):
    print("\n| tasks | store | line | req/s | p50 | p99 | node CPU/request | PostgreSQL CPU/request | both | errors | load |")
    print("| ---: | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for size in document["sizes"]:
        for store_name, store in size["stores"].items():
            for line in store["lines"]:
                pg = "—" if line["pg_cpu_us"] is None else f"{line['pg_cpu_us']:.0f} µs"
                errors = str(line["errors"])
                if "if_match" in line:
                    errors += f" ({line['if_match']['stale_412']} × 412)"
                print(f"| {size['tasks']:,} | {store_name} | {line['name']} | {line['rps']:,.0f} | {line['p50_ms']:.2f} ms | "
                      f"{line['p99_ms']:.2f} ms | {line['node_cpu_us']:.0f} µs | {pg} | {line['cpu_us']:.0f} µs | {errors} | "
                      f"{line['load'][0]:.1f} |")
    found = document["targets"]
    print(f"\nNode CPU per request on PostgreSQL within {NODE_RATIO:g}× of SQLite's:\n")
    print("| tasks | store | line | SQLite node | PostgreSQL node | ratio | target |")
    print("| ---: | --- | --- | ---: | ---: | ---: | --- |")
    for t in found["node_cpu_vs_sqlite"]:
        print(f"| {t['tasks']:,} | {t['store']} | {t['line']} | {t['sqlite_us']:.0f} µs | {t['us']:.0f} µs | "
              f"{t['ratio']:.2f}× | {_met(t['met'])} |")
    if found["growth"]:
        print(f"\nGrowth of CPU per request (node + PostgreSQL), within {GROWTH:g}×:\n")
        print("| store | line | tasks | CPU/request | → tasks | CPU/request | growth | req/s | target |")
        print("| --- | --- | ---: | ---: | ---: | ---: | ---: | --- | --- |")
        for t in found["growth"]:
            print(f"| {t['store']} | {t['line']} | {t['from_tasks']:,} | {t['from_us']:.0f} µs | {t['to_tasks']:,} | "
                  f"{t['to_us']:.0f} µs | {t['growth']:.2f}× | {t['rps_from']:,.0f} → {t['rps_to']:,.0f} | {_met(t['met'])} |")
