"""Playing a friend, in real browsers: a host invites, two players and a
watcher open their links in their own headless Chromium (White in Russian,
Black on a phone in Kazakh, the watcher in English), and a whole short game
is played by clicks. Driven by volkhv/tests/friends.rs.

    python3 friends.py VOLKHV_BINARY SCREENSHOT_DIR

- the host's *Invite a friend* makes three links, each with a copy button;
- each link opens the game as its seat: the board faces the player's
  colour, engine lines, hints and set-up are not there, both names and
  clocks are;
- a seat moves only its own side on its turn (a click on the other side's
  piece does nothing); every move shows on the other pages, the watcher's
  too; Fool's mate ends the game, and the review opens to the players;
- a second game: Black offers a draw with its button, White accepts it;
- a third: White resigns with its button; the host's library lists it as
  0-1 with both names;
- no page logs a console error.

Every move is printed as `CHECK {"variant", "before", "move", "after"}` for
the Rust side to check with movegen; `friends ok` ends a good run.
"""

import os
import sys
import time

from selenium.webdriver.common.by import By

import webdriver_setup
from webdriver_setup import TIMEOUT, log

BINARY, SHOTS = sys.argv[1], sys.argv[2]
webdriver_setup.isolate()
check = webdriver_setup.print_check


def wait(d, what, pred):
    return webdriver_setup.wait_until(d, what, pred, os.path.join(SHOTS, "friends-failure.png"),
                                      lambda: d.find_element(By.ID, "message").text)


def fen(d):
    return d.find_element(By.ID, "board").get_attribute("data-fen")


def shown(d, element_id):
    return d.find_element(By.ID, element_id).is_displayed()


def square_top(d, sq):
    return d.find_element(By.CSS_SELECTOR, '#board [data-square="%s"]' % sq).rect["y"]


def click(d, sq):
    webdriver_setup.click(d, '#board [data-square="%s"]' % sq)


def console_errors(d):
    return [e["message"] for e in d.get_log("browser") if e["level"] == "SEVERE"]


def open_board(d, url):
    webdriver_setup.navigate(d, url)
    wait(d, "the board", lambda: fen(d))


def invite(host, game, white, black):
    """The host's invitation: the three links as the page shows them."""
    open_board(host, server.url + "?game=" + game)
    webdriver_setup.click(host, "#invite")
    host.find_element(By.ID, "invite-white-name").send_keys(white)
    host.find_element(By.ID, "invite-black-name").send_keys(black)
    webdriver_setup.click(host, "#invite-create")
    links = {}
    for k in ["white", "black", "watch"]:
        links[k] = wait(host, "the %s link" % k, lambda: host.find_element(By.ID, "invite-%s-link" % k).get_attribute("value"))
        assert "seat=" in links[k] and ("game=" + game) in links[k], links[k]
    assert len(host.find_elements(By.CSS_SELECTOR, "#invite-links button.copy")) == 3
    return links


def seat_page(d, url, role):
    """Opens a seat's link and checks what a seat sees."""
    open_board(d, url)
    assert "seat=" not in d.current_url, "the secret leaves the address bar: " + d.current_url
    assert d.execute_script("return document.body.dataset.seat") == role, role
    for hidden in ["play-box", "analysis-box", "hint", "undo", "new-game", "lines", "evalbar"]:
        assert not shown(d, hidden), "%s sees #%s" % (role, hidden)
    wait(d, "both names", lambda: "Ann" in d.find_element(By.ID, "players").text
         and "Ivan" in d.find_element(By.ID, "players").text)
    assert shown(d, "clocks"), "the clocks"
    # The board faces the player: White's first rank at the bottom, Black's at the top.
    low, high = square_top(d, "a1"), square_top(d, "a8")
    assert (low > high) == (role != "black"), "%s: a1 at %s, a8 at %s" % (role, low, high)
    assert shown(d, "seat-actions") == (role != "watch")


def state(game):
    return server.api("GET", "/api/games/" + game)


def play(mover, others, game, frm, to, mv):
    """A seat's move by clicks; every page shows it."""
    before = state(game)
    click(mover, frm)
    click(mover, to)
    after = wait(mover, "the move " + mv, lambda: (lambda s: len(s["history"]) > len(before["history"]) and s)(state(game)))
    assert after["history"][-1]["move"] == mv, after["history"][-1]
    check("chess", before["fen"], mv, after["history"][-1]["fen"])
    for d in [mover] + others:
        wait(d, "the move on every page", lambda: fen(d) == after["fen"])
    return after


def seated_game(host, names=("Ann", "Ivan")):
    st = server.api("POST", "/api/games", {"variant": "chess", "clock": 300000, "inc": 2000})
    return st["id"], invite(host, st["id"], *names)


server = webdriver_setup.Server(BINARY, "--db", ":memory:")
host = webdriver_setup.chromium(SHOTS, "friends-host")
white = webdriver_setup.chromium(SHOTS, "friends-white", lang="ru")
black = webdriver_setup.chromium(SHOTS, "friends-black", phone=(390, 844), lang="kk")
watcher = webdriver_setup.chromium(SHOTS, "friends-watch")
pages = [host, white, black, watcher]
try:
    # 1. Fool's mate between two seats, a watcher looking on.
    game, links = seated_game(host)
    log("game %s, links made" % game)
    seat_page(white, links["white"], "white")
    seat_page(black, links["black"], "black")
    seat_page(watcher, links["watch"], "watch")
    wait(host, "both players online", lambda: state(game)["players"]["white"]["online"]
         and state(game)["players"]["black"]["online"])
    log("three pages open as their seats")
    # White clicks a black piece: nothing happens.
    before = fen(white)
    click(white, "e7")
    click(white, "e5")
    time.sleep(0.3)
    assert fen(white) == before and len(state(game)["history"]) == 0, "White moved Black's pawn"
    play(white, [black, watcher], game, "f2", "f3", "f2f3")
    # Black is not to be moved by White now either; Black's turn.
    play(black, [white, watcher], game, "e7", "e5", "e7e5")
    play(white, [black, watcher], game, "g2", "g4", "g2g4")
    end = play(black, [white, watcher], game, "d8", "h4", "d8h4")
    assert end["status"]["result"] == "0-1", end["status"]
    for d in [white, black, watcher]:
        wait(d, "the end on every page", lambda: d.execute_script("return document.body.dataset.over") == "1")
    assert shown(white, "review-box") and shown(black, "review-box"), "the review opens after the end"
    assert not shown(white, "seat-actions")
    white_status = white.find_element(By.ID, "status").text
    assert "0-1" in white_status and any("\u0400" <= c <= "\u04ff" for c in white_status), white_status
    log("Fool's mate played by two seats; the watcher saw every move: %s" % white_status)

    # 2. A draw offered by Black's button, accepted by White's.
    game, links = seated_game(host)
    for d, role in [(white, "white"), (black, "black")]:
        seat_page(d, links[role], role)
    play(white, [black], game, "e2", "e4", "e2e4")
    webdriver_setup.click(black, "#offer-draw")
    wait(white, "the offer on White's page", lambda: shown(white, "seat-offer"))
    assert "Ivan" in white.find_element(By.ID, "offer-text").text
    webdriver_setup.click(white, "#offer-accept")
    st = wait(white, "the agreed draw", lambda: (lambda s: s["status"] and s)(state(game)))
    assert st["status"]["result"] == "1/2-1/2" and st["status"]["reason_key"] == "agreed", st["status"]
    log("a draw offered and accepted by the buttons")

    # 3. White resigns after a move each; the host's library lists it.
    game, links = seated_game(host)
    seat_page(white, links["white"], "white")
    seat_page(black, links["black"], "black")
    play(white, [black], game, "d2", "d4", "d2d4")
    play(black, [white], game, "d7", "d5", "d7d5")
    white.execute_script("window.confirm = () => true;")
    webdriver_setup.click(white, "#resign")
    st = wait(white, "the resignation", lambda: (lambda s: s["status"] and s)(state(game)))
    assert st["status"]["result"] == "0-1", st["status"]
    webdriver_setup.navigate(host, server.url + "library.html")
    wait(host, "the library", lambda: host.execute_script("return document.body.dataset.ready"))
    row = host.find_element(By.CSS_SELECTOR, '#games tr[data-game="%s"]' % game).text
    assert "0-1" in row and "Ann" in row and "Ivan" in row, row
    log("the resigned game in the library: %s" % row.replace("\n", " "))

    for d, name in zip(pages, ["host", "white", "black", "watcher"]):
        errors = console_errors(d)
        assert not errors, "console errors on the %s's page: %s" % (name, errors)
    print("friends ok", flush=True)
except BaseException:
    for d, name in zip(pages, ["host", "white", "black", "watcher"]):
        d.save_screenshot(os.path.join(SHOTS, "friends-%s.png" % name))
    raise
finally:
    for d in pages:
        d.quit()
    server.stop()
