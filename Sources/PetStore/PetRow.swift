import Foundation
import GRDB
import PetModel

/// A row of `pet` as stored: the one way pets are written (`pet add`, imports, the demo) and read.
struct PetRow: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "pet"

    var id: Int64?
    var name: String
    var nameKey: String
    var species: String
    var breed: String?
    var sex: String
    var neutered: Bool
    var born: String?
    var microchip: String?
    var color: String?
    var notes: String?
    var archivedOn: String?
    var archiveReason: String?
    var createdAt: Int64
    var updatedAt: Int64

    enum CodingKeys: String, CodingKey {
        case id, name, nameKey = "name_key", species, breed, sex, neutered, born, microchip, color, notes
        case archivedOn = "archived_on", archiveReason = "archive_reason", createdAt = "created_at", updatedAt = "updated_at"
    }

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let name = Column(CodingKeys.name)
        static let nameKey = Column(CodingKeys.nameKey)
        static let species = Column(CodingKeys.species)
        static let born = Column(CodingKeys.born)
        static let archivedOn = Column(CodingKeys.archivedOn)
        static let archiveReason = Column(CodingKeys.archiveReason)
        static let updatedAt = Column(CodingKeys.updatedAt)
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    /// Read column by column: the synthesized `Decodable` path through GRDB's decoder cost a tenth of
    /// `pet list`'s whole process (the dynamic casts of its first use).
    init(row: Row) throws {
        id = try row.decode(forColumn: "id")
        name = try row.decode(forColumn: "name")
        nameKey = try row.decode(forColumn: "name_key")
        species = try row.decode(forColumn: "species")
        breed = try row.decode(forColumn: "breed")
        sex = try row.decode(forColumn: "sex")
        neutered = try row.decode(forColumn: "neutered")
        born = try row.decode(forColumn: "born")
        microchip = try row.decode(forColumn: "microchip")
        color = try row.decode(forColumn: "color")
        notes = try row.decode(forColumn: "notes")
        archivedOn = try row.decode(forColumn: "archived_on")
        archiveReason = try row.decode(forColumn: "archive_reason")
        createdAt = try row.decode(forColumn: "created_at")
        updatedAt = try row.decode(forColumn: "updated_at")
    }

    init(id: Int64? = nil, name: String, species: Species, breed: String?, sex: Sex, neutered: Bool, born: PartialDate?,
         microchip: String?, color: String?, notes: String?, archivedOn: LocalDate? = nil, archiveReason: ArchiveReason? = nil,
         createdAt: Int64, updatedAt: Int64) {
        self.id = id; self.name = name; self.nameKey = TextField.nameKey(name); self.species = species.rawValue; self.breed = breed
        self.sex = sex.rawValue; self.neutered = neutered; self.born = born?.description; self.microchip = microchip
        self.color = color; self.notes = notes; self.archivedOn = archivedOn?.description; self.archiveReason = archiveReason?.rawValue
        self.createdAt = createdAt; self.updatedAt = updatedAt
    }
}
