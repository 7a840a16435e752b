#!/usr/bin/env python3
"""Single-threaded perft speed of volkhv's `perft` against Stockfish's `go perft`.

Both count with bulk counting at the leaves. Each program is timed as a whole
process (wall clock), minus the same program's start-up time measured on an
empty run, alternating runs so both see the same machine load.

usage: scripts/perft_vs_stockfish.py [--depth 6] [--runs 5] [--stockfish PATH] [--perft PATH]
"""
import argparse
import statistics
import subprocess
import time

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def wall(cmd, stdin=None):
    t = time.perf_counter()
    out = subprocess.run(cmd, input=stdin, capture_output=True, text=True, check=True).stdout
    return time.perf_counter() - t, out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--depth", type=int, default=6)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    ap.add_argument("--perft", default="target/release/perft")
    a = ap.parse_args()

    sf_in = f"setoption name Threads value 1\nposition fen {START}\ngo perft {a.depth}\nquit\n"
    sf_idle = min(wall([a.stockfish], "quit\n")[0] for _ in range(3))
    vk_idle = min(wall([a.perft, "--depth", "0"])[0] for _ in range(3))
    sf_t, vk_t, nodes = [], [], None
    for _ in range(a.runs):
        t, out = wall([a.stockfish], sf_in)
        sf_nodes = int(out.split("Nodes searched:")[1].split()[0])
        sf_t.append(t - sf_idle)
        t, out = wall([a.perft, "--fen", START, "--depth", str(a.depth)])
        nodes = int(out.split("Nodes:")[1].split()[0])
        vk_t.append(t - vk_idle)
        assert nodes == sf_nodes, (nodes, sf_nodes)
    sf, vk = statistics.median(sf_t), statistics.median(vk_t)
    print(f"perft({a.depth}) start, {nodes} nodes, median of {a.runs} alternating runs")
    print(f"| program | time (s) | nodes/s |")
    print(f"|---|---|---|")
    print(f"| volkhv perft | {vk:.3f} | {nodes / vk / 1e6:.0f} M |")
    print(f"| Stockfish go perft | {sf:.3f} | {nodes / sf / 1e6:.0f} M |")
    print(f"ratio volkhv/Stockfish speed: {sf / vk:.2f}x")


if __name__ == "__main__":
    main()
