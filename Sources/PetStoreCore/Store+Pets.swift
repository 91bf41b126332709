import Crypto
import Foundation
import PetFiles
import PetModel

/// The pets of a household (`PetsRepository`), written once over the engine.
extension Store {
    public static let petColumns = "id, name, name_key, species, breed, sex, neutered, born, microchip, color, notes, archived_on, archive_reason, created_at, updated_at, allergies, conditions, vet_contact, emergency_contacts, insurance, photo_type, photo_size, photo_sha256"

    /// The pet a row of `pet` describes; a value petlog never writes is thrown as `InvalidStoredValue`, never replaced.
    public static func pet<R: StoredRow>(_ row: R) throws -> Pet {
        let id = row.int64("id") ?? 0
        func parsed<T>(_ column: String, _ parse: (String) -> T?) throws -> T { try row.decode(column, table: "pet", id: id, parse) }
        func optional<T>(_ column: String, _ parse: (String) -> T?) throws -> T? { try row.decodeIfPresent(column, table: "pet", id: id, parse) }
        func seconds(_ column: String) throws -> Date {
            Date(timeIntervalSince1970: Double(try row.required(row.int64(column), column, table: "pet", id: id)))
        }
        return Pet(id: id, name: try row.required(row.text("name"), "name", table: "pet", id: id),
                   species: try parsed("species", Species.init(rawValue:)), breed: row.text("breed"),
                   sex: try parsed("sex", Sex.init(rawValue:)), neutered: try row.required(row.bool("neutered"), "neutered", table: "pet", id: id),
                   born: try optional("born") { try? PartialDate.parse($0) }, microchip: row.text("microchip"),
                   color: row.text("color"), notes: row.text("notes"),
                   archivedOn: try optional("archived_on") { LocalDate.parseISO(Substring($0)) },
                   archiveReason: try optional("archive_reason", ArchiveReason.init(rawValue:)),
                   health: PetHealth(allergies: try optional("allergies") { PetHealth.parseList($0, field: "allergy") } ?? [],
                                     conditions: try optional("conditions") { PetHealth.parseList($0, field: "condition") } ?? [],
                                     vetContact: try optional("vet_contact", PetHealth.parseContact),
                                     emergencyContacts: try optional("emergency_contacts", PetHealth.parseContacts) ?? [],
                                     insurance: try optional("insurance", PetHealth.parseInsurance)),
                   createdAt: try seconds("created_at"), updatedAt: try seconds("updated_at"),
                   photo: try optional("photo_type") { $0 }.map { type in
                       PetPhoto(mediaType: type, size: row.int64("photo_size") ?? 0, sha256: row.text("photo_sha256") ?? "")
                   })
    }

    /// The pets `clause` keeps, in this store's transaction.
    public func pets(where clause: String, _ arguments: [any SQLBindable]) throws -> [Pet] {
        try sql.rows("SELECT \(Self.petColumns) FROM pet \(clause)", arguments).map(Self.pet)
    }

    /// Finds a pet by id, or by name among active pets first, then archived ones; suggests a close name.
    public func pet(_ ref: PetRef) throws -> Pet {
        try read { s in
            switch ref {
            case .id(let id):
                guard let pet = try s.pets(where: "WHERE id = ?", [id]).first else {
                    throw StoreError.petNotFound(String(id), suggestion: nil)
                }
                return pet
            case .name(let name):
                let found = try s.pets(where: "WHERE name_key = ? ORDER BY archived_on IS NOT NULL, archived_on DESC, id DESC", [TextField.nameKey(name)])
                if let pet = found.first {
                    let active = found.filter { !$0.isArchived }
                    if active.count > 1 {
                        throw StoreError.ambiguousPetName(name, candidates: active.map { "#\($0.id) \($0.species.rawValue)\($0.born.map { " \($0)" } ?? "")" })
                    }
                    return pet
                }
                let names = try s.sql.rows("SELECT name FROM pet ORDER BY archived_on IS NOT NULL, id", [SQLValue]()).compactMap { $0[0].text }
                throw StoreError.petNotFound(name, suggestion: NameSuggestion.closest(to: name, among: names))
            }
        }
    }

    /// The pet `ref` names (`pet(_:)`); with `activeOnly`, an archived one is refused.
    public func resolve(_ ref: PetRef, activeOnly: Bool = false) throws -> Pet {
        let pet = try pet(ref)
        if activeOnly && pet.isArchived { throw StoreError.petArchived(pet.name) }
        return pet
    }

    /// The active pet whose name folds to the same key as `name`, if any: (id, name).
    func activePet(named name: String) throws -> (id: Int64, name: String)? {
        guard let row = try sql.row("SELECT id, name FROM pet WHERE name_key = ? AND archived_on IS NULL ORDER BY id LIMIT 1", [TextField.nameKey(name)]),
              let id = row[0].int, let n = row[1].text else { return nil }
        return (id, n)
    }

    public func addPet(_ draft: PetDraft) throws -> Pet {
        try write { s in
            guard let name = draft.name, let species = draft.species else { throw StoreError.constraint("name and species are required") }
            if let existing = try s.activePet(named: name) { throw StoreError.duplicatePetName(existing.name) }
            let t = s.nowSeconds
            let health = try draft.health.applied(to: PetHealth())
            let stored = Self.storedHealth(health)
            let id = try s.sql.insertReturningId("""
                INSERT INTO pet (name, name_key, species, breed, sex, neutered, born, microchip, color, notes, created_at, updated_at,
                                 allergies, conditions, vet_contact, emergency_contacts, insurance)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, [name, TextField.nameKey(name), species.rawValue, draft.breed ?? nil, (draft.sex ?? .unknown).rawValue, draft.neutered ?? false,
                      (draft.born ?? nil)?.description, draft.microchip ?? nil, draft.color ?? nil, draft.notes ?? nil, t, t] + stored)
            return try s.pet(.id(id))
        }
    }

    public func pets(includeArchived: Bool) throws -> [Pet] {
        try read { s in
            try s.sql.rows("SELECT \(Self.petColumns) FROM pet \(includeArchived ? "" : "WHERE archived_on IS NULL ")ORDER BY archived_on IS NOT NULL, name_key, id",
                           [SQLValue]()).map(Self.pet)
        }
    }

    /// Writes every field of `pet` back.
    func store(_ pet: Pet) throws {
        try sql.execute("""
            UPDATE pet SET name = ?, name_key = ?, species = ?, breed = ?, sex = ?, neutered = ?, born = ?, microchip = ?, color = ?,
                           notes = ?, archived_on = ?, archive_reason = ?, updated_at = ?,
                           allergies = ?, conditions = ?, vet_contact = ?, emergency_contacts = ?, insurance = ? WHERE id = ?
            """, [pet.name, TextField.nameKey(pet.name), pet.species.rawValue, pet.breed, pet.sex.rawValue, pet.neutered, pet.born?.description,
                  pet.microchip, pet.color, pet.notes, pet.archivedOn?.description, pet.archiveReason?.rawValue, nowSeconds] + Self.storedHealth(pet.health) + [pet.id])
    }

    /// The values of the columns `allergies, conditions, vet_contact, emergency_contacts, insurance`.
    public static func storedHealth(_ h: PetHealth) -> [any SQLBindable] {
        [PetHealth.storedList(h.allergies), PetHealth.storedList(h.conditions), h.vetContact?.text,
         PetHealth.storedList(h.emergencyContacts.map(\.text)), h.insurance?.text]
    }

    public func editPet(_ ref: PetRef, _ draft: PetDraft) throws -> Pet { try editPet(ref, draft, photo: nil) }

    public func editPet(_ ref: PetRef, _ draft: PetDraft, photo: PetPhotoChange?) throws -> Pet {
        try write { s in
            var pet = try s.pet(ref)
            if let n = draft.name {
                if !pet.isArchived, let other = try s.activePet(named: n), other.id != pet.id { throw StoreError.duplicatePetName(n) }
                pet.name = n
            }
            if let v = draft.species { pet.species = v }
            if let v = draft.breed { pet.breed = v }
            if let v = draft.sex { pet.sex = v }
            if let v = draft.neutered { pet.neutered = v }
            if let v = draft.born { pet.born = v }
            if let v = draft.microchip { pet.microchip = v }
            if let v = draft.color { pet.color = v }
            if let v = draft.notes { pet.notes = v }
            pet.health = try draft.health.applied(to: pet.health)
            try s.store(pet)
            switch photo {
            case .set(let data, let mediaType):
                let hash = SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
                try s.sql.execute("UPDATE pet SET photo = ?, photo_type = ?, photo_size = ?, photo_sha256 = ? WHERE id = ?",
                                  [SQLValue.bytes([UInt8](data)), .text(mediaType), .int(Int64(data.count)), .text(hash), .int(pet.id)])
            case .remove:
                try s.sql.execute("UPDATE pet SET photo = NULL, photo_type = NULL, photo_size = NULL, photo_sha256 = NULL WHERE id = ?", [SQLValue.int(pet.id)])
            case nil: break
            }
            return try s.pet(.id(pet.id))
        }
    }

    /// The pet's profile photo: its type and bytes (nil when it has none).
    public func petPhoto(id: Int64) throws -> (mediaType: String, data: Data)? {
        try read { s in
            guard let row = try s.sql.row("SELECT photo_type, photo FROM pet WHERE id = ?", [.int(id)]),
                  let type = row[0].text, case .bytes(let bytes) = row[1] else { return nil }
            return (type, Data(bytes))
        }
    }

    public func archivePet(_ ref: PetRef, reason: ArchiveReason, on day: LocalDate) throws -> Pet {
        try write { s in
            let pet = try s.pet(ref)
            if pet.isArchived { throw StoreError.petArchived(pet.name) }
            try s.sql.execute("UPDATE pet SET archived_on = ?, archive_reason = ?, updated_at = ? WHERE id = ?",
                              [day.description, reason.rawValue, s.nowSeconds, pet.id])
            return try s.pet(.id(pet.id))
        }
    }

    public func unarchivePet(_ ref: PetRef) throws -> Pet {
        try write { s in
            let pet = try s.pet(ref)
            guard pet.isArchived else { throw StoreError.petNotArchived(pet.name) }
            if try s.activePet(named: pet.name) != nil { throw StoreError.duplicatePetName(pet.name) }
            try s.sql.execute("UPDATE pet SET archived_on = NULL, archive_reason = NULL, updated_at = ? WHERE id = ?", [s.nowSeconds, pet.id])
            return try s.pet(.id(pet.id))
        }
    }

    /// Deletes the pet and every record of it (the foreign keys cascade); the pet and how many records went.
    public func removePet(_ ref: PetRef) throws -> (Pet, Int) {
        try write { s in
            let pet = try s.pet(ref)
            let count = try s.sql.int("SELECT count(*) FROM record WHERE pet_id = ?", [pet.id]) ?? 0
            try s.sql.execute("DELETE FROM pet WHERE id = ?", [pet.id])
            return (pet, Int(count))
        }
    }

    public func searchPets(_ text: String) throws -> [Pet] { try engine.searchPets(text) }
}
