import Foundation
import FuzzSupport
import PetModel
import PetStoreCore
import PetStoreSQLite
import PetTransfer

// The importer's readers (a petlog JSON export, or one pet's weight CSV) and the import itself.
// Properties: a file is either refused with an ImportError (one line naming file and line, nothing
// written) or every value it yields is in range, and the batch then imports into a fresh database
// whole: SQLite's own CHECKs never have to refuse what the readers let through.
let seoul = TimeZone(identifier: "Asia/Seoul")!

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    fuzzBytes(data, size) { bytes in
        guard bytes.count <= 64 * 1024 else { return }
        let batch: ImportBatch
        do {
            batch = try ImportReader.read(data: bytes, file: "fuzz.csv", options: ImportOptions(pet: .id(1), timeZone: seoul))
        } catch let e as ImportError {
            check(e.location.file == "fuzz.csv" && e.location.line >= 0, "error location \(e.location)")
            return
        } catch {
            check(false, "not an ImportError: \(error)")
            return
        }
        let w = batch.weights
        for i in 0..<w.count {
            check((1...Mass.maximumGrams).contains(Int(w.grams[i])), "weight \(w.grams[i]) g")
            check((-64800...64800).contains(Int(w.utcOffset[i])), "offset \(w.utcOffset[i])")
            check(w.pet[i] >= 0 && Int(w.pet[i]) < batch.pets.count, "weight of pet index \(w.pet[i])")
        }
        for r in batch.records {
            check((-64800...64800).contains(r.utcOffset), "offset \(r.utcOffset)")
            check(r.pet.map { $0 >= 0 && $0 < batch.pets.count } ?? true, "record of pet index \(r.pet!)")
        }
        do {
            let repo = Store(SQLiteRepository(try AppDatabase.inMemory()))
            if batch.pets.contains(where: { $0.existing != nil }) { _ = try repo.addPet(PetDraft(name: "Coco", species: .dog)) }
            let summary = try repo.importBatch(batch)
            check(summary.recordsAdded + summary.recordsAlreadyThere == batch.rowCount, "\(summary) for \(batch.rowCount) rows")
            let problems = try repo.check()
            check(problems.isEmpty, "check after import: \(problems)")
            let again = try repo.importBatch(batch)
            check(again.recordsAdded == 0, "a second import added \(again.recordsAdded)")
        } catch let e as ImportError {
            // Only what needs the database to see: a dose of a course the file lacks, an id twice, a missing file.
            switch e.problem {
            case .unknownMedication, .duplicateId, .missingAttachment: break
            default: check(false, "import refused what the reader accepted: \(e)")
            }
        } catch {
            check(false, "import failed: \(error)")
        }
    }
}
