import Foundation
import PetModel

/// What an account of `petlog serve` may do (issue 41): an owner everything, accounts included; family read,
/// log, edit and delete; a viewer (a sitter, a vet) read only.
public enum AccountRole: String, CaseIterable, Sendable, Codable {
    case owner, family, viewer
    /// Whether the role may change records (every POST but login and logout).
    public var writes: Bool { self != .viewer }
}

/// An account of the web face, without its password hash.
public struct Account: Sendable, Equatable {
    public let id: Int64
    public let name: String
    public let role: AccountRole
    /// `en`, `ko` or `ja`; nil: the browser's `Accept-Language`, else the config.
    public let language: String?
    public let createdAt: Date
    public init(id: Int64, name: String, role: AccountRole, language: String?, createdAt: Date) {
        self.id = id; self.name = name; self.role = role; self.language = language; self.createdAt = createdAt
    }
}

/// A signed-in browser: the account and the session's CSRF token (every form of that session carries it).
public struct WebSession: Sendable, Equatable {
    public let account: Account
    public let csrf: String
    public let expiresAt: Date
}

/// Accounts and sessions of `petlog serve`, kept in the store (both engines: the tables `web_account` and
/// `web_session`, SQLite v14 and PostgreSQL pg11) so that two servers on one PostgreSQL database act as one
/// site. Not recorded for `undo` and not in the export: they are the site's, not the household's records.
/// Sessions are found by the SHA-256 of their cookie's token, so the store never holds a usable cookie.
public protocol AccountStore {
    /// `language`: `en`, `ko` or `ja`, the pages' language for this account (nil: the browser's).
    func addAccount(name: String, role: AccountRole, passwordHash: String, language: String?) throws -> Account
    func accounts() throws -> [Account]
    func accountCount() throws -> Int
    /// The account of that name (any case, Unicode-normalized) with its password hash.
    func account(named name: String) throws -> (account: Account, passwordHash: String)?
    /// A new hash; every session of the account ends.
    func setPassword(name: String, passwordHash: String) throws -> Account
    /// The account and every session of it.
    func removeAccount(name: String) throws -> Account
    func createSession(tokenHash: String, account: Int64, csrf: String, expiresAt: Date) throws
    /// The session of that token hash while it has not expired.
    func session(tokenHash: String) throws -> WebSession?
    func endSession(tokenHash: String) throws
    /// The account's calendar feed gets a new token (only its SHA-256 is kept; the old token stops working).
    func setFeedToken(name: String, tokenHash: String) throws -> Account
    /// The account whose calendar feed token has that SHA-256 (nil: none).
    func account(feedTokenHash: String) throws -> Account?
    /// The pages' language of the account (`en`, `ko`, `ja`; nil: the browser's), as `POST /language` saves it.
    func setLanguage(account: Int64, language: String?) throws
    /// The login throttle's counts (`web_login_failure`, LoginFailures.swift): kept in the store, so that every
    /// server on one database counts the same failures.
    func loginWait(keys: [String], now: Date, delay: (Int) -> Int) throws -> Int
    func loginFailed(keys: [String], now: Date) throws
    func loginSucceeded(key: String) throws
}

/// Why an account command or a login was refused.
extension AccountStore {
    public func addAccount(name: String, role: AccountRole, passwordHash: String) throws -> Account {
        try addAccount(name: name, role: role, passwordHash: passwordHash, language: nil)
    }
}

public enum AccountError: Error, Equatable {
    case badName(String)
    case exists(String)
    case unknown(String)
    case lastOwner(String)
}

extension Store: AccountStore {
    private func accountWrite<T>(_ body: (any SQLExecutor) throws -> T) throws -> T {
        try engine.writeTransaction(recording: false) { try body($0) }
    }
    private func accountRead<T>(_ body: (any SQLExecutor) throws -> T) throws -> T {
        try engine.readTransaction { try body($0) }
    }

    static let accountColumns = "id, name, role, language, created_at"

    static func account(_ row: SQLRow) throws -> Account {
        let id = row["id"].int ?? 0
        guard let name = row["name"].text, let role = row["role"].text.flatMap(AccountRole.init(rawValue:)) else {
            throw InvalidStoredValue(table: "web_account", id: id, column: "role", value: row["role"].text ?? "NULL")
        }
        return Account(id: id, name: name, role: role, language: row["language"].text,
                       createdAt: Date(timeIntervalSince1970: Double(row["created_at"].int ?? 0)))
    }

    /// The key a name is found by: case-folded and NFC, as pet names are.
    public static func accountKey(_ name: String) -> String {
        name.precomposedStringWithCanonicalMapping.lowercased()
    }

    /// A name as an account's: 1–64 characters, no control characters, no spaces at either end.
    public static func checkedAccountName(_ name: String) throws -> String {
        let n = name.precomposedStringWithCanonicalMapping
        guard (1...64).contains(n.count), n == n.trimmingCharacters(in: .whitespaces),
              !n.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0.properties.generalCategory == .format }) else {
            throw AccountError.badName(name)
        }
        return n
    }

    public func addAccount(name: String, role: AccountRole, passwordHash: String, language: String?) throws -> Account {
        let name = try Self.checkedAccountName(name)
        let now = engine.now().unixSeconds()
        return try accountWrite { sql in
            if try sql.row("SELECT id FROM web_account WHERE name_key = ?", [Self.accountKey(name)]) != nil { throw AccountError.exists(name) }
            let id = try sql.insertReturningId("""
                INSERT INTO web_account (name, name_key, role, password_hash, language, created_at, password_changed_at) VALUES (?, ?, ?, ?, ?, ?, ?)
                """, [name, Self.accountKey(name), role.rawValue, passwordHash, language, now, now])
            return Account(id: id, name: name, role: role, language: language, createdAt: Date(timeIntervalSince1970: Double(now)))
        }
    }

    public func accounts() throws -> [Account] {
        try accountRead { try $0.rows("SELECT \(Self.accountColumns) FROM web_account ORDER BY name_key, id", [] as [SQLValue]).map(Self.account) }
    }

    public func accountCount() throws -> Int {
        try accountRead { Int(try $0.int("SELECT count(*) FROM web_account", [] as [SQLValue]) ?? 0) }
    }

    public func account(named name: String) throws -> (account: Account, passwordHash: String)? {
        try accountRead { sql in
            guard let row = try sql.row("SELECT \(Self.accountColumns), password_hash FROM web_account WHERE name_key = ?", [Self.accountKey(name)]),
                  let hash = row["password_hash"].text else { return nil }
            return (try Self.account(row), hash)
        }
    }

    public func setPassword(name: String, passwordHash: String) throws -> Account {
        let now = engine.now().unixSeconds()
        return try accountWrite { sql in
            guard let row = try sql.row("SELECT \(Self.accountColumns) FROM web_account WHERE name_key = ?", [Self.accountKey(name)]) else {
                throw AccountError.unknown(name)
            }
            let account = try Self.account(row)
            try sql.execute("UPDATE web_account SET password_hash = ?, password_changed_at = ? WHERE id = ?", [passwordHash, now, account.id])
            try sql.execute("DELETE FROM web_session WHERE account_id = ?", [account.id])
            return account
        }
    }

    public func removeAccount(name: String) throws -> Account {
        try accountWrite { sql in
            guard let row = try sql.row("SELECT \(Self.accountColumns) FROM web_account WHERE name_key = ?", [Self.accountKey(name)]) else {
                throw AccountError.unknown(name)
            }
            let account = try Self.account(row)
            // The last owner is kept while other accounts remain: someone must be able to manage them.
            if account.role == .owner,
               try sql.int("SELECT count(*) FROM web_account WHERE role = 'owner' AND id <> ?", [account.id]) == 0,
               try sql.int("SELECT count(*) FROM web_account WHERE id <> ?", [account.id]) ?? 0 > 0 {
                throw AccountError.lastOwner(account.name)
            }
            try sql.execute("DELETE FROM web_session WHERE account_id = ?", [account.id])
            try sql.execute("DELETE FROM web_account WHERE id = ?", [account.id])
            return account
        }
    }

    public func createSession(tokenHash: String, account: Int64, csrf: String, expiresAt: Date) throws {
        let now = engine.now().unixSeconds()
        try accountWrite { sql in
            // Expired sessions go when a new one starts: the table holds the live ones only.
            try sql.execute("DELETE FROM web_session WHERE expires_at <= ?", [now])
            try sql.execute("INSERT INTO web_session (token_hash, account_id, csrf, created_at, expires_at) VALUES (?, ?, ?, ?, ?)",
                            [tokenHash, account, csrf, now, max(expiresAt.unixSeconds(), now + 1)])
        }
    }

    public func session(tokenHash: String) throws -> WebSession? {
        let now = engine.now().unixSeconds()
        return try accountRead { sql in
            guard let row = try sql.row("""
                SELECT a.id, a.name, a.role, a.language, a.created_at, s.csrf, s.expires_at
                FROM web_session s JOIN web_account a ON a.id = s.account_id WHERE s.token_hash = ? AND s.expires_at > ?
                """, [tokenHash, now]), let csrf = row["csrf"].text else { return nil }
            return WebSession(account: try Self.account(row), csrf: csrf,
                              expiresAt: Date(timeIntervalSince1970: Double(row["expires_at"].int ?? 0)))
        }
    }

    public func endSession(tokenHash: String) throws {
        try accountWrite { try $0.execute("DELETE FROM web_session WHERE token_hash = ?", [tokenHash]) }
    }

    public func setFeedToken(name: String, tokenHash: String) throws -> Account {
        try accountWrite { sql in
            guard let row = try sql.row("SELECT \(Self.accountColumns) FROM web_account WHERE name_key = ?", [Self.accountKey(name)]) else {
                throw AccountError.unknown(name)
            }
            let account = try Self.account(row)
            try sql.execute("UPDATE web_account SET feed_token_hash = ? WHERE id = ?", [tokenHash, account.id])
            return account
        }
    }

    public func account(feedTokenHash: String) throws -> Account? {
        try accountRead { sql in
            try sql.row("SELECT \(Self.accountColumns) FROM web_account WHERE feed_token_hash = ?", [feedTokenHash]).map(Self.account)
        }
    }

    public func setLanguage(account: Int64, language: String?) throws {
        try accountWrite { try $0.execute("UPDATE web_account SET language = ? WHERE id = ?", [language, account]) }
    }
}
