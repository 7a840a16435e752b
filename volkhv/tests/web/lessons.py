"""The rules pages' lessons in a real browser: headless Chromium over
WebDriver (Selenium with the system chromedriver), driven by
volkhv/tests/lessons.rs.

    python3 lessons.py VOLKHV_BINARY SCREENSHOT_DIR

Starts `volkhv serve`, opens /rules.html?variant=V for each variant and
plays every step of every lesson by clicking squares (and the choice
buttons where one click joins several moves): first each wrong and each
illegal try the step lists, checking that the answer names it, then a
right move, waiting for the engine's reply where the step has one, until
every lesson shows its done state. Every move the boards played, the
engine's replies too, is printed as `CHECK {"variant", "before", "move",
"after"}` for the Rust side to check with movegen. Ends with one lesson
started again and the page at a phone's width.
"""

import json
import os
import signal
import subprocess
import sys
import time
import urllib.parse
import urllib.request

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException

import webdriver_setup
from webdriver_setup import TIMEOUT, log

BINARY, SHOTS = sys.argv[1], sys.argv[2]
webdriver_setup.isolate()


def Server():
    return webdriver_setup.Server(BINARY, "--db", ":memory:")


def wait(what, pred):
    return webdriver_setup.wait_until(d, what, pred, os.path.join(SHOTS, "lessons-failure.png"),
                                      lambda: d.find_element(By.ID, "message").text)


def get_json(path):
    with urllib.request.urlopen(server.url + path, timeout=TIMEOUT) as r:
        return json.loads(r.read().decode())


def section(i):
    return d.find_element(By.CSS_SELECTOR, 'section.lesson[data-lesson="%d"]' % i)


# One round trip for everything the script reads of lesson i.
STATE = """
const sec = document.querySelector('section.lesson[data-lesson="' + arguments[0] + '"]');
const a = sec.querySelector('.answer');
return {
  fen: sec.querySelector('svg.lesson-board').getAttribute('data-fen'),
  step: sec.querySelector('.step').getAttribute('data-step'),
  done: sec.getAttribute('data-done'),
  answers: Number(a.getAttribute('data-answer') || 0),
  verdict: a.getAttribute('data-verdict'),
  text: a.textContent,
  played: JSON.parse(sec.getAttribute('data-played') || '[]'),
  choices: [...sec.querySelectorAll('.choices button[data-move]')].map((b) => b.dataset.move),
};
"""


def state(i):
    return d.execute_script(STATE, i)


def when(i, pred):
    """Lesson i's state once `pred` holds of it, else None."""
    s = state(i)
    return s if pred(s) else None


def click(css):
    return webdriver_setup.click(d, css)


def square_offset(svg, sq):
    """Where square `sq` is on a lesson board (white at the bottom), as
    an offset from the board's centre, in CSS pixels."""
    w, h = svg.size["width"], svg.size["height"]
    f, r = "abcdefgh".index(sq[0]), int(sq[1]) - 1
    return int((f + 0.5) * w / 8 - w / 2), int((7 - r + 0.5) * h / 8 - h / 2)


def clicks(i, mv):
    """Clicks the two squares of `mv` on lesson i's board (one pointer
    action, real clicks at the squares' centres), then its choice button if
    the board offers several moves. The page answers a click synchronously,
    so the choices are there (or not) once the clicks are done."""
    svg = d.find_element(By.CSS_SELECTOR, 'svg.lesson-board[data-lesson="%d"]' % i)
    d.execute_script("arguments[0].scrollIntoView({block: 'center'})", svg)
    chain = ActionChains(d, duration=0)
    for sq in (mv[0:2], mv[2:4]):
        chain.move_to_element_with_offset(svg, *square_offset(svg, sq)).click()
    chain.perform()
    offered = state(i)["choices"]
    if offered:
        assert mv in offered, (mv, offered)
        click('section.lesson[data-lesson="%d"] .choices button[data-move="%s"]' % (i, mv))


check = webdriver_setup.print_check


def expect_answer(i, key, verdict, why):
    """Plays a try that must be refused: the answer names it, and nothing moves."""
    was = state(i)
    clicks(i, key)
    now = wait("the answer to " + key, lambda: when(i, lambda s: s["answers"] > was["answers"]))
    assert now["verdict"] == verdict and why in now["text"], (key, verdict, now, why)
    assert now["fen"] == was["fen"] and now["played"] == was["played"], "a refused try moved: " + key
    log("  %s %s: %s" % (verdict, key, now["text"]))


def right_move(variant, i, step):
    """The right move the script plays: the first one the step names, or
    for `*` (any move but the wrong ones) the first such legal move."""
    named = [m for m in step["right"] if m != "*"]
    if named:
        return named[0]
    q = urllib.parse.urlencode({"variant": variant, "fen": state(i)["fen"]})
    legal = [m["move"] for m in get_json("api/legal?" + q)["legal"]]
    return next(m for m in legal if m not in step.get("wrong", {}))


def play_lesson(variant, i, lesson):
    log("%s lesson %d: %s" % (variant, i, lesson["title"]))
    for k, step in enumerate(lesson["steps"]):
        wait("step %d" % k, lambda: when(i, lambda s: s["step"] == str(k)))
        for mv, why in step.get("wrong", {}).items():
            expect_answer(i, mv, "wrong", why)
        for key, why in step.get("illegal", {}).items():
            expect_answer(i, key, "illegal", why)
        mv = right_move(variant, i, step)
        was = state(i)
        clicks(i, mv)
        now = wait("the step after " + mv, lambda: when(i, lambda s: s["step"] != str(k)))
        why = step["right"].get(mv, step["right"].get("*"))
        assert now["verdict"] == "right" and why in now["text"], (mv, now)
        log("  right %s: %s" % (mv, now["text"]))
        new = now["played"][len(was["played"]):]
        assert new and new[0]["move"] == mv and new[0]["before"] == was["fen"], (mv, was, new)
        assert len(new) in ((1, 2) if step.get("reply") else (1,)), new
        for p in new:
            check(variant, p["before"], p["move"], p["after"])
        following = lesson["steps"][k + 1] if k + 1 < len(lesson["steps"]) else {}
        if not following.get("fen"):
            assert now["fen"] == new[-1]["after"], (now, new)
    assert state(i)["done"] == "1", "lesson %d is done" % i
    shown = section(i).find_element(By.CSS_SELECTOR, ".done")
    assert shown.is_displayed() and shown.text, "the done mark is visible"


server = Server()
log("starting chromium")
d = webdriver_setup.chromium(SHOTS, "lessons")
try:
    all_lessons = get_json("lessons.json")
    for variant in ("chess", "plunder", "tavreli"):
        webdriver_setup.navigate(d, server.url + "rules.html?variant=" + variant)
        wait("the %s lessons" % variant, lambda: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready"))
        lessons = all_lessons[variant]["lessons"]
        assert len(d.find_elements(By.CSS_SELECTOR, "section.lesson")) == len(lessons)
        for i, lesson in enumerate(lessons):
            play_lesson(variant, i, lesson)
        d.save_screenshot(os.path.join(SHOTS, "lessons-%s.png" % variant))

    log("start a lesson again")
    click('section.lesson[data-lesson="0"] button.again')
    wait("step 0 again", lambda: when(0, lambda s: s["step"] == "0" and s["done"] is None and not s["played"]))
    first = all_lessons["tavreli"]["lessons"][0]
    assert state(0)["fen"] == first["fen"], state(0)
    count = state(0)["answers"]
    click('svg.lesson-board[data-lesson="0"] [data-square="e5"]')
    now = wait("an answer to an empty square", lambda: when(0, lambda s: s["answers"] > count))
    assert now["verdict"] == "illegal" and now["text"], now

    log("a phone's width")
    d.set_window_size(390, 844)
    wait("the narrow page", lambda: d.execute_script("return document.documentElement.clientWidth") <= 390)
    width = d.execute_script("return document.documentElement.clientWidth")
    for svg in d.find_elements(By.CSS_SELECTOR, "svg.lesson-board"):
        rect = d.execute_script("return arguments[0].getBoundingClientRect().toJSON()", svg)
        assert rect["left"] >= 0 and rect["right"] <= width and rect["width"] > 200, (rect, width)
    wide = d.execute_script("return document.documentElement.scrollWidth")
    assert wide <= d.execute_script("return window.innerWidth"), "the page scrolls sideways: %d px" % wide
    d.save_screenshot(os.path.join(SHOTS, "lessons-phone.png"))
finally:
    d.quit()
    server.stop()

print("lessons ok", flush=True)
