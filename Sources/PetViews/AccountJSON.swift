import Foundation
import PetModel
import PetStoreCore

/// `user list --json` (and `user add --json`): an account of `petlog serve`, never its password hash.
public struct AccountJSON: JSONObjectView {
    public let account: Account
    public init(_ account: Account) { self.account = account }
    func write(_ c: inout KeyedEncodingContainer<JSONKey>) throws {
        try c.put("id", account.id); try c.put("name", account.name); try c.put("role", account.role.rawValue)
        try c.put("language", account.language); try c.put("created_at", JSONView.instant(account.createdAt, offset: 0))
    }
}
