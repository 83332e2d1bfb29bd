// The Web Push primitives on libcrypto opened with dlopen (include/CCrypto.h says why).
// The EC_KEY interface is deprecated in OpenSSL 3 but still supported, and it takes raw key
// bytes without the long EVP_PKEY_fromdata dance. Every libcrypto function used is listed
// once in SLATE_CRYPTO_FUNCTIONS; its type comes from OpenSSL's headers, so a wrong one
// does not build.

#define OPENSSL_SUPPRESS_DEPRECATED 1
#include "CCrypto.h"

#include "CLoader.h"
#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/ecdh.h>
#include <openssl/ecdsa.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/obj_mac.h>
#include <openssl/rand.h>
#include <stdio.h>
#include <string.h>

#define SLATE_CRYPTO_FUNCTIONS(X) \
    X(EC_KEY_new_by_curve_name) \
    X(EC_KEY_generate_key) \
    X(BN_bn2binpad) \
    X(EC_KEY_get0_private_key) \
    X(EC_POINT_point2oct) \
    X(EC_KEY_get0_group) \
    X(EC_KEY_get0_public_key) \
    X(EC_KEY_free) \
    X(BN_bin2bn) \
    X(EC_POINT_new) \
    X(EC_KEY_set_private_key) \
    X(EC_POINT_mul) \
    X(EC_KEY_set_public_key) \
    X(EC_POINT_free) \
    X(BN_free) \
    X(EC_POINT_oct2point) \
    X(ECDH_compute_key) \
    X(EVP_Digest) \
    X(EVP_sha256) \
    X(ECDSA_do_sign) \
    X(ECDSA_SIG_get0) \
    X(ECDSA_SIG_free) \
    X(HMAC) \
    X(EVP_CIPHER_CTX_new) \
    X(EVP_EncryptInit_ex) \
    X(EVP_aes_128_gcm) \
    X(EVP_CIPHER_CTX_ctrl) \
    X(EVP_EncryptUpdate) \
    X(EVP_EncryptFinal_ex) \
    X(EVP_CIPHER_CTX_free) \
    X(RAND_bytes)

#define SLATE_CRYPTO_POINTER(name) __typeof__(name) *name;
static struct {
    SLATE_CRYPTO_FUNCTIONS(SLATE_CRYPTO_POINTER)
} ossl;

#ifdef __APPLE__
static const char *const library_names[] = {"libcrypto.3.dylib"};
#else
static const char *const library_names[] = {"libcrypto.so.3"};
#endif

static int resolve(void *handle, const char *title, char *error, size_t size) {
#define SLATE_CRYPTO_FIND(name)                                                                                        \
    if (!slate_library_find(handle, #name, (void **)&ossl.name, title, error, size)) return 0;
    SLATE_CRYPTO_FUNCTIONS(SLATE_CRYPTO_FIND)
    return 1;
}

static struct slate_library library = SLATE_LIBRARY(
    library_names, "libcrypto", "Web Push needs libcrypto, which is not installed (on Debian: apt install libssl3)", resolve);

int slate_crypto_load(char *error, size_t size) { return slate_library_load(&library, error, size); }

/// A new P-256 key pair: `private_key` 32 bytes, `public_key` 65 bytes (uncompressed point).
/// Returns 1 on success.
int slate_p256_generate(unsigned char *private_key, unsigned char *public_key) {
    if (!slate_crypto_load(NULL, 0)) return 0;
    EC_KEY *key = ossl.EC_KEY_new_by_curve_name(NID_X9_62_prime256v1);
    int ok = key && ossl.EC_KEY_generate_key(key)
        && ossl.BN_bn2binpad(ossl.EC_KEY_get0_private_key(key), private_key, 32) == 32
        && ossl.EC_POINT_point2oct(ossl.EC_KEY_get0_group(key), ossl.EC_KEY_get0_public_key(key), POINT_CONVERSION_UNCOMPRESSED,
                              public_key, 65, NULL) == 65;
    ossl.EC_KEY_free(key);
    return ok;
}

static EC_KEY *slate_p256_private(const unsigned char *private_key) {
    EC_KEY *key = ossl.EC_KEY_new_by_curve_name(NID_X9_62_prime256v1);
    BIGNUM *number = ossl.BN_bin2bn(private_key, 32, NULL);
    EC_POINT *point = key ? ossl.EC_POINT_new(ossl.EC_KEY_get0_group(key)) : NULL;
    int ok = key && number && point && ossl.EC_KEY_set_private_key(key, number)
        && ossl.EC_POINT_mul(ossl.EC_KEY_get0_group(key), point, number, NULL, NULL, NULL) && ossl.EC_KEY_set_public_key(key, point);
    ossl.EC_POINT_free(point);
    ossl.BN_free(number);
    if (!ok) { ossl.EC_KEY_free(key); return NULL; }
    return key;
}

/// ECDH on P-256: the 32-byte shared secret of `private_key` and `peer_public` (65 bytes).
int slate_p256_ecdh(const unsigned char *private_key, const unsigned char *peer_public, unsigned char *secret) {
    if (!slate_crypto_load(NULL, 0)) return 0;
    EC_KEY *key = slate_p256_private(private_key);
    if (!key) return 0;
    EC_POINT *peer = ossl.EC_POINT_new(ossl.EC_KEY_get0_group(key));
    int ok = peer && ossl.EC_POINT_oct2point(ossl.EC_KEY_get0_group(key), peer, peer_public, 65, NULL)
        && ossl.ECDH_compute_key(secret, 32, peer, key, NULL) == 32;
    ossl.EC_POINT_free(peer);
    ossl.EC_KEY_free(key);
    return ok;
}

/// ES256: the raw 64-byte signature (r || s) of SHA-256(`message`) with `private_key`.
int slate_p256_sign(const unsigned char *private_key, const unsigned char *message, size_t length,
                                  unsigned char *signature) {
    if (!slate_crypto_load(NULL, 0)) return 0;
    unsigned char digest[32];
    unsigned int digest_length = 0;
    if (!ossl.EVP_Digest(message, length, digest, &digest_length, ossl.EVP_sha256(), NULL)) return 0;
    EC_KEY *key = slate_p256_private(private_key);
    if (!key) return 0;
    ECDSA_SIG *sig = ossl.ECDSA_do_sign(digest, 32, key);
    int ok = 0;
    if (sig) {
        const BIGNUM *r = NULL, *s = NULL;
        ossl.ECDSA_SIG_get0(sig, &r, &s);
        ok = ossl.BN_bn2binpad(r, signature, 32) == 32 && ossl.BN_bn2binpad(s, signature + 32, 32) == 32;
        ossl.ECDSA_SIG_free(sig);
    }
    ossl.EC_KEY_free(key);
    return ok;
}

/// HMAC-SHA256 into `output` (32 bytes).
int slate_hmac_sha256(const unsigned char *key, size_t key_length, const unsigned char *data, size_t length,
                                    unsigned char *output) {
    if (!slate_crypto_load(NULL, 0)) return 0;
    unsigned int written = 0;
    return ossl.HMAC(ossl.EVP_sha256(), key, (int) key_length, data, length, output, &written) != NULL && written == 32;
}

/// AES-128-GCM: `ciphertext` gets `length` bytes, then the 16-byte tag.
int slate_aes128gcm_seal(const unsigned char *key, const unsigned char *nonce, const unsigned char *plaintext,
                                       size_t length, unsigned char *ciphertext) {
    if (!slate_crypto_load(NULL, 0)) return 0;
    EVP_CIPHER_CTX *context = ossl.EVP_CIPHER_CTX_new();
    int written = 0, final = 0;
    int ok = context && ossl.EVP_EncryptInit_ex(context, ossl.EVP_aes_128_gcm(), NULL, NULL, NULL)
        && ossl.EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_IVLEN, 12, NULL)
        && ossl.EVP_EncryptInit_ex(context, NULL, NULL, key, nonce)
        && ossl.EVP_EncryptUpdate(context, ciphertext, &written, plaintext, (int) length)
        && ossl.EVP_EncryptFinal_ex(context, ciphertext + written, &final)
        && ossl.EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_GET_TAG, 16, ciphertext + length);
    ossl.EVP_CIPHER_CTX_free(context);
    return ok;
}

/// `count` random bytes.
int slate_random(unsigned char *output, size_t count) {
    if (!slate_crypto_load(NULL, 0)) return 0;
    return ossl.RAND_bytes(output, (int) count) == 1;
}
