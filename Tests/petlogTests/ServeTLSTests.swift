import Foundation
import XCTest
import PetlogTestSupport

/// `petlog serve --tls-cert FILE --tls-key FILE`: HTTPS with a self-signed certificate made here by openssl (checked by
/// curl --cacert), `Secure` cookies, and the refusals before anything listens (one line, 64/66/78), on both stores.
final class ServeTLSTests: CLITestCase {
    /// A self-signed certificate for 127.0.0.1 and localhost, and its key, in HOME.
    func certificate(_ name: String) throws -> (cert: String, key: String) {
        let cert = home.appendingPathComponent("\(name).crt").path, key = home.appendingPathComponent("\(name).key").path
        let r = try launch(URL(fileURLWithPath: "/usr/bin/openssl"), ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                                                                      "-keyout", key, "-out", cert, "-days", "2", "-subj", "/CN=petlog test",
                                                                      "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"])
        guard r.status == 0 else { throw XCTSkip("openssl could not make a certificate: \(r.stderr)") }
        return (cert, key)
    }

    func testRefusalsBeforeListening() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        let (cert, key) = try certificate("a")
        let (_, otherKey) = try certificate("b")
        let junk = home.appendingPathComponent("junk.pem").path
        try "not a certificate\n".write(toFile: junk, atomically: true, encoding: .utf8)
        let missing = home.appendingPathComponent("missing.pem").path
        // Each refusal comes before anything listens: the address given is never bound (a serve that listened would not return).
        let listen = ["--listen", "127.0.0.1:9"]
        checkRefusal(try run(["serve", "--tls-cert", cert] + listen), code: 64, mentions: "--tls-key", "a certificate without its key")
        checkRefusal(try run(["serve", "--tls-cert", missing, "--tls-key", key] + listen), code: 66, mentions: "missing.pem", "an unreadable certificate")
        checkRefusal(try run(["serve", "--tls-cert", cert, "--tls-key", home.path] + listen), code: 66, mentions: home.path, "a folder as the key")
        checkRefusal(try run(["serve", "--tls-cert", junk, "--tls-key", key] + listen), code: 78, mentions: "junk.pem", "a file that is no PEM certificate")
        checkRefusal(try run(["serve", "--tls-cert", cert, "--tls-key", junk] + listen), code: 78, mentions: "junk.pem", "a file that is no PEM key")
        checkRefusal(try run(["serve", "--tls-cert", cert, "--tls-key", otherKey] + listen), code: 78, mentions: "b.key", "another certificate's key")
        let ko = try run(["--lang", "ko", "serve", "--tls-cert", cert, "--tls-key", otherKey] + listen)
        checkRefusal(ko, code: 78, mentions: "개인 키", "the refusal in Korean")
    }

    #if os(Linux)
    func testHTTPSWithASelfSignedCertificateAndSecureCookies() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        let (cert, key) = try certificate("site")
        var child: PetlogChild?
        var port = 0
        for attempt in 0..<5 where child == nil {
            port = 21_000 + Int(getpid() % 20_000) + attempt * 977
            let c = try PetlogChild(binary: Self.binary.path, arguments: ["--db", dbPath, "serve", "--listen", "127.0.0.1:\(port)", "--tls-cert", cert, "--tls-key", key],
                                    home: home.path, outputPrefix: home.appendingPathComponent("serve-\(port)").path)
            let changes = try DirectoryWatch([home.path])
            var listening = false
            _ = changes.wait { listening = c.stderr.contains("https://127.0.0.1:\(port)/"); return listening || c.poll() }
            if listening { child = c } else { c.killNow() }
        }
        let serve = try XCTUnwrap(child, "serve did not start")
        defer { kill(serve.pid, SIGTERM); serve.wait() }
        XCTAssertEqual(try tool("curl", ["-s", "--cacert", cert, "https://127.0.0.1:\(port)/healthz"]), "ok\n")
        let headers = try tool("curl", ["-s", "-D", "-", "-o", "/dev/null", "--cacert", cert, "https://localhost:\(port)/login"])
        let cookie = try XCTUnwrap(headers.split(separator: "\r\n").first { $0.lowercased().hasPrefix("set-cookie: petlog_login=") }, headers)
        XCTAssertTrue(cookie.contains("Secure") && cookie.contains("HttpOnly"), String(cookie))
        // Plain HTTP on the same port gets no page, and a client that does not trust the certificate is refused.
        XCTAssertEqual(try tool("curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "http://127.0.0.1:\(port)/healthz"]), "000")
        let untrusted = try launch(URL(fileURLWithPath: "/usr/bin/curl"), ["-s", "https://127.0.0.1:\(port)/healthz"])
        XCTAssertNotEqual(untrusted.status, 0)
        // openssl s_client sees the certificate the server was given.
        let s = try launch(URL(fileURLWithPath: "/usr/bin/openssl"), ["s_client", "-connect", "127.0.0.1:\(port)", "-CAfile", cert, "-verify_return_error"], stdin: "")
        XCTAssertTrue(s.stdout.contains("petlog test") && s.stdout.contains("Verify return code: 0 (ok)"), s.stdout)
    }
    #endif
}
