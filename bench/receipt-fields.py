#!/usr/bin/env python3
"""Per-field accuracy of `petlog expense scan` on the project's receipt set, read as each user would: under
--lang en, ko, ja and a C locale without --lang (the receipt's language is found from the image, docs/ocr.md),
each receipt as drawn and turned upside down; and its time per receipt (one process per receipt, as a user
runs it). Usage: receipt-fields.py PETLOG_BINARY RECEIPT_DIR [UI ...]  (UI: en ko ja C; default all four)
Needs Pillow (Debian's /usr/bin/python3 has it) for the turned copies."""
import json, os, subprocess, sys, tempfile, time
from PIL import Image
petlog, folder = sys.argv[1], sys.argv[2]
uis = sys.argv[3:] or ["en", "ko", "ja", "C"]
home = tempfile.mkdtemp(prefix="petlog-scan-bench-")
env = dict(os.environ, HOME=home, TZ="Asia/Seoul", PETLOG_NOW="2026-12-31T10:00:00+09:00", LANG="C.UTF-8")
env.pop("LC_ALL", None)
fields = ["total", "date", "payment", "merchant"]
targets = {"total": 95, "date": 95, "payment": 85, "merchant": 80}
cases = []
for name in sorted(os.listdir(folder)):
    image = os.path.join(folder, name[:-5] + ".jpg")
    if not name.endswith(".json") or not os.path.exists(image):
        continue
    truth = json.load(open(os.path.join(folder, name)))
    cases.append((name[:-5], image, truth))
    turned = os.path.join(home, name[:-5] + "-180.jpg")
    Image.open(image).rotate(180).save(turned, quality=92)
    cases.append((name[:-5] + " turned 180°", turned, truth))
print(f"{len(cases)} images ({len(cases) // 2} receipts, each also upside down); UI: {', '.join(uis)}; load {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
print()
print("| UI | receipts | " + " | ".join(fields) + " | ms per receipt (median) |")
print("|---|---|" + "---:|" * (len(fields) + 1))
misses = []
for ui in uis:
    right = {f: 0 for f in fields}
    per_language = {}
    times = []
    for label, image, truth in cases:
        args = [petlog, "--db", os.path.join(home, "b.sqlite")] + ([] if ui == "C" else ["--lang", ui])
        start = time.perf_counter()
        r = subprocess.run(args + ["expense", "scan", image, "--json"], capture_output=True, text=True, env=env)
        times.append(time.perf_counter() - start)
        lang = per_language.setdefault(truth["language"], {f: 0 for f in fields} | {"n": 0})
        lang["n"] += 1
        try:
            e = json.loads(r.stdout)["expense"]
        except Exception:
            misses.append(f"{ui} {label}: {r.stderr.strip()[:120]}")
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
        wrong = [f for f in fields if not got[f]]
        if wrong:
            misses.append(f"{ui} {label}: " + ", ".join(wrong))
    times.sort()
    median = times[len(times) // 2] * 1000 if times else 0
    for language, v in sorted(per_language.items()):
        print(f"| {ui} | {language} ({v['n']}) | " + " | ".join(f"{100 * v[f] / v['n']:.0f} %" for f in fields) + " | |")
    n = sum(v["n"] for v in per_language.values())
    print(f"| {ui} | all ({n}) | " + " | ".join(f"{100 * right[f] / max(n, 1):.0f} % (≥ {targets[f]} %)" for f in fields) + f" | {median:.0f} |")
print()
print("Misread fields:" if misses else "No field misread.")
for m in misses:
    print("  " + m)
