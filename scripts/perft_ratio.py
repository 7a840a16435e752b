#!/usr/bin/env python3
"""Perft speed of each variant against chess, from alternating rounds.

Runs `target/release/perft --variant V --depth D` for chess, plunder and
tavreli in turn, ROUNDS times, and prints each round's nodes/s with the
ratios to chess, then two summaries: the median of the per-round ratios and
the ratio of the best rounds (each variant's fastest run: on a shared machine
interference only ever slows a run down, so the fastest is the closest to
the program's own speed).

    python3 scripts/perft_ratio.py [--rounds 21] [--perft target/release/perft]
"""

import argparse
import re
import statistics
import subprocess
import sys

DEPTHS = {"chess": 6, "plunder": 6, "tavreli": 5}


def nps(perft: str, variant: str, depth: int) -> int:
    out = subprocess.run(
        [perft, "--variant", variant, "--depth", str(depth)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    m = re.search(r"NPS: (\d+)", out)
    if not m:
        sys.exit(f"no NPS line in the output of {perft} --variant {variant}")
    return int(m.group(1))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=21)
    ap.add_argument("--perft", default="target/release/perft")
    args = ap.parse_args()
    if args.rounds < 1:
        ap.error("--rounds must be at least 1")
    runs = {v: [] for v in DEPTHS}
    for r in range(1, args.rounds + 1):
        for v, d in DEPTHS.items():
            runs[v].append(nps(args.perft, v, d))
        c = runs["chess"][-1]
        print(
            f"round {r:2}: "
            + ", ".join(f"{v} {runs[v][-1] / 1e6:6.1f} M" for v in DEPTHS)
            + " | "
            + ", ".join(f"{v}/chess {runs[v][-1] / c:.3f}" for v in DEPTHS if v != "chess"),
            flush=True,
        )
    for v in DEPTHS:
        if v == "chess":
            continue
        ratios = [a / c for a, c in zip(runs[v], runs["chess"])]
        best = max(runs[v]) / max(runs["chess"])
        print(
            f"{v}/chess: median of rounds {statistics.median(ratios):.3f}, "
            f"best rounds {best:.3f} ({max(runs[v]) / 1e6:.0f} M / "
            f"{max(runs['chess']) / 1e6:.0f} M), range {min(ratios):.2f}-{max(ratios):.2f}"
        )


if __name__ == "__main__":
    main()
