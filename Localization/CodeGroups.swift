// The groups of stored codes whose display names are strings (`group.code` in Strings/*.txt), and the
// codes each group must name. Hand-written: the keys and texts themselves are in Strings/.

import PetModel

extension L10n {
    /// Groups of stored codes (species, symptoms, …) whose display names live in the tables as `group.code`.
    public enum CodeGroup: String, CaseIterable, Sendable {
        case kind
        case species
        case sex
        case symptom
        case mealType
        case urineAmount
        /// The colours of urine and stool petlog knows (`--color yellow`, `노란색`, `黄色`); other words stay as typed.
        case color
        case mood
        case category
        case amountUnit
        case route
        case archiveReason
        /// The kinds of problem `check` finds (`StoreProblem.Kind`); English shows the codes themselves.
        case checkProblem
        case vaccine
        /// The tasks a grooming record names (bath, nails, …).
        case groomingTask
        /// The name of an input (option, field, setting) as a message shows it.
        case fieldname
    }

    /// The codes each group must translate (checked by the tests).
    public static let requiredCodes: [CodeGroup: [String]] = [
        .kind: RecordKind.allCases.map(\.rawValue),
        .species: ["dog", "cat", "rabbit", "ferret", "parrot", "hamster", "guinea-pig", "tortoise", "bird", "reptile", "fish", "other"],
        .sex: ["female", "male", "unknown"],
        .symptom: ["vomiting", "diarrhea", "coughing", "sneezing", "itching", "lethargy", "limping", "appetite-loss", "thirst", "seizure", "breathing", "discharge", "hair-loss", "lump", "pain", "constipation", "regurgitation", "fever"],
        .mealType: ["meal", "snack", "treat", "water"],
        .urineAmount: ["none", "small", "normal", "large"],
        .color: ["clear", "white", "pale-yellow", "yellow", "dark-yellow", "amber", "orange", "red", "pink", "brown", "dark-brown", "green", "gray", "black"],
        .mood: ["happy", "calm", "playful", "tired", "anxious", "grumpy", "unwell"],
        .category: ["food", "treats", "vet", "medication", "insurance", "supplies", "grooming", "boarding", "training", "transport", "other"],
        .amountUnit: ["g", "ml", "cup", "piece"],
        .route: ["oral", "topical", "injection", "eye", "ear", "inhaled", "other"],
        .archiveReason: ["passed-away", "rehomed", "lost", "other"],
        .checkProblem: ["integrity", "index", "foreign-key", "missing-file", "quarantined-file", "bad-hash", "orphan-file", "orphan-record", "invalid-value", "search-index", "weight-series"],
        .vaccine: ["rabies", "dhpp", "leptospirosis", "bordetella", "canine-influenza", "fvrcp", "felv", "rhdv2", "myxomatosis", "myxo-rhd", "distemper"],
        .groomingTask: ["bath", "haircut", "nails", "ears", "teeth", "brushing", "deshedding"],
        .fieldname: ["name", "note", "notes", "breed", "color", "food", "score", "bcs", "body-condition", "severity", "diary", "search", "question", "items", "symptom", "vaccine", "category", "kind", "sex", "mood", "species", "delimiter", "table", "to", "last-day", "until", "next", "follow-up", "amount", "by", "date-format", "format", "paper", "payment", "reason", "route", "unit", "units", "weight-unit", "clinic", "currency", "database", "description", "diagnosis", "dose", "duration-minutes", "key", "lot", "merchant", "neutered", "product", "treatment", "language", "week-start", "what", "groomer", "tasks", "distance", "duration"],
    ]
}
