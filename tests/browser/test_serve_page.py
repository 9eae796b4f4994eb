#!/usr/bin/python3
"""The page of `pgndb serve` in a real browser: Debian's chromium, headless, driven through
chromedriver by Debian's python3-selenium.

Imports samples/ into a temporary database, starts the real `pgndb serve` on 127.0.0.1 and a free
port, and as a user would: plays 1.e4 c5 by clicking the explorer's rows and checks the table
against the API (/api/tree); types a player's name and checks the games listed against
/api/find; opens a game, steps to ply 20 with the forward button and compares the board drawn
with the FEN `pgndb show --ply 20` prints; checks the download link's PGN against
`pgndb export`. Screenshots of each step go to the artifacts folder.

Usage: test_serve_page.py PGNDB_BINARY SAMPLES_DIR ARTIFACTS_DIR
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select
from selenium.webdriver.support.ui import WebDriverWait

PGNDB, SAMPLES, ARTIFACTS = sys.argv[1:4]
os.makedirs(ARTIFACTS, exist_ok=True)
failures = []


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what)
    if not condition:
        failures.append(what)


def api(base, path):
    with urllib.request.urlopen(base + path, timeout=30) as r:
        return json.loads(r.read())


def fen_pieces(fen):
    out, rank, file = {}, 7, 0
    for c in fen.split(" ")[0]:
        if c == "/":
            rank, file = rank - 1, 0
        elif c.isdigit():
            file += int(c)
        else:
            out["abcdefgh"[file] + str(rank + 1)] = c
            file += 1
    return out


# The page redraws its tables and board as answers arrive: what it shows is read in one script
# run, never element by element across redraws.
def board_pieces(driver):
    return driver.execute_script("""
        const out = {};
        for (const e of document.querySelectorAll('#board [data-square][data-piece]'))
          out[e.dataset.square] = e.dataset.piece;
        return out;""")


def tree_rows(driver):
    return [tuple(r) for r in driver.execute_script("""
        return [...document.querySelectorAll('#tree tbody tr[data-uci]')].map(
            r => [r.dataset.san, Number(r.cells[1].textContent)]);""")]


def listed_games(driver):
    return driver.execute_script("""
        return [...document.querySelectorAll('#games tbody tr[data-id]')].map(r => r.dataset.id);""")


def settled(driver):
    return driver.execute_script("return document.body.dataset.busy") == "0"


def wait_for(driver, condition, what, seconds=20):
    try:
        WebDriverWait(driver, seconds, poll_frequency=0.05).until(
            lambda d: settled(driver) and condition())
        return True
    except Exception:
        check(False, "timed out waiting for " + what)
        return False


tmp = tempfile.mkdtemp(prefix="pgndb-browser-")
server = None
driver = None
try:
    db = os.path.join(tmp, "db")
    files = sorted(os.path.join(SAMPLES, f) for f in os.listdir(SAMPLES) if f.endswith(".pgn"))
    subprocess.run([PGNDB, "import", "--db", db] + files, check=True, stdout=subprocess.DEVNULL)
    server = subprocess.Popen([PGNDB, "serve", "--db", db, "--port", "0"], stdout=subprocess.PIPE,
                              text=True)
    first = server.stdout.readline()
    port = re.search(r"127\.0\.0\.1:(\d+)", first).group(1)
    base = "http://127.0.0.1:" + port

    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1400,1000", "--user-data-dir=" + os.path.join(tmp, "profile")):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_page_load_timeout(30)
    driver.get(base + "/")

    # 1. The explorer: 1.e4 c5 by clicking, the table against the API at each step.
    for played, san in ((["e2e4"], "e4"), (["e2e4", "c7c5"], "c5")):
        wait_for(driver, lambda: any(s == san for s, _ in tree_rows(driver)), "the row " + san)
        driver.find_element(By.CSS_SELECTOR, '#tree tbody tr[data-san="%s"]' % san).click()
        expected = api(base, "/api/tree?play=" + ",".join(played))
        want = [(m["san"], m["games"]) for m in expected["moves"] if m["uci"]]
        wait_for(driver, lambda: driver.find_element(By.ID, "fen").get_attribute("value") ==
                 expected["fen"] and tree_rows(driver) == want, "the position after " + san)
        check(tree_rows(driver) == want, "after %s the explorer lists %s" % (san, want[:4]))
        check(board_pieces(driver) == fen_pieces(expected["fen"]),
              "after %s the board shows %s" % (san, expected["fen"]))
    line = driver.execute_script(
        "return [...document.querySelectorAll('#line a')].map(a => a.textContent);")
    check(line == ["e4", "c5"], "the moves so far read e4 c5: %s" % line)
    driver.save_screenshot(os.path.join(ARTIFACTS, "1-explorer-after-e4-c5.png"))

    # Back, then forward again.
    driver.find_element(By.ID, "back").click()
    after_e4 = api(base, "/api/tree?play=e2e4")
    wait_for(driver, lambda: driver.find_element(By.ID, "fen").get_attribute("value") ==
             after_e4["fen"], "back to the position after 1.e4")
    driver.find_element(By.ID, "forward").click()
    after_c5 = api(base, "/api/tree?play=e2e4,c7c5")
    wait_for(driver, lambda: driver.find_element(By.ID, "fen").get_attribute("value") ==
             after_c5["fen"], "forward to the position after 1...c5")

    # 2. A player: the games listed are those /api/find gives.
    field = driver.find_element(By.CSS_SELECTOR, '#filters input[name="player"]')
    field.send_keys("Gukesh")
    expected = api(base, "/api/find?player=Gukesh&play=e2e4,c7c5&limit=20&count=true")
    want_ids = [str(g["id"]) for g in expected["games"]]
    wait_for(driver, lambda: listed_games(driver) == want_ids, "Gukesh's games after 1.e4 c5")
    total = driver.find_element(By.ID, "games-total").text
    check(total.startswith("%d games" % expected["total"]),
          "the games' count reads %r (%d games)" % (total, expected["total"]))
    check(len(want_ids) > 0, "Gukesh played 1.e4 c5 in the samples (%d games)" % len(want_ids))
    driver.save_screenshot(os.path.join(ARTIFACTS, "2-games-of-gukesh.png"))

    # The download link: the same games as `pgndb export`.
    href = driver.find_element(By.ID, "download").get_attribute("href")
    with urllib.request.urlopen(href, timeout=30) as r:
        downloaded = r.read().decode()
    exported = subprocess.run([PGNDB, "export", "--db", db, "--player", "Gukesh", "--moves", "e4 c5"],
                              check=True, capture_output=True, text=True).stdout
    check(downloaded == exported, "the download link gives what pgndb export gives (%d bytes)"
          % len(exported))

    # 3. A game: open the first, step to ply 20, compare the board with `pgndb show`.
    game_id = want_ids[0]
    driver.find_element(By.CSS_SELECTOR, '#games tbody tr[data-id="%s"]' % game_id).click()
    wait_for(driver, lambda: driver.find_element(By.ID, "viewer").get_attribute("data-id") == game_id,
             "the viewer of game " + game_id)
    for _ in range(20):
        driver.find_element(By.ID, "forward").click()
    wait_for(driver, lambda: driver.find_element(By.ID, "viewer").get_attribute("data-ply") == "20",
             "ply 20 of game " + game_id)
    shown = subprocess.run([PGNDB, "show", "--db", db, game_id, "--ply", "20"], check=True,
                           capture_output=True, text=True).stdout
    fen = re.search(r"^FEN: (.*)$", shown, re.M).group(1)
    wait_for(driver, lambda: driver.find_element(By.ID, "board").get_attribute("data-fen") == fen,
             "the board of ply 20")
    check(board_pieces(driver) == fen_pieces(fen),
          "game %s at ply 20: the board shows %s, as pgndb show" % (game_id, fen))
    current = driver.find_elements(By.CSS_SELECTOR, "#viewer-moves a.current")
    check(len(current) == 1 and current[0].get_attribute("data-ply") == "20",
          "the move list marks ply 20")
    driver.save_screenshot(os.path.join(ARTIFACTS, "3-game-%s-ply-20.png" % game_id))

    # An annotated game: its variations and comments are shown, and clicking a variation's move
    # shows its board.
    # The sample of annotated-variations.pgn (Nasman - Jaluvka).
    annotated = api(base, "/api/find?white=Nasman&limit=1")["games"][0]["id"]
    driver.find_element(By.ID, "close-game").click()
    driver.execute_script("openGame(%d)" % annotated)
    wait_for(driver, lambda: driver.find_element(By.ID, "viewer").get_attribute("data-id") ==
             str(annotated), "the annotated game")
    variation_moves = driver.find_elements(By.CSS_SELECTOR, '#viewer-moves a[data-depth="1"]')
    check(len(variation_moves) > 0, "the annotated game shows %d moves in variations"
          % len(variation_moves))
    game = api(base, "/api/game/%d" % annotated)
    first_variation = next(m for m in game["moves"] if m.get("variations"))["variations"][0][0]
    variation_moves[0].click()
    wait_for(driver, lambda: driver.find_element(By.ID, "board").get_attribute("data-fen") ==
             first_variation["fen"], "the board of the first variation's move")
    check(board_pieces(driver) == fen_pieces(first_variation["fen"]),
          "a variation's move shows its board")
    driver.save_screenshot(os.path.join(ARTIFACTS, "4-annotated-game.png"))

    # Notation: in Czech letters the viewer shows the moves /api/game writes with lang=cs (which
    # tests/test_serve.cpp compares with pgn-extract -WsanPJSVDK); a game pgndb finds ended by
    # checkmate says so in its header.
    Select(driver.find_element(By.ID, "notation")).select_by_value("cs")
    czech = api(base, "/api/game/%d?lang=cs" % annotated)
    want = [m["san"] for m in czech["moves"]]
    wait_for(driver, lambda: [a.text for a in driver.find_elements(
        By.CSS_SELECTOR, '#viewer-moves a[data-depth="0"]')][:len(want)] ==
        [m["san"] + "".join({1: "!", 2: "?", 3: "!!", 4: "??", 5: "!?", 6: "?!"}.get(n, " $%d" % n)
                            for n in m.get("nags", [])) for m in czech["moves"]],
        "the moves in Czech letters")
    check(any(a.text.startswith("J") for a in driver.find_elements(
        By.CSS_SELECTOR, "#viewer-moves a")), "a knight move written with J")
    driver.save_screenshot(os.path.join(ARTIFACTS, "4b-czech-notation.png"))
    mated = json.loads(subprocess.run(
        [PGNDB, "find", "--db", db, "--ending", "checkmate", "--format", "json", "--limit", "1"],
        check=True, capture_output=True, text=True).stdout)["id"]
    driver.execute_script("openGame(%d)" % mated)
    wait_for(driver, lambda: driver.find_element(By.ID, "viewer").get_attribute("data-id") ==
             str(mated), "a game ended by checkmate")
    wait_for(driver, lambda: "ended by checkmate" in driver.find_element(By.ID, "viewer-header").text,
             "the header says the game ended by checkmate")
    Select(driver.find_element(By.ID, "notation")).select_by_value("")

    # Bad input in the page: an illegal FEN is reported, not a broken page.
    driver.find_element(By.ID, "close-game").click()
    wait_for(driver, lambda: True, "the explorer")
    fen_box = driver.find_element(By.ID, "fen")
    fen_box.clear()
    fen_box.send_keys("not a position\n")
    wait_for(driver, lambda: driver.find_element(By.ID, "error").text.startswith(
        "fen: expected 4 to 6 fields"), "the error of a bad FEN")
    driver.save_screenshot(os.path.join(ARTIFACTS, "5-bad-fen.png"))
    logs = [e for e in driver.get_log("browser") if e["level"] == "SEVERE" and "400" not in e["message"]]
    check(not logs, "no script errors in the console: %s" % logs[:3])
finally:
    if driver is not None:
        driver.quit()
    if server is not None:
        server.terminate()
        server.wait(timeout=10)
    shutil.rmtree(tmp, ignore_errors=True)

print("browser test: %d failures; screenshots in %s" % (len(failures), ARTIFACTS))
sys.exit(1 if failures else 0)
