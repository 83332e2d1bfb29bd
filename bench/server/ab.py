"""Two slate binaries, each serving its own copy of one board, measured in turn (bench/server/ab)."""
import argparse
import os
import shutil
import subprocess

import bench  # run_wrk, API, account_ids, wait_for_port (bench/server/bench.py)

MODES = ("get", "list", "patch")


def free_port():
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--db", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--seconds", type=int, default=5)
    parser.add_argument("--work", required=True)
    parser.add_argument("binaries", nargs=2)
    args = parser.parse_args()
    wrk_args = argparse.Namespace(threads=2, connections=32)
    names = [f"A {args.binaries[0]}", f"B {args.binaries[1]}"]
    servers, ports = [], []
    try:
        for index, binary in enumerate(args.binaries):
            copy = os.path.join(args.work, f"{'ab'[index]}.sqlite")
            for suffix in ("", "-wal", "-shm"):
                if os.path.exists(args.db + suffix):
                    shutil.copy(args.db + suffix, copy + suffix)
            # Opened once by the binary's CLI first: an older board is upgraded, and the
            # upgrade's writes folded into the file, before the server runs (a server keeps
            # them in its write-ahead log, which every read of a page then looks through).
            subprocess.run([binary, "--db", copy, "stats"], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            ports.append(free_port())
            servers.append(subprocess.Popen(
                [binary, "serve", "--db", copy, "--port", str(ports[-1]), "--log-level", "off",
                 "--max-connections", "4096", "--connections-per-ip", "0"],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        for port, server in zip(ports, servers):
            bench.wait_for_port(port, server)
        ids, list_id, _ = bench.account_ids(bench.API(ports[0], args.token))
        ids_path = os.path.join(args.work, "ids.txt")
        with open(ids_path, "w") as f:
            f.write("\n".join(ids) + "\n")
        env = {"SLATE_TOKEN": args.token, "SLATE_IDS": ids_path, "SLATE_LIST": list_id}
        for port in ports:
            bench.run_wrk("warm-up", port, "mixed", 2, wrk_args, env)
        rows = [[], []]
        for round_ in range(args.rounds):
            # Alternate who goes first, so that neither always runs on the warmer machine.
            for index in ((0, 1) if round_ % 2 == 0 else (1, 0)):
                row = {}
                for mode in MODES:
                    result = bench.run_wrk(mode, ports[index], mode, args.seconds, wrk_args, env, pid=servers[index].pid)
                    row[mode] = (result["rps"], result["server_cpu_us_per_request"], result["error_total"])
                rows[index].append(row)
                print(f"round {round_ + 1} {names[index]}: "
                      + "  ".join(f"{m} {r:,.0f}/s {c:.1f} µs" + (f" ({e} errors)" if e else "") for m, (r, c, e) in row.items()),
                      flush=True)
        print("\nmedians (server CPU per request, requests/s):")
        for index in (0, 1):
            parts = []
            for mode in MODES:
                cpu = sorted(row[mode][1] for row in rows[index])
                rps = sorted(row[mode][0] for row in rows[index])
                parts.append(f"{mode} {cpu[len(cpu) // 2]:.1f} µs {rps[len(rps) // 2]:,.0f}/s")
            print(f"  {names[index]}: " + "  ".join(parts))
    finally:
        for server in servers:
            server.terminate()
        for server in servers:
            server.wait(timeout=30)


if __name__ == "__main__":
    main()
