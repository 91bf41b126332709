import Foundation
import Localization
import PetModel
import QRCode

/// A wallet emergency card with every string translated and formatted: the front's facts, the back's
/// contacts, and the plain text its QR code holds.
public struct EmergencyCard: Sendable, Equatable {
    /// One labelled fact: the label is drawn small above or beside the value. A value is never cut: the
    /// card's type shrinks, and a list that still does not fit the front continues on the back, item by item.
    public struct Row: Sendable, Equatable {
        public var label: String
        /// The label of the part of a list continued on the back ("Allergies (continued)").
        public var continuedLabel: String
        /// The value's items (allergies, medications), drawn joined with ", "; one item for a single fact.
        public var items: [String]
        /// Drawn in the alert colour (allergies).
        public var alert: Bool
        public init(label: String, continuedLabel: String? = nil, items: [String], alert: Bool = false) {
            self.label = label; self.continuedLabel = continuedLabel ?? label; self.items = items; self.alert = alert
        }
        public var value: String { items.joined(separator: ", ") }
        /// "—": the fact is not given.
        public var isPlaceholder: Bool { items == [EmergencyCard.none] }
    }

    /// What stands for a fact not given.
    public static let none = "—"

    public var name: String
    /// Species · breed · sex · age.
    public var subtitle: String
    public var front: [Row]
    /// The back's title line, with the pet's name, joined by the language's separator ("緊急連絡先・Coco").
    public var backTitle: String
    public var back: [Row]
    public var scanCaption: String
    /// What a phone shows when it reads the QR code.
    public var qrText: String
    /// BCP 47 tag of the card's language (Pango's font choice: Korean and Japanese in their own family).
    public var language: String
    /// The pet's profile photo (a PNG or JPEG file; nil: none, or another type), drawn at the front band's right.
    public var photoPath: String?

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

    public func card() -> EmergencyCard {
        let c = EmergencyCard.clean
        let h = pet.health
        let age = pet.born == nil ? "" : f.age(months: pet.ageInMonths(on: today))
        let subtitle = [wording.speciesName(pet.species), pet.breed.map(c), wording.sexLabel(pet), age]
            .compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: f.listSeparator)
            .capitalizingFirstLetter
        let none = EmergencyCard.none
        let meds = medications.map { c([$0.name, $0.dose].compactMap { $0 }.joined(separator: " ")) }
        let allergies = h.allergies.map(c), conditions = h.conditions.map(c)
        func row(_ label: String, _ items: [String], alert: Bool = false) -> EmergencyCard.Row {
            .init(label: label, continuedLabel: t(.cardContinued(label: label)), items: items.isEmpty ? [none] : items, alert: alert && !items.isEmpty)
        }
        let front: [EmergencyCard.Row] = [
            row(t(.colMicrochip), pet.microchip.map { [c($0)] } ?? []),
            row(t(.colAllergies), allergies, alert: true),
            row(t(.colConditions), conditions),
            row(t(.reportCurrentMeds), meds),
        ]
        var back: [EmergencyCard.Row] = []
        for e in h.emergencyContacts { back.append(row(t(.colEmergencyContact), [c(e.text)])) }
        if let v = h.vetContact { back.append(row(t(.colVetContact), [c(v.text)])) }
        if let i = h.insurance { back.append(row(t(.colInsurance), [c(i.text)])) }
        if back.isEmpty { back.append(row(t(.colEmergencyContact), [])) }
        return EmergencyCard(name: c(pet.name), subtitle: subtitle, front: front, backTitle: t(.cardBackTitle) + t(.listSeparator) + c(pet.name),
                             back: back, scanCaption: t(.cardScan), qrText: qrText(subtitle: subtitle, meds: meds),
                             language: f.l10n.language.rawValue)
    }

    /// The QR code's text: one fact a line, `Label: value`, only the facts given, every one of them whole
    /// (the renderer lets the symbol grow, or refuses the card: it never drops or shortens a line).
    func qrText(subtitle: String, meds: [String]) -> String {
        let c = EmergencyCard.clean
        let h = pet.health
        var lines = [c(pet.name)]
        if !subtitle.isEmpty { lines.append(subtitle) }
        if let chip = pet.microchip { lines.append(t(.colMicrochip) + ": " + c(chip)) }
        if !h.allergies.isEmpty { lines.append(t(.colAllergies) + ": " + h.allergies.map(c).joined(separator: ", ")) }
        if !h.conditions.isEmpty { lines.append(t(.colConditions) + ": " + h.conditions.map(c).joined(separator: ", ")) }
        if !meds.isEmpty { lines.append(t(.reportCurrentMeds) + ": " + meds.joined(separator: ", ")) }
        for e in h.emergencyContacts { lines.append(t(.colEmergencyContact) + ": " + c(e.text)) }
        if let v = h.vetContact { lines.append(t(.colVetContact) + ": " + c(v.text)) }
        if let i = h.insurance { lines.append(t(.colInsurance) + ": " + c(i.text)) }
        return lines.joined(separator: "\n")
    }
}

/// The card's QR symbol: error correction M, or L when M would make the modules smaller than the
/// preferred size (and L's would be larger); nil when neither has modules of at least the floor in the
/// largest square the back has room for.
enum CardQR {
    static func symbol(for text: String, maximumSide: Double) -> (code: QRCode, side: Double)? {
        var best: (code: QRCode, side: Double, module: Double)?
        for level in [QRCode.Correction.medium, .low] {
            guard let code = try? QRCode(text, correction: level) else { continue }
            let modules = Double(code.size + 2 * QRCode.quietZone)
            let side = min(maximumSide, max(CardGeometry.qrSide, modules * CardGeometry.preferredModule))
            let module = side / modules
            if module >= CardGeometry.preferredModule - 1e-9 { return (code, side) }
            if module >= CardGeometry.minimumModule - 1e-9, module > (best?.module ?? 0) { best = (code, side, module) }
        }
        return best.map { ($0.code, $0.side) }
    }

    /// The most bytes of text a symbol with modules of at least the floor holds in `maximumSide` (for the
    /// message that says how far over a text is).
    static func capacity(maximumSide: Double) -> Int {
        var low = 0, high = 3000
        while low < high {
            let mid = (low + high + 1) / 2
            if symbol(for: String(repeating: "a", count: mid), maximumSide: maximumSide) != nil { low = mid } else { high = mid - 1 }
        }
        return low
    }
}

extension String {
    /// "dog · Maltese" → "Dog · Maltese" (the word lists are lower case for running text; a card line starts a sentence).
    var capitalizingFirstLetter: String {
        guard let first = first else { return self }
        return String(first).uppercased() + dropFirst()
    }
}
