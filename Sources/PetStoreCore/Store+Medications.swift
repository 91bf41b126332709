import Foundation
import PetFiles
import PetModel

/// Medication courses and their doses (`CareRepository`), written once over the engine.
extension Store {
    /// The kinds `due` reads (`careRecords`), as the WHERE term of SQLite's `record_care` index (schema v17): SQLite
    /// uses a partial index only for a query that has its term word for word. The kinds that ask for a next session
    /// (a `--next` day) come from their descriptors, in the table's order; a new one changes the term, and so
    /// needs the index made again in a migration (`RepositoryTests.testCareRecordsAreReadFromTheirIndexes` fails until then).
    static let careKinds = "(" + (["vaccination", "medication", "dose", "visit"] + RecordKindTable.all.compactMap { k in k.nextSession.map { _ in k.table } })
        .map { "r.kind = '\($0)'" }.joined(separator: " OR ") + ")"

    public func careRecords(pets ids: [Int64]) throws -> [PetRecord] {
        try read { s in
            guard !ids.isEmpty else { return [] }
            let list = questionMarks(ids.count)
            // Kinds that ask for a next session (a grooming's `--next`): their records, of pets that have one.
            let sessionKinds = RecordKindTable.all.compactMap { k in k.nextSession.map { (k.table, $0) } }
            let sessions = sessionKinds.map { table, column in """
                 OR (r.kind = '\(table)' AND r.pet_id IN (
                    SELECT f.pet_id FROM \(table) d JOIN record f ON f.id = d.record_id WHERE d.\(column) IS NOT NULL))
                """ }.joined()
            // The headers from SQLite's `record_care` alone: a seek per kind and pet, no rowid lookup in `record`, and
            // no sort (a third of SQLite's time for the shelter's headers): `CareAgenda.items` orders each pet's.
            return try s.loadRecords("""
                WHERE \(Self.careKinds) AND r.pet_id IN (\(list)) AND (r.kind IN ('vaccination', 'medication', 'dose')
                  OR (r.kind = 'visit' AND r.pet_id IN (
                    SELECT f.pet_id FROM visit v JOIN record f ON f.id = v.record_id WHERE v.follow_up IS NOT NULL))\(sessions))
                """, ids)
        }
    }

    /// Courses of the pets; without `includeStopped`, only those running at `activeAt` (nil: now):
    /// a course stopped or past its `--until` day is finished.
    public func medications(pets refs: [PetRef], includeStopped: Bool, activeAt: Date?) throws -> [MedicationCourse] {
        try read { s in
            let context = TimeContext(now: s.now(), timeZone: .current)
            let moment = activeAt ?? context.now
            var clause = "WHERE r.kind = 'medication'"
            var args: [any SQLBindable] = []
            if !refs.isEmpty {
                let ids = try refs.map { try s.resolve($0).id }
                clause += " AND r.pet_id IN (\(questionMarks(ids.count)))"
                args += ids
            }
            if !includeStopped { clause += " AND r.id IN (SELECT record_id FROM medication WHERE stopped_at IS NULL)" }
            clause += " ORDER BY p.name_key, r.at"
            return try s.loadRecords(clause, args).compactMap { r in
                guard case .medication(let m) = r.detail else { return nil }
                if !includeStopped && !CareAgenda.isActive(m, at: moment, context: context) { return nil }
                let row = try s.sql.row("""
                    SELECT count(*) AS n, max(r.at) AS last FROM dose d JOIN record r ON r.id = d.record_id
                    WHERE d.medication_id = ? AND d.skipped = 0
                    """, [r.id])
                return MedicationCourse(record: r, medication: m, dosesGiven: Int(row?[0].int ?? 0),
                                        lastDose: row?[1].int.map { Date(timeIntervalSince1970: Double($0)) })
            }
        }
    }

    /// The course running at `at` that `name` names: an exact name wins; else a prefix of exactly one
    /// course's name (several: refused with the candidates, never a silent pick).
    func activeCourse(pet: Pet, name: String, at: Date? = nil) throws -> MedicationCourse {
        let key = TextField.nameKey(name)
        let matches = try medications(pets: [.id(pet.id)], includeStopped: false, activeAt: at)
        if let exact = matches.last(where: { TextField.nameKey($0.medication.name) == key }) { return exact }
        let prefixed = matches.filter { TextField.nameKey($0.medication.name).hasPrefix(key) }
        if prefixed.count > 1 {
            throw StoreError.ambiguousMedication(pet: pet.name, name: name, candidates: prefixed.map(\.medication.name))
        }
        if let prefix = prefixed.first { return prefix }
        throw StoreError.medicationNotFound(pet: pet.name, name: name)
    }

    public func giveMedication(pets refs: [PetRef], name: String, at: Date, utcOffset: Int, note: String?, skipped: Bool) throws -> [PetRecord] {
        try write { s in
            var ids: [Int64] = []
            for ref in refs {
                let pet = try s.resolve(ref, activeOnly: true)
                let course = try s.activeCourse(pet: pet, name: name, at: at)
                let draft = RecordDraft(at: at, utcOffset: utcOffset, note: note,
                                        detail: .dose(Dose(medicationId: course.record.id, medicationName: course.medication.name, skipped: skipped)))
                ids.append(try s.insert(draft, petId: pet.id, attachments: []))
            }
            return try ids.map { try s.record(id: $0) }
        }
    }

    public func stopMedication(pet ref: PetRef, name: String, at: Date) throws -> PetRecord {
        try write { s in
            let pet = try s.resolve(ref)
            let course = try s.activeCourse(pet: pet, name: name, at: min(at, s.now()))
            try s.sql.execute("UPDATE medication SET stopped_at = ? WHERE record_id = ?", [at.unixSeconds(), course.record.id])
            try s.sql.execute("UPDATE record SET updated_at = ? WHERE id = ?", [s.nowSeconds, course.record.id])
            return try s.record(id: course.record.id)
        }
    }
}
