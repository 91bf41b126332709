import Foundation

/// The data petlog ships (`assets/`), compiled into the binary so it works wherever it is copied.
public enum Assets {
    /// `vaccine-schedules.json`: per-species vaccination schedules with their sources.
    public static var vaccineSchedules: Data { Data(PackageResources.vaccine_schedules_json) }
}
