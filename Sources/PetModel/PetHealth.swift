import Foundation

/// Someone to call about a pet: a vet or clinic, or an emergency contact. Typed `"NAME, PHONE"`; the
/// phone is what follows the last comma, so a name may hold commas of its own (`Kim, Lee & Park, 02-555-0100`).
public struct PetContact: Equatable, Hashable, Sendable, Codable {
    public var name: String
    public var phone: String

    public init(name: String, phone: String) { self.name = name; self.phone = phone }

    /// The stored and displayed form, `NAME, PHONE`; `parse` reads it back to the same value.
    public var text: String { name + ", " + phone }

    /// Reads `NAME, PHONE`: a name (a label, see `TextField.label`) and a phone number of at most 40
    /// characters with 3 or more digits, made of digits, spaces and `+ - ( ) . / # *` (and `x` or
    /// `ext` before an extension). `field` names the option in messages.
    public static func parse(_ raw: String, field: String) throws -> PetContact {
        let t = try TextField.label(raw, field: field)
        guard let comma = t.lastIndex(of: ",") else { throw ParseError.badContact(field: field, value: raw) }
        let name = t[..<comma].trimmingCharacters(in: .whitespaces)
        let phone = t[t.index(after: comma)...].trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, isPhone(phone) else { throw ParseError.badContact(field: field, value: raw) }
        return PetContact(name: name, phone: phone)
    }

    /// Whether `s` reads as a telephone number (international or local, with an extension).
    public static func isPhone(_ s: String) -> Bool {
        guard s.count <= 40, s.unicodeScalars.filter({ ("0"..."9").contains($0) }).count >= 3 else { return false }
        var rest = s.lowercased()
        for ext in ["ext.", "ext", "x"] { rest = rest.replacingOccurrences(of: ext, with: " ") }
        return rest.unicodeScalars.allSatisfy { ("0"..."9").contains($0) || " +-()./#*".unicodeScalars.contains($0) }
    }
}

/// A pet's insurance: the insurer and the policy number, typed `"INSURER, POLICY"` (the policy is
/// what follows the last comma; without a comma the text is the insurer alone).
public struct PetInsurance: Equatable, Sendable, Codable {
    public var insurer: String
    public var policy: String?

    public init(insurer: String, policy: String? = nil) { self.insurer = insurer; self.policy = policy }

    public var text: String { policy.map { insurer + ", " + $0 } ?? insurer }

    public static func parse(_ raw: String) throws -> PetInsurance {
        let t = try TextField.label(raw, field: "insurance")
        guard let comma = t.lastIndex(of: ",") else { return PetInsurance(insurer: t) }
        let insurer = t[..<comma].trimmingCharacters(in: .whitespaces)
        let policy = t[t.index(after: comma)...].trimmingCharacters(in: .whitespaces)
        guard !insurer.isEmpty else { throw ParseError.emptyText(field: "insurance") }
        return PetInsurance(insurer: insurer, policy: policy.isEmpty ? nil : policy)
    }
}

/// What a vet (or a stranger who finds the pet) needs first, as data rather than free text: allergies,
/// chronic conditions, whom to call, and the insurance. The notes stay free text beside them.
public struct PetHealth: Equatable, Sendable, Codable {
    public var allergies: [String]
    public var conditions: [String]
    public var vetContact: PetContact?
    public var emergencyContacts: [PetContact]
    public var insurance: PetInsurance?

    public init(allergies: [String] = [], conditions: [String] = [], vetContact: PetContact? = nil,
                emergencyContacts: [PetContact] = [], insurance: PetInsurance? = nil) {
        self.allergies = allergies; self.conditions = conditions; self.vetContact = vetContact
        self.emergencyContacts = emergencyContacts; self.insurance = insurance
    }

    public var isEmpty: Bool { self == PetHealth() }

    /// At most this many allergies, conditions or emergency contacts per pet.
    public static let maximumItems = 20

    /// One allergy or condition as typed (a label: one line, at most 200 characters).
    public static func item(_ raw: String, field: String) throws -> String { try TextField.label(raw, field: field) }

    // MARK: Stored form
    // Each list is one text column, one item a line (labels hold no line breaks), NULL when empty; a
    // contact and the insurance are their `text`. Both stores and the CSV export use this form.

    public static func storedList(_ items: [String]) -> String? { items.isEmpty ? nil : items.joined(separator: "\n") }

    /// The items of a stored list; nil when a line is not what petlog writes (empty, a control
    /// character, too long, a repeat, too many).
    public static func parseList(_ text: String, field: String) -> [String]? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.count <= maximumItems else { return nil }
        var keys = Set<String>()
        for line in lines {
            guard let v = try? TextField.label(line, field: field), v == line, keys.insert(TextField.nameKey(v)).inserted else { return nil }
        }
        return lines
    }

    public static func parseContacts(_ text: String) -> [PetContact]? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.count <= maximumItems else { return nil }
        var contacts: [PetContact] = []
        for line in lines {
            guard let c = try? PetContact.parse(line, field: "emergency-contact"), c.text == line,
                  !contacts.contains(where: { TextField.nameKey($0.name) == TextField.nameKey(c.name) }) else { return nil }
            contacts.append(c)
        }
        return contacts
    }

    public static func parseContact(_ text: String) -> PetContact? {
        guard let c = try? PetContact.parse(text, field: "vet-contact"), c.text == text else { return nil }
        return c
    }

    public static func parseInsurance(_ text: String) -> PetInsurance? {
        guard let i = try? PetInsurance.parse(text), i.text == text else { return nil }
        return i
    }

    /// The facts from their stored form as an import file holds it: each item checked as the options
    /// check it (a repeat is kept once), with the option's own message for a bad one.
    public static func fromStored(allergies: String?, conditions: String?, vetContact: String?, emergencyContacts: String?,
                                  insurance: String?) throws -> PetHealth {
        func lines(_ text: String?) -> [String] { text.map { $0.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) } ?? [] }
        var edit = PetHealthEdit()
        edit.addAllergies = try lines(allergies).map { try item($0, field: "allergy") }
        edit.addConditions = try lines(conditions).map { try item($0, field: "condition") }
        edit.addEmergencyContacts = try lines(emergencyContacts).map { try PetContact.parse($0, field: "emergency-contact") }
        edit.vetContact = .some(try vetContact.map { try PetContact.parse($0, field: "vet-contact") })
        edit.insurance = .some(try insurance.map(PetInsurance.parse))
        return try edit.applied(to: PetHealth())
    }

    // MARK: Plain text

    /// The facts as plain lines (`Allergies: chicken, beef`), in the words `label` gives each heading.
    public func lines(_ label: (Heading) -> String) -> [String] {
        var out: [String] = []
        if !allergies.isEmpty { out.append(label(.allergies) + ": " + allergies.joined(separator: ", ")) }
        if !conditions.isEmpty { out.append(label(.conditions) + ": " + conditions.joined(separator: ", ")) }
        for c in emergencyContacts { out.append(label(.emergencyContact) + ": " + c.text) }
        if let v = vetContact { out.append(label(.vetContact) + ": " + v.text) }
        if let i = insurance { out.append(label(.insurance) + ": " + i.text) }
        return out
    }

    public enum Heading: Sendable { case allergies, conditions, emergencyContact, vetContact, insurance }
}

/// The changes `pet add`/`pet edit` make to the facts: items removed first, then items added (an item
/// already there, in any case or width, is not added twice), then contacts and insurance replaced.
public struct PetHealthEdit: Equatable, Sendable {
    public var addAllergies: [String] = []
    public var removeAllergies: [String] = []
    public var addConditions: [String] = []
    public var removeConditions: [String] = []
    /// `.some(nil)`: remove the vet contact.
    public var vetContact: PetContact?? = nil
    public var addEmergencyContacts: [PetContact] = []
    /// By name, or by the whole `NAME, PHONE`.
    public var removeEmergencyContacts: [String] = []
    public var insurance: PetInsurance?? = nil

    public init() {}

    public var isEmpty: Bool { self == PetHealthEdit() }

    /// `health` with the changes made; removing an item the pet does not have is refused (`notListed`).
    public func applied(to health: PetHealth) throws -> PetHealth {
        var h = health
        func edit(_ list: inout [String], remove: [String], add: [String], field: String) throws {
            for r in remove {
                let key = TextField.nameKey(r)
                guard let i = list.firstIndex(where: { TextField.nameKey($0) == key }) else { throw ParseError.notListed(field: field, value: r) }
                list.remove(at: i)
            }
            for a in add where !list.contains(where: { TextField.nameKey($0) == TextField.nameKey(a) }) { list.append(a) }
            if list.count > PetHealth.maximumItems { throw ParseError.tooManyItems(field: field, max: PetHealth.maximumItems) }
        }
        try edit(&h.allergies, remove: removeAllergies, add: addAllergies, field: "allergy")
        try edit(&h.conditions, remove: removeConditions, add: addConditions, field: "condition")
        for r in removeEmergencyContacts {
            let key = TextField.nameKey(r)
            guard let i = h.emergencyContacts.firstIndex(where: { TextField.nameKey($0.name) == key || TextField.nameKey($0.text) == key }) else {
                throw ParseError.notListed(field: "emergency-contact", value: r)
            }
            h.emergencyContacts.remove(at: i)
        }
        for c in addEmergencyContacts {
            // The same name again replaces that contact's phone.
            if let i = h.emergencyContacts.firstIndex(where: { TextField.nameKey($0.name) == TextField.nameKey(c.name) }) {
                h.emergencyContacts[i] = c
            } else {
                h.emergencyContacts.append(c)
            }
        }
        if h.emergencyContacts.count > PetHealth.maximumItems { throw ParseError.tooManyItems(field: "emergency-contact", max: PetHealth.maximumItems) }
        if let v = vetContact { h.vetContact = v }
        if let v = insurance { h.insurance = v }
        return h
    }
}
