"""The web board in a real browser: headless Chromium over WebDriver
(Selenium with the system chromedriver), driven by volkhv/tests/browser.rs.

    python3 browser.py URL SCREENSHOT_DIR

Plays moves by clicking (and one by dragging): a Tavreli tower split and a
PlunderChess vest capture and a promotion through the chooser, castling by
the king's click, an engine reply in every variant, a mate's status text,
navigation back through the move list, and a whole Tavreli and a whole
PlunderChess game against the engine by clicks alone. Every move is printed as a line
`CHECK {"variant", "before", "move", "after"}` so that the Rust side checks it
with movegen; the script itself checks the page against its contract.
"""

import json
import os
import random
import sys
import time
import urllib.parse
import urllib.request

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.common.exceptions import StaleElementReferenceException

import webdriver_setup
from webdriver_setup import TIMEOUT, log

URL, SHOTS = sys.argv[1], sys.argv[2]
webdriver_setup.isolate()

log("starting chromium")
d = webdriver_setup.chromium(SHOTS, "browser")
log("chromium started")


def wait(what, pred):
    deadline = time.time() + TIMEOUT
    while time.time() < deadline:
        v = pred()
        if v:
            return v
        time.sleep(0.05)
    d.save_screenshot(os.path.join(SHOTS, "failure.png"))
    raise AssertionError("timed out waiting for " + what + "; message: " + message())


def board():
    return d.find_element(By.ID, "board")


def fen():
    return board().get_attribute("data-fen")


def message():
    return d.find_element(By.ID, "message").text


def status():
    return d.find_element(By.ID, "status").text


def fresh(action):
    """`action()` again if the board was redrawn under it: the page redraws
    whenever the server's state arrives, which may be between finding a
    square and using it. A stale element is refused before any click lands."""
    for _ in range(5):
        try:
            return action()
        except StaleElementReferenceException:
            time.sleep(0.1)
    return action()


def square_element(name):
    return d.find_element(By.CSS_SELECTOR, '#board [data-square="%s"]' % name)


def pieces(square):
    """The data-piece tokens on a square, bottom to top, with their vests."""
    def read():
        sq = square_element(square)
        return [(p.get_attribute("data-piece"), p.get_attribute("data-vest"))
                for p in sq.find_elements(By.CSS_SELECTOR, "[data-piece]")]
    return fresh(read)


def navigate(url):
    return webdriver_setup.navigate(d, url)


def load(variant, position="startpos", **params):
    q = {"variant": variant, "fen": position}
    q.update({k: str(v) for k, v in params.items()})
    query = urllib.parse.urlencode(q)
    log("load " + query)
    navigate(URL + "?" + query)
    got = wait("the board", lambda: fen() or None)
    assert board().get_attribute("data-variant") == variant
    if position != "startpos" and params.get("engine") != "white":
        assert got == position, (got, position)
    check_contract()
    return got


def check_contract():
    squares = d.find_elements(By.CSS_SELECTOR, "#board [data-square]")
    assert len(squares) == 64, len(squares)
    stray = d.execute_script(
        "return [...document.querySelectorAll('[data-piece]')]"
        ".filter(e => !e.closest('#board [data-square]')).length")
    assert stray == 0, "data-piece outside the board's squares"


def click(square):
    fresh(lambda: square_element(square).click())


def hover(square):
    fresh(lambda: ActionChains(d).move_to_element(square_element(square)).perform())


def last_move():
    spans = d.find_elements(By.CSS_SELECTOR, "#moves span[data-ply]")
    return spans[-1].get_attribute("title") if spans else None


def record(variant, before, mv, after):
    print("CHECK " + json.dumps({"variant": variant, "before": before, "move": mv, "after": after}),
          flush=True)


def server_ply(before):
    """The server's record of the move played from FEN `before`: the page's
    game asked over HTTP, so the move and the FEN after it are movegen's."""
    game = board().get_attribute("data-game")
    # The page is read before the server: the engine may answer between the
    # two reads, and the page only ever lags the server, so this order makes
    # the page's position one the server's record must already hold.
    shown = fen()
    with urllib.request.urlopen(URL + "api/games/" + game, timeout=TIMEOUT) as r:
        state = json.load(r)
    fens = [state["start"]] + [p["fen"] for p in state["history"]]
    assert shown in fens, (shown, fens)
    for i, ply in enumerate(state["history"]):
        if fens[i] == before:
            return ply["move"], ply["fen"]
    raise AssertionError("no move from " + before + " in " + json.dumps(state["history"]))


def played(variant, before, expect=None):
    """Waits for the position to change, records the move played from `before`."""
    wait("the move to be played", lambda: fen() != before)
    mv, after = server_ply(before)
    if expect is not None:
        assert mv == expect, (mv, expect)
    record(variant, before, mv, after)
    check_contract()
    return after


def engine_reply(variant, before):
    """Waits until the engine (black) has answered and it is white's turn."""
    wait("the engine's reply", lambda: fen() != before and fen().split()[1] == "w")
    mv, after = server_ply(before)
    record(variant, before, mv, after)
    assert fen() == after, (fen(), after)
    check_contract()
    return after


def chooser_moves():
    box = d.find_element(By.ID, "chooser")
    wait("the chooser", box.is_displayed)
    return [b.get_attribute("data-move") for b in box.find_elements(By.CSS_SELECTOR, "[data-move]")]


def choose(mv):
    d.find_element(By.CSS_SELECTOR, '#chooser [data-move="%s"]' % mv).click()


def shot(name):
    d.save_screenshot(os.path.join(SHOTS, name))


def tavreli():
    start = load("tavreli", "4k3/8/8/8/3(PBR)4/8/8/4K3 w - - 0 1")
    assert pieces("d4") == [("P", None), ("B", None), ("R", None)], pieces("d4")
    click("d4")
    click("d8")
    assert sorted(chooser_moves()) == ["d4d8", "d4d8:1", "d4d8:2"], chooser_moves()
    texts = [b.text for b in d.find_elements(By.CSS_SELECTOR, "#chooser [data-move]")]
    assert any(t.startswith("Top 2 of 3 (bishop, rook) to d8") for t in texts), texts
    choose("d4d8:2")
    mid = played("tavreli", start, "d4d8:2")
    assert pieces("d4") == [("P", None)], pieces("d4")
    assert pieces("d8") == [("B", None), ("R", None)], pieces("d8")
    click("e8")
    click("f7")
    played("tavreli", mid, "e8f7")
    # The inspector lists a tower without data-piece.
    hover("d4")
    shot("tavreli-split.png")
    # The start position: a knight onto its own pawn makes a tower.
    start = load("tavreli", engine="black", movetime=100)
    click("b1")
    click("d2")
    mid = played("tavreli", start, "b1d2")
    assert pieces("d2") == [("P", None), ("N", None)], pieces("d2")
    after = engine_reply("tavreli", mid)
    d.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_LEFT)
    wait("navigation back", lambda: fen() == mid)
    d.find_element(By.TAG_NAME, "body").send_keys(Keys.END)
    wait("navigation to the end", lambda: fen() == after)
    assert after


def plunder():
    start = load("plunder", "3nk3/4P3/8/3p4/8/2N5/8/4K3 w - - 0 1", engine="black", movetime=100)
    click("c3")
    click("d5")
    assert sorted(chooser_moves()) == ["c3d5", "c3d5p"], chooser_moves()
    choose("c3d5p")
    mid = played("plunder", start, "c3d5p")
    assert pieces("d5") == [("N", "P")], pieces("d5")
    engine_reply("plunder", mid)
    # Promotion and vest in one chooser.
    start = load("plunder", "3nk3/4P3/8/8/8/8/8/4K3 w - - 0 1")
    click("e7")
    click("d8")
    moves = chooser_moves()
    assert "e7d8qn" in moves and "e7d8q" in moves and "e7d8n" in moves, moves
    choose("e7d8qn")
    played("plunder", start, "e7d8qn")
    assert pieces("d8") == [("Q", "N")], pieces("d8")
    # A bad FEN in the URL: a message and the variant's start position.
    navigate(URL + "?" + urllib.parse.urlencode({"variant": "plunder", "fen": "8/8/8 w - -"}))
    # The server's words for it: the reason and the field, from its keys.
    wait("the bad-FEN message", lambda: "cannot be set up: expected 8 ranks, found 3"
         " (the piece placement (field 1))" in message())
    start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    wait("the start position instead", lambda: fen() == start)
    assert board().get_attribute("data-variant") == "plunder"
    load("plunder", "3nk3/4P3/8/8/8/8/8/4K3 w - - 0 1")
    click("e7")
    click("d8")
    choose("e7d8qn")
    wait("the promotion", lambda: fen() != "3nk3/4P3/8/8/8/8/8/4K3 w - - 0 1")
    # A typed illegal move: a message, the board unchanged.
    before = fen()
    box = d.find_element(By.ID, "move-input")
    box.send_keys("e8e6")
    d.find_element(By.ID, "move-play").click()
    wait("the illegal-move message", lambda: "illegal" in message())
    assert fen() == before


def drag(src, dst):
    src, dst = square_element(src), square_element(dst)
    # The board redraws on the press, so the target is reached by offset.
    dx = dst.location["x"] - src.location["x"]
    dy = dst.location["y"] - src.location["y"]
    ActionChains(d).click_and_hold(src).move_by_offset(dx / 2, dy / 2) \
        .move_by_offset(dx / 2, dy / 2).release().perform()


def chess():
    start = load("chess", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    click("e1")
    click("g1")
    played("chess", start, "e1g1")
    assert pieces("g1") == [("K", None)] and pieces("f1") == [("R", None)]
    # Promotion: four choices.
    start = load("chess", "8/P6k/8/8/8/8/8/K7 w - - 0 1")
    click("a7")
    click("a8")
    assert sorted(chooser_moves()) == ["a7a8b", "a7a8n", "a7a8q", "a7a8r"], chooser_moves()
    choose("a7a8n")
    played("chess", start, "a7a8n")
    # A drag, then an engine reply.
    start = load("chess", engine="black", movetime=100)
    fresh(lambda: drag("e2", "e4"))
    mid = played("chess", start, "e2e4")
    engine_reply("chess", mid)
    # The engine mates (it plays white here); the status says so.
    start = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"
    load("chess", start, engine="white", movetime=200)
    played("chess", start)
    wait("the mate status", lambda: status() == "1-0 \u2014 Black is mated")


def game_state():
    game = board().get_attribute("data-game")
    with urllib.request.urlopen(URL + "api/games/" + game, timeout=TIMEOUT) as r:
        return json.load(r)


def whole_game(variant, seed):
    """A whole game against the engine by clicks only: random legal moves
    (from the server's list) clicked from and to, the chooser when it comes,
    until the game ends. Every ply of the game is then checked by movegen."""
    rng = random.Random(seed)
    load(variant, engine="black", movetime=50)
    for _ in range(400):
        state = game_state()
        if state["status"]:
            break
        if not state["human_to_move"]:
            time.sleep(0.05)
            continue
        # The server may be a move ahead of the page (the engine's reply still
        # on its way over the event stream): click only on the position it holds.
        before = state["history"][-1]["fen"] if state["history"] else state["start"]
        wait("the page to show the server's position", lambda: fen() == before)
        m = rng.choice(state["legal"])
        click(m["from"])
        click(m["to"])
        if d.find_element(By.ID, "chooser").is_displayed():
            choose(m["move"])
        wait("the move " + m["move"], lambda: fen() != before)
    state = wait("the end of the game", lambda: game_state()["status"] and game_state())
    log("%s game over after %d plies" % (variant, len(state["history"])))
    fens = [state["start"]] + [p["fen"] for p in state["history"]]
    for i, ply in enumerate(state["history"]):
        record(variant, fens[i], ply["move"], ply["fen"])
    wait("the result", lambda: status() == state["status"]["text"])
    assert fen() == fens[-1]
    check_contract()


def screenshots():
    """The README's pictures: towers and vests, mid-analysis with MultiPV."""
    d.set_window_size(1180, 820)
    for variant, moves, name in (
        ("tavreli", "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 f3e5 c6e5 d2d4 e5c4:1 d1e2 c4d6 c1g5 f8e7 e4e5 f6d5",
         "web-tavreli.png"),
        ("plunder", "e2e4 e7e5 g1f3 b8c6 f1b5 g8f6 b5c6n d7c6n f3e5p f6e4p", "web-plunder.png"),
    ):
        load(variant, moves=moves, analyse=1, multipv=3)
        wait("three lines", lambda: len(d.find_elements(By.CSS_SELECTOR, "#lines .line")) >= 3)
        # The inspector shows the tower (or the vested knight) on e5.
        hover("e5")
        time.sleep(4)
        shot(name)


try:
    tavreli()
    plunder()
    chess()
    whole_game("tavreli", 12)
    whole_game("plunder", 12)
    if os.environ.get("VOLKHV_SCREENSHOTS"):
        screenshots()
    log("done")
    print("browser ok", flush=True)
finally:
    d.quit()
