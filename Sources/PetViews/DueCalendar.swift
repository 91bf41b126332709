import Foundation
import Localization
import PetModel

/// `due --ics`'s iCalendar (an event a due item, with an alarm), written once for the CLI's file and
/// `petlog serve`'s calendar feed (`/feeds/TOKEN.ics`).
public enum DueCalendar {
    public static func document(_ items: [DueItem], _ p: PresentationContext) -> String {
        let events = items.map { i in
            ICalendar.Event(uid: i.uid, summary: p.t(.icsSummary(pet: i.petName, what: p.wording.dueWhat(i))),
                            description: i.lastDoneDay(p.time).map { p.t(.icsLastDone(date: $0.description)) },
                            day: i.dueAt == nil ? i.dueDay : nil, start: i.dueAt)
        }
        return ICalendar.document(events, stamp: p.time.now)
    }
}
