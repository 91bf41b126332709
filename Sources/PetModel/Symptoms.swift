/// The shipped symptom codes; anything else is stored as the owner's own words.
public enum SymptomCode: String, CaseIterable, Sendable {
    case vomiting, diarrhea, coughing, sneezing, itching, lethargy, limping, appetiteLoss = "appetite-loss"
    case thirst, seizure, breathing, discharge, hairLoss = "hair-loss", lump, pain, constipation, regurgitation, fever

    public static func match(_ raw: String) -> SymptomCode? {
        let t = raw.lowercased().trimmingCharacters(in: .whitespaces)
        let aliases: [String: SymptomCode] = [
            "vomit": .vomiting, "diarrhoea": .diarrhea, "cough": .coughing, "sneeze": .sneezing, "itch": .itching,
            "scratching": .itching, "lethargic": .lethargy, "limp": .limping, "lameness": .limping, "anorexia": .appetiteLoss,
            "not-eating": .appetiteLoss, "no-appetite": .appetiteLoss, "polydipsia": .thirst, "seizures": .seizure,
        ]
        return SymptomCode(rawValue: t) ?? aliases[t]
    }
}
