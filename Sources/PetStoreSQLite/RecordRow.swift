import Foundation
import GRDB
import PetModel
import PetStoreCore

/// A row of `record`, the header every kind shares (its detail is in the kind's own table, see `RecordDetailTables`).
struct RecordRow: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "record"

    var id: Int64?
    var petId: Int64?
    var kind: String
    var at: Int64
    var utcOffset: Int
    var note: String?
    var starred: Bool
    var createdAt: Int64
    var updatedAt: Int64

    enum CodingKeys: String, CodingKey {
        case id, petId = "pet_id", kind, at, utcOffset = "utc_offset", note, starred, createdAt = "created_at", updatedAt = "updated_at"
    }

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let petId = Column(CodingKeys.petId)
        static let kind = Column(CodingKeys.kind)
        static let at = Column(CodingKeys.at)
        static let utcOffset = Column(CodingKeys.utcOffset)
        static let note = Column(CodingKeys.note)
        static let starred = Column(CodingKeys.starred)
        static let updatedAt = Column(CodingKeys.updatedAt)
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// A row of `attachment`: one file of a record, by SHA-256 (the file itself is in the attachment folder).
struct AttachmentRow: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "attachment"

    var id: Int64?
    var recordId: Int64
    var position: Int
    var sha256: String
    var originalName: String
    var mediaType: String
    var size: Int64

    enum CodingKeys: String, CodingKey {
        case id, recordId = "record_id", position, sha256, originalName = "original_name", mediaType = "media_type", size
    }

    enum Columns {
        static let recordId = Column(CodingKeys.recordId)
        static let position = Column(CodingKeys.position)
    }

    init(_ a: Attachment, record: Int64) {
        id = nil; recordId = record; position = a.position; sha256 = a.sha256; originalName = a.originalName; mediaType = a.mediaType; size = a.size
    }

    var attachment: Attachment { Attachment(sha256: sha256, originalName: originalName, mediaType: mediaType, size: size, position: position) }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}
