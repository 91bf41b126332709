import GRDB
import PetModel
import PetStoreCore

/// The shipped migrations. Append-only: a migration that has shipped is never edited; change the
/// schema by registering a new one after the last.
/// The clinical ranges in the CHECKs are written from PetModel's scales (`StoolScore.range`, …): the
/// text is the same as shipped, and a scale that changes needs a new migration like any other CHECK.
enum Schema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in try db.execute(sql: v1) }
        migrator.registerMigration("v2") { db in try db.execute(sql: v2) }
        migrator.registerMigration("v3") { db in try db.execute(sql: v3) }
        migrator.registerMigration("v4") { db in
            try db.execute(sql: v4)
            try UndoLog.createTriggers(db)
        }
        migrator.registerMigration("v5") { db in
            try db.execute(sql: v5)
            try SearchIndex.rebuild(db, migrating: true)
        }
        migrator.registerMigration("v6") { db in
            try db.execute(sql: v6)
            // The undo triggers list the pet's columns: made anew with the new ones.
            try db.execute(sql: "DROP TRIGGER undo_pet_insert; DROP TRIGGER undo_pet_update; DROP TRIGGER undo_pet_delete")
            try UndoLog.createTriggers(db, tables: ["pet"])
        }
        migrator.registerMigration("v7") { db in
            try db.execute(sql: v7)
            // `record` was made anew (its triggers went with the old table) and `grooming` is new.
            try UndoLog.createTriggers(db, tables: ["record", "grooming"])
        }
        migrator.registerMigration("v8") { db in
            try db.execute(sql: v8)
            try db.execute(sql: "DROP TRIGGER undo_budget_insert; DROP TRIGGER undo_budget_update; DROP TRIGGER undo_budget_delete")
            try UndoLog.createTriggers(db, tables: ["budget"])
        }
        migrator.registerMigration("v9") { db in try db.execute(sql: v9) }
        migrator.registerMigration("v10") { db in try db.execute(sql: v10) }
        migrator.registerMigration("v11") { db in
            try db.execute(sql: v11)
            // `expense` was made anew: its undo triggers went with the old table.
            try UndoLog.createTriggers(db, tables: ["expense"])
        }
        migrator.registerMigration("v12") { db in
            try db.execute(sql: v12)
            // The undo triggers list the diary's columns: made anew with the title.
            try db.execute(sql: "DROP TRIGGER undo_diary_insert; DROP TRIGGER undo_diary_update; DROP TRIGGER undo_diary_delete")
            try UndoLog.createTriggers(db, tables: ["diary"])
            // A file from before v5 had no diary text indexed by v5 (no title column yet): indexed now.
            try SearchIndex.rebuild(db, migrating: true)
        }
        migrator.registerMigration("v13") { db in
            try db.execute(sql: v13)
            try UndoLog.createTriggers(db, tables: ["walk"])
        }
        migrator.registerMigration("v14") { db in try db.execute(sql: v14) }
        migrator.registerMigration("v15") { db in
            try db.execute(sql: v15)
            // The undo triggers list the pet's columns: made anew with the photo's.
            try db.execute(sql: "DROP TRIGGER undo_pet_insert; DROP TRIGGER undo_pet_update; DROP TRIGGER undo_pet_delete")
            try UndoLog.createTriggers(db, tables: ["pet"])
        }
        migrator.registerMigration("v16") { db in try db.execute(sql: v16) }
        migrator.registerMigration("v17") { db in try db.execute(sql: v17) }
        return migrator
    }

    /// The newest schema version this build knows.
    static let currentVersion = "v17"

    static let v1 = """
    CREATE TABLE pet (
      id             INTEGER PRIMARY KEY,
      name           TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
      name_key       TEXT NOT NULL,
      species        TEXT NOT NULL CHECK (species GLOB '[a-z]*'),
      breed          TEXT,
      sex            TEXT NOT NULL DEFAULT 'unknown' CHECK (sex IN ('female', 'male', 'unknown')),
      neutered       INTEGER NOT NULL DEFAULT 0 CHECK (neutered IN (0, 1)),
      born           TEXT CHECK (born IS NULL OR born GLOB '[0-9][0-9][0-9][0-9]*'),
      microchip      TEXT,
      color          TEXT,
      notes          TEXT,
      photo_sha256   TEXT CHECK (photo_sha256 IS NULL OR length(photo_sha256) = 64),
      archived_on    TEXT,
      archive_reason TEXT CHECK (archive_reason IN ('passed-away', 'rehomed', 'lost', 'other')),
      created_at     INTEGER NOT NULL,
      updated_at     INTEGER NOT NULL,
      CHECK ((archived_on IS NULL) = (archive_reason IS NULL))
    );
    -- Names are unique among active pets only: a new "Coco" may follow one who passed away.
    CREATE UNIQUE INDEX pet_active_name ON pet (name_key) WHERE archived_on IS NULL;

    -- The supertable every dated record shares: timelines, search, stars and attachments work across kinds.
    CREATE TABLE record (
      id         INTEGER PRIMARY KEY,
      pet_id     INTEGER REFERENCES pet (id) ON DELETE CASCADE,
      kind       TEXT NOT NULL CHECK (kind IN ('weight', 'meal', 'stool', 'urine', 'symptom', 'diary', 'visit',
                                               'vaccination', 'medication', 'dose', 'expense')),
      at         INTEGER NOT NULL,                      -- Unix seconds, UTC
      utc_offset INTEGER NOT NULL CHECK (utc_offset BETWEEN -64800 AND 64800),  -- seconds east of UTC then
      note       TEXT,
      starred    INTEGER NOT NULL DEFAULT 0 CHECK (starred IN (0, 1)),
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      CHECK (pet_id IS NOT NULL OR kind = 'expense')
    );
    CREATE INDEX record_pet_kind_at ON record (pet_id, kind, at);
    CREATE INDEX record_at ON record (at);
    CREATE INDEX record_starred ON record (starred) WHERE starred = 1;

    CREATE TABLE weight (
      record_id      INTEGER PRIMARY KEY REFERENCES record (id) ON DELETE CASCADE,
      grams          INTEGER NOT NULL CHECK (grams BETWEEN 1 AND 1000000),
      body_condition INTEGER CHECK (body_condition \(SQLRange.between(BodyConditionScore.range)))
    );
    CREATE TABLE meal (
      record_id   INTEGER PRIMARY KEY REFERENCES record (id) ON DELETE CASCADE,
      food        TEXT NOT NULL,
      type        TEXT NOT NULL CHECK (type IN ('meal', 'snack', 'treat', 'water')),
      amount      REAL CHECK (amount > 0 AND amount <= 100000),
      amount_unit TEXT CHECK (amount_unit IN ('g', 'ml', 'cup', 'piece')),
      CHECK ((amount IS NULL) = (amount_unit IS NULL))
    );
    CREATE TABLE stool (
      record_id INTEGER PRIMARY KEY REFERENCES record (id) ON DELETE CASCADE,
      score     INTEGER NOT NULL CHECK (score \(SQLRange.between(StoolScore.range))),
      color     TEXT,
      blood     INTEGER NOT NULL DEFAULT 0 CHECK (blood IN (0, 1)),
      mucus     INTEGER NOT NULL DEFAULT 0 CHECK (mucus IN (0, 1))
    );
    CREATE TABLE urine (
      record_id INTEGER PRIMARY KEY REFERENCES record (id) ON DELETE CASCADE,
      color     TEXT,
      amount    TEXT CHECK (amount IN ('none', 'small', 'normal', 'large')),
      straining INTEGER NOT NULL DEFAULT 0 CHECK (straining IN (0, 1)),
      blood     INTEGER NOT NULL DEFAULT 0 CHECK (blood IN (0, 1))
    );
    CREATE TABLE symptom (
      record_id        INTEGER PRIMARY KEY REFERENCES record (id) ON DELETE CASCADE,
      code             TEXT NOT NULL CHECK (length(code) BETWEEN 1 AND 200),
      listed           INTEGER NOT NULL CHECK (listed IN (0, 1)),  -- 1: from the shipped list
      severity         INTEGER NOT NULL CHECK (severity \(SQLRange.between(SymptomSeverity.range))),
      duration_minutes INTEGER CHECK (duration_minutes >= 0)
    );
    CREATE TABLE diary (
      record_id INTEGER PRIMARY KEY REFERENCES record (id) ON DELETE CASCADE,
      text      TEXT NOT NULL,
      mood      TEXT
    );
    CREATE TABLE visit (
      record_id     INTEGER PRIMARY KEY REFERENCES record (id) ON DELETE CASCADE,
      clinic        TEXT,
      vet           TEXT,
      reason        TEXT,
      diagnosis     TEXT,
      treatment     TEXT,
      weight_grams  INTEGER CHECK (weight_grams BETWEEN 1 AND 1000000),
      follow_up     TEXT,
      cost_minor    INTEGER CHECK (cost_minor >= 0),
      cost_currency TEXT CHECK (length(cost_currency) = 3),
      CHECK ((cost_minor IS NULL) = (cost_currency IS NULL))
    );
    CREATE TABLE vaccination (
      record_id INTEGER PRIMARY KEY REFERENCES record (id) ON DELETE CASCADE,
      vaccine   TEXT NOT NULL CHECK (length(vaccine) >= 1),
      product   TEXT,
      lot       TEXT,
      clinic    TEXT,
      next_due  TEXT
    );
    CREATE TABLE medication (
      record_id        INTEGER PRIMARY KEY REFERENCES record (id) ON DELETE CASCADE,
      name             TEXT NOT NULL CHECK (length(name) >= 1),
      dose             TEXT,
      route            TEXT,
      interval_seconds INTEGER CHECK (interval_seconds > 0),
      times            TEXT,                              -- fixed daily times "08:00,20:00", instead of an interval
      ends_on          TEXT,
      stopped_at       INTEGER
    );
    CREATE TABLE dose (
      record_id     INTEGER PRIMARY KEY REFERENCES record (id) ON DELETE CASCADE,
      medication_id INTEGER NOT NULL REFERENCES medication (record_id) ON DELETE CASCADE,
      skipped       INTEGER NOT NULL DEFAULT 0 CHECK (skipped IN (0, 1))
    );
    CREATE INDEX dose_medication ON dose (medication_id);
    CREATE TABLE expense (
      record_id    INTEGER PRIMARY KEY REFERENCES record (id) ON DELETE CASCADE,
      amount_minor INTEGER NOT NULL CHECK (amount_minor >= 0),  -- cents; whole won and yen
      currency     TEXT NOT NULL CHECK (length(currency) = 3),
      category     TEXT NOT NULL,
      merchant     TEXT,
      payment      TEXT CHECK (payment IN ('cash', 'card', 'other'))
    );
    CREATE TABLE attachment (
      id            INTEGER PRIMARY KEY,
      record_id     INTEGER NOT NULL REFERENCES record (id) ON DELETE CASCADE,
      position      INTEGER NOT NULL CHECK (position >= 0),
      sha256        TEXT NOT NULL CHECK (length(sha256) = 64),
      original_name TEXT NOT NULL,
      media_type    TEXT NOT NULL,
      size          INTEGER NOT NULL CHECK (size >= 0),
      UNIQUE (record_id, position)
    );
    CREATE INDEX attachment_sha ON attachment (sha256);
    """

    /// v2, for imports of whole shelters:
    /// - `record.kind` is checked with an OR chain: SQLite evaluated v1's 11-value `IN` list by building
    ///   a temporary index on every insert, which made bulk loads four times slower than the table itself.
    ///   Same values, same meaning; the table is rebuilt the documented way (new table, copy, drop, rename;
    ///   foreign keys are off during migrations and checked before commit).
    /// - Pet names may repeat among active pets (a shelter has two "Penny"s): the unique index becomes a
    ///   plain one; `pet add` still refuses a name in use, and a name that matches several pets asks for the number.
    static let v2 = """
    CREATE TABLE record_v2 (
      id         INTEGER PRIMARY KEY,
      pet_id     INTEGER REFERENCES pet (id) ON DELETE CASCADE,
      kind       TEXT NOT NULL CHECK (kind = 'weight' OR kind = 'meal' OR kind = 'stool' OR kind = 'urine' OR kind = 'symptom'
                                     OR kind = 'diary' OR kind = 'visit' OR kind = 'vaccination' OR kind = 'medication'
                                     OR kind = 'dose' OR kind = 'expense'),
      at         INTEGER NOT NULL,                      -- Unix seconds, UTC
      utc_offset INTEGER NOT NULL CHECK (utc_offset BETWEEN -64800 AND 64800),  -- seconds east of UTC then
      note       TEXT,
      starred    INTEGER NOT NULL DEFAULT 0 CHECK (starred IN (0, 1)),
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      CHECK (pet_id IS NOT NULL OR kind = 'expense')
    );
    INSERT INTO record_v2 (id, pet_id, kind, at, utc_offset, note, starred, created_at, updated_at)
      SELECT id, pet_id, kind, at, utc_offset, note, starred, created_at, updated_at FROM record;
    DROP TABLE record;
    ALTER TABLE record_v2 RENAME TO record;
    CREATE INDEX record_pet_kind_at ON record (pet_id, kind, at);
    CREATE INDEX record_at ON record (at);
    CREATE INDEX record_starred ON record (starred) WHERE starred = 1;

    DROP INDEX pet_active_name;
    CREATE INDEX pet_name ON pet (name_key);
    """

    /// v3: `pet.photo_sha256` goes. No build ever wrote it (photos became record attachments), and a column
    /// nothing reads is one more thing to carry into every other store. SQLite rewrites the table in place;
    /// its own CHECK goes with it, the others stay.
    static let v3 = """
    ALTER TABLE pet DROP COLUMN photo_sha256;
    """

    /// v4, money (issue 13):
    /// - `expense.split_of`: an expense shared by several pets is one record per pet holding that pet's
    ///   share; every share names the first share's record id (the first names itself). NULL: not split.
    /// - `expense_item`: what was bought, in receipt order.
    /// - `budget`: monthly or for a stretch of days, for the household (no pet) or one pet, every
    ///   category or one; `per_pet` shares the amount among the pets it covers.
    /// - `exchange_rate`: the ECB's euro reference rates by day (1 EUR = rate units), as published text;
    ///   `rates_fetch`: when rates were fetched or imported, so a fetch happens at most once a day.
    /// - `undo_group`, `undo_step`: the last commands' changes as reverting SQL (`petlog undo`).
    /// Visit costs are not copied into `expense`: spending reads visits with a cost as `vet` spending
    /// (one union in the repository), so each counts once and existing files need no data change.
    static let v4 = """
    -- Every record but weights (which are most of a big household's) by time: a month's spending, or the
    -- kinds `stats` counts, is found without walking the month's weights. Queries name `kind <> 'weight'`.
    CREATE INDEX record_events_at ON record (at) WHERE kind <> 'weight';
    ALTER TABLE expense ADD COLUMN split_of INTEGER CHECK (split_of IS NULL OR split_of > 0);
    CREATE INDEX expense_split ON expense (split_of) WHERE split_of IS NOT NULL;
    CREATE TABLE expense_item (
      record_id INTEGER NOT NULL REFERENCES expense (record_id) ON DELETE CASCADE,
      position  INTEGER NOT NULL CHECK (position >= 0),
      name      TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
      PRIMARY KEY (record_id, position)
    ) WITHOUT ROWID;
    CREATE TABLE budget (
      id           INTEGER PRIMARY KEY,
      pet_id       INTEGER REFERENCES pet (id) ON DELETE CASCADE,
      amount_minor INTEGER NOT NULL CHECK (amount_minor > 0),
      currency     TEXT NOT NULL CHECK (length(currency) = 3),
      first_day    TEXT CHECK (first_day IS NULL OR first_day GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
      last_day     TEXT CHECK (last_day IS NULL OR last_day GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
      category     TEXT CHECK (category IS NULL OR length(category) BETWEEN 1 AND 100),
      per_pet      INTEGER NOT NULL DEFAULT 0 CHECK (per_pet IN (0, 1)),
      created_at   INTEGER NOT NULL,
      updated_at   INTEGER NOT NULL,
      CHECK ((first_day IS NULL) = (last_day IS NULL)),
      CHECK (first_day IS NULL OR first_day <= last_day)
    );
    -- One budget per scope: setting it again replaces the amount.
    CREATE UNIQUE INDEX budget_scope ON budget (coalesce(pet_id, 0), coalesce(category, ''), coalesce(first_day, ''), coalesce(last_day, ''));
    CREATE TABLE exchange_rate (
      day      TEXT NOT NULL CHECK (day GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
      currency TEXT NOT NULL CHECK (length(currency) = 3 AND currency <> 'EUR'),
      rate     TEXT NOT NULL CHECK (rate GLOB '[0-9]*' AND rate NOT GLOB '*[^0-9.]*'),
      PRIMARY KEY (currency, day)
    ) WITHOUT ROWID;
    -- Undo (`petlog undo`): each command's changes as the SQL that reverts them, written by triggers.
    CREATE TABLE undo_group (
      id      INTEGER PRIMARY KEY,
      command TEXT NOT NULL,
      at      INTEGER NOT NULL
    );
    CREATE TABLE undo_step (
      id       INTEGER PRIMARY KEY,
      group_id INTEGER NOT NULL REFERENCES undo_group (id) ON DELETE CASCADE,
      sql      TEXT NOT NULL
    );
    CREATE INDEX undo_step_group ON undo_step (group_id);
    -- The group the current write transaction records into: one row while it runs, none otherwise.
    CREATE TABLE undo_active (group_id INTEGER NOT NULL);
    CREATE TABLE rates_fetch (
      id         INTEGER PRIMARY KEY,
      fetched_at INTEGER NOT NULL,
      local_day  TEXT NOT NULL,
      source     TEXT NOT NULL,
      rates      INTEGER NOT NULL CHECK (rates >= 0),
      last_rate_day TEXT
    );
    """

    /// v5, search by index (issue 17): `search_index`, an FTS5 table with the trigram tokenizer holding the
    /// folded searchable text of each record (rowid = record id) and pet (rowid = -pet id); see `SearchIndex`.
    /// The triggers use only SQLite's own functions, so any program may still write the file: they note the
    /// changed record or pet in `search_stale`, and petlog refreshes those rows at the end of its next write.
    /// No table changes, so the undo triggers of v4 stay as they are; an undone change fires these triggers
    /// like any other write.
    static let v5: String = {
        var sql = """
        -- body: the folded text, indexed; source: the text as stored, which `check` compares with the tables.
        CREATE VIRTUAL TABLE search_index USING fts5(body, source UNINDEXED, tokenize = 'trigram');
        CREATE TABLE search_stale (key INTEGER PRIMARY KEY);
        CREATE TRIGGER search_record_insert AFTER INSERT ON record WHEN new.note IS NOT NULL BEGIN
          INSERT OR IGNORE INTO search_stale (key) VALUES (new.id);
        END;
        CREATE TRIGGER search_record_update AFTER UPDATE OF id, kind, note ON record BEGIN
          INSERT OR IGNORE INTO search_stale (key) VALUES (old.id), (new.id);
        END;
        CREATE TRIGGER search_record_delete AFTER DELETE ON record BEGIN
          INSERT OR IGNORE INTO search_stale (key) VALUES (old.id);
        END;
        CREATE TRIGGER search_pet_insert AFTER INSERT ON pet BEGIN
          INSERT OR IGNORE INTO search_stale (key) VALUES (-new.id);
        END;
        CREATE TRIGGER search_pet_update AFTER UPDATE OF id, name, breed, color, microchip, notes ON pet BEGIN
          INSERT OR IGNORE INTO search_stale (key) VALUES (-old.id), (-new.id);
        END;
        CREATE TRIGGER search_pet_delete AFTER DELETE ON pet BEGIN
          INSERT OR IGNORE INTO search_stale (key) VALUES (-old.id);
        END;

        """
        for table in ["meal", "symptom", "diary", "visit", "vaccination", "medication", "expense", "expense_item", "attachment"] {
            sql += """
            CREATE TRIGGER search_\(table)_insert AFTER INSERT ON \(table) BEGIN
              INSERT OR IGNORE INTO search_stale (key) VALUES (new.record_id);
            END;
            CREATE TRIGGER search_\(table)_update AFTER UPDATE ON \(table) BEGIN
              INSERT OR IGNORE INTO search_stale (key) VALUES (old.record_id), (new.record_id);
            END;
            CREATE TRIGGER search_\(table)_delete AFTER DELETE ON \(table) BEGIN
              INSERT OR IGNORE INTO search_stale (key) VALUES (old.record_id);
            END;

            """
        }
        return sql
    }()

    /// v6, health facts as data (issue 33): a pet's allergies, conditions, vet contact, emergency contacts
    /// and insurance, in columns of its own row (`PetHealth`'s stored form: a list is one item a line, a
    /// contact `NAME, PHONE`; NULL when there is none). Existing pets get none: their notes stay as they are.
    static let v6 = """
    ALTER TABLE pet ADD COLUMN allergies TEXT CHECK (allergies IS NULL OR length(allergies) >= 1);
    ALTER TABLE pet ADD COLUMN conditions TEXT CHECK (conditions IS NULL OR length(conditions) >= 1);
    ALTER TABLE pet ADD COLUMN vet_contact TEXT CHECK (vet_contact IS NULL OR length(vet_contact) >= 1);
    ALTER TABLE pet ADD COLUMN emergency_contacts TEXT CHECK (emergency_contacts IS NULL OR length(emergency_contacts) >= 1);
    ALTER TABLE pet ADD COLUMN insurance TEXT CHECK (insurance IS NULL OR length(insurance) >= 1);
    """

    /// v7, grooming (issue 28), and the last rebuild of `record` for a new kind:
    /// - `record_kind` lists the kinds; `record.kind` references it instead of a CHECK that names them, so a
    ///   later kind is one `INSERT INTO record_kind` in its migration, not another copy of `record` (the
    ///   rebuild is the documented one, as v2's: new table, copy, drop, rename; foreign keys are off during
    ///   migrations and checked before commit). A lookup in a table of a dozen rows costs an insert nothing
    ///   measurable, where v1's `IN` list cost a temporary index per insert (v2).
    /// - `grooming`: what was done (task codes, comma-separated, in the order typed), by whom, its cost
    ///   (`grooming` spending, read beside the expenses as a visit's cost is) and the next session's day.
    /// The record's undo and search triggers are made again (they went with the old table); the new table
    /// gets its own.
    static let v7 = """
    CREATE TABLE record_kind (kind TEXT PRIMARY KEY CHECK (kind GLOB '[a-z]*')) WITHOUT ROWID;
    INSERT INTO record_kind (kind) VALUES ('weight'), ('meal'), ('stool'), ('urine'), ('symptom'), ('diary'), ('visit'),
      ('vaccination'), ('medication'), ('dose'), ('expense'), ('grooming');
    CREATE TABLE record_v7 (
      id         INTEGER PRIMARY KEY,
      pet_id     INTEGER REFERENCES pet (id) ON DELETE CASCADE,
      kind       TEXT NOT NULL REFERENCES record_kind (kind),
      at         INTEGER NOT NULL,                      -- Unix seconds, UTC
      utc_offset INTEGER NOT NULL CHECK (utc_offset BETWEEN -64800 AND 64800),  -- seconds east of UTC then
      note       TEXT,
      starred    INTEGER NOT NULL DEFAULT 0 CHECK (starred IN (0, 1)),
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      CHECK (pet_id IS NOT NULL OR kind = 'expense')
    );
    INSERT INTO record_v7 (id, pet_id, kind, at, utc_offset, note, starred, created_at, updated_at)
      SELECT id, pet_id, kind, at, utc_offset, note, starred, created_at, updated_at FROM record;
    DROP TABLE record;
    ALTER TABLE record_v7 RENAME TO record;
    CREATE INDEX record_pet_kind_at ON record (pet_id, kind, at);
    CREATE INDEX record_at ON record (at);
    CREATE INDEX record_starred ON record (starred) WHERE starred = 1;
    CREATE INDEX record_events_at ON record (at) WHERE kind <> 'weight';
    CREATE TRIGGER search_record_insert AFTER INSERT ON record WHEN new.note IS NOT NULL BEGIN
      INSERT OR IGNORE INTO search_stale (key) VALUES (new.id);
    END;
    CREATE TRIGGER search_record_update AFTER UPDATE OF id, kind, note ON record BEGIN
      INSERT OR IGNORE INTO search_stale (key) VALUES (old.id), (new.id);
    END;
    CREATE TRIGGER search_record_delete AFTER DELETE ON record BEGIN
      INSERT OR IGNORE INTO search_stale (key) VALUES (old.id);
    END;

    CREATE TABLE grooming (
      record_id     INTEGER PRIMARY KEY REFERENCES record (id) ON DELETE CASCADE,
      tasks         TEXT CHECK (tasks IS NULL OR tasks GLOB '[a-z]*' AND tasks NOT GLOB '*[^a-z,]*'),
      groomer       TEXT CHECK (groomer IS NULL OR length(groomer) >= 1),
      cost_minor    INTEGER CHECK (cost_minor >= 0),
      cost_currency TEXT CHECK (length(cost_currency) = 3),
      next_due      TEXT,
      CHECK ((cost_minor IS NULL) = (cost_currency IS NULL))
    );
    CREATE TRIGGER search_grooming_insert AFTER INSERT ON grooming BEGIN
      INSERT OR IGNORE INTO search_stale (key) VALUES (new.record_id);
    END;
    CREATE TRIGGER search_grooming_update AFTER UPDATE ON grooming BEGIN
      INSERT OR IGNORE INTO search_stale (key) VALUES (old.record_id), (new.record_id);
    END;
    CREATE TRIGGER search_grooming_delete AFTER DELETE ON grooming BEGIN
      INSERT OR IGNORE INTO search_stale (key) VALUES (old.record_id);
    END;
    """

    /// v8, a budget's name, place and people (issue 30): `budget set --name "Japan trip" --place Tokyo
    /// --people 2`. Existing budgets have none. The undo triggers list the budget's columns: made anew.
    /// (v7 is the grooming kind's; the ids are names, the order is the migrator's.)
    static let v8 = """
    ALTER TABLE budget ADD COLUMN name TEXT CHECK (name IS NULL OR length(name) BETWEEN 1 AND 200);
    ALTER TABLE budget ADD COLUMN place TEXT CHECK (place IS NULL OR length(place) BETWEEN 1 AND 200);
    ALTER TABLE budget ADD COLUMN people INTEGER CHECK (people IS NULL OR people BETWEEN 1 AND 1000);
    """

    /// v9, the weight series packed for charts (issue 34; `WeightSeriesCache`): each pet's weights in
    /// chunks of `WeightSeriesCache.chunkPoints` (instant, grams) points, oldest first, each chunk keyed by its
    /// last point's (instant, record id) — the series' own order. A chunk is derived data: it holds a prefix of
    /// the pet's series as the tables say it, and the triggers below drop, whatever program writes, every
    /// chunk from a changed point on (an insert, edit or delete of a weight, a record moved in time or to
    /// another pet), so what is left is always such a prefix. A weight after the last chunk (the usual new
    /// weight) drops nothing: the read takes points after the last chunk from the tables, and the next chart
    /// on a writable file packs whole chunks of them. Existing files start with no chunks.
    static let v9 = """
    CREATE TABLE weight_chunk (
      id       INTEGER PRIMARY KEY,
      pet_id   INTEGER NOT NULL REFERENCES pet (id) ON DELETE CASCADE,
      first_at INTEGER NOT NULL,
      last_at  INTEGER NOT NULL,
      last_id  INTEGER NOT NULL,
      points   INTEGER NOT NULL CHECK (points > 0),
      data     BLOB NOT NULL
    );
    CREATE UNIQUE INDEX weight_chunk_key ON weight_chunk (pet_id, last_at, last_id);
    CREATE TRIGGER series_weight_insert AFTER INSERT ON weight BEGIN
      DELETE FROM weight_chunk WHERE id IN (SELECT c.id FROM record r JOIN weight_chunk c ON c.pet_id = r.pet_id AND c.last_at >= r.at
        WHERE r.id = new.record_id AND (c.last_at > r.at OR c.last_id >= r.id));
    END;
    CREATE TRIGGER series_weight_update AFTER UPDATE ON weight WHEN old.grams IS NOT new.grams OR old.record_id IS NOT new.record_id BEGIN
      DELETE FROM weight_chunk WHERE id IN (SELECT c.id FROM record r JOIN weight_chunk c ON c.pet_id = r.pet_id AND c.last_at >= r.at
        WHERE r.id IN (old.record_id, new.record_id) AND (c.last_at > r.at OR c.last_id >= r.id));
    END;
    CREATE TRIGGER series_weight_delete AFTER DELETE ON weight BEGIN
      DELETE FROM weight_chunk WHERE id IN (SELECT c.id FROM record r JOIN weight_chunk c ON c.pet_id = r.pet_id AND c.last_at >= r.at
        WHERE r.id = old.record_id AND (c.last_at > r.at OR c.last_id >= r.id));
    END;
    CREATE TRIGGER series_record_update AFTER UPDATE OF id, pet_id, kind, at ON record
      WHEN (old.kind = 'weight' OR new.kind = 'weight')
       AND (old.id IS NOT new.id OR old.pet_id IS NOT new.pet_id OR old.kind IS NOT new.kind OR old.at IS NOT new.at) BEGIN
      DELETE FROM weight_chunk WHERE pet_id = old.pet_id AND last_at >= old.at AND (last_at > old.at OR last_id >= old.id);
      DELETE FROM weight_chunk WHERE pet_id = new.pet_id AND last_at >= new.at AND (last_at > new.at OR last_id >= new.id);
    END;
    CREATE TRIGGER series_record_delete AFTER DELETE ON record WHEN old.kind = 'weight' BEGIN
      DELETE FROM weight_chunk WHERE pet_id = old.pet_id AND last_at >= old.at AND (last_at > old.at OR last_id >= old.id);
    END;
    """

    /// v10: the household's namespace, 16 random bytes made once per database, from which the FHIR
    /// export derives its resources' addresses (docs/fhir.md): two households' `pet-1` no longer share one.
    /// The JSON export carries it, and an import into an empty database takes it (so a moved household
    /// keeps its addresses).
    static let v10 = """
    CREATE TABLE household (
      id        INTEGER PRIMARY KEY CHECK (id = 1),
      namespace TEXT NOT NULL CHECK (length(namespace) = 32)
    );
    INSERT INTO household (id, namespace) VALUES (1, lower(hex(randomblob(16))));
    """


    /// v11, a bank transfer as a payment (issue 42: `--payment card|cash|transfer|other`): the CHECK on
    /// `expense.payment` names the four. A CHECK cannot be altered in SQLite, so the table is rebuilt the
    /// documented way (new table, copy, drop, rename; foreign keys are off during migrations and checked before
    /// commit), same columns in the same order; its index and search triggers are made again here, its undo
    /// triggers by the migration.
    static let v11 = """
    CREATE TABLE expense_v11 (
      record_id    INTEGER PRIMARY KEY REFERENCES record (id) ON DELETE CASCADE,
      amount_minor INTEGER NOT NULL CHECK (amount_minor >= 0),  -- cents; whole won and yen
      currency     TEXT NOT NULL CHECK (length(currency) = 3),
      category     TEXT NOT NULL,
      merchant     TEXT,
      payment      TEXT CHECK (payment IN ('cash', 'card', 'transfer', 'other')),
      split_of     INTEGER CHECK (split_of IS NULL OR split_of > 0)
    );
    INSERT INTO expense_v11 (record_id, amount_minor, currency, category, merchant, payment, split_of)
      SELECT record_id, amount_minor, currency, category, merchant, payment, split_of FROM expense;
    DROP TABLE expense;
    ALTER TABLE expense_v11 RENAME TO expense;
    CREATE INDEX expense_split ON expense (split_of) WHERE split_of IS NOT NULL;
    CREATE TRIGGER search_expense_insert AFTER INSERT ON expense BEGIN
      INSERT OR IGNORE INTO search_stale (key) VALUES (new.record_id);
    END;
    CREATE TRIGGER search_expense_update AFTER UPDATE ON expense BEGIN
      INSERT OR IGNORE INTO search_stale (key) VALUES (old.record_id), (new.record_id);
    END;
    CREATE TRIGGER search_expense_delete AFTER DELETE ON expense BEGIN
      INSERT OR IGNORE INTO search_stale (key) VALUES (old.record_id);
    END;
    """

    /// v12, a diary entry's title (issue 42: `diary PET "text" --title TEXT`), one line as the other short
    /// text fields. Existing entries have none. The search triggers on `diary` fire on an UPDATE of any column.
    static let v12 = """
    ALTER TABLE diary ADD COLUMN title TEXT CHECK (title IS NULL OR length(title) BETWEEN 1 AND 200);
    """

    /// v13, the walk kind (issue 43): whole metres and whole minutes, either or both, within `Walk`'s ranges.
    /// A walk has no text of its own (its note is the record's), so no search triggers.
    static let v13 = """
    INSERT INTO record_kind (kind) VALUES ('walk');
    CREATE TABLE walk (
      record_id    INTEGER PRIMARY KEY REFERENCES record (id) ON DELETE CASCADE,
      distance_m   INTEGER CHECK (distance_m IS NULL OR distance_m \(SQLRange.between(Walk.meterRange))),
      duration_min INTEGER CHECK (duration_min IS NULL OR duration_min \(SQLRange.between(Walk.minuteRange)))
    );
    """

    /// v14, the accounts and sessions of `petlog serve` (issue 41; `AccountStore`). Not the household's records:
    /// no undo triggers, no search triggers, not in the export. A session is found by its token's SHA-256 (hex).
    static let v14 = """
    CREATE TABLE web_account (
      id                  INTEGER PRIMARY KEY,
      name                TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 64),
      name_key            TEXT NOT NULL UNIQUE,
      role                TEXT NOT NULL CHECK (role IN ('owner', 'family', 'viewer')),
      password_hash       TEXT NOT NULL CHECK (length(password_hash) = 60),
      language            TEXT CHECK (language IS NULL OR language IN ('en', 'ko', 'ja')),
      created_at          INTEGER NOT NULL,
      password_changed_at INTEGER NOT NULL
    );
    CREATE TABLE web_session (
      token_hash TEXT PRIMARY KEY CHECK (length(token_hash) = 64),
      account_id INTEGER NOT NULL REFERENCES web_account (id) ON DELETE CASCADE,
      csrf       TEXT NOT NULL CHECK (length(csrf) BETWEEN 32 AND 128),
      created_at INTEGER NOT NULL,
      expires_at INTEGER NOT NULL CHECK (expires_at > created_at)
    );
    CREATE INDEX web_session_account ON web_session (account_id);
    """

    /// v15 (issue 41): the pet's profile photo (`pet edit --photo`), kept in the pet's row with its type by
    /// content, size and SHA-256, so `undo`, `backup` and the checks see it with the pet; and an account's
    /// calendar feed (`user feed-reset`): only the SHA-256 (hex) of its secret token, unique.
    static let v15 = """
    ALTER TABLE pet ADD COLUMN photo BLOB;
    ALTER TABLE pet ADD COLUMN photo_type TEXT CHECK (photo_type IS NULL OR photo_type GLOB 'image/[a-z]*');
    ALTER TABLE pet ADD COLUMN photo_size INTEGER CHECK (photo_size IS NULL OR photo_size > 0);
    ALTER TABLE pet ADD COLUMN photo_sha256 TEXT CHECK (photo_sha256 IS NULL OR length(photo_sha256) = 64);
    ALTER TABLE web_account ADD COLUMN feed_token_hash TEXT CHECK (feed_token_hash IS NULL OR length(feed_token_hash) = 64);
    CREATE UNIQUE INDEX web_account_feed ON web_account (feed_token_hash) WHERE feed_token_hash IS NOT NULL;
    """

    /// v16 (issue 41): the login throttle's failures in the store (`web_login_failure`: the SHA-256 of a key,
    /// `name:…` or `address:…`, its count and its last failure), so two servers on one database count them
    /// together; and `web_session` made anew with its token hash NOT NULL (a TEXT PRIMARY KEY of a rowid table
    /// took a NULL in SQLite, which PostgreSQL's primary key refuses). A session without a token opened nothing:
    /// it is not carried over.
    static let v16 = """
    CREATE TABLE web_login_failure (
      key_hash TEXT NOT NULL PRIMARY KEY CHECK (length(key_hash) = 64),
      failures INTEGER NOT NULL CHECK (failures > 0),
      last_at  INTEGER NOT NULL
    );
    CREATE TABLE web_session_v16 (
      token_hash TEXT NOT NULL PRIMARY KEY CHECK (length(token_hash) = 64),
      account_id INTEGER NOT NULL REFERENCES web_account (id) ON DELETE CASCADE,
      csrf       TEXT NOT NULL CHECK (length(csrf) BETWEEN 32 AND 128),
      created_at INTEGER NOT NULL,
      expires_at INTEGER NOT NULL CHECK (expires_at > created_at)
    );
    INSERT INTO web_session_v16 SELECT token_hash, account_id, csrf, created_at, expires_at FROM web_session WHERE token_hash IS NOT NULL;
    DROP TABLE web_session;
    ALTER TABLE web_session_v16 RENAME TO web_session;
    CREATE INDEX web_session_account ON web_session (account_id);
    """

    /// v17 (issue 44): what `due` reads, from indexes alone (`Store.careRecords`). `record_care` holds the headers of
    /// the care kinds with every column `loadRecords` reads (its WHERE term is `Store.careKinds` word for word, which
    /// is what lets SQLite use a partial index), so they come from one small index instead of a rowid lookup each
    /// among the other records (the shelter: 4,470 headers on 1,714 pages of `record`); the two others hold the
    /// few visits with a follow-up and groomings with a next session, which `due` found by reading the whole of
    /// each table. A bulk load keeps them row by row (a weight touches none). The kinds are compared one by one, not
    /// as `kind IN (…)`: SQLite evaluates the term for every row written, and an IN list costs it a temporary table
    /// each time (0.6 µs a row: 0.6 s more CPU for the shelter's import, measured in the `sqlite3` shell).
    static let v17 = """
    CREATE INDEX record_care ON record (kind, pet_id, at, utc_offset, starred, created_at, updated_at, note)
      WHERE kind = 'vaccination' OR kind = 'medication' OR kind = 'dose' OR kind = 'visit' OR kind = 'grooming';
    CREATE INDEX visit_follow_up ON visit (follow_up) WHERE follow_up IS NOT NULL;
    CREATE INDEX grooming_next_due ON grooming (next_due) WHERE next_due IS NOT NULL;
    """
}
