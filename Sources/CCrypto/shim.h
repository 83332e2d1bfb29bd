#ifndef SLATE_CCRYPTO_SHIM_H
#define SLATE_CCRYPTO_SHIM_H

// OpenSSL's libcrypto, seen from Swift: the few primitives Web Push needs (RFC 8291
// message encryption, RFC 8292 VAPID signatures), each on raw bytes, and SHA-256 for the
// ids SlateCore derives (ImportedID). No cryptography is written here: P-256 keys, ECDH,
// HMAC-SHA256, AES-128-GCM, ECDSA and SHA-256 are libcrypto's.
// The EC_KEY interface is deprecated in OpenSSL 3 but still supported, and it takes raw
// key bytes without the long EVP_PKEY_fromdata dance.

#define OPENSSL_SUPPRESS_DEPRECATED 1
#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/ecdh.h>
#include <openssl/ecdsa.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/obj_mac.h>
#include <openssl/rand.h>
#include <openssl/sha.h>
#include <string.h>

/// A new P-256 key pair: `private_key` 32 bytes, `public_key` 65 bytes (uncompressed point).
/// Returns 1 on success.
static inline int slate_p256_generate(unsigned char *private_key, unsigned char *public_key) {
    EC_KEY *key = EC_KEY_new_by_curve_name(NID_X9_62_prime256v1);
    int ok = key && EC_KEY_generate_key(key)
        && BN_bn2binpad(EC_KEY_get0_private_key(key), private_key, 32) == 32
        && EC_POINT_point2oct(EC_KEY_get0_group(key), EC_KEY_get0_public_key(key), POINT_CONVERSION_UNCOMPRESSED,
                              public_key, 65, NULL) == 65;
    EC_KEY_free(key);
    return ok;
}

static inline EC_KEY *slate_p256_private(const unsigned char *private_key) {
    EC_KEY *key = EC_KEY_new_by_curve_name(NID_X9_62_prime256v1);
    BIGNUM *number = BN_bin2bn(private_key, 32, NULL);
    EC_POINT *point = key ? EC_POINT_new(EC_KEY_get0_group(key)) : NULL;
    int ok = key && number && point && EC_KEY_set_private_key(key, number)
        && EC_POINT_mul(EC_KEY_get0_group(key), point, number, NULL, NULL, NULL) && EC_KEY_set_public_key(key, point);
    EC_POINT_free(point);
    BN_free(number);
    if (!ok) { EC_KEY_free(key); return NULL; }
    return key;
}

/// ECDH on P-256: the 32-byte shared secret of `private_key` and `peer_public` (65 bytes).
static inline int slate_p256_ecdh(const unsigned char *private_key, const unsigned char *peer_public, unsigned char *secret) {
    EC_KEY *key = slate_p256_private(private_key);
    if (!key) return 0;
    EC_POINT *peer = EC_POINT_new(EC_KEY_get0_group(key));
    int ok = peer && EC_POINT_oct2point(EC_KEY_get0_group(key), peer, peer_public, 65, NULL)
        && ECDH_compute_key(secret, 32, peer, key, NULL) == 32;
    EC_POINT_free(peer);
    EC_KEY_free(key);
    return ok;
}

/// ES256: the raw 64-byte signature (r || s) of SHA-256(`message`) with `private_key`.
static inline int slate_p256_sign(const unsigned char *private_key, const unsigned char *message, size_t length,
                                  unsigned char *signature) {
    unsigned char digest[32];
    unsigned int digest_length = 0;
    if (!EVP_Digest(message, length, digest, &digest_length, EVP_sha256(), NULL)) return 0;
    EC_KEY *key = slate_p256_private(private_key);
    if (!key) return 0;
    ECDSA_SIG *sig = ECDSA_do_sign(digest, 32, key);
    int ok = 0;
    if (sig) {
        const BIGNUM *r = NULL, *s = NULL;
        ECDSA_SIG_get0(sig, &r, &s);
        ok = BN_bn2binpad(r, signature, 32) == 32 && BN_bn2binpad(s, signature + 32, 32) == 32;
        ECDSA_SIG_free(sig);
    }
    EC_KEY_free(key);
    return ok;
}

/// HMAC-SHA256 into `output` (32 bytes).
static inline int slate_hmac_sha256(const unsigned char *key, size_t key_length, const unsigned char *data, size_t length,
                                    unsigned char *output) {
    unsigned int written = 0;
    return HMAC(EVP_sha256(), key, (int) key_length, data, length, output, &written) != NULL && written == 32;
}

/// AES-128-GCM: `ciphertext` gets `length` bytes, then the 16-byte tag.
static inline int slate_aes128gcm_seal(const unsigned char *key, const unsigned char *nonce, const unsigned char *plaintext,
                                       size_t length, unsigned char *ciphertext) {
    EVP_CIPHER_CTX *context = EVP_CIPHER_CTX_new();
    int written = 0, final = 0;
    int ok = context && EVP_EncryptInit_ex(context, EVP_aes_128_gcm(), NULL, NULL, NULL)
        && EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_IVLEN, 12, NULL)
        && EVP_EncryptInit_ex(context, NULL, NULL, key, nonce)
        && EVP_EncryptUpdate(context, ciphertext, &written, plaintext, (int) length)
        && EVP_EncryptFinal_ex(context, ciphertext + written, &final)
        && EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_GET_TAG, 16, ciphertext + length);
    EVP_CIPHER_CTX_free(context);
    return ok;
}

/// `count` random bytes.
static inline int slate_random(unsigned char *output, size_t count) {
    return RAND_bytes(output, (int) count) == 1;
}

#endif
