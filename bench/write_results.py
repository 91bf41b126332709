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

targets = []
def ratio(group, ours, theirs, goal, label):
    a, b = med(group, ours), med(group, theirs)
    if a and b:
        r = a[0] / b[0]
        targets.append(f"| {group} | {label} | {a[0]:.3f} s / {b[0]:.3f} s = **{r:.2f}×** | {goal} | {'met' if eval(goal.replace('≤', '<=').replace('≥', '>=').replace('ratio', str(r))) else 'missed'} |")

ratio("chart png, 1k points", "petlog", "gnuplot", "ratio ≤ 0.9", "petlog ÷ gnuplot")
ratio("chart png, 1M points", "petlog", "matplotlib", "ratio ≤ 0.333", "petlog ÷ matplotlib")
ratio("chart png, 1M points", "petlog", "limit: C + cairo, M4", "ratio ≤ 1.2", "petlog ÷ C+cairo M4 floor")
ratio("chart pdf, 1M points", "petlog", "limit: C + cairo, M4", "ratio ≤ 1.5", "petlog ÷ C+cairo M4 floor")
ratio("report pdf, pet 42", "petlog", "ReportLab", "ratio ≤ 0.5", "petlog ÷ ReportLab")
# pages (session 23): a Korean or Japanese report against the English one (its peer is "petlog report").
ratio("report pdf, pet 42", "Korean", "petlog", "ratio ≤ 1.2", "Korean report ÷ English report")
ratio("report pdf, pet 42", "Japanese", "petlog", "ratio ≤ 1.2", "Japanese report ÷ English report")
ratio("load pets + 868,890 weights", "petlog", "sqlite3 shell", "ratio ≤ 1.5", "petlog import ÷ sqlite3 .import")
ratio("load pets + 868,890 weights", "petlog", "Python sqlite3", "ratio < 1.0", "petlog import ÷ Python executemany")
ratio("load every shelter table", "petlog", "sqlite3 shell", "ratio ≤ 1.2", "petlog import ÷ sqlite3 .import, every table")
# Transfer (issue 17): the JSON export against sqlite3's dump, the JSON import against the CSV-folder one.
ratio("export the shelter", "petlog export -o", "sqlite3 .dump", "ratio ≤ 2.0", "petlog export -o all.json ÷ sqlite3 .dump")
ratio("export the shelter", "petlog export --format csv", "sqlite3 .dump", "ratio ≤ 100", "petlog export --format csv ÷ sqlite3 .dump (no target)")
ratio("import the shelter export", "petlog import all.json", "petlog import (CSV", "ratio ≤ 1.2", "petlog import all.json ÷ CSV-folder import")
json_import = med("import the shelter export", "petlog import all.json")
# Store (issue 17): search and due beside pet list, check beside its floor, pet list beside --help.
ratio("search and due, shelter", "petlog search", "peer: petlog pet list", "ratio ≤ 2.0", "petlog search vomiting ÷ pet list")
ratio("search and due, shelter", "petlog due", "peer: petlog pet list", "ratio ≤ 2.0", "petlog due ÷ pet list")
ratio("check, shelter", "petlog check", "floor:", "ratio ≤ 1.2", "petlog check ÷ integrity_check + sha256sum")
ratio("pet list process", "petlog pet list", "peer: petlog --help", "ratio ≤ 1.4", "petlog pet list ÷ petlog --help")
def under(group, seconds, label):
    a = med(group, "petlog")
    if a:
        targets.append(f"| {group} | {label} | {a[0] * 1000:.1f} ms | < {seconds * 1000:.0f} ms | {'met' if a[0] < seconds else 'missed'} |")
    else:
        targets.append(f"| {group} | {label} | not measured (command missing) | < {seconds * 1000:.0f} ms | |")

under("stats --month, shelter", 0.050, "petlog stats, 56,563 expenses")
under("expense list --month, shelter", 0.050, "petlog expense list, 56,563 expenses")
rss = med("chart png, 1M points", "petlog")

out = ["# Benchmarks", "",
       "Made by `make bench` (bench/run.sh): the peer kit of `../shared/bench` copied to `.build/bench-kit`,",
       "petlog's rows added to its runner, everything measured in the same run on this machine. petlog reads",
       "its series from its own SQLite database (loaded untimed with `petlog import`). The import rows load",
       "the kit's `shelter` CSVs into a new database each run, as the sqlite3 and Python peers do (their",
       "schema has no record supertable, no CHECKs and no time index; petlog's also keeps each instant's offset).", "",
       "## Targets", "", "| group | ratio | medians | target | |", "|---|---|---|---|---|"] + targets
if rss:
    out += ["", f"Peak RSS of `petlog chart weight` with 1M points: {rss[1]} MiB (target < 64 MiB)."]
if json_import:
    out += ["", f"Peak RSS of `petlog import all.json` (the whole shelter into an empty file): {json_import[1]} MiB (target < 200 MiB)."]
out += ["", "## Where the misses come from", "",
        "The C floors read the series from a CSV file with `strtod` and draw only the line. petlog reads it",
        "from its normalized store: a covering-index range scan of `record (pet_id, kind, at)` plus one",
        "rowid lookup per point in `weight`, which SQLite alone needs about 0.2 s for a million points",
        "(the same query in the `sqlite3` shell takes 0.4 s with its text output). That read, not the",
        "drawing (M4 per pixel column, about 5 % of the time), is why the 1M-point PDF stays above 1.5× of",
        "its floor; the PNG's ratio moved between 1.55× and 1.73× across full runs on this shared machine. `weightSeries` steps the raw SQLite statement",
        "into two preallocated `[Double]` columns (GRDB's `Row` cursor cost twice as much). Denormalizing",
        "weights out of the record supertable would close the gap but lose one timeline for every kind.",
        "The import numbers above settle that trade-off for now: with two inserts per weight (record +",
        "weight), the load stays within the target of sqlite3's one, after schema v2 replaced an 11-value",
        "`IN` CHECK that SQLite re-evaluated through a temporary index per row (4× the insert cost), the",
        "big load drops and rebuilds the record indexes (a sort instead of random inserts) and binds raw",
        "values to reused prepared statements of 64 rows each (multi-row VALUES: a third less CPU than one",
        "row per step). Loading every shelter table is slower than sqlite3's because its 90,667 other rows",
        "go through petlog's full checks and detail tables one record at a time (about 10 µs each).", "",
        "The spending views read `spending()` (expenses and visit costs of a span). With the v4 indexes its",
        "`r.kind = 'expense' AND r.at BETWEEN …` can only range-scan `record (at)` over every kind (a shelter",
        "month is 31,150 records, 29,000 of them weights) and look each row up: 44 ms of SQLite for one month,",
        "4.4 s for all of them (Python's sqlite3, medians of 7). `CREATE INDEX record_kind_at ON record (kind, at)`",
        "makes it a covering-index search (`kind=? AND at>? AND at<?`): 1.6 ms for the month, 0.41 s for all.",
        "`stats --month` also loads every record of both months through `loadRecords` (GRDB rows decoded by",
        "column name: a lowercased string compare per column, 9 % of its profile) to compare weights, meals",
        "and symptoms: 0.35 – 0.7 s on the shelter, which an index barely changes; it needs per-kind aggregates in SQL.",
        "Measured with the release build on a copy of the shelter database that has the index (load 3.5):",
        "`expense list --month 2024-11` 82.5 → 45.1 ms, `chart expenses` for that month 70.9 → 26.9 ms, `stats`",
        "468 → 353 ms; `expense list --json` stays at about 250 ms (its JSON output, not the read).", "",
        "A filtered run (`bash bench/run.sh petlog`) re-times only petlog's rows and keeps the peers' rows of",
        "the last full run in the same table."]
# pages (session 23): the Korean and Japanese reports.
out += ["", "### Korean and Japanese reports (session 23)", "",
        "The rows `Korean: petlog --lang ko report` and `Japanese: petlog --lang ja report` render the report row's pet",
        "and database in Korean and Japanese; their target is 1.2× the English report. With Noto Sans CJK they took",
        "1.5–1.9× (release builds, pet 42, same minute): cairo 1.16 subsets a CFF font for a PDF by copying its whole",
        "CFF table, 16 MB for each Noto CJK face (Regular and Bold), whatever the text, and walks its 65,535-glyph cmap;",
        "callgrind counts only 40 M instructions for that, and most of the time was page faults (15,500 for a Korean",
        "report against 3,700 for the English one), which are dear in this VM. Keeping those blocks on a huge-page",
        "heap (`Cairo.FontSubsetMemory`) brought it to 1.53× and 1.62×. What closed it is the font: Korean is set in",
        "Nanum Gothic (TrueType) and Japanese in M PLUS 2 (a 1.6 MB OpenType font), each with its own Latin, so one",
        "family per document still holds; in a Python/pango test one Regular + Bold line took 11 ms with Nanum",
        "Gothic and 34 ms with M PLUS 2 against 81–113 ms with Noto Sans CJK KR/JP. perf stat, 8 runs, same minute:",
        "English 88.6 ms, Korean 100.7 ms (1.14×), Japanese 104.9 ms (1.18×). Noto Sans CJK stays the fallback."]
# Transfer and drawing (issue 17, session 23): before/after and the profiles behind the misses.
out += ["", "## Transfer and drawing (issue 17)", "",
        "CPU seconds (user + sys) of the release build on the shelter set (500 pets, 959,057 records), measured",
        "A/B in the same minutes on this loaded 2-core machine (wall times there were 2–10× CPU):",
        "",
        "| work | before | after | peer, same minutes |",
        "|---|---|---|---|",
        "| `export -o all.json` | 11.9 s, 42 MiB | 2.04 s, 36 MiB (same bytes) | `sqlite3 .dump` 1.30 s: **1.57×** |",
        "| `export --format csv` | 2.69 s | 2.11 s (same files) | |",
        "| `import all.json`, empty file | 17.4 s, 466 MiB | 7.6 s, 214 MiB | CSV-folder import 8.6 s, 1,047 MiB: **0.88×** |",
        "| import every shelter table | 3.44 s | 3.09 s | `sqlite3 .import --all` 1.45 s: 2.1× |",
        "| chart png, 1k points | 98 ms | 65 ms (same pixels) | gnuplot 83–92 ms: **0.7–0.8×** |",
        "| chart png, 1M points | 379–397 ms | 357–372 ms | C+cairo M4 floor 256–290 ms: 1.3–1.4× |",
        "| chart pdf, 1M points | 289–316 ms | 269–300 ms | C+cairo M4 floor 104–115 ms: 2.5× |",
        "",
        "Later, with the machine quieter (load 1.5), hyperfine's wall-clock means of the final build: `export -o",
        "all.json` 1.97 s against `sqlite3 .dump` 1.25 s (**1.58×**); chart png 1k 66.5 ms against gnuplot 85.5 ms",
        "(**0.78×**); chart png 1M 358 ms against the M4 floor's 282 ms (1.27×); chart pdf 1M 254 ms against 117 ms (2.17×).",
        "",
        "The JSON export reads each table once in id order and merges them by record id (weights stepped",
        "by hand, the other kinds through the shared row checks), and writes each record's bytes in place",
        "in sorted-key order (`JSONBytes`, held to the Codable encoder by `ExportJSONWritingTests`). The JSON",
        "import reads a plain weight straight from its bytes and keeps it in columns, and every import binds",
        "through statements prepared once (`ImportStatements`). PNG files are encoded by petlog: libpng as",
        "cairo drives it tried every filter on every row and deflated at level 6, 71.5 % of the 896 M",
        "instructions (callgrind) of a 1,000-point chart; the Up filter with zlib's fastest level makes the",
        "same pixels with files a quarter bigger.",
        "",
        "What is left is SQLite's own work, not petlog's code. The 1M-point PDF is 2.50 G instructions",
        "(callgrind): `weightSeries` 2.14 G (85.7 %, `sqlite3_step` 1.99 G), the drawing 0.22 G (cairo-pdf's",
        "`finish` 91 M, the M4 path 70 M, fontconfig's start 29 M); the 1M PNG spends 51 % of its samples",
        "(perf) in libsqlite3 and 23 % in cairo's rasteriser, which the floor pays too. Both targets wait",
        "on the weight read (schema v5). Loading every shelter table spends 59 % in libsqlite3 (two B-tree",
        "inserts per record, three index rebuilds), 14 % in the kernel and 17 % in petlog; the 90,667",
        "non-weight rows' writes are now 0.3 % of its samples, so 1.2× of sqlite3's one insert per row needs",
        "a cheaper schema, not a cheaper loop. The JSON import reads in 109 MiB at most and no longer keeps",
        "a set and a map of every file id (50 MiB; kept ids are asked of the table); its peak, 214 MiB, is",
        "reached in the index rebuild after the load (`PRAGMA cache_size = -131072`, two sorter threads),",
        "which the CSV imports share: with a 32 MiB cache the rebuild measured 23 MiB less."]
out += ["", "## The run", ""] + text.split("\n", 1)[1].splitlines()
open(dst, "w").write("\n".join(out) + "\n")
