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
    /// The volunteer may read the sequences too: `pg_dump` reads every sequence it dumps. The volunteer reads
    /// every record but not `petlog serve`'s accounts (their password hashes) and sessions.
    public static let grantsSQL = """
    GRANT USAGE ON SCHEMA petlog TO petlog_staff, petlog_volunteer;
    GRANT ALL ON SCHEMA petlog TO petlog_owner;
    GRANT ALL ON ALL TABLES IN SCHEMA petlog TO petlog_owner;
    GRANT ALL ON ALL SEQUENCES IN SCHEMA petlog TO petlog_owner;
    GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA petlog TO petlog_staff;
    GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA petlog TO petlog_staff;
    GRANT SELECT ON ALL TABLES IN SCHEMA petlog TO petlog_volunteer;
    GRANT SELECT ON ALL SEQUENCES IN SCHEMA petlog TO petlog_volunteer;
    GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA petlog TO petlog_staff, petlog_volunteer;
    """

    /// What tables and sequences made later (by a migration, as the schema's owner) grant. Always set
    /// `FOR ROLE` the schema's owner, whoever runs it (the owner or a superuser): default privileges of
    /// another role would be in the owner's dump, and `pg_restore` as the owner would fail on them
    /// ("must be member of role …").
    static let defaultPrivileges = [
        "GRANT ALL ON TABLES TO petlog_owner",
        "GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO petlog_staff",
        "GRANT SELECT ON TABLES TO petlog_volunteer",
        "GRANT USAGE, SELECT, UPDATE ON SEQUENCES TO petlog_staff",
        "GRANT SELECT ON SEQUENCES TO petlog_volunteer",
    ]

    static func defaultPrivilegesSQL(owner: String) -> String {
        let role = "\"" + owner.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        return defaultPrivileges.map { "ALTER DEFAULT PRIVILEGES FOR ROLE \(role) IN SCHEMA petlog \($0);" }.joined(separator: "\n")
    }

    /// `init-roles --sql`, for a superuser's psql (`petlog pg init-roles --sql | sudo -u postgres psql DB`):
    /// the roles, then the grants when petlog has already made its schema there (else the owner's
    /// `petlog pg init-roles` makes the schema and grants next). Runs again safely.
    public static var sql: String {
        rolesSQL + """

        DO $$
        DECLARE schema_owner text;
        BEGIN
          IF EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = 'petlog') THEN
            EXECUTE $grants$
        \(grantsSQL.split(separator: "\n").map { "      " + $0 }.joined(separator: "\n"))
            $grants$;
        IF to_regclass('petlog.web_account') IS NOT NULL THEN EXECUTE $revoke$\(volunteersReadNoAccountsSQL)$revoke$; END IF;
        IF to_regclass('petlog.web_login_failure') IS NOT NULL THEN EXECUTE $revoke$\(volunteersReadNoLoginFailuresSQL)$revoke$; END IF;
            SELECT pg_get_userbyid(nspowner) INTO schema_owner FROM pg_namespace WHERE nspname = 'petlog';
        \(defaultPrivileges.map { "    EXECUTE format('ALTER DEFAULT PRIVILEGES FOR ROLE %I IN SCHEMA petlog \($0)', schema_owner);" }.joined(separator: "\n"))
          END IF;
        END $$;
        """
    }

    /// After the grants, where the schema has `petlog serve`'s accounts (pg11 on): the volunteer reads no
    /// password hash and no session.
    static let volunteersReadNoAccountsSQL = "REVOKE ALL ON petlog.web_account, petlog.web_session FROM petlog_volunteer;"
    /// After the grants, where the schema has the login throttle's failures (pg13 on): the volunteer reads no name tried.
    static let volunteersReadNoLoginFailuresSQL = "REVOKE ALL ON petlog.web_login_failure FROM petlog_volunteer;"

    /// Why `init-roles` refuses: only the database's owner (or a superuser) changes roles and grants. A staff
    /// role's grants and default privileges would be its own, and would break the owner's restore.
    public struct NotTheOwner: Error, Equatable {
        public let role: String
        public let owner: String
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
            let who = try link.row("""
                SELECT r.rolsuper OR pg_has_role(current_user, d.datdba, 'MEMBER'), pg_get_userbyid(d.datdba)::text, current_user::text
                FROM pg_roles r, pg_database d WHERE r.rolname = current_user AND d.datname = current_database()
                """, [SQLValue]())
            if who?[0].int != 1 { throw NotTheOwner(role: who?[2].text ?? target.user, owner: who?[1].text ?? "") }
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
                try link.execute(script: volunteersReadNoAccountsSQL)   // the schema was migrated just above
                try link.execute(script: volunteersReadNoLoginFailuresSQL)
                let owner = try link.row("SELECT pg_get_userbyid(nspowner)::text FROM pg_namespace WHERE nspname = 'petlog'", [SQLValue]())?[0].text ?? target.user
                try link.execute(script: defaultPrivilegesSQL(owner: owner))
            }
        } catch let e as CannotCreateRoles {
            throw e
        } catch let e as NotTheOwner {
            throw e
        } catch {
            throw PostgresRepository.storeError(error)
        }
    }
}
