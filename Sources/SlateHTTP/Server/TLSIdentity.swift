import Foundation

/// A certificate and its private key, both PEM, for serving HTTPS.
///
/// ```swift
/// configuration.tls = TLSIdentity(certificatePEM: try Data(contentsOf: certURL), keyPEM: key)
/// ```
///
/// The key is secret: its description never shows it.
public struct TLSIdentity: Sendable, CustomStringConvertible {
    /// The certificate, then any intermediate certificates, PEM-encoded.
    public var certificatePEM: Data
    /// The private key, PEM-encoded.
    public var keyPEM: Data

    /// An identity from PEM bytes; throws ``HTTPServerError`` when either is not PEM.
    public init(certificatePEM: Data, keyPEM: Data) throws(HTTPServerError) {
        guard Self.isPEM(certificatePEM, "CERTIFICATE") else {
            throw HTTPServerError("The TLS certificate is not a PEM certificate (-----BEGIN CERTIFICATE-----).")
        }
        guard Self.isPEM(keyPEM, "PRIVATE KEY") else {
            throw HTTPServerError("The TLS key is not a PEM private key (-----BEGIN … PRIVATE KEY-----).")
        }
        self.certificatePEM = certificatePEM
        self.keyPEM = keyPEM
    }

    public var description: String { "TLSIdentity(certificate: \(certificatePEM.count) bytes, key: hidden)" }

    private static func isPEM(_ data: Data, _ label: String) -> Bool {
        guard !data.contains(0), let text = String(data: data, encoding: .utf8) else { return false }
        return text.contains("-----BEGIN ") && text.contains(label + "-----")
    }
}
