import Foundation
import Hummingbird
import HummingbirdTesting
import PetModel
import PetStoreCore
import PetlogTestSupport
import XCTest
@testable import PetServe

/// What every route test of `petlog serve` needs: a store on SQLite or PostgreSQL (`StoreTestCase`), the
/// server over it (each suite's `setUpWithError` makes both, with its own settings), signing in through the
/// form, and requests as a browser sends them to the router's test client (which names the host `localhost`).
open class ServeTestCase: StoreTestCase, @unchecked Sendable {
    static let password = "correct horse battery"
    /// One hash for every test's accounts: bcrypt at cost 12 is slow on purpose.
    static let hash = Secrets.hashPassword(password)
    static let hostile = ["<script>alert(1)</script>", "\"><img src=x onerror=alert(1)>"]
    /// The boundary of `multipart(_:files:close:)`'s bodies and of `headers(multipart: true)`.
    static let boundary = "----petlogFormBoundaryQ3x"

    var store: SharedStore.Served!
    var server: PetServer!
    /// The request lines the server logged, where a suite's settings collect them.
    var logLines: Guarded<[String]>!

    /// Cookies a response sets, by name (value and the attributes' text).
    func setCookies(_ r: TestResponse) -> [String: String] {
        var out: [String: String] = [:]
        for v in r.headers[values: .setCookie] { out[String(v.prefix { $0 != "=" })] = v }
        return out
    }

    /// The `Set-Cookie` line of one cookie.
    func setCookie(_ r: TestResponse, _ name: String) -> String? {
        r.headers[values: .setCookie].first { $0.hasPrefix(name + "=") }
    }

    /// A `Set-Cookie` line's value.
    func cookieValue(_ setCookie: String?) -> String? {
        setCookie.map { String($0.drop { $0 != "=" }.dropFirst().prefix { $0 != ";" }) }
    }

    /// The value of the cookie `name` a response sets.
    func cookieValue(_ r: TestResponse, _ name: String) -> String? { cookieValue(setCookie(r, name)) }

    func formBody(_ fields: [String: String]) -> ByteBuffer {
        ByteBuffer(string: fields.map { "\($0.key)=\($0.value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")" }.joined(separator: "&"))
    }

    /// A browser's headers (the router test client sends every request to `localhost`).
    func headers(cookie: String? = nil, origin: String? = "http://localhost", accept: String? = nil, language: String? = nil,
                 form: Bool = false, referer: String? = nil, multipart: Bool = false) -> HTTPFields {
        var h: HTTPFields = [:]
        if let cookie { h[.cookie] = cookie }
        if let origin { h[.origin] = origin }
        if let accept { h[.accept] = accept }
        if let language { h[.acceptLanguage] = language }
        if let referer { h[.referer] = referer }
        if form { h[.contentType] = "application/x-www-form-urlencoded" }
        if multipart { h[.contentType] = "multipart/form-data; boundary=\(Self.boundary)" }
        return h
    }

    /// A `multipart/form-data` body: the fields (in name order), then the files (field name, file name, bytes);
    /// `close: false` leaves the closing boundary out (a body cut off).
    func multipart(_ fields: [String: String], files: [(String, String, [UInt8])] = [], close: Bool = true) -> ByteBuffer {
        var out: [UInt8] = []
        for (k, v) in fields.sorted(by: { $0.key < $1.key }) {
            out += Array("--\(Self.boundary)\r\nContent-Disposition: form-data; name=\"\(k)\"\r\n\r\n\(v)\r\n".utf8)
        }
        for (name, filename, bytes) in files {
            out += Array("--\(Self.boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"; filename=\"\(filename)\"\r\nContent-Type: image/jpeg\r\n\r\n".utf8)
            out += bytes + Array("\r\n".utf8)
        }
        if close { out += Array("--\(Self.boundary)--\r\n".utf8) }
        return ByteBuffer(bytes: out)
    }

    typealias Who = (cookie: String, csrf: String)

    /// Signs in through the form and returns the session's cookie header and its CSRF token.
    func signIn(_ client: any TestClientProtocol, _ name: String) async throws -> Who {
        let page = try await client.execute(uri: "/login", method: .get, headers: headers())
        let loginToken = try XCTUnwrap(cookieValue(page, PetServer.loginCookie))
        let r = try await client.execute(uri: "/login", method: .post, headers: headers(cookie: "\(PetServer.loginCookie)=\(loginToken)", form: true),
                                         body: formBody(["name": name, "password": Self.password, "csrf": loginToken]))
        XCTAssertEqual(r.status, .seeOther)
        let cookie = "\(PetServer.sessionCookie)=\(try XCTUnwrap(cookieValue(r, PetServer.sessionCookie)))"
        let home = String(buffer: try await client.execute(uri: "/", method: .get, headers: headers(cookie: cookie)).body)
        let csrf = try XCTUnwrap(home.components(separatedBy: "name=\"csrf\" value=\"").dropFirst().first?.prefix(64))
        return (cookie, String(csrf))
    }

    func addPet(_ name: String, allergy: String? = nil) throws -> Pet {
        var draft = PetDraft()
        draft.name = name
        draft.species = .dog
        if let allergy { draft.health.addAllergies = [allergy] }
        return try store.addPet(draft)
    }
}
