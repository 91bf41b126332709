import Foundation
import PetModel

/// `due --json`: one item of what is due, with its kind's own keys.
public struct DueItemJSON: JSONObjectView {
    public let item: DueItem
    public let context: TimeContext
    public init(_ item: DueItem, context: TimeContext) { self.item = item; self.context = context }

    func write(_ c: inout KeyedEncodingContainer<JSONKey>) throws {
        let i = item, time = context
        try c.put("pet_id", i.petId); try c.put("pet", i.petName); try c.put("due_on", i.dueDay.description); try c.put("overdue", i.isOverdue(time))
        try c.put("uid", i.uid); try c.put("due_at", i.dueAt.map { JSONView.instant($0, offset: time.utcOffset(at: $0)) })
        try c.put("last_done", i.lastDone.map { JSONView.instant($0, offset: i.lastDoneOffset ?? time.utcOffset(at: $0)) })
        switch i.kind {
        case .vaccine(let code): try c.put("kind", "vaccine"); try c.put("vaccine", code); try c.put("first_dose", i.neverRecorded)
        case .medication(let name, let id): try c.put("kind", "dose"); try c.put("medication", name); try c.put("medication_id", id)
        case .followUp(let id, let reason): try c.put("kind", "follow_up"); try c.put("visit_id", id); try c.put("reason", reason)
        case .nextSession(let id, let kind): try c.put("kind", "next_" + kind.rawValue); try c.put("record_id", id)
        }
    }
}

/// `calendar --json`: each day of the month with how many records of each kind.
public struct CalendarJSON: Encodable {
    public struct Day: Encodable {
        public let date: String
        public let kinds: [String: Int]
    }
    public let month: String
    public let days: [Day]
    public init(month: LocalDate, days: [LocalDate], marks: [LocalDate: [RecordKind: Int]]) {
        self.month = JSONView.month(month)
        self.days = days.map { d in
            Day(date: d.description, kinds: (marks[d] ?? [:]).reduce(into: [String: Int]()) { $0[$1.key.rawValue] = $1.value })
        }
    }
}
