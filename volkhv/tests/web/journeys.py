"""A player's path through the board, as a person walks it, in headless
Chromium at desktop size in English and at phone sizes (390x844 in Russian
and 360x640 in Kazakh, touch: the longer words must fit too):

    python3 journeys.py VOLKHV_BINARY WORK_DIR SCREENSHOT_DIR

- a beginner's path in each variant: choose Beginner (600) in the level
  chooser, New game (still Beginner, the engine on the same side), a move by
  clicks gets the engine's reply; a variant switch keeps the level too;
- library and back: the header's board link returns to the same game, and
  the library holds games, not visits (no game without moves);
- at phone size, a real finger (touch events): a drag and a tap-tap each
  play a move;
- a server killed (SIGKILL) and restarted on the same port with a Tavreli
  page open: the page says it is reconnecting, shows a move made meanwhile,
  and its clicks play again;
- at phone size no page (board, library, rules) is wider than the screen
  and the board takes at least 85 % of its width;
- none of those pages logs an error in the console on its way.

Every move is printed as `CHECK {"variant", "before", "move", "after"}` for
the Rust side (tests/journeys.rs) to check with movegen; `journeys ok` ends
a good run.
"""

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections import Counter

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException

import webdriver_setup
from webdriver_setup import TIMEOUT, log

BINARY, WORK, SHOTS = sys.argv[1], sys.argv[2], sys.argv[3]
webdriver_setup.isolate()
d = None


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def Server(db, port):
    """On a port of our choosing, so that a restart comes back on the same one."""
    return webdriver_setup.Server(BINARY, "--db", db, port=port)


def wait(what, pred, timeout=TIMEOUT):
    return webdriver_setup.wait_until(d, what, pred, os.path.join(SHOTS, "journeys-failure.png"),
                                      lambda: text_of("message"), timeout)


def text_of(element_id):
    found = d.find_elements(By.ID, element_id)
    return found[0].text if found else ""


def board():
    return d.find_element(By.ID, "board")


def fen():
    return board().get_attribute("data-fen")


def game_id():
    return board().get_attribute("data-game")


def click(css):
    return webdriver_setup.click(d, css)


check = webdriver_setup.print_check


def play(server, variant, frm, to, mv):
    """Plays `mv` by two taps (clicks) on its squares; returns the FEN after
    it, as the server kept it (an engine's quick reply may follow at once)."""
    before = fen()
    plies = len(server.api("GET", "/api/games/" + game_id())["history"])
    click('#board [data-square="%s"]' % frm)
    click('#board [data-square="%s"]' % to)
    st = settle(server, "the move " + mv, lambda s: len(s["history"]) > plies)
    played = st["history"][plies]
    assert played["move"] == mv, (played, mv)
    check(variant, before, mv, played["fen"])
    wait("the move on the board", lambda: fen() != before)
    return played["fen"]


def touch_points(*squares):
    """The centres of `squares` in the viewport, the board scrolled into
    view once (a second scroll would move the first point)."""
    return d.execute_script("""
document.getElementById('board').scrollIntoView({block: 'center'});
return arguments[0].map((sq) => {
  const r = document.querySelector('#board [data-square="' + sq + '"]').getBoundingClientRect();
  return [r.left + r.width / 2, r.top + r.height / 2];
});""", list(squares))


def touch(kind, point=None):
    """One real touch event (the Chrome DevTools protocol): what a finger
    sends, which the page sees as pointer events of type touch."""
    points = [{"x": point[0], "y": point[1]}] if point else []
    d.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})


def plain_move(legal, wanted):
    """The first of `wanted` (UCI strings) that is in `legal` (the game
    state's list) and the only legal move between its two squares, else the
    first such move of the position: the engine's reply at Beginner is drawn
    at random, and may give check or take the square a fixed move would need."""
    between = Counter((m["from"], m["to"]) for m in legal)
    plain = [m["move"] for m in legal if len(m["move"]) == 4 and between[(m["from"], m["to"])] == 1]
    assert plain, "no plain move in %s" % legal
    return next((mv for mv in wanted if mv in plain), plain[0])


def by_touch(server, variant, wanted, drag):
    """Plays a move with a finger (the first plain one of `wanted`, see
    plain_move): a drag from its square to its target, or a tap on each.
    Returns the FEN after it, as the server kept it."""
    before = fen()
    st = server.api("GET", "/api/games/" + game_id())
    plies = len(st["history"])
    mv = plain_move(st["legal"], wanted)
    frm, to = mv[:2], mv[2:]
    a, b = touch_points(frm, to)
    if drag:
        touch("touchStart", a)
        for i in range(1, 6):
            touch("touchMove", [a[0] + (b[0] - a[0]) * i / 5, a[1] + (b[1] - a[1]) * i / 5])
        touch("touchEnd")
    else:
        for p in (a, b):
            touch("touchStart", p)
            touch("touchEnd")
    st = settle(server, "the move " + mv + " by touch", lambda s: len(s["history"]) > plies)
    played = st["history"][plies]
    assert played["move"] == mv, (played, mv)
    check(variant, before, mv, played["fen"])
    return played["fen"]


def settle(server, what, pred):
    """Waits until the server's state of the shown game satisfies `pred`."""
    return wait(what, lambda: (lambda s: pred(s) and s)(server.api("GET", "/api/games/" + game_id())))


def reply_checked(server, variant, plies):
    """Waits for the engine's reply (the game at `plies`) and checks it."""
    st = settle(server, "the engine's reply", lambda s: len(s["history"]) == plies)
    before = st["history"][-2]["fen"] if plies >= 2 else None
    if before:
        check(variant, before, st["history"][-1]["move"], st["history"][-1]["fen"])
    wait("the reply on the board", lambda: fen() == st["fen"])
    return st


def no_sideways_scroll(where):
    width = d.execute_script("return document.documentElement.scrollWidth")
    inner = d.execute_script("return window.innerWidth")
    assert width <= inner, "%s is %d px wide on a %d px screen" % (where, width, inner)


def beginner_path(server, size):
    log("%s: first visit" % size)
    d.get(server.url)
    wait("the board", fen)
    assert d.find_element(By.ID, "welcome").is_displayed(), "a first visit is welcomed"
    names = [o.text for o in Select(d.find_element(By.ID, "level")).options]
    words = catalogue(LANG)
    beginner = words["level.named"].replace("{name}", words["level.beginner"]).replace("{elo}", "600")
    assert beginner in names, (beginner, names)
    assert d.execute_script("return document.documentElement.lang") == LANG
    Select(d.find_element(By.ID, "level")).select_by_value("600")
    st = settle(server, "the level", lambda s: s["settings"]["elo"] == 600)
    side = st["settings"]["engine"]
    assert side == "black", "the computer takes the other side: %s" % side
    first = game_id()
    for variant in ["chess", "plunder", "tavreli"]:
        if variant == "chess":
            click("#new-game")
        else:
            Select(d.find_element(By.ID, "variant")).select_by_value(variant)
        wait("a new %s game" % variant, lambda: game_id() != first and board().get_attribute("data-variant") == variant)
        first = game_id()
        st = server.api("GET", "/api/games/" + first)
        assert st["settings"]["elo"] == 600 and st["settings"]["engine"] == side, st["settings"]
        assert Select(d.find_element(By.ID, "level")).first_selected_option.get_attribute("value") == "600"
        play(server, variant, "e2", "e4", "e2e4")
        reply_checked(server, variant, 2)
        log("%s: %s at Beginner, e2e4 answered" % (size, variant))
    if size != "desktop":
        # A finger drags a knight out, then taps another one out (the
        # Tavreli game at Beginner answers each), or other plain moves
        # where the engine's random reply made those illegal.
        by_touch(server, "tavreli", ["g1h3", "g1f3", "a2a3", "h2h3"], drag=True)
        reply_checked(server, "tavreli", 4)
        by_touch(server, "tavreli", ["b1a3", "b1c3", "a2a3", "h2h3"], drag=False)
        reply_checked(server, "tavreli", 6)
        log("%s: a touch drag and a tap-tap played" % size)
        no_sideways_scroll("the board page")
        bw = board().size["width"]
        inner = d.execute_script("return window.innerWidth")
        assert bw >= 0.85 * inner, "the board is %d px of %d" % (bw, inner)
        d.save_screenshot(os.path.join(SHOTS, "phone-%s-board.png" % size))
    return first


def console_errors():
    """The errors the page logged since the last call (a failed request, a
    script error)."""
    return [e["message"] for e in d.get_log("browser") if e["level"] == "SEVERE"]


def library_and_back(server, gid, size):
    click("#library-link")
    wait("the library", lambda: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready"))
    listed = server.api("GET", "/api/library?limit=500")
    assert listed["games"] and all(g["plies"] > 0 for g in listed["games"]), \
        "the library holds games, not visits: %s" % [(g["id"], g["plies"]) for g in listed["games"]]
    if size != "desktop":
        no_sideways_scroll("the library")
        d.save_screenshot(os.path.join(SHOTS, "phone-%s-library.png" % size))
    link = wait("the board link", lambda: "game=" in d.find_element(By.ID, "board-link").get_attribute("href")
                and d.find_element(By.ID, "board-link"))
    link.click()
    wait("the same game", lambda: game_id() == gid)
    log("%s: library and back to game %s" % (size, gid))
    d.get(server.url + "rules.html?variant=tavreli")
    wait("the rules page", lambda: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready"))
    if size != "desktop":
        no_sideways_scroll("the rules page")
    d.find_element(By.ID, "board-link").click()
    wait("the same game from the rules page", lambda: game_id() == gid)
    errors = console_errors()
    assert not errors, "a normal page load logs no console error: %s" % errors


def restart_with_page_open(server, db):
    log("a Tavreli page through kill -9 and a restart")
    d.get(server.url + "?variant=tavreli")
    wait("the Tavreli board", lambda: board().get_attribute("data-variant") == "tavreli" and fen())
    gid = game_id()
    play(server, "tavreli", "e2", "e4", "e2e4")
    port = server.port
    server.kill()
    wait("the page says it is reconnecting", lambda: d.find_element(By.ID, "connection").is_displayed())
    server = Server(db, port)
    # A move made meanwhile, by another page of the same game.
    st = server.api("POST", "/api/games/%s/move" % gid, {"move": "e7e5"})
    check("tavreli", st["history"][-2]["fen"], "e7e5", st["fen"])
    t = time.time()
    wait("the move made meanwhile", lambda: fen() == st["fen"], timeout=15)
    log("shown %.1f s after it was made" % (time.time() - t))
    wait("the reconnection", lambda: not d.find_element(By.ID, "connection").is_displayed())
    after = play(server, "tavreli", "g1", "f3", "g1f3")
    kept = server.api("GET", "/api/games/" + gid)
    assert kept["fen"] == after and len(kept["history"]) == 3, kept["history"]
    return server


def catalogue(lang):
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "web",
                           "lang-%s.json" % lang), encoding="utf-8") as f:
        return json.load(f)["ui"]


def run(size, phone, lang):
    """One whole path at one size, the browser set to `lang`: a phone must
    fit the longer Russian and Kazakh words as well as the English ones."""
    global d, LANG
    LANG = lang
    db = os.path.join(WORK, "journeys-%s.db" % size)
    if os.path.exists(db):
        os.remove(db)
    server = Server(db, free_port())
    d = webdriver_setup.chromium(SHOTS, "journeys-" + size, phone=phone, lang=lang)
    try:
        gid = beginner_path(server, size)
        library_and_back(server, gid, size)
        if size in ("desktop", "390x844"):
            server = restart_with_page_open(server, db)
    finally:
        d.quit()
        server.kill()


run("desktop", None, "en")
run("390x844", (390, 844), "ru")
run("360x640", (360, 640), "kk")
print("journeys ok", flush=True)
