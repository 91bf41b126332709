#!/usr/bin/env python3
"""petlog serve in a real browser: Debian's headless Chromium driven by Playwright for Python (docs/testing.md).

Starts `petlog serve` on a free loopback port with a fresh demo household and an account (on a SQLite file, and with
`--store postgres` also on a throwaway PostgreSQL 15 server, scripts/pg-test-server.sh), then on a phone-sized
viewport (390 x 844): signs in, adds a weight, logs a diary entry with a photo,
uploads a receipt photo and saves the proposal, sees the timeline, the month list and the charts, switches to
Korean and Japanese, checks that no page scrolls sideways (scrollWidth <= innerWidth) in light and dark, and
signs out. Saves screenshots (en, ko, ja; light and dark) into --screenshots, from the first store's run only.
Needs no internet.

    .build/browser-venv/bin/python Tests/browser/serve_browser.py --petlog .build/debug/petlog [--screenshots DIR] \
        [--store sqlite] [--store postgres]

Prints one line per check and ends with "N passed, N failed"; exits 1 on a failure.
"""
import argparse
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

from playwright.sync_api import sync_playwright

HERE = os.path.dirname(os.path.abspath(__file__))
RECEIPT = os.path.join(HERE, "..", "OCRTests", "Fixtures", "receipts", "ko-01.jpg")
CHROMIUM = os.environ.get("PETLOG_CHROMIUM", "/usr/bin/chromium")
PG_SERVER = os.path.join(HERE, "..", "..", "scripts", "pg-test-server.sh")
PG_BIN = "/usr/lib/postgresql/15/bin/"
STORE = ""  # the store of the run under way, named in each check when more than one runs

passed, failed, skipped = [], [], []


def check(name, ok, detail=""):
    name = STORE + name
    (passed if ok else failed).append(name)
    print(("ok    " if ok else "FAIL  ") + name + ("" if ok or not detail else ": " + str(detail)[:400]), flush=True)


def skip(name, why):
    skipped.append(name)
    print("skip  " + name + ": " + why, flush=True)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def no_sideways_scroll(page, what):
    width = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    check(f"no horizontal overflow: {what} ({width[0]} <= {width[1]})", width[0] <= width[1], width)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--petlog", required=True)
    ap.add_argument("--screenshots", default=None)
    ap.add_argument("--store", action="append", choices=["sqlite", "postgres"],
                    help="the store(s) to run on, in order (default: sqlite); screenshots from the first")
    args = ap.parse_args()
    if not os.access(CHROMIUM, os.X_OK):
        print(f"skip  the browser test: {CHROMIUM} is not installed (make setup installs Debian's chromium)")
        print("0 passed, 0 failed, 1 skipped")
        return 0
    stores = args.store or ["sqlite"]
    global STORE
    for i, store in enumerate(stores):
        STORE = f"[{store}] " if len(stores) > 1 else ""
        shots = args.screenshots if i == 0 and args.screenshots else None
        if store == "postgres":
            if not os.access(PG_BIN + "initdb", os.X_OK):
                skip(f"[{store}] the browser test", "PostgreSQL 15 is not installed (make setup installs postgresql-15)")
                continue
            pg = tempfile.mkdtemp(prefix="petlog-browser-pg-")
            try:
                started = subprocess.run([PG_SERVER, "start", pg], check=True, capture_output=True, text=True).stdout
                port = dict(kv.split("=", 1) for kv in started.split())["PETLOG_PG_PORT"]
                subprocess.run([PG_BIN + "createdb", "-h", pg, "-p", port, "-U", "postgres", "petlog"], check=True)
                one_store(args.petlog, f"postgres://postgres@/petlog?host={pg}&port={port}", shots)
            finally:
                subprocess.run([PG_SERVER, "stop", pg], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                shutil.rmtree(pg, ignore_errors=True)
        else:
            one_store(args.petlog, None, shots)
    print(f"{len(passed)} passed, {len(failed)} failed" + (f", {len(skipped)} skipped" if skipped else ""))
    return 1 if failed else 0


def one_store(petlog, db, shots_dir):
    """The whole walk on one store: a SQLite file in a private folder (db None) or the PostgreSQL database `db`."""
    work = tempfile.mkdtemp(prefix="petlog-browser-")
    shots = shots_dir or os.path.join(work, "screenshots")  # a run without --screenshots keeps none
    os.makedirs(shots, exist_ok=True)
    db = db or os.path.join(work, "petlog.sqlite")
    env = dict(os.environ, HOME=work, LANG="C.UTF-8", PETLOG_CURRENCY="KRW")
    env.pop("PETLOG_DB", None)
    subprocess.run([petlog, "--db", db, "demo"], env=env, check=True, stdout=subprocess.DEVNULL)
    # A trip under way (a budget for a stretch of days): its day-by-day view and chart on /money, and on home.
    subprocess.run([petlog, "--db", db, "budget", "set", "500000", "KRW", "--from=-2d", "--to", "3d", "--name", "Jeju", "--place", "Jeju"],
                   env=env, check=True, stdout=subprocess.DEVNULL)
    password = secrets.token_urlsafe(12)
    subprocess.run([petlog, "--db", db, "user", "add", "mina", "--role", "owner", "--password-stdin"],
                   input=password + "\n", text=True, env=env, check=True, stdout=subprocess.DEVNULL)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen([petlog, "--db", db, "serve", "--listen", f"127.0.0.1:{port}", "--quiet"], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        for _ in range(300):
            try:
                if urllib.request.urlopen(base + "/healthz", timeout=1).read() == b"ok\n":
                    break
            except OSError:
                if server.poll() is not None:
                    raise SystemExit("petlog serve stopped: " + server.stderr.read())
                time.sleep(0.1)
        run(base, password, shots)
    finally:
        server.terminate()
        code = server.wait(timeout=30)
        check("SIGTERM stops petlog serve with exit 0", code == 0, f"exit {code}: " + server.stderr.read())
        shutil.rmtree(work, ignore_errors=True)


def run(base, password, shots):
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=1, color_scheme="light",
                                      locale="en-US", is_mobile=True, has_touch=True)
        page = context.new_page()
        errors = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" and "Failed to load resource" not in m.text else None)
        # Every answer the pages load is a success, but for the browser's favicon.
        bad = []
        page.on("response", lambda r: bad.append(f"{r.status} {r.url}") if r.status >= 400
                and not r.url.endswith("/favicon.ico") else None)

        # Sign in.
        page.goto(base + "/")
        check("signed out: the login page", page.url.endswith("/login"), page.url)
        no_sideways_scroll(page, "login")
        page.fill("#name", "mina")
        page.fill("#password", password)
        page.click("form[action='/login'] button[type=submit]")
        check("signed in: home lists the pets", page.url == base + "/" and page.locator("li.card a.title").count() > 0, page.url)
        check("home: this month's spending and the trip under way", "Spent this month" in page.content() and "Jeju" in page.content())
        no_sideways_scroll(page, "home")
        coco = page.locator("li.card a.title", has_text="Coco").first
        pet_path = coco.get_attribute("href")
        check("Coco is on home", bool(pet_path and re.fullmatch(r"/pets/\d+", pet_path)), pet_path)

        # A weight, read by the CLI's parser.
        page.goto(base + pet_path)
        no_sideways_scroll(page, "pet page")
        weight = page.locator("input[name=weight]").first
        weight.fill("4.37kg")
        weight.locator("xpath=ancestor::form").locator("button[type=submit]").click()
        check("the weight is saved and shown", "4.37" in page.content(), page.url)

        # A diary entry with a photo (GET /pets/ID/log?kind=diary, a multipart form).
        response = page.goto(base + pet_path + "/log?kind=diary")
        check("the diary form", response is not None and response.status == 200
              and page.locator("input[type=file][name=photo]").count() == 1, page.url)
        no_sideways_scroll(page, "diary form")
        page.fill("textarea[name=text]", "A walk by the river")
        page.set_input_files("input[type=file][name=photo]", RECEIPT)
        page.locator("form[enctype='multipart/form-data'] button[type=submit]").first.click()
        page.goto(base + pet_path)
        check("the diary entry is on the timeline with its photo",
              "A walk by the river" in page.content() and page.locator("ul.timeline img.thumb").count() > 0, page.url)
        thumb = page.locator("ul.timeline img.thumb").first
        thumb.scroll_into_view_if_needed()  # loading="lazy": drawn once it is in view
        page.wait_for_function("() => { const i = document.querySelector('ul.timeline img.thumb'); return i.complete && i.naturalWidth > 0 }")
        check("the timeline's thumbnail is drawn", True)

        # The weight chart (GET /pets/ID/weight.svg).
        charts = page.locator("img[src*='weight.svg']")
        check("the pet page has its weight chart", charts.count() > 0)
        charts.first.scroll_into_view_if_needed()
        page.wait_for_function("() => [...document.images].filter(i => i.src.includes('weight.svg')).every(i => i.complete && i.naturalWidth > 0)")
        check("the weight chart is drawn", True)
        top = charts.first.bounding_box()["y"] + page.evaluate("window.scrollY") - 60
        page.screenshot(path=os.path.join(shots, "pet-chart-en-light.png"), full_page=True, clip={"x": 0, "y": max(top, 0), "width": 390, "height": 700})

        # A receipt photo: the same proposal as `expense scan`, saved with the photo.
        page.goto(base + "/money")
        no_sideways_scroll(page, "money")
        page.set_input_files("#receipt", RECEIPT)
        page.locator("form[action='/receipts'] button[type=submit]").click()
        amount = page.locator("#amount").input_value() if page.locator("#amount").count() else ""
        check("the receipt's proposal is prefilled", amount == "93100 KRW", amount or page.content()[:400])
        no_sideways_scroll(page, "receipt proposal")
        page.screenshot(path=os.path.join(shots, "receipt-en-light.png"))
        page.locator("form[action='/expenses'] button[type=submit]").click()
        check("saved: the month list shows it", "/money?month=2026-08" in page.url and "₩93,100" in page.content(), page.url)
        line = page.locator("ul.days ul.plain li", has_text="₩93,100").first
        check("the receipt photo is kept with the expense", line.count() > 0 and "1 receipt" in line.inner_text(), line.inner_text() if line.count() else "")

        # The month list, the spending calendar, budgets and trips with their charts.
        page.goto(base + "/money")
        check("the spending calendar", page.locator("ol.calendar li.day").count() >= 28)
        check("the trip day by day", page.locator("table.daily tbody tr").count() == 6, page.locator("table.daily tbody tr").count())
        check("the trip's chart", page.locator("img.chart").count() == 1)
        for img in page.locator("img.chart").all():
            img.scroll_into_view_if_needed()
        page.wait_for_function("() => [...document.querySelectorAll('img.chart')].every(i => i.complete && i.naturalWidth > 0)")
        check("the trip charts are drawn", True)
        no_sideways_scroll(page, "money, this month")
        top = page.locator("img.chart").bounding_box()["y"] + page.evaluate("window.scrollY") - 120
        page.screenshot(path=os.path.join(shots, "trip-en-light.png"), full_page=True, clip={"x": 0, "y": top, "width": 390, "height": 700})

        # Every language, light and dark: no sideways scroll on any page; screenshots.
        for language, code in [("English", "en"), ("한국어", "ko"), ("日本語", "ja")]:
            page.goto(base + "/")
            button = page.locator(f"footer form.languages button[value={code}]")
            if button.is_enabled():
                button.click()
            check(f"switched to {language}", page.locator(f"html[lang={code}]").count() == 1, page.url)
            for scheme in ["light", "dark"]:
                page.emulate_media(color_scheme=scheme)
                for path, name in [("/", "home"), (pet_path, "pet"), ("/money", "money")]:
                    page.goto(base + path)
                    no_sideways_scroll(page, f"{name} in {code}, {scheme}")
                    if name != "pet" or code == "en":
                        page.screenshot(path=os.path.join(shots, f"{name}-{code}-{scheme}.png"))
            page.emulate_media(color_scheme="light")
        page.goto(base + "/")
        page.locator("footer form.languages button[value=en]").click()

        # The narrowest phone the issue names (360 px): no sideways scroll; every button, field, check label and
        # summary at least 44 px high (inline links in running text are not counted).
        page.set_viewport_size({"width": 360, "height": 740})
        for path, name in [("/", "home"), (pet_path, "pet"), (pet_path + "/log?kind=diary", "diary form"), ("/money", "money")]:
            page.goto(base + path)
            no_sideways_scroll(page, f"{name} at 360 px")
            targets = "a.button, button, select, textarea, summary, label.check, input:not([type=hidden]):not([type=checkbox]):not([type=radio])"
            small = page.evaluate("""(targets) => [...document.querySelectorAll(targets)]
                .filter(e => e.offsetParent !== null && e.getBoundingClientRect().height < 44).map(e => e.outerHTML.slice(0, 100))""", targets)
            check(f"touch targets at least 44 px high: {name}", not small, small)
        page.set_viewport_size({"width": 390, "height": 844})

        # Sign out.
        page.locator("form[action='/logout'] button").click()
        check("signed out", page.url.endswith("/login"), page.url)
        page.goto(base + "/money")
        check("the money page needs a session again", page.url.endswith("/login"), page.url)
        check("no errors in the browser's console", not errors, errors)
        check("every page and image loaded", not bad, bad)
        browser.close()


if __name__ == "__main__":
    sys.exit(main())
