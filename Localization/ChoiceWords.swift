import PetModel

/// The words a fixed choice (species, sex, record kind, mood, route, urine amount, archive reason, payment,
/// severity, units, paper, …) is read from, whatever the language petlog speaks: its code, its name in every
/// language's table (what help and errors show: `cat(고양이)`, `weight（体重）`, `female(암컷, f)`) and the
/// common short forms below (`猫`, `ねこ`, `냥이`, `f`). Words are compared as `CareNames` compares names: width,
/// case, spaces, hyphens, dots and brackets aside. One mechanism for every choice: the CLI's `Choice<Value>`,
/// `--kind` lists and the severity words all read through `code(_:group:codes:)`.
public enum ChoiceWords {
    /// The code among `codes` that `typed` names; `group` is the prefix of the table keys naming the codes
    /// (`species` for `species.cat`) and of the short forms. nil when no word of any code matches.
    public static func code(_ typed: String, group: String, codes: [String]) -> String? {
        let k = CareNames.key(typed)
        guard !k.isEmpty else { return nil }
        return codes.first { code in words(group, code).contains { CareNames.key($0) == k } }
    }

    /// Every word `code` of `group` is read from: the code, its name in en/ko/ja, its short forms (the
    /// tables' `groupWords.code` line in en/ko/ja, comma-separated, e.g. `kindWords.walk = walks, walking`,
    /// and the ones below).
    public static func words(_ group: String, _ code: String) -> [String] {
        var out = [code]
        if let key = L10n.keysByRawValue["\(group).\(code)"] {
            out += Language.allCases.map { L10n.template(key, $0) }
        }
        if let key = L10n.keysByRawValue["\(group)Words.\(code)"] {
            out += Language.allCases.flatMap { L10n.template(key, $0).split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
                .filter { !$0.isEmpty }
        }
        return out + (shortForms[group]?[code] ?? [])
    }

    /// The fixed choices whose codes this module knows (the CLI's own choices name theirs when they read):
    /// group → codes. The tests walk every word of every one.
    public static let known: [String: [String]] = [
        "species": Species.allCases.map(\.rawValue), "sex": Sex.allCases.map(\.rawValue),
        "kind": RecordKind.allCases.map(\.rawValue), "mood": Mood.allCases.map(\.rawValue),
        "route": Route.allCases.map(\.rawValue), "urineAmount": UrineAmount.allCases.map(\.rawValue),
        "archiveReason": ArchiveReason.allCases.map(\.rawValue), "payment": Payment.allCases.map(\.rawValue),
        "severity": SeverityScale.range.map(String.init), "units": UnitSystem.allCases.map(\.rawValue),
        "massUnit": MassUnit.allCases.map(\.rawValue),
        "color": L10n.requiredCodes[.color] ?? [],
    ]

    /// Short forms people type beside the names the tables show, by group and code. A record kind's are its
    /// `kindWords.*` lines in the tables (said with its name there, so a new kind touches no code here).
    static let shortForms: [String: [String: [String]]] = [
        "species": [
            "dog": ["dogs", "puppy", "강아지", "멍멍이", "댕댕이", "いぬ", "イヌ", "子犬", "わんちゃん", "ワンちゃん"],
            "cat": ["cats", "kitten", "kitty", "냥이", "고양이님", "아기고양이", "ねこ", "ネコ", "子猫", "にゃんこ"],
            "rabbit": ["bunny", "rabbits", "토깽이", "うさぎ", "兎"],
            "ferret": ["ferrets", "ふぇれっと"],
            "parrot": ["parakeet", "budgie", "cockatiel", "앵무", "잉꼬", "オウム", "インコ"],
            "hamster": ["hamsters", "햄찌", "はむすたー"],
            "guinea-pig": ["cavy", "モルモット", "기니피그"],
            "tortoise": ["turtle", "거북이", "거북", "カメ", "かめ", "亀"],
            "bird": ["birds", "とり", "トリ"],
            "reptile": ["lizard", "snake", "도마뱀", "뱀", "トカゲ", "ヘビ"],
            "fish": ["goldfish", "물고기", "생선", "金魚", "さかな"],
        ],
        "sex": [
            "female": ["f", "♀", "girl", "암", "여아", "メス", "めす", "雌", "女の子"],
            "male": ["m", "♂", "boy", "수", "남아", "オス", "おす", "雄", "男の子"],
            "unknown": ["u", "?", "모름", "わからない"],
        ],
        "route": [
            "oral": ["mouth", "by mouth", "먹는 약", "입", "内服", "飲み薬"],
            "topical": ["skin", "바르는 약", "塗り薬"],
            "injection": ["shot", "injected", "注射薬"],
            "eye": ["eye drops", "눈", "目薬"],
            "ear": ["ear drops", "귀", "耳"],
        ],
        "payment": [
            "cash": ["현금 결제"],
            "card": ["credit card", "debit card", "신용카드", "체크카드", "クレジットカード", "クレカ"],
            "other": ["기타", "その他"],
        ],
        "severity": [
            "1": ["mild", "가벼움", "경미", "軽い", "軽度"],
            "5": ["severe", "심함", "심각", "重い", "重度"],
        ],
        "units": [
            "metric": ["kg", "미터법", "メートル法"],
            "imperial": ["lb", "us", "야드파운드법", "파운드", "ヤード・ポンド法", "ポンド"],
        ],
        "massUnit": [
            "g": ["gram", "grams", "그램", "グラム"],
            "kg": ["kilogram", "kilograms", "kilo", "킬로그램", "킬로", "キログラム", "キロ"],
            "lb": ["lbs", "pound", "pounds", "파운드", "ポンド"],
            "oz": ["ounce", "ounces", "온스", "オンス"],
        ],
        "color": [
            "clear": ["colorless", "colourless", "무색", "투명함", "無色", "透明色"],
            "white": ["흰", "하양", "하얀색", "白", "しろ"],
            "pale-yellow": ["light yellow", "연노랑", "연노란색", "薄い黄色", "薄黄色"],
            "yellow": ["노랑", "노란", "노랑색", "黄", "きいろ", "黄色い"],
            "dark-yellow": ["진노랑", "진노란색", "濃黄色"],
            "amber": ["앰버", "琥珀", "アンバー"],
            "orange": ["주황", "오렌지색", "オレンジ", "橙色", "だいだい色"],
            "red": ["빨강", "빨간", "붉은색", "적색", "赤", "あか", "赤い"],
            "pink": ["분홍", "핑크", "핑크색", "ピンク", "桃色"],
            "brown": ["밤색", "茶", "ちゃいろ", "茶色い"],
            "dark-brown": ["진갈색", "暗褐色", "焦げ茶色"],
            "green": ["초록", "녹색", "緑", "みどり", "緑色い"],
            "gray": ["grey", "회색빛", "잿빛", "グレー", "灰", "はいいろ"],
            "black": ["검정", "검정색", "까만색", "黒", "くろ", "黒い"],
        ],
    ]
}
