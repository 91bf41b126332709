#!/usr/bin/env python3
"""Where `make test`'s time went: test time in all and per store, and the slowest suites (docs/testing.md, "Time").

Usage: test-times.py TEST.XML [TIMES.TSV]
TEST.XML is the xUnit file `swift test --parallel` writes (one time per test, both stores together);
TIMES.TSV the lines StoreTestCase appends with PETLOG_TEST_TIMES set (test, store, seconds).
"""
import re
import sys
from collections import defaultdict


def main(xml_path, tsv_path=None):
    text = open(xml_path, encoding="utf-8").read()
    suites = defaultdict(float)
    total = 0.0
    for m in re.finditer(r'<testcase classname="([^"]*)" name="([^"]*)" time="([0-9.]+)"', text):
        seconds = float(m.group(3))
        suites[m.group(1).split(".")[-1]] += seconds
        total += seconds
    per_store = defaultdict(float)
    suite_store = defaultdict(lambda: defaultdict(float))
    if tsv_path:
        try:
            for line in open(tsv_path, encoding="utf-8"):
                parts = line.rstrip("\n").split("\t")
                if len(parts) != 3:
                    continue
                test, store, seconds = parts[0], parts[1], float(parts[2])
                per_store[store] += seconds
                suite_store[re.split(r"[./]", test.strip("-[] "))[0]][store] += seconds
        except FileNotFoundError:
            pass
    line = f"test time: {total:,.0f} s in all"
    if per_store:
        stores = ", ".join(f"{name} {per_store[key]:,.0f} s" for key, name in (("sqlite", "SQLite"), ("postgres", "PostgreSQL")) if key in per_store)
        line += f" (store suites: {stores}; the rest {total - sum(per_store.values()):,.0f} s)"
    print(line)
    slowest = sorted(suites.items(), key=lambda kv: -kv[1])[:8]

    def describe(name, seconds):
        split = suite_store.get(name)
        if split and len(split) > 1:
            return f"{name} {seconds:,.0f} s ({split.get('sqlite', 0):,.0f} + {split.get('postgres', 0):,.0f})"
        return f"{name} {seconds:,.0f} s"
    print("slowest suites: " + ", ".join(describe(n, s) for n, s in slowest))


if __name__ == "__main__":
    main(*sys.argv[1:3])
