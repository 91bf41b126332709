import Foundation

/// The animal kinds petlog knows; anything else is `other` with the breed saying more.
public enum Species: String, CaseIterable, Sendable, Codable {
    case dog, cat, rabbit, ferret, parrot, hamster, guineaPig = "guinea-pig", tortoise, bird, reptile, fish, other
}

public enum Sex: String, CaseIterable, Sendable, Codable {
    case female, male, unknown

    /// Accepts `f`, `female`, `m`, `male`, `unknown` in any case.
    public static func parse(_ raw: String) throws -> Sex {
        switch raw.lowercased() {
        case "f", "female": return .female
        case "m", "male": return .male
        case "u", "unknown", "?": return .unknown
        default: throw ParseError.unknownChoice(field: "sex", value: raw, accepted: Sex.allCases.map(\.rawValue))
        }
    }
}

/// Why a pet left the active list; its history stays.
public enum ArchiveReason: String, CaseIterable, Sendable, Codable {
    case passedAway = "passed-away", rehomed, lost, other
}

/// A pet's profile.
public struct Pet: Equatable, Sendable, Codable {
    public var id: Int64
    public var name: String
    public var species: Species
    public var breed: String?
    public var sex: Sex
    public var neutered: Bool
    public var born: PartialDate?
    public var microchip: String?
    public var color: String?
    public var notes: String?
    public var archivedOn: LocalDate?
    public var archiveReason: ArchiveReason?
    /// Allergies, conditions, contacts and insurance (schema v6).
    public var health: PetHealth
    public var createdAt: Date
    public var updatedAt: Date
    /// The profile photo, if one was given (`pet edit --photo`, schema v15); its bytes are read on their own.
    public var photo: PetPhoto?

    public init(id: Int64, name: String, species: Species, breed: String? = nil, sex: Sex = .unknown,
                neutered: Bool = false, born: PartialDate? = nil, microchip: String? = nil, color: String? = nil,
                notes: String? = nil, archivedOn: LocalDate? = nil, archiveReason: ArchiveReason? = nil,
                health: PetHealth = PetHealth(), createdAt: Date, updatedAt: Date, photo: PetPhoto? = nil) {
        self.id = id; self.name = name; self.species = species; self.breed = breed; self.sex = sex
        self.neutered = neutered; self.born = born; self.microchip = microchip; self.color = color
        self.notes = notes; self.archivedOn = archivedOn; self.archiveReason = archiveReason; self.health = health
        self.createdAt = createdAt; self.updatedAt = updatedAt; self.photo = photo
    }

    public var isArchived: Bool { archivedOn != nil }
}

/// A pet's profile photo as the pet row describes it: its type by content (`MediaSniffer`), its size and
/// SHA-256 (hex). The image itself is kept in the store with the pet (`PetsRepository.petPhoto`).
public struct PetPhoto: Equatable, Sendable, Codable {
    public var mediaType: String
    public var size: Int64
    public var sha256: String
    public init(mediaType: String, size: Int64, sha256: String) { self.mediaType = mediaType; self.size = size; self.sha256 = sha256 }

    /// The largest profile photo taken (a phone's photo fits many times over).
    public static let maxBytes = 25 * 1024 * 1024
}

/// What `pet edit --photo FILE` / `--no-photo` does to the profile photo.
public enum PetPhotoChange: Equatable, Sendable {
    /// The file's bytes and their type by content.
    case set(Data, mediaType: String)
    case remove
}

/// The fields of a new pet or of an edit (nil = leave as is).
public struct PetDraft: Equatable, Sendable {
    public var name: String?
    public var species: Species?
    public var breed: String??
    public var sex: Sex?
    public var neutered: Bool?
    public var born: PartialDate??
    public var microchip: String??
    public var color: String??
    public var notes: String??
    /// Allergies, conditions, contacts, insurance.
    public var health = PetHealthEdit()

    public init(name: String? = nil, species: Species? = nil, breed: String?? = nil, sex: Sex? = nil, neutered: Bool? = nil,
                born: PartialDate?? = nil, microchip: String?? = nil, color: String?? = nil, notes: String?? = nil) {
        self.name = name; self.species = species; self.breed = breed; self.sex = sex; self.neutered = neutered
        self.born = born; self.microchip = microchip; self.color = color; self.notes = notes
    }
}

/// How a pet is named on the command line: its id or its name.
public enum PetRef: Equatable, Sendable, CustomStringConvertible {
    case id(Int64)
    case name(String)

    public init(_ text: String) {
        if let id = Int64(text), id > 0, text.allSatisfy({ $0.asciiDigit != nil }) { self = .id(id) } else { self = .name(text) }
    }

    public var description: String {
        switch self {
        case .id(let i): return String(i)
        case .name(let n): return n
        }
    }
}

/// Validation shared by every free-text field.
public enum TextField {
    /// The matching key of a name: Unicode NFKC, case-folded, trimmed, so `ＣＯＣＯ`, `coco` and a
    /// decomposed Hangul spelling all find the same pet.
    public static func nameKey(_ name: String) -> String {
        // ASCII is its own NFKC and folds to lower case: skip Foundation (the search text of a whole
        // shelter is folded at each import and rebuild).
        let bytes = name.utf8
        if bytes.allSatisfy({ $0 < 0x80 }) {
            guard let first = bytes.firstIndex(where: { !isASCIISpace($0) }), let last = bytes.lastIndex(where: { !isASCIISpace($0) }) else { return "" }
            return String(decoding: bytes[first...last].map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
        }
        return name.precomposedStringWithCompatibilityMapping
            .trimmingCharacters(in: .whitespacesAndNewlines)
            .folding(options: [.caseInsensitive], locale: nil)
    }

    /// A pet name: 1–100 characters, no control characters, stored NFC.
    public static func name(_ raw: String) throws -> String {
        let t = raw.precomposedStringWithCanonicalMapping.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !t.isEmpty else { throw ParseError.emptyText(field: "name") }
        guard t.count <= 100 else { throw ParseError.textTooLong(field: "name", max: 100) }
        guard !t.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw ParseError.controlCharacters(field: "name")
        }
        if t.allSatisfy({ $0.asciiDigit != nil }) { throw ParseError.numericName(t) } // would be read as an id
        return t
    }

    /// Free text (notes, diary): NFC, at most `max` characters; newlines and tabs are kept, the terminal
    /// display sanitizes the rest.
    public static func text(_ raw: String, field: String, max: Int = 100_000) throws -> String {
        // ASCII is already NFC: skip Foundation's normalization (most of the cost of a bulk import).
        let ascii = raw.utf8.allSatisfy { $0 < 0x80 }
        let t = ascii ? raw : raw.precomposedStringWithCanonicalMapping
        let blank = ascii ? raw.utf8.allSatisfy(isASCIISpace) : t.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        guard !blank else { throw ParseError.emptyText(field: field) }
        guard t.unicodeScalars.count <= max else { throw ParseError.textTooLong(field: field, max: max) }
        return t
    }

    /// A short label (clinic, food, breed): one line, at most 200 characters.
    static func isASCIISpace(_ b: UInt8) -> Bool { b == 0x20 || (0x09...0x0D).contains(b) }

    public static func label(_ raw: String, field: String) throws -> String {
        if raw.utf8.allSatisfy({ $0 < 0x80 }) {  // the same rules without Foundation, for bulk imports
            let bytes = Array(raw.utf8)
            guard let first = bytes.firstIndex(where: { !isASCIISpace($0) }), let last = bytes.lastIndex(where: { !isASCIISpace($0) }) else {
                throw ParseError.emptyText(field: field)
            }
            guard bytes.count <= 200 else { throw ParseError.textTooLong(field: field, max: 200) }
            let core = bytes[first...last]
            guard !core.contains(where: { $0 < 0x20 || $0 == 0x7F }) else { throw ParseError.controlCharacters(field: field) }
            return String(decoding: core, as: UTF8.self)
        }
        let t = try text(raw, field: field, max: 200).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !t.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw ParseError.controlCharacters(field: field)
        }
        return t
    }
}

/// A microchip number as petlog stores it: digits only (spaces and hyphens typed between groups
/// are dropped), 9 to 15 of them (ISO 11784/11785 chips have 15; older ones 9 or 10).
public enum Microchip {
    /// The digits of `raw`; nil for an empty value (no chip); `badMicrochip` for anything else.
    public static func normalize(_ raw: String) throws -> String? {
        let digits = raw.filter { $0 != " " && $0 != "-" }
        if digits.isEmpty { return nil }
        guard (9...15).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw ParseError.badMicrochip(raw)
        }
        return digits
    }
}
