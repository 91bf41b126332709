import Foundation

/// `--listen ADDR:PORT`: `127.0.0.1:8080`, `0.0.0.0:8080`, `[::1]:8080`, `localhost:8080`; a port alone
/// (`:8080`) is loopback. Loopback is what only this computer reaches; anything else is reachable from a
/// network, which `petlog serve` refuses while no account exists.
public struct ListenAddress: Equatable, Sendable, CustomStringConvertible {
    public let host: String
    public let port: Int

    public static let `default` = ListenAddress(host: "127.0.0.1", port: 8080)

    public init(host: String, port: Int) { self.host = host; self.port = port }

    public static func parse(_ text: String) -> ListenAddress? {
        var host: Substring
        var portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            host = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            guard rest.hasPrefix(":") else { return nil }
            portText = rest.dropFirst()
            guard host.contains(":") else { return nil }
        } else {
            guard let colon = text.lastIndex(of: ":"), !text[..<colon].contains(":") else { return nil }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        }
        if host.isEmpty { host = "127.0.0.1" }
        guard !portText.isEmpty, portText.count <= 5, portText.allSatisfy({ $0.isASCII && $0.isNumber }),
              let port = Int(portText), (1...65535).contains(port) else { return nil }
        guard host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == ":") }) else { return nil }
        return ListenAddress(host: String(host), port: port)
    }

    /// Whether only this computer can reach the address: `localhost`, 127.0.0.0/8 or `::1`.
    public var isLoopback: Bool {
        if host == "localhost" || host == "::1" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
