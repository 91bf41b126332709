import Foundation
import PetStoreCore

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

    /// The group roles, made when missing: only a superuser or a role with CREATEROLE may run this.
    public static let rolesSQL = """
    DO $$
    BEGIN
      IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'petlog_owner') THEN CREATE ROLE petlog_owner NOLOGIN; END IF;
      IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'petlog_staff') THEN CREATE ROLE petlog_staff NOLOGIN; END IF;
      IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'petlog_volunteer') THEN CREATE ROLE petlog_volunteer NOLOGIN; END IF;
    END $$;
    """

    /// The grants on the schema's tables; run by the database's owner (who owns them), after the schema.
    public static let grantsSQL = """
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

    /// `init-roles --sql`, for a superuser's psql (`petlog pg init-roles --sql | sudo -u postgres psql DB`):
    /// the roles, then the grants when petlog has already made its schema there (else the owner's
    /// `petlog pg init-roles` makes the schema and grants next). Runs again safely.
    public static var sql: String {
        rolesSQL + """

        DO $$
        BEGIN
          IF EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = 'petlog') THEN
            EXECUTE $grants$
        \(grantsSQL.split(separator: "\n").map { "      " + $0 }.joined(separator: "\n"))
            $grants$;
          END IF;
        END $$;
        """
    }

    /// Why `init-roles` cannot make the roles: the role it runs as may not create roles, and they are
    /// not there yet.
    public struct CannotCreateRoles: Error, Equatable {
        public let role: String
        public let database: String
        public let missing: [String]
    }

    /// Creates the roles (when missing) and the grants (the schema first, so the grants have tables to
    /// name). Runs again safely. A database owner made by `createuser` has no CREATEROLE: when the roles
    /// are missing and this role may not make them, nothing is changed and `CannotCreateRoles` says so.
    public static func create(_ target: PostgresTarget) throws {
        do {
            let link = try PostgresLink(target)
            defer { link.close() }
            let present = Set(try link.rows("SELECT rolname FROM pg_roles WHERE rolname IN ('petlog_owner', 'petlog_staff', 'petlog_volunteer')",
                                             [SQLValue]()).compactMap { $0[0].text })
            let missing = groups.filter { !present.contains($0) }
            if !missing.isEmpty {
                let may = try link.row("SELECT CASE WHEN rolsuper OR rolcreaterole THEN 1 ELSE 0 END, current_user::text FROM pg_roles WHERE rolname = current_user", [SQLValue]())
                if may?[0].int != 1 {
                    throw CannotCreateRoles(role: may?[1].text ?? target.user, database: target.database, missing: missing)
                }
            }
            try PostgresSchema.migrate(link)
            try link.transaction(.migration) {
                if !missing.isEmpty { try link.execute(script: rolesSQL) }
                try link.execute(script: grantsSQL)
            }
        } catch let e as CannotCreateRoles {
            throw e
        } catch {
            throw PostgresRepository.storeError(error)
        }
    }
}
