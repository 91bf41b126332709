import Foundation
import PetModel

/// `petlog serve`'s failed logins, per key (the server's SHA-256 of `name:KEY` or `address:IP`), in the store's
/// `web_login_failure` (SQLite v16, PostgreSQL pg13): two servers on one database behind a proxy count the same
/// failures and make the same tries wait. Not the household's records: no undo, no export, no volunteer reads it.
/// A key quiet for a day is forgotten (`loginFailuresForgottenAfter`), as a restart forgave the count kept in memory before.
extension Store {
    /// Seconds after a key's last failure after which its count is forgotten.
    public static let loginFailuresForgottenAfter: Int64 = 86_400

    /// The seconds a login try for `keys` must still wait at `now` (0: it goes ahead), each key's wait being
    /// `delay(failures)` from its last failure. One write transaction: a try that goes ahead on a key already
    /// past its free tries (`delay(failures) > 0`) takes that key's turn (its time is set to `now`), so a second
    /// try sent at once, to this server or another on the same database, waits rather than both going ahead.
    public func loginWait(keys: [String], now: Date, delay: (Int) -> Int) throws -> Int {
        let seconds = now.unixSeconds()
        return try engine.writeTransaction(recording: false) { sql in
            var wait = 0
            var throttled: [String] = []
            for key in keys {
                guard let row = try sql.row("SELECT failures, last_at FROM web_login_failure WHERE key_hash = ?", [key]) else { continue }
                let d = delay(Int(row["failures"].int ?? 0))
                guard d > 0 else { continue }
                wait = max(wait, Int((row["last_at"].int ?? 0) + Int64(d) - seconds))
                throttled.append(key)
            }
            if wait <= 0 {
                for key in throttled { try sql.execute("UPDATE web_login_failure SET last_at = ? WHERE key_hash = ?", [seconds, key]) }
            }
            return max(wait, 0)
        }
    }

    /// One more failure for each key, at `now`; keys quiet for a day go.
    public func loginFailed(keys: [String], now: Date) throws {
        let seconds = now.unixSeconds()
        try engine.writeTransaction(recording: false) { sql in
            try sql.execute("DELETE FROM web_login_failure WHERE last_at < ?", [seconds - Self.loginFailuresForgottenAfter])
            for key in keys {
                try sql.execute("""
                    INSERT INTO web_login_failure (key_hash, failures, last_at) VALUES (?, 1, ?)
                    ON CONFLICT (key_hash) DO UPDATE SET failures = web_login_failure.failures + 1, last_at = excluded.last_at
                    """, [key, seconds])
            }
        }
    }

    /// A success forgets the key's failures (the account name's; not the address's).
    public func loginSucceeded(key: String) throws {
        _ = try engine.writeTransaction(recording: false) { try $0.execute("DELETE FROM web_login_failure WHERE key_hash = ?", [key]) }
    }
}
