/// The listed vaccines by any of their names, stored as one code each.
public enum VaccineName {
    /// The code of a listed vaccine's name in en/ko/ja or an alias (`dhpp`, `DA2PP`, `ジステンパー`); other text as given.
    public static func normalize(_ text: String) -> String {
        CareNames.shipped.vaccineCode(text) ?? text
    }

    /// What two vaccine texts are compared by: the listed code, else the text without case, width or
    /// spacing differences (`Lyme Booster` and `lyme booster` are one vaccine).
    public static func key(_ text: String) -> String {
        CareNames.shipped.vaccineCode(text) ?? CareNames.key(text)
    }
}
