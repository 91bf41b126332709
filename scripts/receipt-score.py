#!/usr/bin/python3
"""Scores `petlog expense scan --json` on a folder of generated receipts (scripts/receipt-gen.py; issue 45).

    receipt-score.py PETLOG FOLDER [--title T] [--jobs N] [--no-time] [--misses] [--skip N] [--limit N] [--modes C,other] [--capture photo|scan]

Each receipt is scanned twice, nothing saved (`expense scan IMAGE --json` without --yes prints the proposal):
  C      under a C locale (LC_ALL=C, LANG=C, no PETLOG_LANG, no --lang): petlog speaks English, home currency USD;
  other  with petlog speaking another language than the receipt's (--lang: en receipt → ko, ko → ja, ja → en).
A field is right when:
  total     the amount to save (expense.money) has the truth's minor units AND currency;
  date      expense.day is the truth's ISO day;
  payment   expense.payment is the truth's card or cash;
  merchant  expense.merchant equals the printed name or the name without its branch, both compared after NFKC,
            lower case, company forms ((주), ㈱, 株式会社, Inc, LLC) and every character that is not a letter or digit
            removed (so spacing, punctuation and `&` do not count).
A wrong field is "asked" when the proposal left it empty (petlog asks for it), "unsure" when the proposal marks it
(the field's `unsure` flag, or a confidence under 50 when the proposal has no flag), else "silent".
Time: each C scan beside `tesseract IMAGE - -l L` told the receipt's languages (kor+eng, jpn+eng, eng), one after
the other image by image; the ratio of the medians. --misses lists the misread fields (never on the held-out half:
it refuses a folder whose truth says heldout).
"""
import json, os, re, statistics, subprocess, sys, tempfile, time, unicodedata
from concurrent.futures import ThreadPoolExecutor

FIELDS = ["total", "date", "payment", "merchant"]
TARGETS = {"total": 95, "date": 90, "payment": 85, "merchant": 85}
OTHER_UI = {"en": "ko", "ko": "ja", "ja": "en"}
TESS_LANG = {"ko": "kor+eng", "ja": "jpn+eng", "en": "eng"}
COMPANY = re.compile(r"\(주\)|㈜|주식회사|株式会社|㈱|\(株\)|\b(inc|llc|ltd|co)\b\.?", re.I)


def norm(s):
    s = unicodedata.normalize("NFKC", s or "").lower()
    s = COMPANY.sub("", s)
    return "".join(ch for ch in s if ch.isalnum())


def parse_args(argv):
    opts = {"title": None, "jobs": 1, "time": True, "misses": False, "limit": None, "modes": ["C", "other"], "capture": None, "skip": 0}
    pos = []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--title": opts["title"] = argv[i + 1]; i += 2
        elif a == "--jobs": opts["jobs"] = int(argv[i + 1]); i += 2
        elif a == "--limit": opts["limit"] = int(argv[i + 1]); i += 2
        elif a == "--skip": opts["skip"] = int(argv[i + 1]); i += 2
        elif a == "--no-time": opts["time"] = False; i += 1
        elif a == "--modes": opts["modes"] = argv[i + 1].split(","); i += 2
        elif a == "--capture": opts["capture"] = argv[i + 1]; i += 2
        elif a == "--misses": opts["misses"] = True; i += 1
        else: pos.append(a); i += 1
    if len(pos) != 2:
        sys.exit(__doc__)
    return pos[0], pos[1], opts


def scan(petlog, image, ui, home):
    env = {k: v for k, v in os.environ.items() if not k.startswith("LC_") and k not in ("LANG", "LANGUAGE", "PETLOG_LANG", "PETLOG_CURRENCY")}
    env.update(HOME=home, TZ="Asia/Seoul", PETLOG_NOW="2026-12-31T10:00:00+09:00", LC_ALL="C", LANG="C")
    args = [petlog, "--db", os.path.join(home, "score.sqlite")] + ([] if ui == "C" else ["--lang", ui])
    start = time.perf_counter()
    r = subprocess.run(args + ["expense", "scan", image, "--json"], capture_output=True, text=True, env=env)
    return time.perf_counter() - start, r


def tesseract(image, lang):
    start = time.perf_counter()
    subprocess.run(["tesseract", image, "-", "-l", lang], capture_output=True)
    return time.perf_counter() - start


def judge(truth, out):
    """{field: "right" | "asked" | "unsure" | "silent"} from the scan's JSON (None: petlog failed)."""
    if out is None:
        return {f: "asked" for f in FIELDS}
    e = out.get("expense") or {}
    money = e.get("money") or {}
    got = {
        "total": money.get("minor_units") == truth["total"]["minor"] and money.get("currency") == truth["total"]["currency"],
        "date": e.get("day") == truth["date"],
        "payment": e.get("payment") == truth["payment"],
        "merchant": norm(e.get("merchant")) in (norm(truth["merchant"]), norm(truth["merchant_core"])) and norm(e.get("merchant")) != "",
    }
    source = {"total": ["total", "currency"], "date": ["date"], "payment": ["payment"], "merchant": ["merchant"]}
    value = {"total": e.get("money"), "date": e.get("day"), "payment": e.get("payment"), "merchant": e.get("merchant")}
    unsure_list = set(out.get("unsure") or [])
    verdict = {}
    for f in FIELDS:
        if got[f]:
            verdict[f] = "right"
        elif not value[f]:
            verdict[f] = "asked"
        else:
            flagged = f in unsure_list or (f == "total" and "currency" in unsure_list)
            for key in source[f]:
                field = out.get(key)
                if isinstance(field, dict):
                    if "unsure" in field:
                        flagged = flagged or bool(field["unsure"])
                    elif field.get("confidence", 100) < 50 and "unsure" not in out:
                        flagged = True
            verdict[f] = "unsure" if flagged else "silent"
    return verdict


def main(argv):
    petlog, folder, opts = parse_args(argv)
    cases = []
    for name in sorted(os.listdir(folder)):
        if name.endswith(".json") and os.path.exists(os.path.join(folder, name[:-5] + ".jpg")):
            cases.append((name[:-5], os.path.join(folder, name[:-5] + ".jpg"), json.load(open(os.path.join(folder, name), encoding="utf-8"))))
    if opts["capture"]:
        cases = [c for c in cases if c[2]["capture"] == opts["capture"]]
    cases = cases[opts["skip"]:]
    if opts["limit"]:
        cases = cases[:opts["limit"]]
    heldout = any(t.get("split") == "heldout" for _, _, t in cases)
    if opts["misses"] and heldout:
        sys.exit("receipt-score.py: the held-out half is scored by its totals only; its misses are not listed (issue 45)")
    home = tempfile.mkdtemp(prefix="petlog-receipt-score-")
    title = opts["title"] or os.path.basename(os.path.normpath(folder))
    seed = cases[0][2].get("seed") if cases else None
    print(f"## {title}: {len(cases)} receipts from {folder} (seed {seed}); load {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")

    def one(case):
        name, image, truth = case
        res = {}
        for mode in opts["modes"]:
            ui = "C" if mode == "C" else OTHER_UI[truth["language"]]
            took, r = scan(petlog, image, ui, home)
            try:
                out = json.loads(r.stdout)
            except ValueError:
                out = None
            res[mode] = (judge(truth, out), took, out, r.stderr.strip()[:160])
            if mode == "C" and opts["time"]:
                res["tess"] = tesseract(image, TESS_LANG[truth["language"]])
        return res

    with ThreadPoolExecutor(max_workers=opts["jobs"]) as pool:
        results = list(pool.map(one, cases))

    groups = [("all", lambda t: True)] + [(f"{l} {c}", (lambda l, c: lambda t: t["language"] == l and t["capture"] == c)(l, c))
                                         for l in ("en", "ja", "ko") for c in ("scan", "photo")]
    for mode in opts["modes"]:
        label = "C locale" if mode == "C" else "petlog in another language (en→ko, ko→ja, ja→en receipts)"
        print(f"\n### {title}, {label}\n")
        print("| receipts | n | " + " | ".join(FIELDS) + " | wrong: asked / unsure / silent |")
        print("|---|---:|" + "---:|" * len(FIELDS) + "---|")
        for gname, pred in groups:
            rows = [r[mode][0] for r, (_, _, t) in zip(results, cases) if pred(t)]
            if not rows:
                continue
            n = len(rows)
            cells = []
            for f in FIELDS:
                pct = 100 * sum(v[f] == "right" for v in rows) / n
                cells.append(f"**{pct:.1f} %** (≥ {TARGETS[f]})" if gname == "all" else f"{pct:.0f} %")
            wrong = {k: sum(v[f] == k for v in rows for f in FIELDS) for k in ("asked", "unsure", "silent")}
            print(f"| {gname} | {n} | " + " | ".join(cells) + f" | {wrong['asked']} / {wrong['unsure']} / {wrong['silent']} |")
        if opts["time"] and mode == "C":
            scans = [r["C"][1] for r in results]
            tess = [r["tess"] for r in results]
            if scans:
                ms, mt = statistics.median(scans) * 1000, statistics.median(tess) * 1000
                print(f"\nTime (C locale, median per receipt): petlog expense scan {ms:.0f} ms, tesseract told the language {mt:.0f} ms: "
                      f"**{ms / mt:.2f}×** (target ≤ 1.5×); jobs {opts['jobs']}")
    if opts["misses"]:
        print("\nMisread (tuning half only):")
        for r, (name, _, t) in zip(results, cases):
            for mode in opts["modes"]:
                v, _, out, err = r[mode]
                bad = [f"{f}:{v[f]}" for f in FIELDS if v[f] != "right"]
                if bad:
                    e = (out or {}).get("expense") or {}
                    got = f"total={((e.get('money') or {}).get('amount'))} {((e.get('money') or {}).get('currency'))} day={e.get('day')} pay={e.get('payment')} merchant={e.get('merchant')!r}"
                    want = f"want {t['total']['minor']} {t['total']['currency']} {t['date']} {t['payment']} {t['merchant']!r}"
                    print(f"  {mode:5} {name}: {', '.join(bad)} | {got} | {want}" + (f" | {err}" if out is None else ""))


if __name__ == "__main__":
    main(sys.argv[1:])
