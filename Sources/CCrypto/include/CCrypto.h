#ifndef SLATE_CCRYPTO_H
#define SLATE_CCRYPTO_H

// OpenSSL's libcrypto, seen from Swift: the few primitives Web Push needs (RFC 8291
// message encryption, RFC 8292 VAPID signatures), each on raw bytes. No cryptography is
// written here: P-256 keys, ECDH, HMAC-SHA256, AES-128-GCM and ECDSA are libcrypto's.
//
// libcrypto is opened with dlopen on first use, not linked: only `slate serve` sends Web
// Push, and the dynamic loader would otherwise map and relocate it on every `slate`
// command. Each function returns 0 (failure) when libcrypto cannot be loaded;
// `slate_crypto_load` says why.

#include <stddef.h>

/// Opens libcrypto and finds its functions (once; cheap afterwards). Returns 1 when they are
/// ready; 0 when libcrypto is not installed or is too old, with the reason in `error`
/// (`size` bytes).
int slate_crypto_load(char *error, size_t size);

/// A new P-256 key pair: `private_key` 32 bytes, `public_key` 65 bytes (uncompressed point).
/// Returns 1 on success.
int slate_p256_generate(unsigned char *private_key, unsigned char *public_key);

/// ECDH on P-256: the 32-byte shared secret of `private_key` and `peer_public` (65 bytes).
int slate_p256_ecdh(const unsigned char *private_key, const unsigned char *peer_public, unsigned char *secret);

/// ES256: the raw 64-byte signature (r || s) of SHA-256(`message`) with `private_key`.
int slate_p256_sign(const unsigned char *private_key, const unsigned char *message, size_t length,
                     unsigned char *signature);

/// HMAC-SHA256 into `output` (32 bytes).
int slate_hmac_sha256(const unsigned char *key, size_t key_length, const unsigned char *data, size_t length,
                       unsigned char *output);

/// AES-128-GCM: `ciphertext` gets `length` bytes, then the 16-byte tag.
int slate_aes128gcm_seal(const unsigned char *key, const unsigned char *nonce, const unsigned char *plaintext,
                          size_t length, unsigned char *ciphertext);

/// `count` random bytes.
int slate_random(unsigned char *output, size_t count);

#endif
