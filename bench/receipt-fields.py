#!/usr/bin/env python3
"""Per-field accuracy of `petlog expense scan` on the project's receipt set, and its time per receipt
(one process per receipt, as a user runs it). Usage: receipt-fields.py PETLOG_BINARY RECEIPT_DIR"""
import json, os, subprocess, sys, tempfile, time
petlog, folder = sys.argv[1], sys.argv[2]
home = tempfile.mkdtemp(prefix="petlog-scan-bench-")
env = dict(os.environ, HOME=home, TZ="Asia/Seoul", PETLOG_NOW="2026-12-31T10:00:00+09:00", LANG="C.UTF-8")
fields = ["total", "date", "payment", "merchant"]
right = {f: 0 for f in fields}
per_language = {}
times = []
n = 0
for name in sorted(os.listdir(folder)):
    if not name.endswith(".json"):
        continue
    image = os.path.join(folder, name[:-5] + ".jpg")
    if not os.path.exists(image):
        continue
    truth = json.load(open(os.path.join(folder, name)))
    start = time.perf_counter()
    r = subprocess.run([petlog, "--db", os.path.join(home, "b.sqlite"), "--lang", truth["language"], "expense", "scan", image,
                        "--json", "--currency", truth["total"]["currency"]], capture_output=True, text=True, env=env)
    times.append(time.perf_counter() - start)
    n += 1
    lang = per_language.setdefault(truth["language"], {f: 0 for f in fields} | {"n": 0})
    lang["n"] += 1
    try:
        e = json.loads(r.stdout)["expense"]
    except Exception:
        continue
    got = {
        "total": (e.get("money") or {}).get("minor_units") == truth["total"]["minor"],
        "date": e.get("day") == truth["date"],
        "payment": e.get("payment") == truth["payment"],
        "merchant": (e.get("merchant") or "").replace(" ", "") == truth["merchant"].replace(" ", ""),
    }
    for f in fields:
        right[f] += got[f]
        lang[f] += got[f]
targets = {"total": 95, "date": 95, "payment": 90, "merchant": 80}
print("| receipts | " + " | ".join(fields) + " | ms per receipt (median) |")
print("|---|" + "---:|" * (len(fields) + 1))
for language, v in sorted(per_language.items()):
    print(f"| {language} ({v['n']}) | " + " | ".join(f"{v[f]}/{v['n']}" for f in fields) + " | |")
times.sort()
median = times[len(times) // 2] * 1000 if times else 0
print(f"| all ({n}) | " + " | ".join(f"{100 * right[f] / max(n, 1):.0f} % (target ≥ {targets[f]} %)" for f in fields) + f" | {median:.0f} |")
