// Japanese. Filled by the localization issue; until then petlog falls back to English per key.

extension L10n {
    static let ja: [String: String] = [:]
}
