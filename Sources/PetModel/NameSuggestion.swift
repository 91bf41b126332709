import Foundation

/// Did-you-mean for pet names: the closest by edit distance, if close enough to be a typo.
public enum NameSuggestion {
    public static func closest(to input: String, among names: [String]) -> String? {
        let key = Array(TextField.nameKey(input))
        var best: (String, Int)?
        for name in names {
            let d = distance(key, Array(TextField.nameKey(name)))
            if d <= max(1, key.count / 3), d < best?.1 ?? Int.max { best = (name, d) }
        }
        return best?.0
    }

    public static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var prev = Array(0...b.count)
        var cur = prev
        for i in 1...a.count {
            cur[0] = i
            for j in 1...b.count {
                cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&prev, &cur)
        }
        return prev[b.count]
    }
}
