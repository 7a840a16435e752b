#!/usr/bin/env python3
"""Dry run of OpenBench's client against two Volkhv builds, offline.

Imports the client's own modules (bench.py, genfens.py, worker.py from an
OpenBench checkout's Client/ folder, with its requirements installed:
requests, psutil, py-cpuinfo) and runs the steps of a workload that need
no server: the bench check, genfens, and the match runner, whose command
is built by the client's `build_runner_command` and parsed by its
`run_and_parse_runner`. The one change is the fork's (docs/openbench.md):
`./fastchess-ob` is replaced by `./Engines/<dev> match`, and for plunder
or tavreli `-variant standard` by `-variant <variant>`.

    scripts/openbench_dryrun.py --client ~/OpenBench/Client --work /tmp/ob \\
        --dev ./Volkhv-dev --base ./Volkhv-base [--variant plunder] \\
        [--rounds 8] [--concurrency 2] [--tc 2.0+0.02] [--sprt 'elo0=0 elo1=5']
"""

import argparse
import os
import queue
import shutil
import sys
import threading
import types


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--client", required=True, help="OpenBench's Client/ folder")
    p.add_argument("--work", required=True, help="an empty folder to run in")
    p.add_argument("--dev", required=True, help="the dev build")
    p.add_argument("--base", required=True, help="the base build")
    p.add_argument("--variant", default="chess", choices=["chess", "plunder", "tavreli"])
    p.add_argument("--rounds", type=int, default=8, help="rounds-per-runner")
    p.add_argument("--concurrency", type=int, default=2)
    p.add_argument("--tc", default="2.0+0.02", help="OpenBench's time control (8.0+0.08, N=5000, ...)")
    p.add_argument("--openings", type=int, default=16, help="genfens openings per thread")
    p.add_argument("--sprt", default="", help="appended as -sprt (the server computes it otherwise)")
    return p.parse_args()


def workload(args, book):
    branch = lambda name: {"options": "Threads=1 Hash=16", "engine": "Volkhv",
                           "time_control": args.tc, "name": name}
    return {
        "test": {
            "id": 1, "type": "SPRT", "book": {"name": book}, "play_reverses": True,
            "win_adj": "movecount=3 score=400", "draw_adj": "movenumber=40 movecount=8 score=10",
            "syzygy_adj": "DISABLED", "syzygy_wdl": "DISABLED",
            "book_index": 1, "book_seed": 12345,
            "genfens_seeds": [101, 202], "genfens_args": "",
            "dev": branch("dev"), "base": branch("base"),
        },
        "distribution": {"concurrency-per": args.concurrency,
                         "rounds-per-runner": args.rounds, "runner-count": 1},
        "result": {"id": 1},
    }


def main():
    args = parse_args()
    sys.path.insert(0, os.path.abspath(args.client))
    import bench, genfens, worker  # noqa: E401  (the client's modules)

    os.makedirs(args.work, exist_ok=True)
    for sub in ("Engines", "Books", "PGNs"):
        os.makedirs(os.path.join(args.work, sub), exist_ok=True)
    names = {"dev": "Volkhv-dev", "base": "Volkhv-base"}
    for branch, path in (("dev", args.dev), ("base", args.base)):
        shutil.copy(path, os.path.join(args.work, "Engines", names[branch]))
    os.chdir(args.work)

    print("== bench (Client/bench.py: run_benchmark, 2 runs each)")
    for branch in ("dev", "base"):
        nps, nodes = bench.run_benchmark(os.path.join("Engines", names[branch]), 1, 2)
        print("%s: bench %d, nps %d" % (names[branch], nodes, nps))

    print("\n== genfens (Client/genfens.py: create_genfens_opening_book)")
    book = "volkhv-%s.epd" % args.variant
    extra = "" if args.variant == "chess" else "variant %s" % args.variant
    with open(os.path.join("Books", book), "w") as out:
        genfens.create_genfens_opening_book({
            "N": args.openings, "book": "None", "seeds": [101, 202], "extra": extra,
            "engine": os.path.join("Engines", names["dev"]), "threads": 2, "output": out})
    with open(os.path.join("Books", book)) as f:
        lines = f.read().splitlines()
    print("%d openings, first: %s" % (len(lines), lines[0]))

    print("\n== match runner (Client/worker.py: build_runner_command, run_and_parse_runner)")
    config = types.SimpleNamespace(workload=workload(args, book), syzygy_max=None,
                                   syzygy_path=None, threads=2)
    command = worker.build_runner_command(config, names["dev"], names["base"], 1.0, 0, 0)
    command = command.replace("./fastchess-ob", "./Engines/%s match" % names["dev"], 1)
    if args.variant != "chess":
        command = command.replace("-variant standard", "-variant %s" % args.variant, 1)
    if args.sprt:
        command += " -sprt " + args.sprt
    results, abort = queue.Queue(), threading.Event()
    worker.run_and_parse_runner(config, command, 0, results, abort)
    penta, tri = [0] * 5, [0] * 3
    crashes = timelosses = illegals = 0
    while not results.empty():
        r = results.get()
        penta = [a + b for a, b in zip(penta, r["pentanomial"])]
        tri = [a + b for a, b in zip(tri, r["trinomial"])]
        crashes += r["crashes"]
        timelosses += r["timelosses"]
        illegals += r["illegals"]
    print("\nThe client would report: pentanomial %s (LL DL DD DW WW), trinomial %s (L D W), "
          "crashes %d, time losses %d, illegal moves %d" % (penta, tri, crashes, timelosses, illegals))


if __name__ == "__main__":
    main()
