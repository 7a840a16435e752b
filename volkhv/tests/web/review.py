"""The board's level chooser, hint, win/draw/loss and game review in headless
Chromium (Selenium with the system chromedriver), driven by
volkhv/tests/browser.rs.

    python3 review.py URL SCREENSHOT_DIR

Chooses a level in the chooser and reads it back from the server; asks a
hint in a mate-in-one and finds its arrow on the board; reads the
win/draw/loss percentages of an analysis; reviews a game with a hanging
queen and reads the marks, the better move's arrow, the graph's marks and
each side's accuracy from the page. What it saw is printed as `SAW {...}`
lines that the Rust side checks again.
"""

import json
import os
import sys
import time
import urllib.parse
import urllib.request

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select
from selenium.common.exceptions import StaleElementReferenceException

import webdriver_setup
from webdriver_setup import TIMEOUT, log

URL, SHOTS = sys.argv[1], sys.argv[2]
webdriver_setup.isolate()

HANGING_QUEEN = "e2e4,e7e5,g1f3,d8g5,f3g5"
MATE_IN_ONE = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"


def saw(what, **fields):
    print("SAW " + json.dumps(dict(what=what, **fields)), flush=True)


log("starting chromium")
d = webdriver_setup.chromium(SHOTS, "review", page_load_timeout=TIMEOUT / 2)


def message():
    return d.find_element(By.ID, "message").text


def wait(what, pred):
    deadline = time.time() + TIMEOUT
    while time.time() < deadline:
        try:
            v = pred()
        except StaleElementReferenceException:
            v = None
        if v:
            return v
        time.sleep(0.05)
    d.save_screenshot(os.path.join(SHOTS, "review-failure.png"))
    raise AssertionError("timed out waiting for " + what + "; message: " + message())


def board():
    return d.find_element(By.ID, "board")


def navigate(url):
    return webdriver_setup.navigate(d, url)


def load(**params):
    query = urllib.parse.urlencode({k: str(v) for k, v in params.items()})
    log("load " + query)
    navigate(URL + "?" + query)
    wait("the board", lambda: board().get_attribute("data-fen") or None)
    return board().get_attribute("data-game")


def server_state(game):
    with urllib.request.urlopen("%sapi/games/%s" % (URL, game), timeout=TIMEOUT) as r:
        return json.loads(r.read())


def arrow(kind):
    found = d.find_elements(By.CSS_SELECTOR, '#board [data-arrow="%s"]' % kind)
    return (found[0].get_attribute("data-from"), found[0].get_attribute("data-to")) if found else None


def level():
    game = load(variant="chess", engine="black", movetime=100)
    names = [o.text for o in Select(d.find_element(By.ID, "level")).options]
    # The top names what full strength measured, the server's top of the scale.
    full = "Full strength (≈%d)" % server_state(game)["levels"]["max"]
    assert names[0] == full, names
    assert "Casual (1350)" in names, names
    Select(d.find_element(By.ID, "level")).select_by_visible_text("Casual (1350)")
    st = wait("the level on the server", lambda: (lambda s: s if s["settings"]["elo"] == 1350 else None)(server_state(game)))
    saw("level", elo=st["settings"]["elo"], options=names)
    # Back to full strength.
    Select(d.find_element(By.ID, "level")).select_by_visible_text(full)
    wait("full strength on the server", lambda: server_state(game)["settings"]["elo"] is None)
    # The chooser shows a game's level when it is opened.
    navigate(URL + "?game=" + game)
    wait("the board", lambda: board().get_attribute("data-fen") or None)
    assert Select(d.find_element(By.ID, "level")).first_selected_option.text == full


def hint():
    load(variant="chess", fen=MATE_IN_ONE)
    d.find_element(By.ID, "hint").click()
    got = wait("the hint's arrow", lambda: arrow("hint"))
    wait("the hint's message", lambda: "Ra8#" in message())
    saw("hint", arrow=list(got), message=message())
    assert got == ("a1", "a8"), got


def wdl():
    load(variant="chess", fen="4k3/8/8/8/8/8/3Q4/4K3 b - - 0 40", analyse=1)
    box = wait("the win/draw/loss box", lambda: (lambda b: b if b.is_displayed() and b.text else None)(d.find_element(By.ID, "wdl")))
    time.sleep(1)
    # One script reads all three spans: the analysis keeps streaming, and spans read one by one
    # could come from two different search lines.
    parts, texts = d.execute_script(
        "const ks = ['win', 'draw', 'loss'].map(k => document.getElementById('wdl-' + k));"
        "return [ks.map(e => Number(e.dataset.permille)), ks.map(e => e.textContent)];"
    )
    saw("wdl", permille=parts, text=texts)
    assert sum(parts) == 1000, parts
    assert parts[0] > 800, parts
    assert all(t.endswith("%") for t in texts), texts
    assert box.is_displayed()
    if os.environ.get("VOLKHV_SCREENSHOTS"):
        d.save_screenshot(os.path.join(SHOTS, "web-wdl.png"))
    d.find_element(By.ID, "stop").click()


def review():
    game = load(variant="chess", moves=HANGING_QUEEN)
    d.find_element(By.ID, "review").click()
    wait("the review's accuracy", lambda: d.find_element(By.ID, "accuracy").is_displayed())
    marks = {}
    for span in d.find_elements(By.CSS_SELECTOR, "#moves span[data-ply]"):
        marks[span.get_attribute("data-ply")] = span.get_attribute("data-mark")
    white = float(d.find_element(By.ID, "accuracy-white").text)
    black = float(d.find_element(By.ID, "accuracy-black").text)
    graph = [(c.get_attribute("data-review-ply"), c.get_attribute("data-mark"))
             for c in d.find_elements(By.CSS_SELECTOR, "#graph .review-mark")]
    # Selecting the queen move shows the better move as an arrow.
    d.find_element(By.CSS_SELECTOR, '#moves span[data-ply="4"]').click()
    better = wait("the better move's arrow", lambda: arrow("better"))
    note = d.find_element(By.ID, "review-note").text
    saw("review", marks=marks, accuracy=[white, black], graph=graph, better=list(better), note=note, game=game)
    assert marks["4"] in ("mistake", "blunder"), marks
    assert better != ("d8", "g5"), better
    assert "better was" in note, note
    assert ("4", marks["4"]) in graph, graph
    assert 0 <= black < white <= 100, (white, black)


def screenshot():
    """The README's picture: Legal's mate reviewed, 5...Bxd1?? selected."""
    d.set_window_size(1180, 820)
    load(variant="chess", moves="e2e4,e7e5,g1f3,d7d6,f1c4,c8g4,b1c3,g7g6,f3e5,g4d1,c4f7,e8e7,c3d5")
    d.find_element(By.ID, "review").click()
    wait("the review's accuracy", lambda: d.find_element(By.ID, "accuracy").is_displayed())
    d.find_element(By.CSS_SELECTOR, '#moves span[data-ply="10"]').click()
    wait("the better move's arrow", lambda: arrow("better"))
    d.save_screenshot(os.path.join(SHOTS, "web-review.png"))


try:
    level()
    hint()
    wdl()
    review()
    if os.environ.get("VOLKHV_SCREENSHOTS"):
        screenshot()
    log("done")
    print("review ok", flush=True)
finally:
    d.quit()
