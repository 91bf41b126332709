import Foundation
import Localization
import PetModel
import QRCode

/// A wallet emergency card with every string translated and formatted: the front's facts, the back's
/// contacts, and the plain text its QR code holds.
public struct EmergencyCard: Sendable, Equatable {
    /// One labelled fact: the label is drawn small above or beside the value.
    public struct Row: Sendable, Equatable {
        public var label: String
        public var value: String
        /// At most this many lines on the card; what goes on ends with "…".
        public var maxLines: Int
        /// Drawn in the alert colour (allergies).
        public var alert: Bool
        public init(label: String, value: String, maxLines: Int, alert: Bool = false) {
            self.label = label; self.value = value; self.maxLines = maxLines; self.alert = alert
        }
    }

    public var name: String
    /// Species · breed · sex · age.
    public var subtitle: String
    public var front: [Row]
    public var backTitle: String
    public var back: [Row]
    public var scanCaption: String
    /// What a phone shows when it reads the QR code.
    public var qrText: String
    /// BCP 47 tag of the card's language (Pango's font choice: Korean and Japanese in their own family).
    public var language: String

    public init(name: String, subtitle: String, front: [Row], backTitle: String, back: [Row],
                scanCaption: String, qrText: String, language: String) {
        self.name = name; self.subtitle = subtitle; self.front = front; self.backTitle = backTitle; self.back = back
        self.scanCaption = scanCaption; self.qrText = qrText; self.language = language
    }

    /// A value as it may be drawn or encoded: control characters and the bidirectional overrides that
    /// would reorder the rest of a line become spaces; the rest (Hangul, emoji with their joiners) stays.
    public static func clean(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for u in text.unicodeScalars {
            let v = u.value
            let control = u.properties.generalCategory == .control || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v)
                || v == 0x2028 || v == 0x2029
            out.append(control ? " " : u)
        }
        return String(out)
    }
}

/// Turns a pet and its current medications into an `EmergencyCard` in the formatter's language.
public struct EmergencyCardComposer {
    let f: ValueFormatter
    let pet: Pet
    let medications: [Medication]
    let today: LocalDate
    let wording: RecordWording

    /// `medications`: the active courses (as `med list` shows them), oldest first; `today` the day the age is counted to.
    public init(format: ValueFormatter, wording: RecordWording, pet: Pet, medications: [Medication], today: LocalDate) {
        self.f = format; self.wording = wording; self.pet = pet; self.medications = medications; self.today = today
    }

    func t(_ m: L10n.Message) -> String { f.l10n.text(m) }

    /// The largest QR version the card prints with modules of at least 0.4 mm (see `CardGeometry`).
    public static var maximumQRVersion: Int { CardGeometry.maximumQRVersion }

    public func card() -> EmergencyCard {
        let c = EmergencyCard.clean
        let h = pet.health
        let age = pet.born == nil ? "" : f.age(months: pet.ageInMonths(on: today))
        let subtitle = [wording.speciesName(pet.species), pet.breed.map(c), wording.sexLabel(pet), age]
            .compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: f.listSeparator)
            .capitalizingFirstLetter
        let none = "—"
        let meds = medications.map { c([$0.name, $0.dose].compactMap { $0 }.joined(separator: " ")) }
        let allergies = h.allergies.map(c), conditions = h.conditions.map(c)
        let front: [EmergencyCard.Row] = [
            .init(label: t(.colMicrochip), value: pet.microchip.map(c) ?? none, maxLines: 1),
            .init(label: t(.colAllergies), value: allergies.isEmpty ? none : allergies.joined(separator: ", "), maxLines: 2, alert: !allergies.isEmpty),
            .init(label: t(.colConditions), value: conditions.isEmpty ? none : conditions.joined(separator: ", "), maxLines: 2),
            .init(label: t(.reportCurrentMeds), value: meds.isEmpty ? none : meds.joined(separator: ", "), maxLines: 3),
        ]
        var back: [EmergencyCard.Row] = []
        for e in h.emergencyContacts { back.append(.init(label: t(.colEmergencyContact), value: c(e.text), maxLines: 2)) }
        if let v = h.vetContact { back.append(.init(label: t(.colVetContact), value: c(v.text), maxLines: 2)) }
        if let i = h.insurance { back.append(.init(label: t(.colInsurance), value: c(i.text), maxLines: 1)) }
        if back.isEmpty {
            back.append(.init(label: t(.colEmergencyContact), value: none, maxLines: 1))
        }
        return EmergencyCard(name: c(pet.name), subtitle: subtitle, front: front, backTitle: t(.cardBackTitle),
                             back: back, scanCaption: t(.cardScan), qrText: qrText(subtitle: subtitle, meds: meds),
                             language: f.l10n.language.rawValue)
    }

    /// The QR code's text: one fact a line, `Label: value`, only the facts given; cut down (least needed
    /// lines first, then the longest line shortened with "…") until it fits the largest symbol the card
    /// prints scannably.
    func qrText(subtitle: String, meds: [String]) -> String {
        let c = EmergencyCard.clean
        let h = pet.health
        // (priority: lower is kept longer, line)
        var lines: [(priority: Int, text: String)] = [(0, c(pet.name))]
        if !subtitle.isEmpty { lines.append((7, subtitle)) }
        if let chip = pet.microchip { lines.append((2, t(.colMicrochip) + ": " + c(chip))) }
        if !h.allergies.isEmpty { lines.append((1, t(.colAllergies) + ": " + h.allergies.map(c).joined(separator: ", "))) }
        if !h.conditions.isEmpty { lines.append((5, t(.colConditions) + ": " + h.conditions.map(c).joined(separator: ", "))) }
        if !meds.isEmpty { lines.append((6, t(.reportCurrentMeds) + ": " + meds.joined(separator: ", "))) }
        for (i, e) in h.emergencyContacts.enumerated() { lines.append((i == 0 ? 1 : 4, t(.colEmergencyContact) + ": " + c(e.text))) }
        if let v = h.vetContact { lines.append((2, t(.colVetContact) + ": " + c(v.text))) }
        if let i = h.insurance { lines.append((8, t(.colInsurance) + ": " + c(i.text))) }
        return Self.fitting(lines, maximumVersion: Self.maximumQRVersion)
    }

    /// The lines joined, with lines dropped (highest priority number first, later lines first among
    /// equals) and then the longest shortened, until the text encodes in a symbol no larger than
    /// `maximumVersion` (error correction M, else L).
    static func fitting(_ lines: [(priority: Int, text: String)], maximumVersion: Int) -> String {
        var lines = lines.map { (priority: $0.priority, text: Self.shortened($0.text, to: 160)) }
        func fits(_ text: String) -> Bool { CardQR.symbol(for: text, maximumVersion: maximumVersion) != nil }
        while true {
            let text = lines.map(\.text).joined(separator: "\n")
            if fits(text) { return text }
            if lines.count > 1, let worst = lines.indices.dropFirst().max(by: { (lines[$0].priority, $0) < (lines[$1].priority, $1) }),
               lines[worst].priority > 2 {
                lines.remove(at: worst)
                continue
            }
            guard let longest = lines.indices.max(by: { (lines[$0].text.count, -$0) < (lines[$1].text.count, -$1) }),
                  lines[longest].text.count > 8 else { return String(text.prefix(20)) }
            lines[longest].text = Self.shortened(lines[longest].text, to: lines[longest].text.count * 4 / 5)
        }
    }

    /// `text` cut to at most `count` characters, the last being "…".
    static func shortened(_ text: String, to count: Int) -> String {
        text.count <= count ? text : String(text.prefix(max(1, count - 1))) + "…"
    }
}

/// The card's QR symbol: error correction M where it fits the size, else L.
enum CardQR {
    static func symbol(for text: String, maximumVersion: Int) -> QRCode? {
        for level in [QRCode.Correction.medium, .low] {
            if let code = try? QRCode(text, correction: level), code.version <= maximumVersion { return code }
        }
        return nil
    }
}

extension String {
    /// "dog · Maltese" → "Dog · Maltese" (the word lists are lower case for running text; a card line starts a sentence).
    var capitalizingFirstLetter: String {
        guard let first = first else { return self }
        return String(first).uppercased() + dropFirst()
    }
}
