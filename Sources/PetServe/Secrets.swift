import Crypto
import Foundation
import HummingbirdBcrypt

/// Passwords (bcrypt) and the random tokens of sessions and forms.
public enum Secrets {
    /// The cost every stored hash has at least (2^12 rounds).
    public static let bcryptCost: UInt8 = 12
    public static let minimumPasswordLength = 8

    public static func hashPassword(_ password: String, cost: UInt8 = bcryptCost) -> String {
        Bcrypt.hash(password, cost: max(cost, bcryptCost))
    }

    public static func verify(_ password: String, hash: String) -> Bool {
        Bcrypt.verify(password, hash: hash)
    }

    /// A hash no password matches, verified when a name has no account so that a wrong name takes as
    /// long as a wrong password (nothing tells whether an account exists).
    static let decoyHash = Bcrypt.hash(UUID().uuidString + UUID().uuidString, cost: bcryptCost)

    /// 32 random bytes as 64 hex digits.
    public static func token() -> String {
        var g = SystemRandomNumberGenerator()
        return (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &g)) }.joined()
    }

    /// The SHA-256 of a token, hex: what the store keeps of a session's cookie.
    public static func digest(_ token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// Compares two tokens in time that does not depend on where they first differ.
    public static func same(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count, !x.isEmpty else { return false }
        var d: UInt8 = 0
        for i in x.indices { d |= x[i] ^ y[i] }
        return d == 0
    }
}
