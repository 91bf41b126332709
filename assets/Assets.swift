import Foundation

/// The data petlog ships (`assets/`), compiled into the binary so it works wherever it is copied.
public enum Assets {
    /// `vaccine-schedules.json`: per-species vaccination schedules with their sources.
    public static var vaccineSchedules: Data { Data(PackageResources.vaccine_schedules_json) }
    /// `care-names.json`: every accepted name of the listed symptoms and vaccines in en/ko/ja, with aliases.
    public static var careNames: Data { Data(PackageResources.care_names_json) }
    /// `receipt-words.json`: the words a receipt's total, its look-alikes and the lines that are no store name are read by, in en/ko/ja.
    public static var receiptWords: Data { Data(PackageResources.receipt_words_json) }
}
