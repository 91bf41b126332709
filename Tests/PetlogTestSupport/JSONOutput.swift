import Foundation

/// Typed reading of petlog's `--json` output, in the shapes the PetViews types write (RecordJSON,
/// MoneyJSON, ExpenseListJSON, BudgetJSON, BudgetShowJSON): a key that is missing or of another type
/// fails the test with its coding path, where `as? [String: Any]` gave a nil that an assertion might
/// never look at. The PetViews types themselves only encode (each wraps a domain value and writes its
/// keys by hand), so the tests read into these mirrors of the documented shapes; keys are snake_case
/// in the output and camelCase here.
public enum JSONOutput {
    public static func decode<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(type, from: Data(text.utf8))
    }
}

/// Any JSON value, typed: for the parts of an output whose shape depends on a kind.
public enum JSONValue: Decodable, Equatable, Sendable {
    case null, bool(Bool), number(Double), string(String), array([JSONValue]), object([String: JSONValue])

    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null } else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let n = try? c.decode(Double.self) { self = .number(n) } else if let s = try? c.decode(String.self) { self = .string(s) }
        else if let a = try? c.decode([JSONValue].self) { self = .array(a) } else { self = .object(try c.decode([String: JSONValue].self)) }
    }

    /// The value under `key` as petlog writes it (snake_case); also found where a decoder converted the
    /// object's keys to camelCase.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let o) = self else { return nil }
        if let v = o[key] { return v }
        let parts = key.split(separator: "_")
        return o[(parts.first.map(String.init) ?? "") + parts.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()]
    }
    public var string: String? { if case .string(let s) = self { return s }; return nil }
    public var int: Int64? { if case .number(let n) = self, n == n.rounded() { return Int64(n) }; return nil }
    public var double: Double? { if case .number(let n) = self { return n }; return nil }
    public var bool: Bool? { if case .bool(let b) = self { return b }; return nil }
    public var array: [JSONValue]? { if case .array(let a) = self { return a }; return nil }
    public var isNull: Bool { self == .null }
}

/// `MoneyJSON`: an amount in minor units, its currency and its decimal text.
public struct MoneyOut: Decodable, Equatable, Sendable {
    public let minorUnits: Int64
    public let currency: String
    public let amount: String
    public init(minorUnits: Int64, currency: String, amount: String) { self.minorUnits = minorUnits; self.currency = currency; self.amount = amount }
}

/// `AttachmentJSON`.
public struct AttachmentOut: Decodable, Equatable, Sendable {
    public let sha256: String
    public let name: String
    public let mediaType: String
    public let size: Int64
}

/// An expense record's own object (`RecordDetailJSON` for `.expense`).
public struct ExpenseOut: Decodable, Equatable, Sendable {
    public let money: MoneyOut
    public let category: String
    public let merchant: String?
    public let payment: String?
    public let items: [String]
    public let splitOf: Int64?
}

/// `RecordJSON`: the common keys of a record, and its kind's object as `detail`.
public struct RecordOut: Decodable, Sendable {
    public let id: Int64
    public let petId: Int64?
    public let pet: String?
    public let kind: String
    public let at: String
    public let utcOffsetSeconds: Int
    public let note: String?
    public let starred: Bool
    public let attachments: [AttachmentOut]
    /// The object under the key named after the kind.
    public let detail: JSONValue
    /// The detail of an expense, typed (nil for another kind).
    public let expense: ExpenseOut?

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        func k(_ s: String) -> Key { Key(stringValue: s) }
        id = try c.decode(Int64.self, forKey: k("id"))
        petId = try c.decodeIfPresent(Int64.self, forKey: k("petId"))
        pet = try c.decodeIfPresent(String.self, forKey: k("pet"))
        kind = try c.decode(String.self, forKey: k("kind"))
        at = try c.decode(String.self, forKey: k("at"))
        utcOffsetSeconds = try c.decode(Int.self, forKey: k("utcOffsetSeconds"))
        note = try c.decodeIfPresent(String.self, forKey: k("note"))
        starred = try c.decode(Bool.self, forKey: k("starred"))
        attachments = try c.decode([AttachmentOut].self, forKey: k("attachments"))
        detail = try c.decode(JSONValue.self, forKey: k(kind))
        expense = kind == "expense" ? try c.decode(ExpenseOut.self, forKey: k(kind)) : nil
    }
}

/// `ExpenseListJSON`: `expense list --json`.
public struct ExpenseListOut: Decodable, Sendable {
    public struct CurrencyMinor: Decodable, Equatable, Sendable { public let currency: String; public let minorUnits: Int64 }
    public struct Total: Decodable, Sendable {
        public let byCurrency: [CurrencyMinor]
        public let converted: MoneyOut
        public let unconverted: Int
    }
    public struct Entry: Decodable, Sendable {
        public let id: Int64
        public let source: String
        public let petId: Int64?
        public let pet: String?
        public let at: String
        public let money: MoneyOut
        public let converted: MoneyOut?
        public let category: String
        public let merchant: String?
        public let payment: String?
        public let items: [String]
        public let note: String?
        public let starred: Bool
        public let splitOf: Int64?
        public let attachments: Int
        public let ahead: Bool
    }
    public struct Day: Decodable, Sendable {
        public let day: String
        public let total: Total
        public let entries: [Entry]
    }
    public struct Ahead: Decodable, Sendable { public let converted: MoneyOut; public let count: Int }
    public let month: String?
    public let day: String?
    public let currency: String
    public let days: [Day]
    public let total: Total
    public let ahead: Ahead
    /// Every entry of every day, in order.
    public var entries: [Entry] { days.flatMap(\.entries) }
}

/// `BudgetJSON`: a budget, with its status where `budget show` and `stats` give it.
public struct BudgetOut: Decodable, Sendable {
    public struct CategorySpent: Decodable, Sendable { public let category: String; public let spent: MoneyOut }
    public let id: Int64
    public let petId: Int64?
    public let pet: String?
    public let amount: MoneyOut
    public let category: String?
    public let perPet: Bool
    public let pets: Int
    public let name: String?
    public let period: String
    public let from: String?
    public let to: String?
    public let standing: String?
    public let daysLeft: Int?
    public let startsIn: Int?
    public let firstDay: String?
    public let lastDay: String?
    public let budget: MoneyOut?
    public let spent: MoneyOut?
    public let left: MoneyOut?
    public let over: Bool?
    public let perDay: MoneyOut?
    public let byCategory: [CategorySpent]?
    public let unconverted: Int?
}

/// `BudgetShowJSON`: `budget show --json`.
public struct BudgetShowOut: Decodable, Sendable {
    public let date: String
    public let budgets: [BudgetOut]
}
