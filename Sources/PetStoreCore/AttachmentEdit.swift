import Foundation
import PetFiles
import PetModel

/// What `edit ID --receipt/--photo/--attach FILE` and `--detach NAME|N` ask of a record's attachments.
public struct AttachmentEdit: Sendable, Equatable {
    /// Files to attach, as given (their paths).
    public var add: [String]
    /// Attachments to take off, as typed: the number `show ID` prints before them, or their name exactly.
    public var detach: [String]
    public init(add: [String] = [], detach: [String] = []) { self.add = add; self.detach = detach }
    public var isEmpty: Bool { add.isEmpty && detach.isEmpty }
}

/// What an `AttachmentEdit` did, for the command to say.
public struct AttachmentEditResult: Sendable, Equatable {
    /// Attachments added, with the positions they now have.
    public var added: [Attachment] = []
    /// Files given whose content the record already has: (the file as given, the attachment that has it).
    public var alreadyAttached: [Duplicate] = []
    /// Attachments taken off, as they were.
    public var detached: [Attachment] = []
    /// The SHA-256 of detached files no record refers to any more: set aside in the quarantine (never
    /// deleted), where `undo` takes them back from.
    public var setAside: [String] = []
    public init() {}

    public struct Duplicate: Sendable, Equatable {
        public var given: Attachment
        public var existing: Attachment
        public init(given: Attachment, existing: Attachment) { self.given = given; self.existing = existing }
    }
}

/// A record's files (`RecordsRepository.editRecord`), written once over the engine.
extension Store {
    /// The index in `list` (sorted by position) that `ref` names: a number from 1 to the count is the number
    /// `show` prints (it wins over a name made of digits), anything else an attachment's name exactly
    /// (canonically equal Unicode, so a decomposed Hangul name matches); nil when none.
    public static func attachmentIndex(_ ref: String, in list: [Attachment]) -> Int? {
        if !ref.isEmpty, ref.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let n = Int(ref), n >= 1, n <= list.count { return n - 1 }
        return list.firstIndex { $0.originalName == ref }
    }

    /// Applies `detach` (resolved against the attachments as they are, all before any change), then adds
    /// `add` at the end; a file whose content the record already has is not added twice. Positions stay
    /// dense (0, 1, 2, …) in their order. An unknown reference throws `attachmentNotOnRecord`, nothing changed.
    public func editAttachments(id: Int64, add: [Attachment], detach refs: [String]) throws -> AttachmentEditResult {
        let list = try record(id: id).attachments.sorted { $0.position < $1.position }
        var result = AttachmentEditResult()
        var gone = Set<Int>()
        for ref in refs {
            guard let i = Self.attachmentIndex(ref, in: list) else {
                throw StoreError.attachmentNotOnRecord(id: id, ref: ref, have: list.map(\.originalName))
            }
            gone.insert(i)
        }
        for i in gone.sorted() {
            try sql.execute("DELETE FROM attachment WHERE record_id = ? AND position = ?", [id, list[i].position])
            result.detached.append(list[i])
        }
        // Ascending, each to a free slot: the (record_id, position) key stays unique at every step.
        var kept: [Attachment] = []
        for (i, a) in list.enumerated() where !gone.contains(i) {
            var moved = a
            moved.position = kept.count
            if a.position != moved.position {
                try sql.execute("UPDATE attachment SET position = ? WHERE record_id = ? AND position = ?", [moved.position, id, a.position])
            }
            kept.append(moved)
        }
        for a in add {
            if let existing = kept.first(where: { $0.sha256 == a.sha256 }) {
                result.alreadyAttached.append(.init(given: a, existing: existing))
                continue
            }
            var new = a
            new.position = kept.count
            try insertAttachmentRow(new, recordId: id)
            kept.append(new)
            result.added.append(new)
        }
        var seen = Set<String>()
        for d in result.detached where seen.insert(d.sha256).inserted {
            if try sql.int("SELECT count(*) FROM attachment WHERE sha256 = ?", [d.sha256]) ?? 0 == 0 { result.setAside.append(d.sha256) }
        }
        return result
    }

    /// `updateRecord` and `editAttachments` in one write; the files added are stored as `addRecords` stores
    /// them, and detached files no record refers to any more are set aside in the quarantine, not deleted.
    public func editRecord(id: Int64, files: AttachmentEdit, _ change: (PetRecord) throws -> RecordUpdate) throws -> (record: PetRecord, files: AttachmentEditResult) {
        try write(storing: files.add) { s, attachment in
            // Only files (`edit 1 --receipt r1.jpg`): the record itself is not written, so a file it has
            // already changes nothing at all (no `updated_at`, no step for `undo`).
            let update = try change(try s.record(id: id))
            if !update.isEmpty { _ = try s.updateRecord(id: id) { _ in update } }
            var seen = Set<String>()
            // A file given twice (or two copies of one content) is one attachment, as when a record is added.
            var given: [Attachment] = []
            var twice: [AttachmentEditResult.Duplicate] = []
            for path in files.add {
                let a = try attachment(path)
                if seen.insert(a.sha256).inserted { given.append(a) } else if let first = given.first(where: { $0.sha256 == a.sha256 }) {
                    twice.append(.init(given: a, existing: first))
                }
            }
            var result = try s.editAttachments(id: id, add: given, detach: files.detach)
            // The second copy names the attachment the first became (or already was).
            for d in twice {
                let existing = result.added.first { $0.sha256 == d.existing.sha256 }
                    ?? result.alreadyAttached.first { $0.given.sha256 == d.existing.sha256 }?.existing ?? d.existing
                result.alreadyAttached.append(.init(given: d.given, existing: existing))
            }
            return ((try s.record(id: id), result), result.setAside)
        }
    }

    /// The file of the attachment `sha256` written to `path` (`OutputFile`: whole or not at all), a piece at
    /// a time; one the store does not hold is thrown.
    public func writeAttachment(sha256: String, to path: String) throws {
        try OutputFile.write(to: path) { sink in
            let read = try engine.readAttachment(sha256: sha256) { try sink.write($0) }
            if !read.held { throw StoreError.attachmentUnreadable(path: read.name) }
        }
    }
}
