import Foundation

/// The data petlog ships (`assets/`), compiled into the binary so it works wherever it is copied.
public enum Assets {
    /// `vaccine-schedules.json`: per-species vaccination schedules with their sources.
    public static var vaccineSchedules: Data { Data(PackageResources.vaccine_schedules_json) }
    /// `care-names.json`: every accepted name of the listed symptoms and vaccines in en/ko/ja, with aliases.
    public static var careNames: Data { Data(PackageResources.care_names_json) }
}
