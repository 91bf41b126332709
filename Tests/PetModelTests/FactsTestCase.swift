import Foundation
import XCTest
@testable import PetModel

/// Records built by hand in Seoul time, for the facts tests.
class FactsTestCase: XCTestCase {
    let seoul = TimeZone(identifier: "Asia/Seoul")!
    /// 2026-11-23 10:00 KST, a Monday.
    var ctx: TimeContext { TimeContext(now: Date(timeIntervalSince1970: 1_795_395_600), timeZone: seoul) }
    var nextID: Int64 = 100

    func pet(_ id: Int64, _ name: String, _ species: Species = .dog, born: PartialDate? = nil, archivedOn: LocalDate? = nil) -> Pet {
        Pet(id: id, name: name, species: species, born: born, archivedOn: archivedOn, createdAt: Date(), updatedAt: Date())
    }

    func instant(_ text: String) -> Date { try! TimeParser.instant(text, context: ctx) }
    func day(_ text: String) -> LocalDate { LocalDate.parseISO(Substring(text))! }

    func rec(_ pet: Int64?, _ at: String, _ detail: RecordDetail, name: String? = nil, starred: Bool = false) -> PetRecord {
        nextID += 1
        let date = instant(at)
        return PetRecord(id: nextID, petId: pet, petName: name, at: date, utcOffset: 32_400, note: nil, starred: starred,
                         createdAt: date, updatedAt: date, detail: detail)
    }

    func symptom(_ code: String, _ severity: Int, listed: Bool = true) -> RecordDetail {
        .symptom(Symptom(code: code, isListed: listed, severity: SymptomSeverity(severity)!))
    }

    func expense(_ minor: Int64, _ currency: String, _ category: String) -> RecordDetail {
        .expense(Expense(money: Money(minorUnits: minor, currency: Currency.named(currency)!), category: category))
    }
}
