import CCrypto
import Foundation
import SlateCore

/// Web Push message encryption (RFC 8291, `aes128gcm` of RFC 8188) and VAPID tokens
/// (RFC 8292), assembled from libcrypto's P-256, ECDH, HMAC-SHA256, AES-128-GCM and ECDSA.
enum WebPushCrypto {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Loads libcrypto (once: `slate` is not linked against it, see CCrypto.h); throws
    /// when it is missing, saying what to install.
    static func loadLibrary() throws {
        var reason = [CChar](repeating: 0, count: 256)
        guard slate_crypto_load(&reason, reason.count) == 1 else { throw Failure(description: String(cBuffer: reason)) }
    }

    /// A new P-256 key pair: (32-byte private key, 65-byte public point).
    static func newKeyPair() throws -> (privateKey: [UInt8], publicKey: [UInt8]) {
        var privateKey = [UInt8](repeating: 0, count: 32), publicKey = [UInt8](repeating: 0, count: 65)
        guard slate_p256_generate(&privateKey, &publicKey) == 1 else { throw Failure(description: "could not make a P-256 key") }
        return (privateKey, publicKey)
    }

    static func hmac(_ key: [UInt8], _ data: [UInt8]) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: 32)
        _ = slate_hmac_sha256(key, key.count, data, data.count, &output)
        return output
    }

    /// The body of one push message carrying `plaintext` to a browser whose subscription
    /// has the public key `receiverKey` (65 bytes) and secret `authSecret` (16 bytes).
    static func encrypt(_ plaintext: [UInt8], receiverKey: [UInt8], authSecret: [UInt8]) throws -> [UInt8] {
        let sender = try newKeyPair()
        var shared = [UInt8](repeating: 0, count: 32)
        guard slate_p256_ecdh(sender.privateKey, receiverKey, &shared) == 1 else {
            throw Failure(description: "the subscription's key is not a P-256 point")
        }
        var salt = [UInt8](repeating: 0, count: 16)
        guard slate_random(&salt, 16) == 1 else { throw Failure(description: "no randomness") }
        // RFC 8291 §3.4: the input keying material from the ECDH secret and the auth secret.
        let keyInfo = Array("WebPush: info".utf8) + [0] + receiverKey + sender.publicKey
        let ikm = hmac(hmac(authSecret, shared), keyInfo + [1])
        // RFC 8188 §2.2–2.3: the content key and nonce.
        let prk = hmac(salt, ikm)
        let key = Array(hmac(prk, Array("Content-Encoding: aes128gcm".utf8) + [0, 1]).prefix(16))
        let nonce = Array(hmac(prk, Array("Content-Encoding: nonce".utf8) + [0, 1]).prefix(12))
        // One record: the plaintext, then the last-record delimiter 0x02.
        let record = plaintext + [2]
        var sealed = [UInt8](repeating: 0, count: record.count + 16)
        guard slate_aes128gcm_seal(key, nonce, record, record.count, &sealed) == 1 else { throw Failure(description: "encryption failed") }
        let recordSize = UInt32(4096)
        let header = salt + withUnsafeBytes(of: recordSize.bigEndian, Array.init) + [UInt8(sender.publicKey.count)] + sender.publicKey
        return header + sealed
    }

    /// `Authorization: vapid t=<JWT>, k=<public key>` for a push service at `endpoint`.
    static func vapidAuthorization(endpoint: URL, key: VAPIDKey, subject: String, now: Date) throws -> String {
        guard let scheme = endpoint.scheme, let host = endpoint.host else { throw Failure(description: "the endpoint has no origin") }
        let audience = "\(scheme)://\(host)" + (endpoint.port.map { ":\($0)" } ?? "")
        let header = Base64URL.encode(Data(#"{"typ":"JWT","alg":"ES256"}"#.utf8))
        let claims: [String: Any] = ["aud": audience, "exp": Int(now.timeIntervalSince1970) + 12 * 3600, "sub": subject]
        let body = Base64URL.encode(try JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys, .withoutEscapingSlashes]))
        let signingInput = Array("\(header).\(body)".utf8)
        guard let privateKey = Base64URL.decode(key.privateKey) else { throw Failure(description: "the VAPID key is unreadable") }
        var signature = [UInt8](repeating: 0, count: 64)
        guard slate_p256_sign(Array(privateKey), signingInput, signingInput.count, &signature) == 1 else {
            throw Failure(description: "could not sign the VAPID token")
        }
        return "vapid t=\(header).\(body).\(Base64URL.encode(Data(signature))), k=\(key.publicKey)"
    }
}
