import Foundation
import PetStore

/// The roles a shelter needs (`petlog pg init-roles`, or `petlog pg init-roles --sql | psql`): group roles
/// that people's login roles join.
///
/// - `petlog_owner`: everything, including what later petlog versions' migrations create; the role that
///   runs `init-roles` (the database's owner) keeps owning the tables.
/// - `petlog_staff`: reads and writes every table (records, pets, budgets, imports, undo of their own commands).
/// - `petlog_volunteer`: reads everything, writes nothing: a write is refused by the server (42501) and
///   petlog says so in one line, exit 77.
///
/// Each record names the login role that wrote it (`record.written_by`, `current_user`), which `log --by`
/// and the report show.
public enum PostgresRoles {
    public static let groups = ["petlog_owner", "petlog_staff", "petlog_volunteer"]

    public static let sql = """
    DO $$
    BEGIN
      IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'petlog_owner') THEN CREATE ROLE petlog_owner NOLOGIN; END IF;
      IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'petlog_staff') THEN CREATE ROLE petlog_staff NOLOGIN; END IF;
      IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'petlog_volunteer') THEN CREATE ROLE petlog_volunteer NOLOGIN; END IF;
    END $$;
    GRANT USAGE ON SCHEMA petlog TO petlog_staff, petlog_volunteer;
    GRANT ALL ON SCHEMA petlog TO petlog_owner;
    GRANT ALL ON ALL TABLES IN SCHEMA petlog TO petlog_owner;
    GRANT ALL ON ALL SEQUENCES IN SCHEMA petlog TO petlog_owner;
    GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA petlog TO petlog_staff;
    GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA petlog TO petlog_staff;
    GRANT SELECT ON ALL TABLES IN SCHEMA petlog TO petlog_volunteer;
    GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA petlog TO petlog_staff, petlog_volunteer;
    ALTER DEFAULT PRIVILEGES IN SCHEMA petlog GRANT ALL ON TABLES TO petlog_owner;
    ALTER DEFAULT PRIVILEGES IN SCHEMA petlog GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO petlog_staff;
    ALTER DEFAULT PRIVILEGES IN SCHEMA petlog GRANT SELECT ON TABLES TO petlog_volunteer;
    ALTER DEFAULT PRIVILEGES IN SCHEMA petlog GRANT USAGE, SELECT, UPDATE ON SEQUENCES TO petlog_staff;
    """

    /// Creates the roles and grants (the schema first, so the grants have tables to name). Runs again safely.
    public static func create(_ target: PostgresTarget) throws {
        do {
            let link = try PostgresLink(target)
            defer { link.close() }
            try PostgresSchema.migrate(link)
            try link.transaction(.migration) { try link.execute(script: sql) }
        } catch {
            throw PostgresRepository.storeError(error)
        }
    }
}
