"""The board in its players' languages: headless Chromium set to Russian,
then Kazakh, then English opens the Tavreli board (a tower on it), the
library and the Tavreli rules page, and reads back what a person sees.
Driven by volkhv/tests/languages.rs.

    python3 languages.py VOLKHV_BINARY SCREENSHOT_DIR

In ru and kk: `<html lang>` is the language; none of the English interface
words is left anywhere in the page (text, hidden controls, tooltips,
placeholders); the letters are Cyrillic, with Kazakh letters in kk; the
tower inspector names Tavreli's pieces (ратник); counts take the language's
plural form; moves are in figurines. In en: the English interface, and the
page's words built from the server's parts equal the server's own English
sentences for every legal move and piece of a Tavreli and a PlunderChess
position. The header's switch changes the language and is remembered. No
page logs a console error (a missing key is one).
"""

import json
import os
import re
import sys
import urllib.request

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

import webdriver_setup
from webdriver_setup import TIMEOUT, log

BINARY, SHOTS = sys.argv[1], sys.argv[2]
WEB = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "web")
webdriver_setup.isolate()

ENGLISH = ["New game", "Library", "How to play", "Takeback", "Flip", "Hint", "Review", "Analyse",
           "Continue from here", "White to move", "Black to move", "Engine", "level"]
KAZAKH_LETTERS = set("әғқңөұүһіӘҒҚҢӨҰҮҺІ")
# Latin a reader of any language meets on the board: notation, formats,
# names of things.
NOT_WORDS = re.compile(r"\b(English|PlunderChess|FEN|PGN|SAN|UCI|Elo|MIT|UTC|startpos|Home|End|"
                       r"[KQRBNH]?[a-h]?[1-8]?x?[a-h][1-8](=?[QRBNH])?[+#]?|[a-h]|O-O(-O)?|[a-h][1-8][a-h][1-8]\S*|"
                       r"Nf3|d\d+|ms)\b")

# A Tavreli game with a tower: the white pawn takes on d5 and stands on the
# black one.
TAVRELI = "/?variant=tavreli&moves=e2e4,d7d5,e4d5"


def wait(d, what, pred):
    return webdriver_setup.wait_until(d, what, pred, os.path.join(SHOTS, "languages-failure.png"),
                                      lambda: d.find_element(By.ID, "message").text)


def catalogue(lang):
    with open(os.path.join(WEB, "lang-%s.json" % lang), encoding="utf-8") as f:
        return json.load(f)["ui"]


# Everything of the page a person can read: its text (hidden parts too),
# the title, tooltips, placeholders, labels and the options of menus.
SEEN = """
const out = [document.title];
const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
for (let n = walk.nextNode(); n; n = walk.nextNode()) {
  if (!['SCRIPT', 'STYLE'].includes(n.parentNode.nodeName)) out.push(n.nodeValue);
}
for (const e of document.querySelectorAll('[title],[placeholder],[aria-label]')) {
  for (const a of ['title', 'placeholder', 'aria-label']) if (e.getAttribute(a)) out.push(e.getAttribute(a));
}
return out.join('\\n');
"""


def seen(d):
    return d.execute_script(SEEN)


def check_language(d, lang, page):
    assert d.execute_script("return document.documentElement.lang") == lang, (page, lang)
    text = seen(d)
    if lang == "en":
        return text
    left = [w for w in ENGLISH if re.search(r"\b%s\b" % re.escape(w), text, re.I)]
    assert not left, "%s in %s still says %s" % (page, lang, left)
    words = NOT_WORDS.sub(" ", text)
    latin = re.findall(r"[A-Za-z]{3,}", words)
    assert not latin, "%s in %s: Latin words %s" % (page, lang, sorted(set(latin))[:20])
    letters = [c for c in words if c.isalpha()]
    cyrillic = [c for c in letters if "\u0400" <= c <= "\u04ff"]
    assert len(cyrillic) > 0.95 * len(letters), "%s in %s: %d of %d letters Cyrillic" % (
        page, lang, len(cyrillic), len(letters))
    if lang == "kk":
        assert KAZAKH_LETTERS & set(text), "%s in kk: no Kazakh letter" % page
    log("%s in %s: %d letters, all Cyrillic" % (page, lang, len(letters)))
    return text


def console_errors(d):
    return [e["message"] for e in d.get_log("browser") if e["level"] == "SEVERE"]


def board(d, url):
    webdriver_setup.navigate(d, server.url.rstrip("/") + url)
    wait(d, "the board", lambda: d.find_element(By.ID, "board").get_attribute("data-fen"))
    wait(d, "the move list", lambda: d.find_elements(By.CSS_SELECTOR, "#moves span[data-ply]"))


def inspect(d, square):
    """The tower inspector's words for `square` (as a hover shows them)."""
    d.execute_script("""
const sq = document.querySelector('[data-square="' + arguments[0] + '"]');
sq.dispatchEvent(new MouseEvent('mouseover', {bubbles: true}));""", square)
    return wait(d, "the inspector", lambda: d.find_element(By.ID, "inspector").text)


def plural_ru(n, forms):
    """The Russian plural form (CLDR) of `n`."""
    if n % 10 == 1 and n % 100 != 11:
        return forms["one"]
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return forms["few"]
    return forms["many"]


# English words built on the page from the server's parts, against the
# server's own English sentences.
SAME_WORDS = """
const [variant, fen, done] = [arguments[0], arguments[1], arguments[arguments.length - 1]];
(async () => {
  const w = await import('/words.js');
  const res = await fetch('/api/legal?' + new URLSearchParams({variant, fen, moves: ''}));
  const data = await res.json();
  const bad = [];
  for (const m of data.legal) {
    const mine = w.moveSentence(variant, m);
    if (mine !== m.text) bad.push([m.move, mine, m.text]);
  }
  let pieces = 0;
  for (const square of data.board) for (const p of square) {
    pieces += 1;
    const mine = w.pieceName(variant, p.parts);
    if (mine !== p.name) bad.push([p.piece, mine, p.name]);
  }
  done({bad, moves: data.legal.length, pieces});
})().catch((e) => done({error: String(e)}));
"""

def lesson_positions():
    """Every position of every lesson: vests worn and taken, vest moves,
    declined vests, towers of both colours, promoted pawns, castling, en
    passant, promotion."""
    with open(os.path.join(WEB, "lessons.json"), encoding="utf-8") as f:
        lessons = json.load(f)
    found = []
    for variant, v in lessons.items():
        for lesson in v["lessons"]:
            for fen in [lesson["fen"]] + [s["fen"] for s in lesson["steps"] if "fen" in s]:
                if (variant, fen) not in found:
                    found.append((variant, fen))
    return found


def same_words(d):
    positions = lesson_positions()
    # A tower from a real game: the state of the open Tavreli board.
    positions.append(("tavreli", d.find_element(By.ID, "board").get_attribute("data-fen")))
    for variant, fen in positions:
        r = d.execute_async_script(SAME_WORDS, variant, fen)
        assert "error" not in r, r
        assert not r["bad"], "page words differ from the server's for %s %s: %s" % (variant, fen, r["bad"][:5])
        assert r["moves"] > 0 and r["pieces"] > 0, r
        log("%s %s: %d moves and %d pieces worded as the server does" % (variant, fen, r["moves"], r["pieces"]))


def in_language(lang, text, english):
    """`text` is the server's refusal worded in `lang`: in en the words
    `english`; otherwise Cyrillic but for the tokens it quotes."""
    if lang == "en":
        assert english in text, (lang, text)
        return
    words = re.sub(r"«[^»]*»|\bFEN\b|\bPGN\b|\d", " ", text)
    latin = re.findall(r"[A-Za-z]{2,}", words)
    assert not latin, "%s: Latin words %s in %r" % (lang, latin, text)
    assert re.search(r"[\u0400-\u04ff]{4,}", text), (lang, text)
    if lang == "kk":
        assert KAZAKH_LETTERS & set(text), (lang, text)


def refused_fen(d, lang):
    """A Tavreli FEN with an empty tower, set up on the board."""
    d.find_element(By.CSS_SELECTOR, "#setup summary").click()
    box = d.find_element(By.ID, "fen-input")
    box.clear()
    box.send_keys("4k3/8/8/3()4/8/8/8/4K3 w - - 0 1")
    d.find_element(By.ID, "set-fen").click()
    text = wait(d, "the refusal", lambda: d.find_element(By.ID, "message").text)
    # The browser logs the refused request itself, and nothing else.
    errors = console_errors(d)
    assert len(errors) == 1 and "/api/games - " in errors[0] and "status of 400" in errors[0], errors
    in_language(lang, text, "empty tower")
    words = catalogue(lang)
    assert words["fen.field.board"] in text, (lang, text)
    log("refused FEN in %s: %s" % (lang, text))


def refused_pgn(d, lang):
    """Two pasted games, the second with a tag line left open."""
    box = d.find_element(By.ID, "import-text")
    box.clear()
    box.send_keys('[Event "a"]\n\n1. e4 e5 *\n\n[Event "b\n\n1. d4 *\n')
    d.find_element(By.ID, "import").click()
    item = wait(d, "the import report", lambda: d.find_elements(By.CSS_SELECTOR, "#import-report li"))
    text = item[0].text
    in_language(lang, text, "bad tag line")
    log("refused PGN game in %s: %s" % (lang, text))


def run(lang):
    d = webdriver_setup.chromium(SHOTS, "languages-" + lang, lang=lang)
    try:
        board(d, TAVRELI)
        browser = d.execute_script("return navigator.languages.join(',')")
        assert browser.lower().startswith(lang), "the browser's languages are %s, not %s" % (browser, lang)
        text = check_language(d, lang, "the Tavreli board")
        words = catalogue(lang)
        # The tower on d5: a white pawn on a black one, in Tavreli's words.
        tower = inspect(d, "d5")
        pawn = words.get("tavreli.role.pawn", words["role.pawn"])
        assert pawn in tower and str(2) in tower, (lang, tower)
        log("inspector in %s: %s" % (lang, tower.replace("\n", " / ")))
        if lang == "en":
            assert all(w in text for w in ["New game", "Library", "How to play", "Takeback", "Hint"]), text
            same_words(d)
        # A refused FEN in the reader's language, its reason and field too.
        refused_fen(d, lang)
        # Figurines by default in ru and kk, letters in en.
        board(d, "/?variant=chess&moves=g1f3")
        moves = d.find_element(By.ID, "moves").text
        assert ("♘f3" in moves) == (lang != "en") and ("Nf3" in moves) == (lang == "en"), (lang, moves)
        # The library: its count in the language's plural form.
        webdriver_setup.navigate(d, server.url.rstrip("/") + "/library.html")
        wait(d, "the library", lambda: d.execute_script("return document.body.dataset.ready"))
        check_language(d, lang, "the library")
        refused_pgn(d, lang)
        count = d.find_element(By.ID, "count").text
        n = int(re.match(r"\d+", count).group())
        forms = words["library.count"]
        want = (plural_ru(n, forms) if lang == "ru" else forms["one" if n == 1 and lang == "en" else "other"])
        assert count == want.replace("{n}", str(n)), (lang, count, want)
        log("library in %s: %s" % (lang, count))
        # The Tavreli rules page with its lessons.
        webdriver_setup.navigate(d, server.url.rstrip("/") + "/rules.html?variant=tavreli")
        wait(d, "the rules page", lambda: d.execute_script("return document.body.dataset.ready"))
        check_language(d, lang, "the Tavreli rules page")
        title = d.find_element(By.ID, "title").text
        assert words["variant.tavreli"] in title, (lang, title)
        if lang == "en":
            # The switch: Russian, and it is kept on the next page.
            Select(d.find_element(By.ID, "lang")).select_by_value("ru")
            wait(d, "the page in Russian", lambda: d.execute_script("return document.documentElement.lang") == "ru"
                 and d.execute_script("return document.body.dataset.ready"))
            check_language(d, "ru", "the rules page after the switch")
            webdriver_setup.navigate(d, server.url.rstrip("/") + "/library.html")
            wait(d, "the library", lambda: d.execute_script("return document.body.dataset.ready"))
            check_language(d, "ru", "the library after the switch")
            log("the switch to ru is kept")
        errors = console_errors(d)
        assert not errors, "console errors in %s: %s" % (lang, errors)
    except BaseException:
        d.save_screenshot(os.path.join(SHOTS, "languages-%s-failure.png" % lang))
        raise
    finally:
        d.quit()


server = webdriver_setup.Server(BINARY, "--db", ":memory:")
try:
    for language in ["ru", "kk", "en"]:
        log("--- " + language)
        run(language)
    print("languages ok", flush=True)
finally:
    server.stop()
