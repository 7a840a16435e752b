"""The game library, the rules pages and the shared board's token in a real
browser: headless Chromium over WebDriver (Selenium with the system
chromedriver), driven by volkhv/tests/browser.rs.

    python3 library.py VOLKHV_BINARY DATABASE SCREENSHOT_DIR

Plays a game by clicks, reloads the page (the same game comes back),
kills the server with SIGKILL and starts a new one on the same database,
finds the game in the library page (filters, open, open at a move, continue
from there, delete), plays lesson moves on the rules pages through their
choosers, and opens a board shared with --host 0.0.0.0 through its token
address. Every move is printed as `CHECK {"variant", "before", "move",
"after"}` for the Rust side to check with movegen.
"""

import json
import os
import signal
import subprocess
import sys
import time

from selenium.webdriver.common.by import By
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException

import webdriver_setup
from webdriver_setup import TIMEOUT, log

BINARY, DB, SHOTS = sys.argv[1], sys.argv[2], sys.argv[3]
webdriver_setup.isolate()


def Server(*args):
    return webdriver_setup.Server(BINARY, *args)


def wait(what, pred):
    return webdriver_setup.wait_until(d, what, pred, os.path.join(SHOTS, "library-failure.png"),
                                      lambda: text_of("message"))


def text_of(element_id):
    found = d.find_elements(By.ID, element_id)
    return found[0].text if found else ""


def navigate(url):
    return webdriver_setup.navigate(d, url)


def fen():
    return d.find_element(By.ID, "board").get_attribute("data-fen")


def game_id():
    return d.find_element(By.ID, "board").get_attribute("data-game")


def click(css):
    return webdriver_setup.click(d, css)


def follow(element, expect):
    """Follows a link: its address must end with `expect`."""
    href = element.get_attribute("href")
    assert href.endswith(expect), (href, expect)
    navigate(href)


check = webdriver_setup.print_check


def play(variant, frm, to, mv):
    """Plays `mv` by clicking its two squares on the board."""
    before = fen()
    click('#board [data-square="%s"]' % frm)
    click('#board [data-square="%s"]' % to)
    after = wait("the move " + mv, lambda: fen() != before and fen())
    check(variant, before, mv, after)
    return after


def plies():
    return len(d.find_elements(By.CSS_SELECTOR, "#moves [data-ply]"))


def library_rows():
    wait("the library", lambda: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready"))
    return d.find_elements(By.CSS_SELECTOR, "#games tr[data-game]")


def row(gid):
    return d.find_elements(By.CSS_SELECTOR, '#games tr[data-game="%s"]' % gid)


def lesson_fen(i):
    return d.find_element(By.CSS_SELECTOR, 'svg.lesson-board[data-lesson="%d"]' % i).get_attribute("data-fen")


def lesson_move(variant, i, frm, to, mv):
    """Plays lesson `i`'s move `mv` by clicks, through its choices."""
    before = lesson_fen(i)
    base = 'svg.lesson-board[data-lesson="%d"] ' % i
    click(base + '[data-square="%s"]' % frm)
    click(base + '[data-square="%s"]' % to)
    box = d.find_element(By.CSS_SELECTOR, base).find_element(By.XPATH, "..")
    buttons = wait("the choices", lambda: box.find_elements(By.CSS_SELECTOR, ".choices button[data-move]"))
    offered = sorted(b.get_attribute("data-move") for b in buttons)
    log("lesson %d offers %s" % (i, offered))
    next(b for b in buttons if b.get_attribute("data-move") == mv).click()
    after = wait("the lesson's move", lambda: lesson_fen(i) != before and lesson_fen(i))
    check(variant, before, mv, after)
    return offered


# ---- a game kept across a reload and a restart --------------------------------

server = Server("--db", DB)
log("starting chromium")
d = webdriver_setup.chromium(SHOTS, "library")
try:
    navigate(server.url + "?variant=chess")
    wait("the board", fen)
    play("chess", "e2", "e4", "e2e4")
    play("chess", "e7", "e5", "e7e5")
    kept = play("chess", "g1", "f3", "g1f3")
    gid = game_id()
    assert "game=" + gid in d.current_url, d.current_url
    log("reload")
    navigate(d.current_url)
    wait("the same game after a reload", lambda: fen() == kept and game_id() == gid)
    wait("its move list", lambda: plies() == 3)

    log("restart the server (SIGKILL)")
    server.kill()
    server = Server("--db", DB)
    navigate(server.url + "library.html")
    rows = library_rows()
    assert row(gid), [r.get_attribute("data-game") for r in rows]
    cells = [c.text for c in row(gid)[0].find_elements(By.TAG_NAME, "td")]
    log("library row: %s" % cells)
    assert cells[1] == "Chess" and cells[4] == "*" and cells[5] == "2", cells
    d.find_element(By.CSS_SELECTOR, "#filter-variant option[value=plunder]").click()
    wait("the filter", lambda: not row(gid))
    d.find_element(By.CSS_SELECTOR, "#filter-variant option[value='']").click()
    wait("no filter", lambda: row(gid))
    d.save_screenshot(os.path.join(SHOTS, "library.png"))

    log("open it and play on")
    follow(row(gid)[0].find_element(By.CSS_SELECTOR, "a.open"), "/?game=" + gid)
    wait("the game opened", lambda: fen() == kept and game_id() == gid)
    play("chess", "b8", "c6", "b8c6")

    log("open it at ply 1 and continue from there")
    navigate(server.url + "library.html")
    library_rows()
    at = row(gid)[0].find_element(By.CSS_SELECTOR, "input.at")
    at.clear()
    at.send_keys("1")
    follow(row(gid)[0].find_element(By.CSS_SELECTOR, "a.open-at"), "/?game=%s&ply=1" % gid)
    after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    wait("the position after 1. e4", lambda: fen() == after_e4)
    click("#branch")
    wait("a new game from there", lambda: game_id() and game_id() != gid and fen() == after_e4)
    branch = game_id()
    play("chess", "c7", "c5", "c7c5")

    log("delete the branch in the library")
    navigate(server.url + "library.html")
    library_rows()
    assert row(branch) and row(gid)
    d.execute_script("window.confirm = () => true;")
    row(branch)[0].find_element(By.CSS_SELECTOR, "button.delete").click()
    wait("the row gone", lambda: not row(branch))
    assert row(gid)

    # ---- the rules pages ------------------------------------------------------
    navigate(server.url + "?variant=plunder")
    wait("the board", fen)
    follow(d.find_element(By.ID, "rules-link"), "/rules.html?variant=plunder")
    wait("the plunder lessons", lambda: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready"))
    assert "PlunderChess" in d.find_element(By.ID, "title").text
    lit = d.find_elements(By.CSS_SELECTOR, 'svg.lesson-board[data-lesson="2"] g.over circle')
    assert len(lit) >= 10, "the vested knight's moves are lit: %d" % len(lit)
    offered = lesson_move("plunder", 0, "c3", "d5", "c3d5b")
    assert offered == ["c3d5", "c3d5b"], offered
    offered = lesson_move("plunder", 1, "d2", "d5", "d2d5q")
    assert offered == ["d2d5", "d2d5n", "d2d5q"], offered
    d.save_screenshot(os.path.join(SHOTS, "rules-plunder.png"))
    navigate(server.url + "rules.html?variant=tavreli")
    wait("the tavreli lessons", lambda: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready"))
    offered = lesson_move("tavreli", 1, "d4", "d8", "d4d8:2")
    assert offered == ["d4d8", "d4d8:1", "d4d8:2"], offered
    d.save_screenshot(os.path.join(SHOTS, "rules-tavreli.png"))
    # ---- an import by the page: the report, and the list a page at a time -------
    log("import 55 games, one of them illegal, by pasting")
    navigate(server.url + "library.html")
    before = len(library_rows())
    games = []
    for i in range(55):
        moves = "1. e4 e5 2. Ke3" if i == 6 else "1. e4 {[%clk 0:05:00]} e5 (1... c5 2. Nf3) 2. Nf3 $1 ; fine\nNc6"
        games.append('[White "Ann %d"]\n[Black "Ivan"]\n\n%s %s' % (i + 1, moves, "*" if i < 54 else ""))
    box = d.find_element(By.ID, "import-text")
    d.execute_script("arguments[0].value = arguments[1];", box, "\n\n".join(games))
    click("#import")
    report = wait("the import report", lambda: "imported" in text_of("import-report") and text_of("import-report"))
    log("report: " + report)
    assert "54 games imported" in report and "1 game not readable" in report, report
    bad = d.find_elements(By.CSS_SELECTOR, '#import-report li[data-game="7"]')
    assert bad and "ply 3" in bad[0].text, report
    rows = wait("the first page", lambda: len(library_rows()) == 50 and library_rows())
    more = d.find_element(By.ID, "more")
    assert more.is_displayed()
    more.click()
    wait("the next page", lambda: len(library_rows()) == before + 54)
    assert not d.find_element(By.ID, "more").is_displayed()
    assert "%d games" % (before + 54) in text_of("count"), text_of("count")

    server.kill()

    # ---- a library that cannot be written: the reason on the page --------------
    server = Server("--db", "file:%s?mode=ro" % DB)
    navigate(server.url + "?game=" + gid)
    shown = wait("the kept game", lambda: game_id() == gid and fen())
    click('#board [data-square="f1"]')
    click('#board [data-square="c4"]')
    said = wait("the library's refusal", lambda: "cannot store" in text_of("message") and text_of("message"))
    log("message: " + said)
    assert "nothing was changed" in said, said
    assert fen() == shown, "the move was not played"
    server.kill()

    # ---- a shared board ---------------------------------------------------------
    shared = Server("--host", "0.0.0.0", "--db", ":memory:")
    bare = shared.url
    navigate(bare)
    assert "token" in d.page_source, "without the token: the refusal"
    assert d.find_elements(By.ID, "board") == []
    token = shared.shown.split("?token=")[1]
    navigate(bare + "?variant=tavreli&token=" + token)
    wait("the shared board", fen)
    assert "token" not in d.current_url, d.current_url
    play("tavreli", "e2", "e4", "e2e4")
    cookies = d.get_cookies()
    assert any(c["value"] == token and c["httpOnly"] for c in cookies), cookies
    assert token not in d.page_source
    shared.kill()
finally:
    d.quit()

print("library ok", flush=True)
