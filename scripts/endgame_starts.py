#!/usr/bin/env python3
"""Random endings for `volkhv datagen --starts`: positions with little
material, which self-play from the start position rarely reaches (and in
Tavreli, whose pieces never leave the board, never does), so that the
win/draw/loss model is fitted on what a bare king against a queen means too.

usage: scripts/endgame_starts.py --variant V --count N --seed S [--bare X,Y] > FILE

With --bare, only those sets against a bare king (e.g. Q,R,BN), in turn.

Each line is a FEN: two kings and one of the material sets below, placed at
random (no pawn on the first or last rank, kings apart, the side not to move
not in check). Positions that are mate or stalemate already are left out by
datagen itself. Deterministic for a seed."""

import argparse
import random
import sys

# White's and Black's pieces besides the kings; each set is also played with
# the colours swapped. Tavreli's helgi (H) stands in for some queens there.
SETS = [
    ("Q", ""), ("R", ""), ("Q", "R"), ("R", "B"), ("R", "N"), ("RP", "R"),
    ("BN", ""), ("BB", ""), ("P", ""), ("PP", "P"), ("Q", "Q"), ("R", "R"),
    ("RB", "R"), ("QP", "Q"), ("BP", "B"), ("NP", "N"), ("R", "P"), ("Q", "P"),
    ("RPP", "RP"), ("NN", ""), ("Q", "RB"), ("RN", "R"), ("BPP", "N"),
    ("QR", "Q"), ("PPP", "PP"), ("B", "P"), ("N", "P"), ("RR", "R"),
]
HELGI_SETS = [("H", ""), ("H", "R"), ("HP", "H"), ("H", "Q")]

KNIGHT = [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)]
KING = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]
ROOK = [(1, 0), (-1, 0), (0, 1), (0, -1)]
BISHOP = [(1, 1), (1, -1), (-1, 1), (-1, -1)]


def attacks(board, sq, piece):
    """Squares `piece` on `sq` attacks on `board` ({(file, rank): letter})."""
    f, r = sq
    kind = piece.upper()
    white = piece.isupper()
    out = set()
    def slide(dirs):
        for df, dr in dirs:
            x, y = f + df, r + dr
            while 0 <= x < 8 and 0 <= y < 8:
                out.add((x, y))
                if (x, y) in board:
                    break
                x, y = x + df, y + dr
    def leap(steps):
        for df, dr in steps:
            if 0 <= f + df < 8 and 0 <= r + dr < 8:
                out.add((f + df, r + dr))
    if kind == "K":
        leap(KING)
    if kind == "N" or kind == "H":
        leap(KNIGHT)
    if kind in "RQH":
        slide(ROOK)
    if kind in "BQH":
        slide(BISHOP)
    if kind == "P":
        dr = 1 if white else -1
        leap([(-1, dr), (1, dr)])
    return out


def fen(board, turn):
    rows = []
    for r in range(7, -1, -1):
        row, empty = "", 0
        for f in range(8):
            p = board.get((f, r))
            if p is None:
                empty += 1
            else:
                row += (str(empty) if empty else "") + p
                empty = 0
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows) + f" {turn} - - 0 1"


def position(rng, white, black):
    while True:
        board = {}
        squares = [(f, r) for f in range(8) for r in range(8)]
        rng.shuffle(squares)
        wk, bk = squares.pop(), squares.pop()
        if max(abs(wk[0] - bk[0]), abs(wk[1] - bk[1])) <= 1:
            continue
        board[wk], board[bk] = "K", "k"
        ok = True
        for letters, upper in ((white, True), (black, False)):
            for letter in letters:
                sq = next((s for s in squares if letter != "P" or 0 < s[1] < 7), None)
                if sq is None:
                    ok = False
                    break
                squares.remove(sq)
                board[sq] = letter if upper else letter.lower()
        if not ok:
            continue
        turn = rng.choice("wb")
        waiting_king = bk if turn == "w" else wk
        mover_upper = turn == "w"
        if any(waiting_king in attacks(board, s, p)
               for s, p in board.items() if p.isupper() == mover_upper):
            continue
        return fen(board, turn)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", required=True, choices=["chess", "plunder", "tavreli"])
    ap.add_argument("--count", type=int, required=True)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--bare", help="comma-separated sets against a bare king")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    sets = SETS + (HELGI_SETS if args.variant == "tavreli" else [])
    if args.bare:
        sets = [(s, "") for s in args.bare.split(",")]
    for i in range(args.count):
        white, black = sets[i % len(sets)]
        if rng.random() < 0.5:
            white, black = black, white
        print(position(rng, white, black))


if __name__ == "__main__":
    sys.exit(main())
