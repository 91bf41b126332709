/// Common spellings of the core vaccines, stored as one code each.
public enum VaccineName {
    public static let aliases: [String: String] = [
        "rabies": "rabies", "dhpp": "dhpp", "dapp": "dhpp", "da2pp": "dhpp", "dhppi": "dhpp", "lepto": "leptospirosis",
        "leptospirosis": "leptospirosis", "lepto4": "leptospirosis", "bordetella": "bordetella", "kennel-cough": "bordetella",
        "civ": "canine-influenza", "canine-influenza": "canine-influenza", "fvrcp": "fvrcp", "felv": "felv",
        "rhdv2": "rhdv2", "rhd2": "rhdv2", "myxo": "myxo-rhd", "myxo-rhd": "myxo-rhd", "myxo-rhd-plus": "myxo-rhd",
        "myxomatosis": "myxomatosis", "distemper": "distemper",
    ]

    public static func normalize(_ text: String) -> String {
        aliases[text.lowercased().replacingOccurrences(of: " ", with: "-")] ?? text
    }
}
