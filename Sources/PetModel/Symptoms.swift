/// The shipped symptom codes; anything else is stored as the owner's own words.
public enum SymptomCode: String, CaseIterable, Sendable {
    case vomiting, diarrhea, coughing, sneezing, itching, lethargy, limping, appetiteLoss = "appetite-loss"
    case thirst, seizure, breathing, discharge, hairLoss = "hair-loss", lump, pain, constipation, regurgitation, fever

    /// The code of any of its names in en/ko/ja or an alias (`vomit`, `구토`, `嘔吐`), case- and width-insensitively.
    public static func match(_ raw: String) -> SymptomCode? {
        guard case .listed(let code) = CareNames.shipped.symptom(raw) else { return nil }
        return SymptomCode(rawValue: code)
    }
}
