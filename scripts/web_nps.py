#!/usr/bin/env python3
"""Search speed behind `volkhv serve` against UCI: the same position and node
limit, Threads 1, Hash 16, fresh engine each run, runs alternating UCI /
serve so that machine noise hits both alike. Prints each run's nps (as the
engine reports it) and the serve/UCI ratio of the medians per variant.

    python3 scripts/web_nps.py [target/release/volkhv] [nodes] [rounds]
"""

import json
import socket
import statistics
import subprocess
import sys
import urllib.request

VOLKHV = sys.argv[1] if len(sys.argv) > 1 else "target/release/volkhv"
NODES = int(sys.argv[2]) if len(sys.argv) > 2 else 2_000_000
ROUNDS = int(sys.argv[3]) if len(sys.argv) > 3 else 4

POSITIONS = {
    "chess": "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "plunder": "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "tavreli": "r1b1kb1r/pp(PP)p1ppp/2(pN)5/3(Bq)4/4(PPn)3/2N5/PPP2PPP/R1BQK2R w KQkq - 0 1",
}


def uci_nps(variant, fen):
    p = subprocess.Popen([VOLKHV], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    p.stdin.write(f"uci\nsetoption name UCI_Variant value {variant}\nsetoption name Hash value 16\n"
                  f"isready\nposition fen {fen}\ngo nodes {NODES}\n")
    p.stdin.flush()
    last = None
    for line in p.stdout:
        if line.startswith("info") and " nps " in line:
            last = line.split()
        if line.startswith("bestmove"):
            break
    p.stdin.write("quit\n")
    p.stdin.flush()
    p.wait()
    return int(last[last.index("nps") + 1])


def serve_nps(variant, fen):
    # A measurement keeps no games: the library in memory.
    p = subprocess.Popen([VOLKHV, "serve", "--port", "0", "--db", ":memory:"], stdout=subprocess.PIPE, text=True)
    url = p.stdout.readline().split()[-1]
    host, port = url[len("http://"):-1].split(":")

    def post(path, body):
        req = urllib.request.Request(url + path, data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req) as r:
            return json.load(r)

    try:
        game = post("api/games", {"variant": variant, "fen": fen, "hash": 16, "threads": 1})["id"]
        es = socket.create_connection((host, int(port)))
        es.settimeout(120)
        es.sendall(f"GET /api/games/{game}/events HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n".encode())
        post(f"api/games/{game}/settings", {"nodes": NODES, "engine": "white"})
        buf, last = "", None
        while True:
            buf += es.recv(65536).decode()
            while "\n\n" in buf:
                event, buf = buf.split("\n\n", 1)
                lines = event.split("\n")
                if lines[0] == "event: info":
                    last = json.loads(lines[1][len("data: "):])
                elif lines[0] == "event: state" and last is not None:
                    state = json.loads(lines[1][len("data: "):])
                    if state["history"]:
                        es.close()
                        return last["nps"]
    finally:
        p.kill()
        p.wait()


def main():
    print(f"{VOLKHV}, {NODES} nodes per search, {ROUNDS} rounds, alternating")
    ratios = []
    for variant, fen in POSITIONS.items():
        uci, serve = [], []
        for _ in range(ROUNDS):
            uci.append(uci_nps(variant, fen))
            serve.append(serve_nps(variant, fen))
        ratio = statistics.median(serve) / statistics.median(uci)
        print(f"{variant:8} uci   {uci}")
        print(f"{variant:8} serve {serve}")
        print(f"{variant:8} serve/uci median ratio {ratio:.3f}")
        ratios.append(ratio)
    print(f"geometric mean of the ratios {statistics.geometric_mean(ratios):.3f}")


main()
