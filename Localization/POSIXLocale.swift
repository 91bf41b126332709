import Foundation

/// The POSIX locale variables, read the one way POSIX defines: `LC_ALL`, else the category's own
/// variable (`LC_MESSAGES`, `LC_TIME`, `LC_MEASUREMENT`), else `LANG`; empty values do not count.
/// `ko_KR.UTF-8` is language `ko`, region `KR`; `C` and `POSIX` are English without a region.
public struct POSIXLocale: Sendable {
    public enum Category: String, Sendable {
        case messages = "LC_MESSAGES", time = "LC_TIME", measurement = "LC_MEASUREMENT", monetary = "LC_MONETARY"
    }

    let environment: [String: String]

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.environment = environment
    }

    /// The locale value in effect for a category, if any variable sets one.
    public func value(_ category: Category) -> String? {
        for name in ["LC_ALL", category.rawValue, "LANG"] {
            if let v = environment[name], !v.isEmpty { return v }
        }
        return nil
    }

    /// The language of a category's locale (`C`/`POSIX` are English); nil when unset or not one petlog speaks.
    public func language(_ category: Category) -> Language? {
        value(category).flatMap(Language.fromLocale)
    }

    /// The region of a category's locale (`US` in `en_US.UTF-8`), if it names one.
    public func region(_ category: Category) -> String? {
        guard let v = value(category) else { return nil }
        let name = v.split(whereSeparator: { $0 == "." || $0 == "@" }).first ?? ""
        let parts = name.split(separator: "_")
        return parts.count >= 2 ? String(parts[1]).uppercased() : nil
    }
}
