#ifndef WALLBOARD_CNATS_SHIM_H
#define WALLBOARD_CNATS_SHIM_H
// libnats (the NATS C client, JetStream and key-value included) and the few libcrypto calls an
// NKey needs: the one C door of the NATS module.
//
// Not linked: libnats is opened with dlopen the first time a NATS connection is made
// (`wb_nats_load`), as the QUIC libraries are, so a board that never dials nats:// does not map
// it (nor its libssl, libcrypto and libprotobuf-c). Its header is used to build (`libnats-dev`):
// `wb_nats_api` is a table of function pointers typed with `__typeof__` of the real declarations,
// so no signature is restated here and the linker fails if anything calls the library directly.
// The library is kept RTLD_LOCAL (it exports unprefixed names such as `_fetch` and `expandBuf`)
// and never closed (its threads outlive any one connection).
//
// libcrypto (OpenSSL 3, a dependency of libnats, so already mapped when libnats is) signs the
// server's nonce with the NKey's Ed25519 seed. Its header would need libssl-dev at build time for
// six functions, so they are declared here, with opaque types of our own: these are OpenSSL 3's
// stable ABI (libcrypto.so.3), unchanged since 1.1.1.
#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <nats/nats.h>

#define WB_NATS_SONAMES "libnats.so.3.4", "libnats.so"
#define WB_NATS_PACKAGE "libnats3.4"

#if defined(__clang__)
#define WB_NATS_NONNULL _Nonnull
#else
#define WB_NATS_NONNULL
#endif
#define WB_NATS_FN(name) __typeof__(&name) WB_NATS_NONNULL name

/// Every libnats function the NATS module calls, by its own name, resolved by `wb_nats_load`.
typedef struct wb_nats_api {
  // The library and its errors
  WB_NATS_FN(nats_GetVersion);
  WB_NATS_FN(nats_CheckCompatibilityImpl);
  WB_NATS_FN(natsStatus_GetText);
  WB_NATS_FN(nats_GetLastError);
  // Options
  WB_NATS_FN(natsOptions_Create);
  WB_NATS_FN(natsOptions_Destroy);
  WB_NATS_FN(natsOptions_SetURL);
  WB_NATS_FN(natsOptions_SetName);
  WB_NATS_FN(natsOptions_SetSecure);
  WB_NATS_FN(natsOptions_SetCATrustedCertificates);
  WB_NATS_FN(natsOptions_SetExpectedHostname);
  WB_NATS_FN(natsOptions_SetNKey);
  WB_NATS_FN(natsOptions_SetTimeout);
  WB_NATS_FN(natsOptions_SetMaxReconnect);
  WB_NATS_FN(natsOptions_SetReconnectWait);
  WB_NATS_FN(natsOptions_SetPingInterval);
  WB_NATS_FN(natsOptions_SetMaxPingsOut);
  WB_NATS_FN(natsOptions_SetCustomInboxPrefix);
  WB_NATS_FN(natsOptions_SetDisconnectedCB);
  WB_NATS_FN(natsOptions_SetReconnectedCB);
  WB_NATS_FN(natsOptions_SetClosedCB);
  WB_NATS_FN(natsOptions_SetErrorHandler);
  // Connections and core NATS
  WB_NATS_FN(natsConnection_Connect);
  WB_NATS_FN(natsConnection_Close);
  WB_NATS_FN(natsConnection_Destroy);
  WB_NATS_FN(natsConnection_Status);
  WB_NATS_FN(natsConnection_GetMaxPayload);
  WB_NATS_FN(natsConnection_GetLastError);
  WB_NATS_FN(natsConnection_Publish);
  WB_NATS_FN(natsConnection_FlushTimeout);
  WB_NATS_FN(natsConnection_Subscribe);
  WB_NATS_FN(natsSubscription_SetOnCompleteCB);
  WB_NATS_FN(natsSubscription_Unsubscribe);
  WB_NATS_FN(natsSubscription_Destroy);
  // Messages
  WB_NATS_FN(natsMsg_GetSubject);
  WB_NATS_FN(natsMsg_GetData);
  WB_NATS_FN(natsMsg_GetDataLength);
  WB_NATS_FN(natsMsg_Destroy);
  WB_NATS_FN(natsMsg_GetSequence);
  WB_NATS_FN(natsMsgHeader_Get);
  WB_NATS_FN(natsMsg_GetMetaData);
  WB_NATS_FN(jsMsgMetaData_Destroy);
  // JetStream
  WB_NATS_FN(natsConnection_JetStream);
  WB_NATS_FN(jsCtx_Destroy);
  WB_NATS_FN(jsOptions_Init);
  WB_NATS_FN(jsStreamConfig_Init);
  WB_NATS_FN(js_AddStream);
  WB_NATS_FN(js_UpdateStream);
  WB_NATS_FN(js_GetStreamInfo);
  WB_NATS_FN(jsStreamInfo_Destroy);
  WB_NATS_FN(jsPubOptions_Init);
  WB_NATS_FN(js_Publish);
  WB_NATS_FN(jsPubAck_Destroy);
  WB_NATS_FN(js_GetLastMsg);
  WB_NATS_FN(jsSubOptions_Init);
  WB_NATS_FN(js_Subscribe);
  // Key-value
  WB_NATS_FN(kvConfig_Init);
  WB_NATS_FN(js_CreateKeyValue);
  WB_NATS_FN(js_KeyValue);
  WB_NATS_FN(kvStore_Destroy);
  WB_NATS_FN(kvStore_Put);
  WB_NATS_FN(kvStore_Get);
  WB_NATS_FN(kvEntry_Value);
  WB_NATS_FN(kvEntry_ValueLen);
  WB_NATS_FN(kvEntry_Revision);
  WB_NATS_FN(kvEntry_Created);
  WB_NATS_FN(kvEntry_Destroy);
} wb_nats_api;

/// Opens the first of `names` that loads; NULL when none does (the first name's dlerror in `err`).
static inline void *wb_nats_open(const char *const *names, int count, char *err, size_t errlen) {
  for (int i = 0; i < count; i++) {
    void *h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (h != NULL) return h;
    const char *e = dlerror();
    if (i == 0) snprintf(err, errlen, "dlopen(%s) failed: %s", names[0], e ? e : "?");
  }
  return NULL;
}

#define WB_NATS_SYM(handle, table, name)                                                                    \
  do {                                                                                                      \
    void *sym = dlsym(handle, #name);                                                                       \
    if (sym == NULL) {                                                                                      \
      snprintf(err, errlen, "dlsym(%s) failed: %s", #name, dlerror());                                      \
      return -1;                                                                                            \
    }                                                                                                       \
    memcpy(&(table)->name, &sym, sizeof(sym));                                                              \
  } while (0)

/// Fills `api` from libnats opened with dlopen; 0, or −1 with the reason in `err` (what failed and
/// the package to install, or the version found). The handle is kept open for the process's life.
static inline int wb_nats_load(wb_nats_api *api, char *err, size_t errlen) {
  static const char *const names[] = {WB_NATS_SONAMES};
  void *h = wb_nats_open(names, 2, err, errlen);
  if (h == NULL) {
    size_t n = strlen(err);
    snprintf(err + n, errlen - n, " (install it with: apt-get install %s)", WB_NATS_PACKAGE);
    return -1;
  }
  WB_NATS_SYM(h, api, nats_GetVersion);
  WB_NATS_SYM(h, api, nats_CheckCompatibilityImpl);
  WB_NATS_SYM(h, api, natsStatus_GetText);
  WB_NATS_SYM(h, api, nats_GetLastError);
  WB_NATS_SYM(h, api, natsOptions_Create);
  WB_NATS_SYM(h, api, natsOptions_Destroy);
  WB_NATS_SYM(h, api, natsOptions_SetURL);
  WB_NATS_SYM(h, api, natsOptions_SetName);
  WB_NATS_SYM(h, api, natsOptions_SetSecure);
  WB_NATS_SYM(h, api, natsOptions_SetCATrustedCertificates);
  WB_NATS_SYM(h, api, natsOptions_SetExpectedHostname);
  WB_NATS_SYM(h, api, natsOptions_SetNKey);
  WB_NATS_SYM(h, api, natsOptions_SetTimeout);
  WB_NATS_SYM(h, api, natsOptions_SetMaxReconnect);
  WB_NATS_SYM(h, api, natsOptions_SetReconnectWait);
  WB_NATS_SYM(h, api, natsOptions_SetPingInterval);
  WB_NATS_SYM(h, api, natsOptions_SetMaxPingsOut);
  WB_NATS_SYM(h, api, natsOptions_SetCustomInboxPrefix);
  WB_NATS_SYM(h, api, natsOptions_SetDisconnectedCB);
  WB_NATS_SYM(h, api, natsOptions_SetReconnectedCB);
  WB_NATS_SYM(h, api, natsOptions_SetClosedCB);
  WB_NATS_SYM(h, api, natsOptions_SetErrorHandler);
  WB_NATS_SYM(h, api, natsConnection_Connect);
  WB_NATS_SYM(h, api, natsConnection_Close);
  WB_NATS_SYM(h, api, natsConnection_Destroy);
  WB_NATS_SYM(h, api, natsConnection_Status);
  WB_NATS_SYM(h, api, natsConnection_GetMaxPayload);
  WB_NATS_SYM(h, api, natsConnection_GetLastError);
  WB_NATS_SYM(h, api, natsConnection_Publish);
  WB_NATS_SYM(h, api, natsConnection_FlushTimeout);
  WB_NATS_SYM(h, api, natsConnection_Subscribe);
  WB_NATS_SYM(h, api, natsSubscription_SetOnCompleteCB);
  WB_NATS_SYM(h, api, natsSubscription_Unsubscribe);
  WB_NATS_SYM(h, api, natsSubscription_Destroy);
  WB_NATS_SYM(h, api, natsMsg_GetSubject);
  WB_NATS_SYM(h, api, natsMsg_GetData);
  WB_NATS_SYM(h, api, natsMsg_GetDataLength);
  WB_NATS_SYM(h, api, natsMsg_Destroy);
  WB_NATS_SYM(h, api, natsMsg_GetSequence);
  WB_NATS_SYM(h, api, natsMsgHeader_Get);
  WB_NATS_SYM(h, api, natsMsg_GetMetaData);
  WB_NATS_SYM(h, api, jsMsgMetaData_Destroy);
  WB_NATS_SYM(h, api, natsConnection_JetStream);
  WB_NATS_SYM(h, api, jsCtx_Destroy);
  WB_NATS_SYM(h, api, jsOptions_Init);
  WB_NATS_SYM(h, api, jsStreamConfig_Init);
  WB_NATS_SYM(h, api, js_AddStream);
  WB_NATS_SYM(h, api, js_UpdateStream);
  WB_NATS_SYM(h, api, js_GetStreamInfo);
  WB_NATS_SYM(h, api, jsStreamInfo_Destroy);
  WB_NATS_SYM(h, api, jsPubOptions_Init);
  WB_NATS_SYM(h, api, js_Publish);
  WB_NATS_SYM(h, api, jsPubAck_Destroy);
  WB_NATS_SYM(h, api, js_GetLastMsg);
  WB_NATS_SYM(h, api, jsSubOptions_Init);
  WB_NATS_SYM(h, api, js_Subscribe);
  WB_NATS_SYM(h, api, kvConfig_Init);
  WB_NATS_SYM(h, api, js_CreateKeyValue);
  WB_NATS_SYM(h, api, js_KeyValue);
  WB_NATS_SYM(h, api, kvStore_Destroy);
  WB_NATS_SYM(h, api, kvStore_Put);
  WB_NATS_SYM(h, api, kvStore_Get);
  WB_NATS_SYM(h, api, kvEntry_Value);
  WB_NATS_SYM(h, api, kvEntry_ValueLen);
  WB_NATS_SYM(h, api, kvEntry_Revision);
  WB_NATS_SYM(h, api, kvEntry_Created);
  WB_NATS_SYM(h, api, kvEntry_Destroy);
  // The library must be the minor version the shim was built for: the structs' layouts (options,
  // stream configs, metadata) are those of this header. nats_CheckCompatibility() is a macro.
  const char *found = api->nats_GetVersion();
  int major = -1, minor = -1;
  if (found == NULL || sscanf(found, "%d.%d", &major, &minor) != 2 || major != NATS_VERSION_MAJOR ||
      minor != NATS_VERSION_MINOR ||
      !api->nats_CheckCompatibilityImpl(NATS_VERSION_REQUIRED_NUMBER, NATS_VERSION_NUMBER, NATS_VERSION_STRING)) {
    snprintf(err, errlen, "libnats %s is installed; this board was built for %s (apt-get install %s)",
             found ? found : "?", NATS_VERSION_STRING, WB_NATS_PACKAGE);
    return -1;
  }
  return 0;
}

/// A natsStatus by its C name ("NATS_TIMEOUT"), for error messages.
static inline const char *wb_nats_status_name(natsStatus s) {
  switch (s) {
#define WB_NATS_NAME(x) \
  case x:               \
    return #x;
    WB_NATS_NAME(NATS_OK)
    WB_NATS_NAME(NATS_ERR)
    WB_NATS_NAME(NATS_PROTOCOL_ERROR)
    WB_NATS_NAME(NATS_IO_ERROR)
    WB_NATS_NAME(NATS_LINE_TOO_LONG)
    WB_NATS_NAME(NATS_CONNECTION_CLOSED)
    WB_NATS_NAME(NATS_NO_SERVER)
    WB_NATS_NAME(NATS_STALE_CONNECTION)
    WB_NATS_NAME(NATS_SECURE_CONNECTION_WANTED)
    WB_NATS_NAME(NATS_SECURE_CONNECTION_REQUIRED)
    WB_NATS_NAME(NATS_CONNECTION_DISCONNECTED)
    WB_NATS_NAME(NATS_CONNECTION_AUTH_FAILED)
    WB_NATS_NAME(NATS_NOT_PERMITTED)
    WB_NATS_NAME(NATS_NOT_FOUND)
    WB_NATS_NAME(NATS_ADDRESS_MISSING)
    WB_NATS_NAME(NATS_INVALID_SUBJECT)
    WB_NATS_NAME(NATS_INVALID_ARG)
    WB_NATS_NAME(NATS_INVALID_SUBSCRIPTION)
    WB_NATS_NAME(NATS_INVALID_TIMEOUT)
    WB_NATS_NAME(NATS_ILLEGAL_STATE)
    WB_NATS_NAME(NATS_SLOW_CONSUMER)
    WB_NATS_NAME(NATS_MAX_PAYLOAD)
    WB_NATS_NAME(NATS_MAX_DELIVERED_MSGS)
    WB_NATS_NAME(NATS_INSUFFICIENT_BUFFER)
    WB_NATS_NAME(NATS_NO_MEMORY)
    WB_NATS_NAME(NATS_SYS_ERROR)
    WB_NATS_NAME(NATS_TIMEOUT)
    WB_NATS_NAME(NATS_FAILED_TO_INITIALIZE)
    WB_NATS_NAME(NATS_NOT_INITIALIZED)
    WB_NATS_NAME(NATS_SSL_ERROR)
    WB_NATS_NAME(NATS_NO_SERVER_SUPPORT)
    WB_NATS_NAME(NATS_NOT_YET_CONNECTED)
    WB_NATS_NAME(NATS_DRAINING)
    WB_NATS_NAME(NATS_INVALID_QUEUE_NAME)
    WB_NATS_NAME(NATS_NO_RESPONDERS)
    WB_NATS_NAME(NATS_MISMATCH)
    WB_NATS_NAME(NATS_MISSED_HEARTBEAT)
#undef WB_NATS_NAME
  }
  return "NATS_?";
}

// ---- libcrypto (OpenSSL 3): Ed25519 for NKeys ----------------------------------------------

/// OpenSSL's EVP_PKEY and EVP_MD_CTX, opaque.
typedef struct wb_evp_pkey wb_evp_pkey;
typedef struct wb_evp_md_ctx wb_evp_md_ctx;
/// NID_ED25519 = EVP_PKEY_ED25519 (obj_mac.h).
#define WB_EVP_PKEY_ED25519 1087

/// The libcrypto functions an NKey needs, declared as OpenSSL 3's evp.h declares them (the
/// ENGINE, EVP_MD and EVP_PKEY_CTX arguments are always NULL here, hence `void *`).
typedef struct wb_nats_crypto {
  wb_evp_pkey *(*WB_NATS_NONNULL EVP_PKEY_new_raw_private_key)(int type, void *engine, const unsigned char *priv,
                                                                size_t len);
  int (*WB_NATS_NONNULL EVP_PKEY_get_raw_public_key)(const wb_evp_pkey *pkey, unsigned char *pub, size_t *len);
  void (*WB_NATS_NONNULL EVP_PKEY_free)(wb_evp_pkey *pkey);
  wb_evp_md_ctx *(*WB_NATS_NONNULL EVP_MD_CTX_new)(void);
  void (*WB_NATS_NONNULL EVP_MD_CTX_free)(wb_evp_md_ctx *ctx);
  int (*WB_NATS_NONNULL EVP_DigestSignInit)(wb_evp_md_ctx *ctx, void **pctx, const void *type, void *engine,
                                            wb_evp_pkey *pkey);
  int (*WB_NATS_NONNULL EVP_DigestSign)(wb_evp_md_ctx *ctx, unsigned char *sig, size_t *siglen,
                                        const unsigned char *tbs, size_t tbslen);
} wb_nats_crypto;

/// Fills `c` from libcrypto.so.3 (mapped already when libnats is); 0, or −1 with the reason.
static inline int wb_nats_crypto_load(wb_nats_crypto *c, char *err, size_t errlen) {
  static const char *const names[] = {"libcrypto.so.3"};
  void *h = wb_nats_open(names, 1, err, errlen);
  if (h == NULL) {
    size_t n = strlen(err);
    snprintf(err + n, errlen - n, " (install it with: apt-get install libssl3)");
    return -1;
  }
  WB_NATS_SYM(h, c, EVP_PKEY_new_raw_private_key);
  WB_NATS_SYM(h, c, EVP_PKEY_get_raw_public_key);
  WB_NATS_SYM(h, c, EVP_PKEY_free);
  WB_NATS_SYM(h, c, EVP_MD_CTX_new);
  WB_NATS_SYM(h, c, EVP_MD_CTX_free);
  WB_NATS_SYM(h, c, EVP_DigestSignInit);
  WB_NATS_SYM(h, c, EVP_DigestSign);
  return 0;
}
#undef WB_NATS_SYM

/// The Ed25519 public key of a 32-byte seed into `pub` (32 bytes); 0, or −1.
static inline int wb_nats_ed25519_public(const wb_nats_crypto *c, const uint8_t *seed, uint8_t *pub) {
  wb_evp_pkey *k = c->EVP_PKEY_new_raw_private_key(WB_EVP_PKEY_ED25519, NULL, seed, 32);
  if (k == NULL) return -1;
  size_t n = 32;
  int ok = c->EVP_PKEY_get_raw_public_key(k, pub, &n) == 1 && n == 32;
  c->EVP_PKEY_free(k);
  return ok ? 0 : -1;
}

/// The Ed25519 signature of `msg` by the key of a 32-byte seed into `sig` (64 bytes); 0, or −1.
static inline int wb_nats_ed25519_sign(const wb_nats_crypto *c, const uint8_t *seed, const uint8_t *msg, size_t len,
                                       uint8_t *sig) {
  wb_evp_pkey *k = c->EVP_PKEY_new_raw_private_key(WB_EVP_PKEY_ED25519, NULL, seed, 32);
  if (k == NULL) return -1;
  wb_evp_md_ctx *ctx = c->EVP_MD_CTX_new();
  size_t n = 64;
  int ok = ctx != NULL && c->EVP_DigestSignInit(ctx, NULL, NULL, NULL, k) == 1 &&
           c->EVP_DigestSign(ctx, sig, &n, msg, len) == 1 && n == 64;
  if (ctx != NULL) c->EVP_MD_CTX_free(ctx);
  c->EVP_PKEY_free(k);
  return ok ? 0 : -1;
}

#endif
