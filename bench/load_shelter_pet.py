#!/usr/bin/env python3
"""Loads one pet of the peer kit's shelter data set (pets, weights, symptoms, visits, vaccinations,
expenses) into a new petlog database, keeping its id, for the report benchmark. Not timed.
usage: load_shelter_pet.py PETLOG_BIN DB DATA_DIR PET_ID"""
import calendar, csv, sqlite3, subprocess, sys, time

petlog, db, data, pet_id = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
subprocess.run([petlog, "--db", db, "pet", "list"], check=True, stdout=subprocess.DEVNULL)  # creates the schema
c = sqlite3.connect(db)
now = int(time.time())

def rows(table):
    with open(f"{data}/{table}.csv", newline="") as f:
        for r in csv.DictReader(f):
            if r["pet_id"] == pet_id:
                yield r

def ts(text):
    fmt = "%Y-%m-%dT%H:%M:%S" if "T" in text else "%Y-%m-%d"
    t = calendar.timegm(time.strptime(text, fmt))
    return t if "T" in text else t + 12 * 3600

VACCINES = {"Rabies": "rabies", "DHPP": "dhpp", "Leptospirosis": "leptospirosis", "Bordetella": "bordetella", "FVRCP": "fvrcp",
            "FeLV": "felv", "Myxo-RHD Plus": "myxo-rhd", "RHDV2": "rhdv2", "Distemper": "distemper"}
c.execute("BEGIN")
for p in rows("pets"):
    archived = p["deceased_on"] or None
    c.execute("INSERT INTO pet (id, name, name_key, species, breed, sex, neutered, born, microchip, archived_on, archive_reason, created_at, updated_at) "
              "VALUES (?, ?, lower(?), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
              (int(p["pet_id"]), p["name"], p["name"], p["species"], p["breed"] or None, {"M": "male", "F": "female"}.get(p["sex"], "unknown"),
               int(p["neutered"]), p["birth_date"] or None, p["microchip"] or None, archived, "passed-away" if archived else None, now, now))

def record(kind, at, note=None):
    c.execute("INSERT INTO record (pet_id, kind, at, utc_offset, note, starred, created_at, updated_at) VALUES (?, ?, ?, 0, ?, 0, ?, ?)",
              (int(pet_id), kind, at, note, now, now))
    return c.execute("SELECT last_insert_rowid()").fetchone()[0]

for w in rows("weights"):
    rid = record("weight", ts(w["measured_at"]))
    c.execute("INSERT INTO weight (record_id, grams) VALUES (?, ?)", (rid, max(1, round(float(w["weight_kg"]) * 1000))))
for s in rows("symptoms"):
    rid = record("symptom", ts(s["observed_at"]), s["note"] or None)
    c.execute("INSERT INTO symptom (record_id, code, listed, severity) VALUES (?, ?, 1, ?)", (rid, s["symptom"], int(s["severity"])))
for v in rows("visits"):
    rid = record("visit", ts(v["visited_on"]))
    c.execute("INSERT INTO visit (record_id, clinic, vet, reason, diagnosis, weight_grams) VALUES (?, ?, ?, ?, ?, ?)",
              (rid, v["clinic"] or None, v["vet"] or None, v["reason"] or None, v["diagnosis"] or None,
               round(float(v["weight_kg"]) * 1000) if v["weight_kg"] else None))
for v in rows("vaccinations"):
    rid = record("vaccination", ts(v["given_on"]))
    c.execute("INSERT INTO vaccination (record_id, vaccine, lot, next_due) VALUES (?, ?, ?, ?)",
              (rid, VACCINES.get(v["vaccine"], v["vaccine"]), v["lot"] or None, v["valid_until"] or None))
for e in rows("expenses"):
    rid = record("expense", ts(e["spent_on"]), e["description"] or None)
    digits = 0 if e["currency"] in ("JPY", "KRW") else 2
    minor = round(float(e["amount"]) * 10 ** digits)
    c.execute("INSERT INTO expense (record_id, amount_minor, currency, category) VALUES (?, ?, ?, ?)", (rid, minor, e["currency"], e["category"]))
c.commit()
c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
print(c.execute("SELECT count(*) FROM record").fetchone()[0], "records", file=sys.stderr)
