import Foundation

/// Where a PostgreSQL store is, read the way libpq reads it: a `postgres://` or `postgresql://` URL
/// (`--db` or `PETLOG_DB`), then `PGHOST`, `PGPORT`, `PGUSER`, `PGDATABASE`, `PGSSLMODE` for what the URL
/// leaves out, then libpq's defaults (the Unix socket in /var/run/postgresql, port 5432, the login name).
/// The password comes from the URL, else `PGPASSWORD`, else the password file (`PGPASSFILE` or
/// `~/.pgpass`, used only when its mode is 0600 or stricter, as libpq does). Pure values: no connection.
public struct PostgresTarget: Sendable, Equatable {
    public enum SSLMode: String, Sendable, CaseIterable {
        case disable, allow, prefer, require
        case verifyCA = "verify-ca", verifyFull = "verify-full"
    }

    /// A host name or address, or nil for a Unix socket in `socketDirectory`.
    public var host: String?
    public var socketDirectory: String?
    public var port: Int
    public var user: String
    public var database: String
    public var password: String?
    public var sslMode: SSLMode
    /// Set when a password file was found but ignored for its permissions (libpq warns the same way).
    public var ignoredPasswordFile: String?

    /// The Unix socket's path (`DIR/.s.PGSQL.PORT`), for a socket target.
    public var socketPath: String? { socketDirectory.map { "\($0)/.s.PGSQL.\(port)" } }

    /// What messages name: the URL without its password (never shown anywhere).
    public var redacted: String {
        let at = host.map { "\($0):\(port)" } ?? ""
        let query = socketDirectory.map { "?host=\($0)" + (port == 5432 ? "" : "&port=\(port)") } ?? ""
        return "postgres://\(Self.escape(user))@\(at)/\(Self.escape(database))\(query)"
    }

    public static func isURL(_ text: String) -> Bool {
        text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
    }

    public enum Problem: Error, Equatable, Sendable {
        /// The URL cannot be read (the text is the URL with its password removed).
        case badURL(String)
        case badParameter(name: String, value: String)
    }

    /// Reads `url` with `environment` filling the gaps; `home` for `~/.pgpass`, `loginName` as libpq's last default user.
    public static func parse(_ url: String, environment: [String: String] = ProcessInfo.processInfo.environment,
                             home: String = NSHomeDirectory(), loginName: String = NSUserName()) throws -> PostgresTarget {
        guard isURL(url), let schemeEnd = url.range(of: "://") else { throw Problem.badURL(redactPassword(url)) }
        var rest = String(url[schemeEnd.upperBound...])
        var queryText = ""
        if let q = rest.firstIndex(of: "?") { queryText = String(rest[rest.index(after: q)...]); rest = String(rest[..<q]) }
        var authority = rest
        var path = ""
        if let slash = rest.firstIndex(of: "/") { authority = String(rest[..<slash]); path = String(rest[rest.index(after: slash)...]) }
        var userInfo = ""
        if let at = authority.lastIndex(of: "@") { userInfo = String(authority[..<at]); authority = String(authority[authority.index(after: at)...]) }
        var user: String?
        var password: String?
        if !userInfo.isEmpty {
            if let colon = userInfo.firstIndex(of: ":") {
                user = try unescape(String(userInfo[..<colon]), url)
                password = try unescape(String(userInfo[userInfo.index(after: colon)...]), url)
            } else {
                user = try unescape(userInfo, url)
            }
        }
        var host: String?
        var port: Int?
        if authority.hasPrefix("[") {   // [::1]:5432
            guard let close = authority.firstIndex(of: "]") else { throw Problem.badURL(redactPassword(url)) }
            host = String(authority[authority.index(after: authority.startIndex)..<close])
            let after = authority[authority.index(after: close)...]
            if after.hasPrefix(":") { port = try portNumber(String(after.dropFirst()), url) }
        } else if !authority.isEmpty {
            if let colon = authority.lastIndex(of: ":") {
                host = try unescape(String(authority[..<colon]), url)
                port = try portNumber(String(authority[authority.index(after: colon)...]), url)
            } else {
                host = try unescape(authority, url)
            }
            if host?.isEmpty == true { host = nil }
        }
        var database = path.isEmpty ? nil : try unescape(path, url)
        var sslMode: SSLMode?
        for pair in queryText.split(separator: "&") where !pair.isEmpty {
            let parts = pair.split(separator: "=", maxSplits: 1)
            let key = try unescape(String(parts[0]), url)
            let value = parts.count > 1 ? try unescape(String(parts[1]), url) : ""
            switch key {
            case "host": host = value
            case "port": port = try portNumber(value, url)
            case "user": user = value
            case "password": password = value
            case "dbname": database = value
            case "sslmode":
                guard let mode = SSLMode(rawValue: value) else { throw Problem.badParameter(name: key, value: value) }
                sslMode = mode
            case "application_name", "connect_timeout", "options", "target_session_attrs": break
            default: throw Problem.badParameter(name: key, value: value)
            }
        }
        func env(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        if host == nil { host = env("PGHOST") }
        if port == nil, let p = env("PGPORT") { port = try portNumber(p, url) }
        if user == nil { user = env("PGUSER") }
        if database == nil { database = env("PGDATABASE") }
        if sslMode == nil, let m = env("PGSSLMODE") {
            guard let mode = SSLMode(rawValue: m) else { throw Problem.badParameter(name: "PGSSLMODE", value: m) }
            sslMode = mode
        }
        var target = PostgresTarget(host: nil, socketDirectory: nil, port: port ?? 5432, user: user ?? loginName,
                                    database: database ?? user ?? loginName, password: nil, sslMode: sslMode ?? .prefer)
        // libpq: a host starting with a slash is a socket directory; none at all is the default socket.
        let h = host ?? "/var/run/postgresql"
        if h.hasPrefix("/") { target.socketDirectory = h } else { target.host = h }
        if password == nil { password = env("PGPASSWORD") }
        if password == nil {
            let file = env("PGPASSFILE") ?? home + "/.pgpass"
            switch PasswordFile.read(file) {
            case .entries(let entries):
                // libpq matches a socket connection's host field against "localhost".
                password = PasswordFile.lookup(entries, host: target.host ?? "localhost", port: target.port,
                                               database: target.database, user: target.user)
            case .tooOpen: target.ignoredPasswordFile = file
            case .missing: break
            }
        }
        target.password = password
        return target
    }

    /// `url` with any password in it replaced (for messages about a URL that could not be read).
    public static func redactPassword(_ url: String) -> String {
        guard let schemeEnd = url.range(of: "://") else { return url }
        let rest = url[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
        var out = url
        if let at = rest[..<authorityEnd].lastIndex(of: "@"), let colon = rest[..<at].firstIndex(of: ":") {
            out.replaceSubrange(rest.index(after: colon)..<at, with: "***")
        }
        if let r = out.range(of: "password=") {
            let end = out[r.upperBound...].firstIndex(of: "&") ?? out.endIndex
            out.replaceSubrange(r.upperBound..<end, with: "***")
        }
        return out
    }

    static func portNumber(_ text: String, _ url: String) throws -> Int {
        guard let p = Int(text), (1...65535).contains(p) else { throw Problem.badParameter(name: "port", value: text) }
        return p
    }

    static func unescape(_ text: String, _ url: String) throws -> String {
        guard let s = text.removingPercentEncoding else { throw Problem.badURL(redactPassword(url)) }
        return s
    }

    static func escape(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .urlUserAllowed.subtracting(CharacterSet(charactersIn: ":@/"))) ?? text
    }
}

/// libpq's password file: `host:port:database:user:password` per line, `*` matching anything, `\:` and
/// `\\` escaped, `#` comments; the first matching line wins. Ignored unless only its owner can read it.
public enum PasswordFile {
    public struct Entry: Equatable, Sendable {
        public var host, port, database, user, password: String
    }

    public enum Reading: Equatable, Sendable {
        case missing
        /// Group or others may read or write it (libpq: "permissions should be u=rw (0600) or less").
        case tooOpen
        case entries([Entry])
    }

    public static func read(_ path: String) -> Reading {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return .missing }
        if info.st_mode & (S_IRWXG | S_IRWXO) != 0 { return .tooOpen }
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else { return .missing }
        return .entries(parse(text))
    }

    public static func parse(_ text: String) -> [Entry] {
        text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }).compactMap { line in
            if line.hasPrefix("#") { return nil }
            var fields: [String] = []
            var current = ""
            var escaped = false
            for c in line {
                if escaped { current.append(c); escaped = false; continue }
                if c == "\\" { escaped = true; continue }
                if c == ":" && fields.count < 4 { fields.append(current); current = ""; continue }
                current.append(c)
            }
            fields.append(current)
            guard fields.count == 5 else { return nil }
            return Entry(host: fields[0], port: fields[1], database: fields[2], user: fields[3], password: fields[4])
        }
    }

    public static func lookup(_ entries: [Entry], host: String, port: Int, database: String, user: String) -> String? {
        func matches(_ field: String, _ value: String) -> Bool { field == "*" || field == value }
        return entries.first {
            matches($0.host, host) && matches($0.port, String(port)) && matches($0.database, database) && matches($0.user, user)
        }?.password
    }
}
