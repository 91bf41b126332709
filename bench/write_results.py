#!/usr/bin/env python3
"""Writes docs/benchmarks.md: the kit's table of this run (petlog rows included) and petlog's ratios
to the targets of the issues. usage: write_results.py KIT_RESULTS.md OUT.md"""
import re, sys

src, dst = sys.argv[1:3]
text = open(src).read()
rows = {}
for line in text.splitlines():
    cells = [c.strip() for c in line.strip().strip("|").split("|")]
    if len(cells) >= 7 and re.match(r"^[0-9.]+$", cells[2] or ""):
        rows[(cells[0], cells[1])] = (float(cells[2]), cells[5])

def med(group, peer_prefix):
    for (g, p), v in rows.items():
        if g == group and p.startswith(peer_prefix):
            return v
    return None

# Beside each wall-time median: hyperfine's mean CPU time (user + sys) of the same runs and the 1-minute load
# average at the row's start and end (out/hf/ID.load, written by bench/run.sh's hook), so that a ratio taken on a
# busy machine can be read (issue 44: "in every run").
import glob, json, os
hf = {}
for meta in glob.glob(os.path.join(os.path.dirname(os.path.abspath(src)), "out", "hf", "*.meta")):
    base = meta[:-len(".meta")]
    _, g, p = open(meta).read().split("\t")[:3]
    try:
        r = json.load(open(base + ".json"))["results"][0]
        cpu = r["user"] + r["system"] if "user" in r else None
    except (OSError, ValueError, KeyError, IndexError):
        cpu = None
    load = open(base + ".load").read().split() if os.path.exists(base + ".load") else []
    hf[(g, p)] = (cpu, load)

def side(group, peer_prefix):
    for (g, p), v in hf.items():
        if g == group and p.startswith(peer_prefix):
            return v
    return (None, [])

def loads(*sides):
    xs = [float(x) for _, l in sides for x in l]
    return f"load {min(xs):.1f}–{max(xs):.1f}" if xs else ""

targets = []
def ratio(group, ours, theirs, goal, label, their_group=None):
    a, b = med(group, ours), med(their_group or group, theirs)
    if a and b:
        r = a[0] / b[0]
        sa, sb = side(group, ours), side(their_group or group, theirs)
        notes = [f"CPU {sa[0]:.3f} / {sb[0]:.3f} s = {sa[0] / sb[0]:.2f}×"] if sa[0] and sb[0] else []
        notes += [x for x in [loads(sa, sb)] if x]
        extra = f" ({'; '.join(notes)})" if notes else ""
        targets.append(f"| {group} | {label} | {a[0]:.3f} s / {b[0]:.3f} s = **{r:.2f}×**{extra} | {goal} | {'met' if eval(goal.replace('≤', '<=').replace('≥', '>=').replace('ratio', str(r))) else 'missed'} |")

ratio("chart png, 1k points", "petlog", "gnuplot", "ratio ≤ 0.7", "petlog ÷ gnuplot")
ratio("chart png, 1M points", "petlog", "matplotlib", "ratio ≤ 0.333", "petlog ÷ matplotlib")
ratio("chart png, 1M points", "petlog", "limit: C + cairo, M4", "ratio ≤ 1.0", "petlog ÷ C+cairo M4 floor")
ratio("chart pdf, 1M points", "petlog", "limit: C + cairo, M4", "ratio ≤ 1.0", "petlog ÷ C+cairo M4 floor")
ratio("report pdf, pet 42", "petlog", "ReportLab", "ratio ≤ 0.5", "petlog ÷ ReportLab")
# pages (session 23): a Korean or Japanese report against the English one (its peer is "petlog report").
ratio("report pdf, pet 42", "Korean", "petlog", "ratio ≤ 1.2", "Korean report ÷ English report")
ratio("report pdf, pet 42", "Japanese", "petlog", "ratio ≤ 1.2", "Japanese report ÷ English report")
ratio("load pets + 868,890 weights", "petlog", "sqlite3 shell", "ratio ≤ 1.2", "petlog import ÷ sqlite3 .import")
ratio("load pets + 868,890 weights", "petlog", "Python sqlite3", "ratio < 1.0", "petlog import ÷ Python executemany")
ratio("load every shelter table", "petlog", "sqlite3 shell", "ratio ≤ 1.5", "petlog import ÷ sqlite3 .import, every table")
# Transfer (issue 17): the JSON export against sqlite3's dump, the JSON import against the CSV-folder one.
ratio("export the shelter", "petlog export -o", "sqlite3 .dump", "ratio ≤ 1.5", "petlog export -o all.json ÷ sqlite3 .dump")
ratio("export the shelter", "petlog export --format csv", "sqlite3 .dump", "ratio ≤ 100", "petlog export --format csv ÷ sqlite3 .dump (no target)")
ratio("import the shelter export", "petlog import all.json", "petlog import (CSV", "ratio ≤ 1.2", "petlog import all.json ÷ CSV-folder import")
# Issue 34: the JSON file parsed no slower per byte than the shelter's CSVs (the same records).
ratio("import the shelter export", "petlog import all.json", "petlog", "ratio ≤ 1.3", "petlog import all.json ÷ petlog import of the shelter CSVs", their_group="load every shelter table")
json_import = med("import the shelter export", "petlog import all.json")
# Store (issue 17): search and due beside pet list, check beside its floor, pet list beside --help (raised by issue 44).
ratio("search and due, shelter", "petlog search", "peer: petlog pet list", "ratio ≤ 1.5", "petlog search vomiting ÷ pet list")
ratio("search and due, shelter", "petlog due", "peer: petlog pet list", "ratio ≤ 1.6", "petlog due ÷ pet list")
ratio("check, shelter", "petlog check", "floor:", "ratio ≤ 1.15", "petlog check ÷ integrity_check + sha256sum")
ratio("pet list process", "petlog pet list", "peer: petlog --help", "ratio ≤ 1.3", "petlog pet list ÷ petlog --help")
# PostgreSQL (issue 16): the shelter into a server beside psql \\copy; reads on each store (no target).
ratio("import the shelter into PostgreSQL", "petlog import (PostgreSQL)", "psql", "ratio ≤ 1.4", "petlog import ÷ psql \\copy, every table")
ratio("log of a pet, shelter", "petlog log 42 (PostgreSQL)", "petlog log 42 (SQLite", "ratio ≤ 100", "log on PostgreSQL ÷ on the SQLite file (no target)")
ratio("report pdf on each store", "petlog report (PostgreSQL)", "petlog report (SQLite", "ratio ≤ 100", "report on PostgreSQL ÷ on the SQLite file (no target)")
ratio("chart png, 1M points, each store", "petlog chart weight (PostgreSQL)", "petlog chart weight (SQLite", "ratio ≤ 2.0", "1M-point chart on PostgreSQL ÷ on the SQLite file")
# issue 44: check of the shelter on the server ÷ on the file (store/check/petlog's row).
ratio("check on the server, shelter", "petlog check (PostgreSQL)", "petlog check", "ratio ≤ 3.0", "check on PostgreSQL ÷ check on the SQLite file", their_group="check, shelter")
def under(group, seconds, label):
    a = med(group, "petlog")
    if a:
        sa = side(group, "petlog")
        notes = ([f"CPU {sa[0] * 1000:.1f} ms"] if sa[0] else []) + [x for x in [loads(sa)] if x]
        extra = f" ({'; '.join(notes)})" if notes else ""
        targets.append(f"| {group} | {label} | {a[0] * 1000:.1f} ms{extra} | < {seconds * 1000:.0f} ms | {'met' if a[0] < seconds else 'missed'} |")
    else:
        targets.append(f"| {group} | {label} | not measured (command missing) | < {seconds * 1000:.0f} ms | |")

under("stats --month, shelter", 0.050, "petlog stats, 56,563 expenses")
ratio("stats --month, shelter", "petlog", "peer: petlog pet list", "ratio ≤ 1.6", "petlog stats --month ÷ pet list", their_group="search and due, shelter")
under("expense list --month, shelter", 0.050, "petlog expense list, 56,563 expenses")
rss = med("chart png, 1M points", "petlog")
# The web rows (issue 44): bench/web.sh's wrk runs of petlog serve beside datasette, in this table and their own.
import os, web_results
web = web_results.load(os.path.join(os.path.dirname(src), "out", "web", "results-web.json"))
targets += web_results.targets(web)

out = ["# Benchmarks", "",
       "Made by `make bench` (bench/run.sh): the peer kit of `../shared/bench` copied to `.build/bench-kit`,",
       "petlog's rows added to its runner, everything measured in the same run on this machine. petlog reads",
       "its series from its own SQLite database (loaded untimed with `petlog import`). The import rows load",
       "the kit's `shelter` CSVs into a new database each run, as the sqlite3 and Python peers do (their",
       "schema has no record supertable, no CHECKs and no time index; petlog's also keeps each instant's offset).", "",
       "## Targets", "", "| group | ratio | medians | target | |", "|---|---|---|---|---|"] + targets
if rss:
    out += ["", f"Peak RSS of `petlog chart weight` with 1M points: {rss[1]} MiB (target < 64 MiB: {'met' if float(rss[1]) < 64 else 'missed'}; one run)."]
pg_rss = med("chart png, 1M points, each store", "petlog chart weight (PostgreSQL)")
if pg_rss:
    out += ["", f"Peak RSS of `petlog chart weight` with 1M points on PostgreSQL: {pg_rss[1]} MiB (target < 64 MiB: {'met' if float(pg_rss[1]) < 64 else 'missed'}; one run)."]
# The 1M-point pet imported into the server (bench/run.sh, once, untimed by the kit) and its first chart after it.
import os
times = {}
for name in ("series-import", "first-chart"):
    path = os.path.join(os.path.dirname(os.path.abspath(src)), "out", "pg", name + ".time")
    if os.path.exists(path):
        times[name] = float(open(path).read().split()[0])
later = med("chart png, 1M points, each store", "petlog chart weight (PostgreSQL)")
if "first-chart" in times and later:
    r = times["first-chart"] / later[0]
    out += ["", f"First chart of the 1M-point pet on PostgreSQL, after its import ({times.get('series-import', 0):.1f} s, packing included): "
            f"{times['first-chart']:.3f} s, {r:.2f}× a later chart's median (target ≤ 2×: {'met' if r <= 2 else 'missed'}; one run)."]
if json_import:
    out += ["", f"Peak RSS of `petlog import all.json` (the whole shelter into an empty file): {json_import[1]} MiB (target < 200 MiB)."]
out += web_results.table(web)
# The prose ("## Where the misses come from" up to "## The run") is written by hand in docs/benchmarks.md and
# kept from the file being replaced; only the tables come from this run.
import os
prose = ["## Where the misses come from", "", "(not written yet)"]
if os.path.exists(dst):
    old = open(dst).read()
    start, end = old.find("## Where the misses come from"), old.find("\n## The run")
    if start != -1 and end > start:
        prose = old[start:end].rstrip("\n").split("\n")
out += [""] + prose
out += ["", "## The run", ""] + text.split("\n", 1)[1].splitlines()
open(dst, "w").write("\n".join(out) + "\n")
