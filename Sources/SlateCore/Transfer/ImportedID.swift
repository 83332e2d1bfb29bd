import CSodium
import Foundation

/// The id an imported record gets when its file id is not the importing account's and
/// the database holds other accounts.
///
/// Ids are unique in the whole database, so a file id that another account uses cannot be
/// kept; keeping the free ones would tell the importer which ids exist elsewhere. So every
/// file id the account does not know is mapped the same way, from the account and the file
/// id alone: SHA-256 of both, marked as a version 8 UUID. The mapping is stable (importing
/// the same file again updates what the first import created) and one way (no file id can
/// be chosen to land on another account's id). With no other account nothing can be
/// revealed, and file ids are kept, so that a backup restores with its ids.
enum ImportedID {
    static func id(for fileID: UUID, account: UUID) -> UUID {
        var input: [UInt8] = Array("slate-import\u{0}".utf8)
        withUnsafeBytes(of: account.uuid) { input += $0 }
        withUnsafeBytes(of: fileID.uuid) { input += $0 }
        var bytes = Array(sha256(input).prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x80
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}

/// SHA-256 of `message`, by libsodium.
func sha256(_ message: [UInt8]) -> [UInt8] {
    _ = sodiumReady
    var digest = [UInt8](repeating: 0, count: Int(crypto_hash_sha256_BYTES))
    message.withUnsafeBufferPointer { bytes in _ = crypto_hash_sha256(&digest, bytes.baseAddress, UInt64(bytes.count)) }
    return digest
}

/// libsodium asks for `sodium_init` before any other call (it is safe to repeat).
private let sodiumReady: Bool = sodium_init() >= 0
