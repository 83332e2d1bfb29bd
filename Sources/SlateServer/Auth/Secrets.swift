import CSodium
import Foundation

/// Password hashing (Argon2id), random tokens and their digests, from libsodium.
public enum Secrets {
    private static let ready: Bool = sodium_init() >= 0

    /// How much work a hash costs.
    enum Strength: Sendable {
        /// libsodium's interactive limits: about 64 MiB and a tenth of a second.
        case interactive
        /// libsodium's minimum: for tests only, never for real passwords.
        case minimal
    }

    /// An Argon2id hash string (`$argon2id$v=19$…`) of `password`, with libsodium's
    /// interactive limits (about 64 MiB and a tenth of a second).
    public static func hashPassword(_ password: String) throws -> String {
        try hashPassword(password, strength: .interactive)
    }

    static func hashPassword(_ password: String, strength: Strength) throws -> String {
        precondition(ready, "libsodium failed to initialise")
        var output = [CChar](repeating: 0, count: Int(crypto_pwhash_STRBYTES))
        let length = UInt64(password.utf8.count)
        let (operations, memory) = strength == .interactive
            ? (UInt64(crypto_pwhash_opslimit_interactive()), crypto_pwhash_memlimit_interactive())
            : (UInt64(crypto_pwhash_opslimit_min()), crypto_pwhash_memlimit_min())
        let result = password.withCString { bytes in
            crypto_pwhash_str(&output, bytes, length, operations, memory)
        }
        guard result == 0 else { throw SecretsError.outOfMemory }
        return String(decoding: output.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// True when `password` matches `hash`; timing does not depend on where they differ.
    public static func verify(_ password: String, against hash: String) -> Bool {
        precondition(ready, "libsodium failed to initialise")
        let length = UInt64(password.utf8.count)
        return hash.withCString { stored in
            password.withCString { bytes in crypto_pwhash_str_verify(stored, bytes, length) == 0 }
        }
    }

    /// 32 random bytes as base64url without padding: a token, session id or generated password.
    public static func randomToken(bytes count: Int = 32) -> String {
        precondition(ready, "libsodium failed to initialise")
        var bytes = [UInt8](repeating: 0, count: count)
        randombytes_buf(&bytes, count)
        return Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// The SHA-256 digest of a high-entropy secret, in hex: what is stored for tokens and
    /// sessions (a slow hash would add nothing to 256 random bits).
    public static func digest(_ secret: String) -> String {
        precondition(ready, "libsodium failed to initialise")
        var output = [UInt8](repeating: 0, count: Int(crypto_hash_sha256_BYTES))
        let bytes = Array(secret.utf8)
        crypto_hash_sha256(&output, bytes, UInt64(bytes.count))
        // Two hex digits a byte, written in place (an array literal per byte made 32 arrays).
        let digits: StaticString = "0123456789abcdef"
        return String(unsafeUninitializedCapacity: output.count * 2) { text in
            digits.withUTF8Buffer { digits in
                for (index, byte) in output.enumerated() {
                    text[2 * index] = digits[Int(byte >> 4)]
                    text[2 * index + 1] = digits[Int(byte & 0x0F)]
                }
            }
            return output.count * 2
        }
    }
}

/// What hashing can fail with.
public enum SecretsError: Error, CustomStringConvertible {
    case outOfMemory
    public var description: String { "Hashing the password failed: not enough memory." }
}
