#!/usr/bin/env python3
"""Loads a peer-kit series CSV (measured_at, weight_kg) into a petlog database as one pet's weights.

Bench input only (not timed): the database must already exist with the pet, made by `petlog pet add`.
Times in the CSV are local; the bench runs with TZ=UTC, so they are stored as UTC.
usage: load_series.py DB PET_NAME SERIES.csv
"""
import calendar, csv, sqlite3, sys, time

db, pet_name, path = sys.argv[1:4]
c = sqlite3.connect(db)
pet_id = c.execute("SELECT id FROM pet WHERE name = ?", (pet_name,)).fetchone()[0]
now = int(time.time())
rid = c.execute("SELECT coalesce(max(id), 0) FROM record").fetchone()[0]
c.execute("BEGIN")
with open(path, newline="") as f:
    for row in csv.DictReader(f):
        rid += 1
        at = calendar.timegm(time.strptime(row["measured_at"], "%Y-%m-%dT%H:%M:%S"))
        c.execute("INSERT INTO record (id, pet_id, kind, at, utc_offset, starred, created_at, updated_at) "
                  "VALUES (?, ?, 'weight', ?, 0, 0, ?, ?)", (rid, pet_id, at, now, now))
        c.execute("INSERT INTO weight (record_id, grams) VALUES (?, ?)", (rid, round(float(row["weight_kg"]) * 1000)))
c.commit()
c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
c.close()
