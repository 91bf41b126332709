import Foundation
import HummingbirdTLS
import NIOSSL

/// `petlog serve --tls-cert FILE --tls-key FILE`: the certificate chain and its private key (PEM) read and checked
/// before the server listens: a file that cannot be read, that is not PEM, or a key that is not the certificate's is
/// refused (docs/serve.md). Cookies are `Secure` then.
public struct ServeTLS: Sendable {
    public enum Problem: Error, Equatable {
        /// The file cannot be read (missing, a folder, no permission): the system's reason.
        case unreadable(path: String, detail: String)
        /// Not a PEM certificate (chain) or private key.
        case invalid(path: String, detail: String)
        /// The key is not the certificate's.
        case mismatch(certificate: String, key: String)
    }

    let configuration: TLSConfiguration

    public static func load(certificate: String, key: String) throws -> ServeTLS {
        let certBytes = try read(certificate), keyBytes = try read(key)
        let chain: [NIOSSLCertificate]
        do { chain = try NIOSSLCertificate.fromPEMBytes(certBytes) } catch { throw Problem.invalid(path: certificate, detail: "\(error)") }
        guard !chain.isEmpty else { throw Problem.invalid(path: certificate, detail: "no CERTIFICATE block") }
        let privateKey: NIOSSLPrivateKey
        do { privateKey = try NIOSSLPrivateKey(bytes: keyBytes, format: .pem) } catch { throw Problem.invalid(path: key, detail: "\(error)") }
        let configuration = TLSConfiguration.makeServerConfiguration(certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(privateKey))
        // The context checks the key against the leaf certificate (BoringSSL's SSL_CTX_use_PrivateKey).
        do { _ = try NIOSSLContext(configuration: configuration) } catch { throw Problem.mismatch(certificate: certificate, key: key) }
        return ServeTLS(configuration: configuration)
    }

    /// The whole file, or why not (the system's words for errno).
    static func read(_ path: String) throws -> [UInt8] {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw Problem.unreadable(path: path, detail: String(cString: strerror(errno))) }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        do {
            let data = try handle.readToEnd() ?? Data()
            guard data.count <= 1_048_576 else { throw Problem.invalid(path: path, detail: "larger than 1 MiB") }
            return Array(data)
        } catch let p as Problem {
            throw p
        } catch {
            let code = (error as NSError).code
            throw Problem.unreadable(path: path, detail: String(cString: strerror(Int32(code == 0 ? Int(EIO) : code))))
        }
    }
}
