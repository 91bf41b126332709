import Foundation
import XCTest
import Localization
import PetModel
import PetStoreCore
@testable import PetViews

/// `show ID`'s fields of a kind after the eleven shipped ones come from its descriptor alone (issue 43, step 1):
/// each member, in its columns' order, under the label the descriptor names, worded by what its value is.
final class RecordDetailPresenterTests: XCTestCase {
    let now = Date(timeIntervalSince1970: 1_795_395_600)

    func context(_ language: Language) -> PresentationContext {
        let time = TimeContext(now: now, timeZone: TimeZone(identifier: "Asia/Seoul") ?? .current)
        let l10n = L10n(language), format = ValueFormatter(l10n, unitSystem: .metric)
        return PresentationContext(screen: TextScreen(colors: false, columns: 80), l10n: l10n, format: format,
                                   wording: RecordWording(format, time: time), time: time, weekStartsOnSunday: false)
    }

    /// A value for every column of every member of `kind`, chosen by what the member's value is.
    func filled(_ kind: RecordKind) throws -> RecordDetail {
        let table = RecordKindTable.of(kind)
        var columns: [String: SQLValue] = [:]
        for m in try XCTUnwrap(table.members, "\(kind)") {
            switch m.value {
            case .text: columns[m.columns[0]] = .text("Kim's")
            case .day: columns[m.columns[0]] = .text("2027-01-05")
            case .money: columns[m.columns[0]] = .int(1250); columns[m.columns[1]] = .text("USD")
            case .codes(let group):
                let codes = try XCTUnwrap(L10n.CodeGroup(rawValue: group).flatMap { L10n.requiredCodes[$0] }, "\(kind) \(m.key): no code group \(group)")
                columns[m.columns[0]] = .text(codes.prefix(2).joined(separator: ","))
            case .meters: columns[m.columns[0]] = .int(3200)
            case .minutes: columns[m.columns[0]] = .int(70)
            }
        }
        return try table.detail(columns)
    }

    /// Every later kind: its fields between the header (kind, pet, when) and the note are exactly its
    /// descriptor's members, in order, each under its label in every language, none left empty.
    func testALaterKindShowsExactlyItsDescriptorsMembers() throws {
        let later = RecordKindTable.all.filter { $0.members != nil }
        XCTAssertEqual(later.map(\.kind), [.grooming, .walk])
        for table in later {
            let detail = try filled(table.kind)
            let record = PetRecord(id: 1, petId: 1, petName: "Coco", at: now, utcOffset: 32_400, note: "n", starred: false, createdAt: now, updatedAt: now,
                                   detail: detail)
            for language in Language.allCases {
                let l10n = L10n(language)
                let labels = try (table.members ?? []).map { m in try XCTUnwrap(l10n.text(key: m.label), "\(table.kind) \(m.key): no string \(m.label)") }
                let fields = RecordDetailPresenter(context(language)).fields(record)
                // kind, pet, when; the members; then note, starred, created, updated.
                XCTAssertEqual(fields.count, 3 + labels.count + 4, "\(table.kind) \(language)")
                XCTAssertEqual(fields.dropFirst(3).prefix(labels.count).map(\.0), labels, "\(table.kind) \(language)")
                XCTAssertTrue(fields.dropFirst(3).prefix(labels.count).allSatisfy { !$0.1.isEmpty }, "\(table.kind) \(language)")
            }
        }
    }

    /// The words of each value form, as the shipped kinds word the same values.
    func testTheMembersAreWordedAsTheOtherViewsWordThem() throws {
        let c = context(.en)
        let grooming = RecordDetailPresenter(c).memberFields(try filled(.grooming))
        XCTAssertEqual(grooming.map(\.0), ["tasks", "groomer", "cost", "next due date"])
        XCTAssertEqual(grooming.map(\.1), ["bath, haircut", "Kim's", c.format.money(Money(minorUnits: 1250, currency: try XCTUnwrap(Currency.named("USD")))),
                                           c.format.longDate(LocalDate(clamping: 2027, month: 1, day: 5))])
        XCTAssertEqual(RecordDetailPresenter(c).memberFields(try filled(.walk)).map(\.1), [c.wording.distance(3200), c.wording.hoursAndMinutes(70)])
        // An empty member is left out, as the shipped kinds leave out an empty field.
        XCTAssertEqual(RecordDetailPresenter(c).memberFields(.walk(Walk(meters: nil, minutes: 45))).map(\.0), ["duration"])
        XCTAssertTrue(RecordDetailPresenter(c).memberFields(.grooming(Grooming())).isEmpty)
    }
}
