import Foundation
import PetModel
import PetStoreCore

/// petlog's tables in PostgreSQL: the same normalized design as the SQLite file (pets, the record
/// supertable and one detail table per kind, attachments, medication courses and doses, expenses,
/// budgets, exchange rates) with the same CHECKs and foreign keys, in a schema of its own, `petlog`.
///
/// Differences, each on purpose: ids are identity columns (`BY DEFAULT`, so an import keeps its ids; the
/// importer moves the sequences past them); SQLite's GLOB checks are regular expressions; 0/1 flags stay
/// `smallint` with the same CHECK, so both stores read and write the same values; every record names the
/// role that wrote it (`written_by`, `current_user` by default); attachment bytes live in the database
/// (`attachment_chunk`, 1 MiB rows per SHA-256), because staff on several machines share no folder.
///
/// Migrations are append-only, as in SQLite, and run once however many clients start together: the
/// migrator holds a transaction-scoped advisory lock while it reads what is applied and applies the rest.
public enum PostgresSchema {
    /// Every migration this build knows, in order.
    public static let migrations: [(id: String, sql: String)] = [("pg1", pg1), ("pg2", pg2), ("pg3", pg3), ("pg4", pg4), ("pg5", pg5), ("pg6", pg6), ("pg7", pg7), ("pg8", pg8), ("pg9", pg9), ("pg10", pg10), ("pg11", pg11), ("pg12", pg12), ("pg13", pg13), ("pg14", pg14)]

    /// The advisory lock key every petlog migrator takes (`hashtext('petlog.migrate')` would differ by version).
    static let lockKey: Int64 = 0x7065_746C_6F67   // "petlog"

    /// Brings the server's `petlog` schema up to date. A schema with a migration this build does not know
    /// was written by a newer petlog: refused, nothing changed. Returns the migrations applied now.
    @discardableResult
    public static func migrate(_ link: PostgresLink) throws -> [String] {
        try migrateNotingNew(link).applied
    }

    /// `migrate`, and when it made the schema (none was there): the rows of each table that holds any
    /// then (the schema's own: `record_kind`, `schema_migration`), read in the same transaction, so that
    /// `PostgresRepository.removeIfNeverWritten` can tell them from a write.
    static func migrateNotingNew(_ link: PostgresLink) throws -> (applied: [String], seeded: [String: Int]?) {
        // The common case costs one query and needs no rights beyond reading: everything is applied.
        if let applied = try? appliedMigrations(link) {
            try refuseNewer(applied, link)
            if applied == migrations.map(\.id) { return ([], nil) }
        }
        do {
            return try apply(link)
        } catch PostgresFault.permissionDenied(let role) {
            // A staff or volunteer role met a schema older than this petlog: the owner upgrades it.
            throw StoreError.schemaNeedsOwner(role: role)
        }
    }

    /// The rows of every table of the `petlog` schema that holds any.
    static func rowCounts(_ link: PostgresLink) throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for t in try tables(link) {
            let n = try link.query("SELECT count(*) FROM petlog.\"\(t)\"").first?.first?.int ?? 0
            if n > 0 { counts[t] = Int(n) }
        }
        return counts
    }

    /// The tables of the `petlog` schema.
    static func tables(_ link: PostgresLink) throws -> [String] {
        try link.query("SELECT tablename FROM pg_tables WHERE schemaname = 'petlog' ORDER BY tablename").compactMap { $0.first?.text }
    }

    static func apply(_ link: PostgresLink) throws -> (applied: [String], seeded: [String: Int]?) {
        try link.transaction(.migration) {
            try link.query("SELECT pg_advisory_xact_lock($1)", [.int(lockKey)])
            try link.execute(script: """
                CREATE SCHEMA IF NOT EXISTS petlog;
                CREATE TABLE IF NOT EXISTS petlog.schema_migration (
                  identifier text PRIMARY KEY,
                  applied_at timestamptz NOT NULL DEFAULT now()
                );
                """)
            let applied = try appliedMigrations(link)
            try refuseNewer(applied, link)
            var done: [String] = []
            for m in migrations where !applied.contains(m.id) {
                try link.execute(script: "SET LOCAL search_path = petlog;\n" + m.sql)
                try link.query("INSERT INTO petlog.schema_migration (identifier) VALUES ($1)", [.text(m.id)])
                done.append(m.id)
            }
            return (done, applied.isEmpty ? try rowCounts(link) : nil)
        }
    }

    public static func appliedMigrations(_ link: PostgresLink) throws -> [String] {
        // Migrations applied in one transaction share its time: those in this build's order (`pg10` after `pg9`,
        // not after `pg1` as by name), a newer petlog's by name after them.
        let order = Dictionary(uniqueKeysWithValues: migrations.enumerated().map { ($1.id, $0) })
        return try link.query("SELECT identifier, dense_rank() OVER (ORDER BY applied_at) FROM petlog.schema_migration")
            .compactMap { row in row.first?.text.map { ($0, row.count > 1 ? row[1].int ?? 0 : 0) } }
            .sorted { a, b in (a.1, order[a.0] ?? Int.max, a.0) < (b.1, order[b.0] ?? Int.max, b.0) }
            .map(\.0)
    }

    static func refuseNewer(_ applied: [String], _ link: PostgresLink) throws {
        let known = Set(migrations.map(\.id))
        let unknown = applied.filter { !known.contains($0) }
        if !unknown.isEmpty { throw StoreError.newerSchema(path: link.target.redacted, found: unknown) }
    }

    static let pg1 = """
    CREATE TABLE pet (
      id             bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
      name           text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 100),
      name_key       text NOT NULL,
      species        text NOT NULL CHECK (species ~ '^[a-z]'),
      breed          text,
      sex            text NOT NULL DEFAULT 'unknown' CHECK (sex IN ('female', 'male', 'unknown')),
      neutered       smallint NOT NULL DEFAULT 0 CHECK (neutered IN (0, 1)),
      born           text CHECK (born IS NULL OR born ~ '^[0-9]{4}'),
      microchip      text,
      color          text,
      notes          text,
      archived_on    text,
      archive_reason text CHECK (archive_reason IN ('passed-away', 'rehomed', 'lost', 'other')),
      created_at     bigint NOT NULL,
      updated_at     bigint NOT NULL,
      CHECK ((archived_on IS NULL) = (archive_reason IS NULL))
    );
    CREATE INDEX pet_name ON pet (name_key);

    CREATE TABLE record (
      id         bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
      pet_id     bigint REFERENCES pet (id) ON DELETE CASCADE DEFERRABLE,
      kind       text NOT NULL CHECK (kind IN ('weight', 'meal', 'stool', 'urine', 'symptom', 'diary', 'visit',
                                               'vaccination', 'medication', 'dose', 'expense')),
      at         bigint NOT NULL,
      utc_offset integer NOT NULL CHECK (utc_offset BETWEEN -64800 AND 64800),
      note       text,
      starred    smallint NOT NULL DEFAULT 0 CHECK (starred IN (0, 1)),
      created_at bigint NOT NULL,
      updated_at bigint NOT NULL,
      written_by text NOT NULL DEFAULT current_user,
      CHECK (pet_id IS NOT NULL OR kind = 'expense')
    );
    CREATE INDEX record_pet_kind_at ON record (pet_id, kind, at);
    CREATE INDEX record_at ON record (at);
    CREATE INDEX record_events_at ON record (at) WHERE kind <> 'weight';
    CREATE INDEX record_starred ON record (starred) WHERE starred = 1;

    CREATE TABLE weight (
      record_id      bigint PRIMARY KEY REFERENCES record (id) ON DELETE CASCADE DEFERRABLE,
      grams          bigint NOT NULL CHECK (grams BETWEEN 1 AND 1000000),
      body_condition smallint CHECK (body_condition \(SQLRange.between(BodyConditionScore.range)))
    );
    CREATE TABLE meal (
      record_id   bigint PRIMARY KEY REFERENCES record (id) ON DELETE CASCADE DEFERRABLE,
      food        text NOT NULL,
      type        text NOT NULL CHECK (type IN ('meal', 'snack', 'treat', 'water')),
      amount      double precision CHECK (amount > 0 AND amount <= 100000),
      amount_unit text CHECK (amount_unit IN ('g', 'ml', 'cup', 'piece')),
      CHECK ((amount IS NULL) = (amount_unit IS NULL))
    );
    CREATE TABLE stool (
      record_id bigint PRIMARY KEY REFERENCES record (id) ON DELETE CASCADE DEFERRABLE,
      score     smallint NOT NULL CHECK (score \(SQLRange.between(StoolScore.range))),
      color     text,
      blood     smallint NOT NULL DEFAULT 0 CHECK (blood IN (0, 1)),
      mucus     smallint NOT NULL DEFAULT 0 CHECK (mucus IN (0, 1))
    );
    CREATE TABLE urine (
      record_id bigint PRIMARY KEY REFERENCES record (id) ON DELETE CASCADE DEFERRABLE,
      color     text,
      amount    text CHECK (amount IN ('none', 'small', 'normal', 'large')),
      straining smallint NOT NULL DEFAULT 0 CHECK (straining IN (0, 1)),
      blood     smallint NOT NULL DEFAULT 0 CHECK (blood IN (0, 1))
    );
    CREATE TABLE symptom (
      record_id        bigint PRIMARY KEY REFERENCES record (id) ON DELETE CASCADE DEFERRABLE,
      code             text NOT NULL CHECK (char_length(code) BETWEEN 1 AND 200),
      listed           smallint NOT NULL CHECK (listed IN (0, 1)),
      severity         smallint NOT NULL CHECK (severity \(SQLRange.between(SymptomSeverity.range))),
      duration_minutes bigint CHECK (duration_minutes >= 0)
    );
    CREATE TABLE diary (
      record_id bigint PRIMARY KEY REFERENCES record (id) ON DELETE CASCADE DEFERRABLE,
      text      text NOT NULL,
      mood      text
    );
    CREATE TABLE visit (
      record_id     bigint PRIMARY KEY REFERENCES record (id) ON DELETE CASCADE DEFERRABLE,
      clinic        text,
      vet           text,
      reason        text,
      diagnosis     text,
      treatment     text,
      weight_grams  bigint CHECK (weight_grams BETWEEN 1 AND 1000000),
      follow_up     text,
      cost_minor    bigint CHECK (cost_minor >= 0),
      cost_currency text CHECK (char_length(cost_currency) = 3),
      CHECK ((cost_minor IS NULL) = (cost_currency IS NULL))
    );
    CREATE TABLE vaccination (
      record_id bigint PRIMARY KEY REFERENCES record (id) ON DELETE CASCADE DEFERRABLE,
      vaccine   text NOT NULL CHECK (char_length(vaccine) >= 1),
      product   text,
      lot       text,
      clinic    text,
      next_due  text
    );
    CREATE TABLE medication (
      record_id        bigint PRIMARY KEY REFERENCES record (id) ON DELETE CASCADE DEFERRABLE,
      name             text NOT NULL CHECK (char_length(name) >= 1),
      dose             text,
      route            text,
      interval_seconds bigint CHECK (interval_seconds > 0),
      times            text,
      ends_on          text,
      stopped_at       bigint
    );
    CREATE TABLE dose (
      record_id     bigint PRIMARY KEY REFERENCES record (id) ON DELETE CASCADE DEFERRABLE,
      medication_id bigint NOT NULL REFERENCES medication (record_id) ON DELETE CASCADE DEFERRABLE,
      skipped       smallint NOT NULL DEFAULT 0 CHECK (skipped IN (0, 1))
    );
    CREATE INDEX dose_medication ON dose (medication_id);
    CREATE TABLE expense (
      record_id    bigint PRIMARY KEY REFERENCES record (id) ON DELETE CASCADE DEFERRABLE,
      amount_minor bigint NOT NULL CHECK (amount_minor >= 0),
      currency     text NOT NULL CHECK (char_length(currency) = 3),
      category     text NOT NULL,
      merchant     text,
      payment      text CHECK (payment IN ('cash', 'card', 'other')),
      split_of     bigint CHECK (split_of IS NULL OR split_of > 0)
    );
    CREATE INDEX expense_split ON expense (split_of) WHERE split_of IS NOT NULL;
    CREATE TABLE expense_item (
      record_id bigint NOT NULL REFERENCES expense (record_id) ON DELETE CASCADE DEFERRABLE,
      position  integer NOT NULL CHECK (position >= 0),
      name      text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 200),
      PRIMARY KEY (record_id, position)
    );

    -- Attachments: the row names the file; its bytes are chunks keyed by content, stored once however
    -- many records attach them, written and read a chunk at a time.
    CREATE TABLE attachment (
      id            bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
      record_id     bigint NOT NULL REFERENCES record (id) ON DELETE CASCADE DEFERRABLE,
      position      integer NOT NULL CHECK (position >= 0),
      sha256        text NOT NULL CHECK (char_length(sha256) = 64),
      original_name text NOT NULL,
      media_type    text NOT NULL,
      size          bigint NOT NULL CHECK (size >= 0),
      UNIQUE (record_id, position)
    );
    CREATE INDEX attachment_sha ON attachment (sha256);
    CREATE TABLE attachment_chunk (
      sha256 text NOT NULL CHECK (char_length(sha256) = 64),
      seq    integer NOT NULL CHECK (seq >= 0),
      data   bytea NOT NULL,
      PRIMARY KEY (sha256, seq)
    );
    -- The chunks of files no record refers to any more (after `undo`, or `check --repair`): moved here,
    -- never deleted, as the SQLite store moves such files into a quarantine folder.
    CREATE TABLE attachment_quarantine (
      sha256   text NOT NULL,
      seq      integer NOT NULL,
      data     bytea NOT NULL,
      moved_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (sha256, seq)
    );

    CREATE TABLE budget (
      id           bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
      pet_id       bigint REFERENCES pet (id) ON DELETE CASCADE DEFERRABLE,
      amount_minor bigint NOT NULL CHECK (amount_minor > 0),
      currency     text NOT NULL CHECK (char_length(currency) = 3),
      first_day    text CHECK (first_day IS NULL OR first_day ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'),
      last_day     text CHECK (last_day IS NULL OR last_day ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'),
      category     text CHECK (category IS NULL OR char_length(category) BETWEEN 1 AND 100),
      per_pet      smallint NOT NULL DEFAULT 0 CHECK (per_pet IN (0, 1)),
      created_at   bigint NOT NULL,
      updated_at   bigint NOT NULL,
      CHECK ((first_day IS NULL) = (last_day IS NULL)),
      CHECK (first_day IS NULL OR first_day <= last_day)
    );
    CREATE UNIQUE INDEX budget_scope ON budget (coalesce(pet_id, 0), coalesce(category, ''), coalesce(first_day, ''), coalesce(last_day, ''));
    CREATE TABLE exchange_rate (
      day      text NOT NULL CHECK (day ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'),
      currency text NOT NULL CHECK (char_length(currency) = 3 AND currency <> 'EUR'),
      rate     text NOT NULL CHECK (rate ~ '^[0-9][0-9.]*$'),
      PRIMARY KEY (currency, day)
    );
    CREATE TABLE rates_fetch (
      id            bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
      fetched_at    bigint NOT NULL,
      local_day     text NOT NULL,
      source        text NOT NULL,
      rates         bigint NOT NULL CHECK (rates >= 0),
      last_rate_day text
    );

    -- Search: each record's and pet's searchable text, folded by petlog (NFKC, case: `TextField.nameKey`,
    -- which SQL cannot do the same way), keyed as in SQLite (record id, minus the pet id). Triggers note
    -- changed keys in search_stale; every petlog write folds those rows again before it commits.
    CREATE TABLE search_text (
      key    bigint PRIMARY KEY,
      body   text NOT NULL,
      source text NOT NULL
    );
    CREATE TABLE search_stale (key bigint PRIMARY KEY);
    CREATE FUNCTION note_stale() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      k bigint;
      o bigint;
    BEGIN
      IF TG_ARGV[0] = 'pet' THEN
        IF TG_OP <> 'DELETE' THEN k := -NEW.id; END IF;
        IF TG_OP <> 'INSERT' THEN o := -OLD.id; END IF;
      ELSIF TG_ARGV[0] = 'record' THEN
        IF TG_OP <> 'DELETE' THEN k := NEW.id; END IF;
        IF TG_OP <> 'INSERT' THEN o := OLD.id; END IF;
      ELSE
        IF TG_OP <> 'DELETE' THEN k := NEW.record_id; END IF;
        IF TG_OP <> 'INSERT' THEN o := OLD.record_id; END IF;
      END IF;
      INSERT INTO petlog.search_stale (key) SELECT x FROM (VALUES (k), (o)) AS v (x) WHERE x IS NOT NULL ON CONFLICT DO NOTHING;
      RETURN NULL;
    END $$;
    CREATE TRIGGER search_pet AFTER INSERT OR UPDATE OR DELETE ON pet FOR EACH ROW EXECUTE FUNCTION note_stale('pet');
    CREATE TRIGGER search_record AFTER INSERT OR UPDATE OR DELETE ON record FOR EACH ROW EXECUTE FUNCTION note_stale('record');
    CREATE TRIGGER search_meal AFTER INSERT OR UPDATE OR DELETE ON meal FOR EACH ROW EXECUTE FUNCTION note_stale('detail');
    CREATE TRIGGER search_symptom AFTER INSERT OR UPDATE OR DELETE ON symptom FOR EACH ROW EXECUTE FUNCTION note_stale('detail');
    CREATE TRIGGER search_diary AFTER INSERT OR UPDATE OR DELETE ON diary FOR EACH ROW EXECUTE FUNCTION note_stale('detail');
    CREATE TRIGGER search_visit AFTER INSERT OR UPDATE OR DELETE ON visit FOR EACH ROW EXECUTE FUNCTION note_stale('detail');
    CREATE TRIGGER search_vaccination AFTER INSERT OR UPDATE OR DELETE ON vaccination FOR EACH ROW EXECUTE FUNCTION note_stale('detail');
    CREATE TRIGGER search_medication AFTER INSERT OR UPDATE OR DELETE ON medication FOR EACH ROW EXECUTE FUNCTION note_stale('detail');
    CREATE TRIGGER search_expense AFTER INSERT OR UPDATE OR DELETE ON expense FOR EACH ROW EXECUTE FUNCTION note_stale('detail');
    CREATE TRIGGER search_expense_item AFTER INSERT OR UPDATE OR DELETE ON expense_item FOR EACH ROW EXECUTE FUNCTION note_stale('detail');
    CREATE TRIGGER search_attachment AFTER INSERT OR UPDATE OR DELETE ON attachment FOR EACH ROW EXECUTE FUNCTION note_stale('detail');

    -- Undo (`petlog undo`): each command's changed rows as JSON, written by one trigger function while the
    -- transaction has set `petlog.undo_group` (SET LOCAL: no other session's writes are recorded).
    -- `undo` puts the rows back newest first with the foreign keys deferred (they are DEFERRABLE for that).
    CREATE TABLE undo_group (
      id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      command    text NOT NULL,
      at         bigint NOT NULL,
      written_by text NOT NULL DEFAULT current_user
    );
    CREATE TABLE undo_step (
      id       bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      group_id bigint NOT NULL REFERENCES undo_group (id) ON DELETE CASCADE,
      tbl      text NOT NULL,
      op       text NOT NULL CHECK (op IN ('INSERT', 'UPDATE', 'DELETE')),
      old_row  jsonb,
      new_row  jsonb
    );
    CREATE INDEX undo_step_group ON undo_step (group_id);
    CREATE FUNCTION undo_note() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE g text := current_setting('petlog.undo_group', true);
    BEGIN
      IF g IS NULL OR g = '' THEN RETURN NULL; END IF;
      INSERT INTO petlog.undo_step (group_id, tbl, op, old_row, new_row)
      VALUES (g::bigint, TG_TABLE_NAME, TG_OP,
              CASE WHEN TG_OP <> 'INSERT' THEN to_jsonb(OLD) END, CASE WHEN TG_OP <> 'DELETE' THEN to_jsonb(NEW) END);
      RETURN NULL;
    END $$;
    CREATE FUNCTION undo_apply(g bigint) RETURNS integer LANGUAGE plpgsql AS $$
    DECLARE
      s record;
      keys text;
      n integer := 0;
    BEGIN
      SET CONSTRAINTS ALL DEFERRED;
      FOR s IN SELECT * FROM petlog.undo_step WHERE group_id = g ORDER BY id DESC LOOP
        SELECT string_agg(quote_ident(a.attname), ', ' ORDER BY a.attnum) INTO keys
        FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey)
        WHERE i.indrelid = ('petlog.' || quote_ident(s.tbl))::regclass AND i.indisprimary;
        IF s.op = 'INSERT' THEN
          EXECUTE format('DELETE FROM petlog.%I WHERE (%s) = (SELECT %s FROM jsonb_populate_record(NULL::petlog.%I, $1))', s.tbl, keys, keys, s.tbl)
          USING s.new_row;
        ELSIF s.op = 'UPDATE' THEN
          EXECUTE format('UPDATE petlog.%I SET (%s) = (SELECT %s FROM jsonb_populate_record(NULL::petlog.%I, $1)) WHERE (%s) = (SELECT %s FROM jsonb_populate_record(NULL::petlog.%I, $2))',
                         s.tbl, petlog.undo_columns(s.tbl), petlog.undo_columns(s.tbl), s.tbl, keys, keys, s.tbl)
          USING s.old_row, s.new_row;
        ELSE
          EXECUTE format('INSERT INTO petlog.%I OVERRIDING SYSTEM VALUE SELECT * FROM jsonb_populate_record(NULL::petlog.%I, $1)', s.tbl, s.tbl)
          USING s.old_row;
        END IF;
        n := n + 1;
      END LOOP;
      DELETE FROM petlog.undo_group WHERE id = g;
      RETURN n;
    END $$;
    CREATE FUNCTION undo_columns(t text) RETURNS text LANGUAGE sql STABLE AS $$
      SELECT string_agg(quote_ident(attname), ', ' ORDER BY attnum) FROM pg_attribute
      WHERE attrelid = ('petlog.' || quote_ident(t))::regclass AND attnum > 0 AND NOT attisdropped
    $$;
    CREATE TRIGGER undo_pet AFTER INSERT OR UPDATE OR DELETE ON pet FOR EACH ROW EXECUTE FUNCTION undo_note();
    CREATE TRIGGER undo_record AFTER INSERT OR UPDATE OR DELETE ON record FOR EACH ROW EXECUTE FUNCTION undo_note();
    CREATE TRIGGER undo_weight AFTER INSERT OR UPDATE OR DELETE ON weight FOR EACH ROW EXECUTE FUNCTION undo_note();
    CREATE TRIGGER undo_meal AFTER INSERT OR UPDATE OR DELETE ON meal FOR EACH ROW EXECUTE FUNCTION undo_note();
    CREATE TRIGGER undo_stool AFTER INSERT OR UPDATE OR DELETE ON stool FOR EACH ROW EXECUTE FUNCTION undo_note();
    CREATE TRIGGER undo_urine AFTER INSERT OR UPDATE OR DELETE ON urine FOR EACH ROW EXECUTE FUNCTION undo_note();
    CREATE TRIGGER undo_symptom AFTER INSERT OR UPDATE OR DELETE ON symptom FOR EACH ROW EXECUTE FUNCTION undo_note();
    CREATE TRIGGER undo_diary AFTER INSERT OR UPDATE OR DELETE ON diary FOR EACH ROW EXECUTE FUNCTION undo_note();
    CREATE TRIGGER undo_visit AFTER INSERT OR UPDATE OR DELETE ON visit FOR EACH ROW EXECUTE FUNCTION undo_note();
    CREATE TRIGGER undo_vaccination AFTER INSERT OR UPDATE OR DELETE ON vaccination FOR EACH ROW EXECUTE FUNCTION undo_note();
    CREATE TRIGGER undo_medication AFTER INSERT OR UPDATE OR DELETE ON medication FOR EACH ROW EXECUTE FUNCTION undo_note();
    CREATE TRIGGER undo_dose AFTER INSERT OR UPDATE OR DELETE ON dose FOR EACH ROW EXECUTE FUNCTION undo_note();
    CREATE TRIGGER undo_expense AFTER INSERT OR UPDATE OR DELETE ON expense FOR EACH ROW EXECUTE FUNCTION undo_note();
    CREATE TRIGGER undo_expense_item AFTER INSERT OR UPDATE OR DELETE ON expense_item FOR EACH ROW EXECUTE FUNCTION undo_note();
    CREATE TRIGGER undo_attachment AFTER INSERT OR UPDATE OR DELETE ON attachment FOR EACH ROW EXECUTE FUNCTION undo_note();
    CREATE TRIGGER undo_budget AFTER INSERT OR UPDATE OR DELETE ON budget FOR EACH ROW EXECUTE FUNCTION undo_note();
    CREATE TRIGGER undo_exchange_rate AFTER INSERT OR UPDATE OR DELETE ON exchange_rate FOR EACH ROW EXECUTE FUNCTION undo_note();
    CREATE TRIGGER undo_rates_fetch AFTER INSERT OR UPDATE OR DELETE ON rates_fetch FOR EACH ROW EXECUTE FUNCTION undo_note();
    """

    /// Bulk loads (an import of 50,000 records or more into a database holding fewer): for the length of
    /// the load the record tables' foreign keys and secondary indexes are dropped and their row triggers
    /// off, and at its end, in the same transaction, the keys are added again (one check over the whole
    /// table instead of one per row: 7.6 s → 0.7 s for the shelter set) and the indexes built; the search
    /// text is then rebuilt whole (an import is never undone row by row). The tables stay locked against
    /// other writers meanwhile. The two functions run as the schema's owner so that staff may load (PUBLIC
    /// may call them, as every function; databases whose roles were set up before pg2 need no new grant);
    /// they refuse a login role that may not insert records.
    static let pg2 = """
    CREATE TABLE bulk_saved (
      tbl  text NOT NULL,
      name text NOT NULL,
      kind text NOT NULL CHECK (kind IN ('index', 'key')),
      def  text NOT NULL
    );
    CREATE FUNCTION bulk_tables() RETURNS regclass[] LANGUAGE sql STABLE AS $$
      SELECT ARRAY['petlog.record', 'petlog.weight', 'petlog.meal', 'petlog.stool', 'petlog.urine', 'petlog.symptom',
                   'petlog.diary', 'petlog.visit', 'petlog.vaccination', 'petlog.medication', 'petlog.dose',
                   'petlog.expense', 'petlog.expense_item']::regclass[]
    $$;
    -- Only a login role that may insert records may load (checked inside the owner's functions).
    CREATE FUNCTION bulk_allowed() RETURNS void LANGUAGE plpgsql AS $$
    BEGIN
      IF NOT has_table_privilege(session_user, 'petlog.record', 'INSERT') THEN
        RAISE EXCEPTION 'permission denied for table record' USING ERRCODE = '42501';
      END IF;
    END $$;
    CREATE FUNCTION bulk_begin() RETURNS void LANGUAGE plpgsql SECURITY DEFINER SET search_path = petlog, pg_temp AS $$
    DECLARE
      c record;
      t regclass;
    BEGIN
      PERFORM bulk_allowed();
      IF EXISTS (SELECT 1 FROM bulk_saved) THEN RAISE EXCEPTION 'a bulk load is already under way'; END IF;
      FOR c IN SELECT con.conrelid::regclass AS tbl, con.conname AS name, pg_get_constraintdef(con.oid) AS def
               FROM pg_constraint con WHERE con.contype = 'f' AND con.conrelid = ANY (bulk_tables()) LOOP
        INSERT INTO bulk_saved VALUES (c.tbl::text, c.name, 'key', c.def);
        EXECUTE format('ALTER TABLE %s DROP CONSTRAINT %I', c.tbl, c.name);
      END LOOP;
      FOR c IN SELECT i.indrelid::regclass AS tbl, i.indexrelid::regclass AS name, pg_get_indexdef(i.indexrelid) AS def
               FROM pg_index i WHERE i.indrelid = ANY (bulk_tables()) AND NOT i.indisprimary AND NOT i.indisunique LOOP
        INSERT INTO bulk_saved VALUES (c.tbl::text, c.name::text, 'index', c.def);
        EXECUTE format('DROP INDEX %s', c.name);
      END LOOP;
      FOREACH t IN ARRAY bulk_tables() LOOP
        EXECUTE format('ALTER TABLE %s DISABLE TRIGGER USER', t);
      END LOOP;
    END $$;
    CREATE FUNCTION bulk_end() RETURNS void LANGUAGE plpgsql SECURITY DEFINER SET search_path = petlog, pg_temp AS $$
    DECLARE
      c record;
      t regclass;
    BEGIN
      PERFORM bulk_allowed();
      -- Statistics first: the keys' checks and the search text's query then plan for the loaded tables
      -- (a small detail table is checked by the record key's index, not by reading every record).
      EXECUTE 'ANALYZE ' || array_to_string(bulk_tables(), ', ');
      FOR c IN SELECT * FROM bulk_saved ORDER BY kind DESC LOOP
        IF c.kind = 'index' THEN
          EXECUTE c.def;
        ELSE
          EXECUTE format('ALTER TABLE %s ADD CONSTRAINT %I %s', c.tbl, c.name, c.def);
        END IF;
      END LOOP;
      DELETE FROM bulk_saved;
      FOREACH t IN ARRAY bulk_tables() LOOP
        EXECUTE format('ALTER TABLE %s ENABLE TRIGGER USER', t);
      END LOOP;
    END $$;
    """

    /// pg3, health facts as data (issue 33), as SQLite's v6: the pet's allergies, conditions, vet contact,
    /// emergency contacts and insurance in `PetHealth`'s stored form. The undo trigger stores whole rows,
    /// so it needs no change.
    static let pg3 = """
    ALTER TABLE pet ADD COLUMN allergies text CHECK (allergies IS NULL OR char_length(allergies) >= 1);
    ALTER TABLE pet ADD COLUMN conditions text CHECK (conditions IS NULL OR char_length(conditions) >= 1);
    ALTER TABLE pet ADD COLUMN vet_contact text CHECK (vet_contact IS NULL OR char_length(vet_contact) >= 1);
    ALTER TABLE pet ADD COLUMN emergency_contacts text CHECK (emergency_contacts IS NULL OR char_length(emergency_contacts) >= 1);
    ALTER TABLE pet ADD COLUMN insurance text CHECK (insurance IS NULL OR char_length(insurance) >= 1);
    """

    /// pg4, grooming (issue 28), as SQLite's v7: `record_kind` lists the kinds and `record.kind` references it
    /// instead of a CHECK naming them (a later kind is one INSERT there); `grooming` with its search and
    /// undo triggers; `bulk_tables()` names it, so a bulk load treats it as the other detail tables.
    static let pg4 = """
    CREATE TABLE record_kind (kind text PRIMARY KEY CHECK (kind ~ '^[a-z]+$'));
    INSERT INTO record_kind (kind) VALUES ('weight'), ('meal'), ('stool'), ('urine'), ('symptom'), ('diary'), ('visit'),
      ('vaccination'), ('medication'), ('dose'), ('expense'), ('grooming');
    ALTER TABLE record DROP CONSTRAINT record_kind_check;
    ALTER TABLE record ADD CONSTRAINT record_kind_fkey FOREIGN KEY (kind) REFERENCES record_kind (kind) DEFERRABLE;
    CREATE TABLE grooming (
      record_id     bigint PRIMARY KEY REFERENCES record (id) ON DELETE CASCADE DEFERRABLE,
      tasks         text CHECK (tasks IS NULL OR tasks ~ '^[a-z]+(,[a-z]+)*$'),
      groomer       text CHECK (groomer IS NULL OR char_length(groomer) >= 1),
      cost_minor    bigint CHECK (cost_minor >= 0),
      cost_currency text CHECK (char_length(cost_currency) = 3),
      next_due      text,
      CHECK ((cost_minor IS NULL) = (cost_currency IS NULL))
    );
    CREATE TRIGGER search_grooming AFTER INSERT OR UPDATE OR DELETE ON grooming FOR EACH ROW EXECUTE FUNCTION note_stale('detail');
    CREATE TRIGGER undo_grooming AFTER INSERT OR UPDATE OR DELETE ON grooming FOR EACH ROW EXECUTE FUNCTION undo_note();
    CREATE OR REPLACE FUNCTION bulk_tables() RETURNS regclass[] LANGUAGE sql STABLE AS $$
      SELECT ARRAY['petlog.record', 'petlog.weight', 'petlog.meal', 'petlog.stool', 'petlog.urine', 'petlog.symptom',
                   'petlog.diary', 'petlog.visit', 'petlog.vaccination', 'petlog.medication', 'petlog.dose',
                   'petlog.expense', 'petlog.expense_item', 'petlog.grooming']::regclass[]
    $$;
    -- Where `pg init-roles` made the roles, the new tables get the grants its default privileges give
    -- (those hold only for tables made by the role that set them).
    DO $$ BEGIN
      IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'petlog_staff') THEN
        GRANT SELECT, INSERT, UPDATE, DELETE ON grooming TO petlog_staff;
        GRANT SELECT ON record_kind TO petlog_staff;
      END IF;
      IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'petlog_volunteer') THEN
        GRANT SELECT ON grooming, record_kind TO petlog_volunteer;
      END IF;
      IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'petlog_owner') THEN
        GRANT ALL ON grooming, record_kind TO petlog_owner;
      END IF;
    END $$;
    """

    /// pg5, a budget's name, place and people (issue 30), as SQLite's v8. The undo trigger stores whole
    /// rows, so it needs no change. (pg4 is the grooming kind's.)
    static let pg5 = """
    ALTER TABLE budget ADD COLUMN name text CHECK (name IS NULL OR char_length(name) BETWEEN 1 AND 200);
    ALTER TABLE budget ADD COLUMN place text CHECK (place IS NULL OR char_length(place) BETWEEN 1 AND 200);
    ALTER TABLE budget ADD COLUMN people integer CHECK (people IS NULL OR people BETWEEN 1 AND 1000);
    """
    /// pg6, the weight series packed for charts (issue 34), as SQLite's v9 (`PostgresWeightSeries`): each
    /// pet's weights in chunks of `PostgresWeightSeries.chunkPoints` points, oldest first, each point the
    /// instant and the grams as two big-endian int8 (`int8send`, the form the series already crossed the
    /// wire in), each chunk keyed by its last point's (instant, record id), the series' own order. A chunk
    /// is derived data, always a prefix of the pet's series as the tables say it: the triggers below drop,
    /// whatever program or role writes (they run as the schema's owner), every chunk from a changed point
    /// on. They are statement triggers over the statement's changed rows, so an import's COPY of many
    /// weights costs one DELETE, not one function call per row; a record inserted after its weight (an
    /// `undo` puts rows back with the keys deferred) is caught by the record trigger. A TRUNCATE drops every
    /// chunk. Each trigger takes `weight_chunk` in ROW EXCLUSIVE mode before it deletes, and a chart that packs
    /// takes it in SHARE ROW EXCLUSIVE mode before its snapshot (`PostgresWeightSeries.fill`), so a writer
    /// outside petlog (psql, READ COMMITTED) that changes a weight while a chart packs either finishes first
    /// (the chart's snapshot has the change) or deletes after the chart committed (its DELETE, a new
    /// snapshot, sees the new chunks). The data is stored out of line and uncompressed (EXTERNAL): a
    /// chart reads 16 MB of chunks for a million points, and decompressing them cost more than reading.
    /// A volunteer reads the chunks (SELECT, as every table) and packs nothing: its charts read the
    /// points after the last chunk from the tables. Existing databases start with no chunks.
    /// pg7: the household's namespace (the SQLite store's v10): 16 random bytes made once per database,
    /// from which the FHIR export derives its resources' addresses.
    static let pg7 = """
    CREATE TABLE household (
      id        integer PRIMARY KEY CHECK (id = 1),
      namespace text NOT NULL CHECK (namespace ~ '^[0-9a-f]{32}$')
    );
    INSERT INTO household (id, namespace) VALUES (1, md5(random()::text || clock_timestamp()::text || pg_backend_pid()::text));
    """

    /// pg8, a bank transfer as a payment (the SQLite store's v11): the CHECK on `expense.payment` names the four.
    static let pg8 = """
    ALTER TABLE expense DROP CONSTRAINT expense_payment_check;
    ALTER TABLE expense ADD CONSTRAINT expense_payment_check CHECK (payment IN ('cash', 'card', 'transfer', 'other'));
    """

    /// The grants `pg init-roles` gives a table, for a table a later migration makes where the roles
    /// exist (their default privileges hold only for tables made by the role that set them): staff read
    /// and write it, volunteers read it, the owner has it all.
    static func grantsToRoles(_ table: String) -> String {
        """
        DO $$ BEGIN
          IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'petlog_staff') THEN
            GRANT SELECT, INSERT, UPDATE, DELETE ON \(table) TO petlog_staff;
          END IF;
          IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'petlog_volunteer') THEN
            GRANT SELECT ON \(table) TO petlog_volunteer;
          END IF;
          IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'petlog_owner') THEN
            GRANT ALL ON \(table) TO petlog_owner;
          END IF;
        END $$;
        """
    }

    /// pg9, a diary entry's title (the SQLite store's v12). The undo function keeps whole rows as JSON and
    /// the search trigger fires on any change, so neither names the column.
    static let pg9 = """
    ALTER TABLE diary ADD COLUMN title text CHECK (title IS NULL OR length(title) BETWEEN 1 AND 200);
    """

    /// pg10, the walk kind (the SQLite store's v13): its `record_kind` row, its table, its undo trigger, the
    /// bulk load's table list and the roles' grants (as pg4 for grooming). No text of its own: no search trigger.
    static let pg10 = """
    INSERT INTO record_kind (kind) VALUES ('walk');
    CREATE TABLE walk (
      record_id    bigint PRIMARY KEY REFERENCES record (id) ON DELETE CASCADE DEFERRABLE,
      distance_m   integer CHECK (distance_m IS NULL OR distance_m \(SQLRange.between(Walk.meterRange))),
      duration_min integer CHECK (duration_min IS NULL OR duration_min \(SQLRange.between(Walk.minuteRange)))
    );
    CREATE TRIGGER undo_walk AFTER INSERT OR UPDATE OR DELETE ON walk FOR EACH ROW EXECUTE FUNCTION undo_note();
    CREATE OR REPLACE FUNCTION bulk_tables() RETURNS regclass[] LANGUAGE sql STABLE AS $$
      SELECT ARRAY['petlog.record', 'petlog.weight', 'petlog.meal', 'petlog.stool', 'petlog.urine', 'petlog.symptom',
                   'petlog.diary', 'petlog.visit', 'petlog.vaccination', 'petlog.medication', 'petlog.dose',
                   'petlog.expense', 'petlog.expense_item', 'petlog.grooming', 'petlog.walk']::regclass[]
    $$;
    \(grantsToRoles("walk"))
    """

    /// pg11, the accounts and sessions of `petlog serve` (the SQLite store's v14). No undo or search trigger.
    /// Where `pg init-roles` made the roles: the owner has both tables, staff (a server run as staff) read the
    /// accounts and keep the sessions, volunteers neither (no password hash is theirs to read).
    static let pg11 = """
    CREATE TABLE web_account (
      id                  bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
      name                text NOT NULL CHECK (length(name) BETWEEN 1 AND 64),
      name_key            text NOT NULL UNIQUE,
      role                text NOT NULL CHECK (role IN ('owner', 'family', 'viewer')),
      password_hash       text NOT NULL CHECK (length(password_hash) = 60),
      language            text CHECK (language IS NULL OR language IN ('en', 'ko', 'ja')),
      created_at          bigint NOT NULL,
      password_changed_at bigint NOT NULL
    );
    CREATE TABLE web_session (
      token_hash text PRIMARY KEY CHECK (length(token_hash) = 64),
      account_id bigint NOT NULL REFERENCES web_account (id) ON DELETE CASCADE,
      csrf       text NOT NULL CHECK (length(csrf) BETWEEN 32 AND 128),
      created_at bigint NOT NULL,
      expires_at bigint NOT NULL CHECK (expires_at > created_at)
    );
    CREATE INDEX web_session_account ON web_session (account_id);
    DO $$ BEGIN
      IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'petlog_staff') THEN
        GRANT SELECT ON web_account TO petlog_staff;
        GRANT SELECT, INSERT, UPDATE, DELETE ON web_session TO petlog_staff;
      END IF;
      IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'petlog_owner') THEN
        GRANT ALL ON web_account, web_session TO petlog_owner;
      END IF;
      -- init-roles' default privileges gave the volunteer SELECT on every new table: not on these.
      IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'petlog_volunteer') THEN
        REVOKE ALL ON web_account, web_session FROM petlog_volunteer;
      END IF;
    END $$;
    """

    /// pg12, the SQLite store's v15: the pet's profile photo in its row (undo's trigger on `pet` records it
    /// with the rest of the row), and an account's calendar feed token, only its SHA-256. A server run as
    /// staff may change that one column (an account's "new calendar link"), nothing else of the accounts.
    static let pg12 = """
    ALTER TABLE pet ADD COLUMN photo bytea,
      ADD COLUMN photo_type text CHECK (photo_type IS NULL OR photo_type ~ '^image/[a-z]'),
      ADD COLUMN photo_size bigint CHECK (photo_size IS NULL OR photo_size > 0),
      ADD COLUMN photo_sha256 text CHECK (photo_sha256 IS NULL OR length(photo_sha256) = 64);
    ALTER TABLE web_account ADD COLUMN feed_token_hash text UNIQUE CHECK (feed_token_hash IS NULL OR length(feed_token_hash) = 64);
    DO $$ BEGIN
      IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'petlog_staff') THEN
        GRANT UPDATE (feed_token_hash) ON web_account TO petlog_staff;
      END IF;
    END $$;
    """

    /// pg13, the SQLite store's v16: the login throttle's failures (`web_login_failure`), kept by a server run as
    /// staff, read by no volunteer (the names tried); a server run as staff may change an account's page language
    /// (`POST /language`), nothing else of it but the feed. (PostgreSQL's `web_session.token_hash`, a primary key,
    /// was NOT NULL from pg11: v16 brings SQLite's to it.)
    static let pg13 = """
    CREATE TABLE web_login_failure (
      key_hash text NOT NULL PRIMARY KEY CHECK (length(key_hash) = 64),
      failures integer NOT NULL CHECK (failures > 0),
      last_at  bigint NOT NULL
    );
    DO $$ BEGIN
      IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'petlog_staff') THEN
        GRANT SELECT, INSERT, UPDATE, DELETE ON web_login_failure TO petlog_staff;
        GRANT UPDATE (language) ON web_account TO petlog_staff;
      END IF;
      IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'petlog_owner') THEN
        GRANT ALL ON web_login_failure TO petlog_owner;
      END IF;
      IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'petlog_volunteer') THEN
        REVOKE ALL ON web_login_failure FROM petlog_volunteer;
      END IF;
    END $$;
    """

    /// pg14 (issue 44; SQLite has no twin: its bulk load is in process): `bulk_end` at a shelter's scale. Each key
    /// whose referenced table the load filled too (a detail table's `record_id`, `dose` → `medication`,
    /// `expense_item` → `expense`) is checked with hash joins off, so by a merge of the two unique indexes in key
    /// order; PostgreSQL 15's anti join hashes the referenced side, which for `weight` → `record` was every record
    /// in eight batches spilled to disk (0.65 s of server CPU, 2.9 s wall under load, against 0.14–0.22 s and
    /// 0.7–1.1 s). A key to a small table (`pet`, `record_kind`) keeps the hash of that table, which the merge
    /// would make a sort of every record. The caller's `enable_hashjoin` is put back after the keys. The
    /// statistics it takes first (for those checks and the search text's query) sample at target 10
    /// (0.32 → 0.06 s CPU); the inserted rows, counted at commit, send the tables to autovacuum's own
    /// `ANALYZE` at the server's target soon after. The keys are checked as before: an orphan is refused.
    static let pg14 = """
    CREATE OR REPLACE FUNCTION bulk_end() RETURNS void LANGUAGE plpgsql SECURITY DEFINER
      SET search_path = petlog, pg_temp SET default_statistics_target = 10 AS $$
    DECLARE
      c record;
      t regclass;
      hashing text := current_setting('enable_hashjoin');
    BEGIN
      PERFORM bulk_allowed();
      -- Statistics first: the keys' checks and the search text's query then plan for the loaded tables
      -- (a small detail table is checked by the record key's index, not by reading every record).
      EXECUTE 'ANALYZE ' || array_to_string(bulk_tables(), ', ');
      FOR c IN SELECT * FROM bulk_saved ORDER BY kind DESC LOOP
        IF c.kind = 'index' THEN
          EXECUTE c.def;
        ELSE
          PERFORM set_config('enable_hashjoin',
            CASE WHEN substring(c.def FROM 'REFERENCES ([a-z_]+)\\(')::regclass = ANY (bulk_tables()) THEN 'off' ELSE hashing END, true);
          EXECUTE format('ALTER TABLE %s ADD CONSTRAINT %I %s', c.tbl, c.name, c.def);
        END IF;
      END LOOP;
      PERFORM set_config('enable_hashjoin', hashing, true);
      DELETE FROM bulk_saved;
      FOREACH t IN ARRAY bulk_tables() LOOP
        EXECUTE format('ALTER TABLE %s ENABLE TRIGGER USER', t);
      END LOOP;
    END $$;
    """

    static let pg6 = """
    CREATE TABLE weight_chunk (
      pet_id   bigint NOT NULL REFERENCES pet (id) ON DELETE CASCADE,
      last_at  bigint NOT NULL,
      last_id  bigint NOT NULL,
      first_at bigint NOT NULL CHECK (first_at <= last_at),
      points   integer NOT NULL CHECK (points > 0),
      data     bytea NOT NULL CHECK (octet_length(data) = 16 * points),
      PRIMARY KEY (pet_id, last_at, last_id)
    );
    ALTER TABLE weight_chunk ALTER COLUMN data SET STORAGE EXTERNAL;
    -- Drops each pet's chunks from the earliest of the given (pet, instant, record id) places on. The
    -- triggers take the table's lock first, then look (each statement a new snapshot at READ COMMITTED).
    CREATE FUNCTION series_drop(places jsonb) RETURNS void LANGUAGE plpgsql SECURITY DEFINER SET search_path = petlog, pg_temp AS $$
    BEGIN
      IF places IS NULL OR jsonb_array_length(places) = 0 THEN RETURN; END IF;
      DELETE FROM weight_chunk c USING (
        SELECT DISTINCT ON (p.pet) p.pet, p.at, p.id FROM jsonb_to_recordset(places) AS p (pet bigint, at bigint, id bigint)
        WHERE p.pet IS NOT NULL ORDER BY p.pet, p.at, p.id
      ) AS f
      WHERE c.pet_id = f.pet AND (c.last_at, c.last_id) >= (f.at, f.id);
    END $$;
    CREATE FUNCTION series_weight_changed() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = petlog, pg_temp AS $$
    DECLARE places jsonb;
    BEGIN
      LOCK TABLE weight_chunk IN ROW EXCLUSIVE MODE;
      IF NOT EXISTS (SELECT 1 FROM weight_chunk) THEN RETURN NULL; END IF;
      IF TG_OP = 'INSERT' THEN
        SELECT jsonb_agg(jsonb_build_object('pet', r.pet_id, 'at', r.at, 'id', r.id)) INTO places
        FROM (SELECT DISTINCT ON (r.pet_id) r.pet_id, r.at, r.id FROM new_rows n JOIN record r ON r.id = n.record_id ORDER BY r.pet_id, r.at, r.id) AS r;
      ELSIF TG_OP = 'DELETE' THEN
        SELECT jsonb_agg(jsonb_build_object('pet', r.pet_id, 'at', r.at, 'id', r.id)) INTO places
        FROM (SELECT DISTINCT ON (r.pet_id) r.pet_id, r.at, r.id FROM old_rows o JOIN record r ON r.id = o.record_id ORDER BY r.pet_id, r.at, r.id) AS r;
      ELSE
        SELECT jsonb_agg(jsonb_build_object('pet', r.pet_id, 'at', r.at, 'id', r.id)) INTO places
        FROM (SELECT DISTINCT ON (r.pet_id) r.pet_id, r.at, r.id
              FROM (SELECT o.record_id AS a, n.record_id AS b FROM old_rows o FULL JOIN new_rows n ON n.record_id = o.record_id
                    WHERE o.record_id IS NULL OR n.record_id IS NULL OR o.grams IS DISTINCT FROM n.grams) AS d
              JOIN record r ON r.id IN (d.a, d.b) ORDER BY r.pet_id, r.at, r.id) AS r;
      END IF;
      PERFORM series_drop(places);
      RETURN NULL;
    END $$;
    CREATE FUNCTION series_record_changed() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = petlog, pg_temp AS $$
    DECLARE places jsonb;
    BEGIN
      LOCK TABLE weight_chunk IN ROW EXCLUSIVE MODE;
      IF NOT EXISTS (SELECT 1 FROM weight_chunk) THEN RETURN NULL; END IF;
      IF TG_OP = 'INSERT' THEN
        SELECT jsonb_agg(jsonb_build_object('pet', n.pet_id, 'at', n.at, 'id', n.id)) INTO places FROM new_rows n WHERE n.kind = 'weight';
      ELSIF TG_OP = 'DELETE' THEN
        SELECT jsonb_agg(jsonb_build_object('pet', o.pet_id, 'at', o.at, 'id', o.id)) INTO places FROM old_rows o WHERE o.kind = 'weight';
      ELSE
        SELECT jsonb_agg(p) INTO places FROM (
          SELECT jsonb_build_object('pet', o.pet_id, 'at', o.at, 'id', o.id) AS p
          FROM old_rows o LEFT JOIN new_rows n ON n.id = o.id
          WHERE o.kind = 'weight' AND (n.id IS NULL OR (o.pet_id, o.kind, o.at) IS DISTINCT FROM (n.pet_id, n.kind, n.at))
          UNION ALL
          SELECT jsonb_build_object('pet', n.pet_id, 'at', n.at, 'id', n.id)
          FROM new_rows n LEFT JOIN old_rows o ON o.id = n.id
          WHERE n.kind = 'weight' AND (o.id IS NULL OR (o.pet_id, o.kind, o.at) IS DISTINCT FROM (n.pet_id, n.kind, n.at))
        ) AS changed;
      END IF;
      PERFORM series_drop(places);
      RETURN NULL;
    END $$;
    CREATE FUNCTION series_truncated() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = petlog, pg_temp AS $$
    BEGIN
      DELETE FROM weight_chunk;
      RETURN NULL;
    END $$;
    CREATE TRIGGER series_weight_insert AFTER INSERT ON weight REFERENCING NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION series_weight_changed();
    CREATE TRIGGER series_weight_update AFTER UPDATE ON weight REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION series_weight_changed();
    CREATE TRIGGER series_weight_delete AFTER DELETE ON weight REFERENCING OLD TABLE AS old_rows
      FOR EACH STATEMENT EXECUTE FUNCTION series_weight_changed();
    CREATE TRIGGER series_record_insert AFTER INSERT ON record REFERENCING NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION series_record_changed();
    CREATE TRIGGER series_record_update AFTER UPDATE ON record REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION series_record_changed();
    CREATE TRIGGER series_record_delete AFTER DELETE ON record REFERENCING OLD TABLE AS old_rows
      FOR EACH STATEMENT EXECUTE FUNCTION series_record_changed();
    CREATE TRIGGER series_weight_truncate AFTER TRUNCATE ON weight FOR EACH STATEMENT EXECUTE FUNCTION series_truncated();
    CREATE TRIGGER series_record_truncate AFTER TRUNCATE ON record FOR EACH STATEMENT EXECUTE FUNCTION series_truncated();
    \(grantsToRoles("weight_chunk"))
    """
}
