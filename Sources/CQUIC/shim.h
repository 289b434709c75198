#ifndef WALLBOARD_CQUIC_SHIM_H
#define WALLBOARD_CQUIC_SHIM_H
// ngtcp2 (QUIC) with its GnuTLS crypto backend, and GnuTLS: the one C door of the QUIC module.
//
// Not linked: the libraries are opened with dlopen the first time a QUIC connection is made
// (`wb_quic_load`), as SDL2 is when a window is, so a board that never dials QUIC neither maps
// them nor runs GnuTLS's initialisation (2.4 MiB of libraries and about 1 MiB of heap measured in
// a running board). Their headers are still used to build (`libngtcp2-dev`,
// `libngtcp2-crypto-gnutls-dev`, `libgnutls28-dev`): `wb_quic_api` is a table of function
// pointers typed with `__typeof__` of the real declarations, so every signature is the
// compiler's, never restated here, and the linker fails if anything calls a library directly.
//
// Many ngtcp2 entry points are function-like macros over `*_versioned` functions, which Swift
// cannot import, and ngtcp2 1.0 renamed a few (connection_close_error → ccerr, with its
// NGTCP2_CCERR_TYPE_* constants; a flags argument on shutdown_stream; is_in_closing_period and
// is_in_draining_period → in_closing_period and in_draining_period). The `wb_quic_` helpers
// below give one spelling for Debian 12's 0.12 and for 1.x (bookworm-backports, trixie; checked
// by scripts/check-ngtcp2-1x.sh); the Swift side calls only these and the table's members whose
// names did not change.
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <gnutls/gnutls.h>
#include <gnutls/x509.h>
#include <gnutls/crypto.h>
#include <ngtcp2/ngtcp2.h>
#include <ngtcp2/ngtcp2_crypto.h>
#include <ngtcp2/ngtcp2_crypto_gnutls.h>

#if NGTCP2_VERSION_NUM >= 0x010000
#define WB_QUIC_NGTCP2_1 1
typedef ngtcp2_ccerr wb_quic_ccerr;
#define WB_QUIC_CCERR_TYPE_APPLICATION NGTCP2_CCERR_TYPE_APPLICATION
// The sonames of 1.x as Debian ships it (1.11: libngtcp2-16, libngtcp2-crypto-gnutls8); the
// unversioned names where the -dev packages are installed.
#define WB_QUIC_NGTCP2_SONAMES "libngtcp2.so.16", "libngtcp2.so"
#define WB_QUIC_CRYPTO_SONAMES "libngtcp2_crypto_gnutls.so.8", "libngtcp2_crypto_gnutls.so"
#define WB_QUIC_PACKAGES "libngtcp2-16 libngtcp2-crypto-gnutls8"
#else
#define WB_QUIC_NGTCP2_1 0
typedef ngtcp2_connection_close_error wb_quic_ccerr;
#define WB_QUIC_CCERR_TYPE_APPLICATION NGTCP2_CONNECTION_CLOSE_ERROR_CODE_TYPE_APPLICATION
#define WB_QUIC_NGTCP2_SONAMES "libngtcp2.so.9", "libngtcp2.so"
#define WB_QUIC_CRYPTO_SONAMES "libngtcp2_crypto_gnutls.so.2", "libngtcp2_crypto_gnutls.so"
#define WB_QUIC_PACKAGES "libngtcp2-9 libngtcp2-crypto-gnutls2"
#endif

#if defined(__clang__)
#define WB_QUIC_NONNULL _Nonnull
#else
#define WB_QUIC_NONNULL
#endif
#define WB_QUIC_FN(name) __typeof__(&name) WB_QUIC_NONNULL name

/// Every library function the QUIC module calls, by its own name, resolved by `wb_quic_load`.
typedef struct wb_quic_api {
  // ngtcp2
  WB_QUIC_FN(ngtcp2_version);
  WB_QUIC_FN(ngtcp2_conn_client_new_versioned);
  WB_QUIC_FN(ngtcp2_conn_read_pkt_versioned);
  WB_QUIC_FN(ngtcp2_conn_writev_stream_versioned);
  WB_QUIC_FN(ngtcp2_conn_write_connection_close_versioned);
  WB_QUIC_FN(ngtcp2_settings_default_versioned);
  WB_QUIC_FN(ngtcp2_transport_params_default_versioned);
  WB_QUIC_FN(ngtcp2_conn_del);
  WB_QUIC_FN(ngtcp2_conn_get_expiry);
  WB_QUIC_FN(ngtcp2_conn_handle_expiry);
  WB_QUIC_FN(ngtcp2_conn_open_bidi_stream);
  WB_QUIC_FN(ngtcp2_conn_extend_max_stream_offset);
  WB_QUIC_FN(ngtcp2_conn_extend_max_offset);
  WB_QUIC_FN(ngtcp2_conn_update_pkt_tx_time);
  WB_QUIC_FN(ngtcp2_conn_get_tls_alert);
  WB_QUIC_FN(ngtcp2_conn_set_tls_native_handle);
  WB_QUIC_FN(ngtcp2_conn_set_keep_alive_timeout);
  WB_QUIC_FN(ngtcp2_conn_shutdown_stream);
  WB_QUIC_FN(ngtcp2_cid_init);
  WB_QUIC_FN(ngtcp2_strerror);
  WB_QUIC_FN(ngtcp2_err_is_fatal);
#if WB_QUIC_NGTCP2_1
  WB_QUIC_FN(ngtcp2_conn_in_closing_period);
  WB_QUIC_FN(ngtcp2_conn_in_draining_period);
  WB_QUIC_FN(ngtcp2_conn_get_ccerr);
  WB_QUIC_FN(ngtcp2_ccerr_default);
  WB_QUIC_FN(ngtcp2_ccerr_set_application_error);
  WB_QUIC_FN(ngtcp2_ccerr_set_tls_alert);
#else
  WB_QUIC_FN(ngtcp2_conn_is_in_closing_period);
  WB_QUIC_FN(ngtcp2_conn_is_in_draining_period);
  WB_QUIC_FN(ngtcp2_conn_get_connection_close_error);
  WB_QUIC_FN(ngtcp2_connection_close_error_default);
  WB_QUIC_FN(ngtcp2_connection_close_error_set_application_error);
  WB_QUIC_FN(ngtcp2_connection_close_error_set_transport_error_tls_alert);
#endif
  // ngtcp2's GnuTLS crypto
  WB_QUIC_FN(ngtcp2_crypto_gnutls_configure_client_session);
  WB_QUIC_FN(ngtcp2_crypto_client_initial_cb);
  WB_QUIC_FN(ngtcp2_crypto_recv_crypto_data_cb);
  WB_QUIC_FN(ngtcp2_crypto_encrypt_cb);
  WB_QUIC_FN(ngtcp2_crypto_decrypt_cb);
  WB_QUIC_FN(ngtcp2_crypto_hp_mask_cb);
  WB_QUIC_FN(ngtcp2_crypto_recv_retry_cb);
  WB_QUIC_FN(ngtcp2_crypto_update_key_cb);
  WB_QUIC_FN(ngtcp2_crypto_delete_crypto_aead_ctx_cb);
  WB_QUIC_FN(ngtcp2_crypto_delete_crypto_cipher_ctx_cb);
  WB_QUIC_FN(ngtcp2_crypto_get_path_challenge_data_cb);
  WB_QUIC_FN(ngtcp2_crypto_version_negotiation_cb);
  // GnuTLS
  WB_QUIC_FN(gnutls_strerror);
  WB_QUIC_FN(gnutls_certificate_allocate_credentials);
  WB_QUIC_FN(gnutls_certificate_free_credentials);
  WB_QUIC_FN(gnutls_certificate_set_x509_trust_mem);
  WB_QUIC_FN(gnutls_certificate_set_x509_key_mem2);
  WB_QUIC_FN(gnutls_init);
  WB_QUIC_FN(gnutls_deinit);
  WB_QUIC_FN(gnutls_priority_set_direct);
  WB_QUIC_FN(gnutls_credentials_set);
  WB_QUIC_FN(gnutls_alpn_set_protocols);
  WB_QUIC_FN(gnutls_alpn_get_selected_protocol);
  WB_QUIC_FN(gnutls_server_name_set);
  WB_QUIC_FN(gnutls_session_set_verify_cert);
  WB_QUIC_FN(gnutls_session_get_verify_cert_status);
  WB_QUIC_FN(gnutls_certificate_verification_status_print);
  WB_QUIC_FN(gnutls_alert_get_name);
  WB_QUIC_FN(gnutls_rnd);
  WB_QUIC_FN(gnutls_session_set_ptr);
  /// GnuTLS's free (a variable holding a function pointer in the library).
  gnutls_free_function WB_QUIC_NONNULL gnutls_free;
} wb_quic_api;

/// Opens the first of `names` that loads; NULL when none does (the last dlerror in `err`).
static inline void *wb_quic_open(const char *const *names, int count, char *err, size_t errlen) {
  for (int i = 0; i < count; i++) {
    void *h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (h != NULL) return h;
    const char *e = dlerror();
    snprintf(err, errlen, "dlopen(%s) failed: %s", names[0], e ? e : "?");
  }
  return NULL;
}

/// Fills `api` from the libraries opened with dlopen; 0, or −1 with the reason in `err` (what
/// failed and the package to install). The handles are kept open for the process's life.
static inline int wb_quic_load(wb_quic_api *api, char *err, size_t errlen) {
  static const char *const ngtcp2_names[] = {WB_QUIC_NGTCP2_SONAMES};
  static const char *const crypto_names[] = {WB_QUIC_CRYPTO_SONAMES};
  static const char *const gnutls_names[] = {"libgnutls.so.30"};
  void *ngtcp2 = wb_quic_open(ngtcp2_names, 2, err, errlen);
  void *crypto = ngtcp2 ? wb_quic_open(crypto_names, 2, err, errlen) : NULL;
  void *gnutls = crypto ? wb_quic_open(gnutls_names, 1, err, errlen) : NULL;
  if (gnutls == NULL) {
    size_t n = strlen(err);
    snprintf(err + n, errlen - n, " (install it with: apt-get install %s libgnutls30)", WB_QUIC_PACKAGES);
    return -1;
  }
  void *sym;
#define WB_QUIC_SYM(handle, name)                                                                            \
  do {                                                                                                      \
    sym = dlsym(handle, #name);                                                                             \
    if (sym == NULL) {                                                                                      \
      snprintf(err, errlen, "dlsym(%s) failed: %s", #name, dlerror());                                      \
      return -1;                                                                                            \
    }                                                                                                       \
    memcpy(&api->name, &sym, sizeof(sym));                                                                  \
  } while (0)
  WB_QUIC_SYM(ngtcp2, ngtcp2_version);
  WB_QUIC_SYM(ngtcp2, ngtcp2_conn_client_new_versioned);
  WB_QUIC_SYM(ngtcp2, ngtcp2_conn_read_pkt_versioned);
  WB_QUIC_SYM(ngtcp2, ngtcp2_conn_writev_stream_versioned);
  WB_QUIC_SYM(ngtcp2, ngtcp2_conn_write_connection_close_versioned);
  WB_QUIC_SYM(ngtcp2, ngtcp2_settings_default_versioned);
  WB_QUIC_SYM(ngtcp2, ngtcp2_transport_params_default_versioned);
  WB_QUIC_SYM(ngtcp2, ngtcp2_conn_del);
  WB_QUIC_SYM(ngtcp2, ngtcp2_conn_get_expiry);
  WB_QUIC_SYM(ngtcp2, ngtcp2_conn_handle_expiry);
  WB_QUIC_SYM(ngtcp2, ngtcp2_conn_open_bidi_stream);
  WB_QUIC_SYM(ngtcp2, ngtcp2_conn_extend_max_stream_offset);
  WB_QUIC_SYM(ngtcp2, ngtcp2_conn_extend_max_offset);
  WB_QUIC_SYM(ngtcp2, ngtcp2_conn_update_pkt_tx_time);
  WB_QUIC_SYM(ngtcp2, ngtcp2_conn_get_tls_alert);
  WB_QUIC_SYM(ngtcp2, ngtcp2_conn_set_tls_native_handle);
  WB_QUIC_SYM(ngtcp2, ngtcp2_conn_set_keep_alive_timeout);
  WB_QUIC_SYM(ngtcp2, ngtcp2_conn_shutdown_stream);
  WB_QUIC_SYM(ngtcp2, ngtcp2_cid_init);
  WB_QUIC_SYM(ngtcp2, ngtcp2_strerror);
  WB_QUIC_SYM(ngtcp2, ngtcp2_err_is_fatal);
#if WB_QUIC_NGTCP2_1
  WB_QUIC_SYM(ngtcp2, ngtcp2_conn_in_closing_period);
  WB_QUIC_SYM(ngtcp2, ngtcp2_conn_in_draining_period);
  WB_QUIC_SYM(ngtcp2, ngtcp2_conn_get_ccerr);
  WB_QUIC_SYM(ngtcp2, ngtcp2_ccerr_default);
  WB_QUIC_SYM(ngtcp2, ngtcp2_ccerr_set_application_error);
  WB_QUIC_SYM(ngtcp2, ngtcp2_ccerr_set_tls_alert);
#else
  WB_QUIC_SYM(ngtcp2, ngtcp2_conn_is_in_closing_period);
  WB_QUIC_SYM(ngtcp2, ngtcp2_conn_is_in_draining_period);
  WB_QUIC_SYM(ngtcp2, ngtcp2_conn_get_connection_close_error);
  WB_QUIC_SYM(ngtcp2, ngtcp2_connection_close_error_default);
  WB_QUIC_SYM(ngtcp2, ngtcp2_connection_close_error_set_application_error);
  WB_QUIC_SYM(ngtcp2, ngtcp2_connection_close_error_set_transport_error_tls_alert);
#endif
  WB_QUIC_SYM(crypto, ngtcp2_crypto_gnutls_configure_client_session);
  WB_QUIC_SYM(crypto, ngtcp2_crypto_client_initial_cb);
  WB_QUIC_SYM(crypto, ngtcp2_crypto_recv_crypto_data_cb);
  WB_QUIC_SYM(crypto, ngtcp2_crypto_encrypt_cb);
  WB_QUIC_SYM(crypto, ngtcp2_crypto_decrypt_cb);
  WB_QUIC_SYM(crypto, ngtcp2_crypto_hp_mask_cb);
  WB_QUIC_SYM(crypto, ngtcp2_crypto_recv_retry_cb);
  WB_QUIC_SYM(crypto, ngtcp2_crypto_update_key_cb);
  WB_QUIC_SYM(crypto, ngtcp2_crypto_delete_crypto_aead_ctx_cb);
  WB_QUIC_SYM(crypto, ngtcp2_crypto_delete_crypto_cipher_ctx_cb);
  WB_QUIC_SYM(crypto, ngtcp2_crypto_get_path_challenge_data_cb);
  WB_QUIC_SYM(crypto, ngtcp2_crypto_version_negotiation_cb);
  WB_QUIC_SYM(gnutls, gnutls_strerror);
  WB_QUIC_SYM(gnutls, gnutls_certificate_allocate_credentials);
  WB_QUIC_SYM(gnutls, gnutls_certificate_free_credentials);
  WB_QUIC_SYM(gnutls, gnutls_certificate_set_x509_trust_mem);
  WB_QUIC_SYM(gnutls, gnutls_certificate_set_x509_key_mem2);
  WB_QUIC_SYM(gnutls, gnutls_init);
  WB_QUIC_SYM(gnutls, gnutls_deinit);
  WB_QUIC_SYM(gnutls, gnutls_priority_set_direct);
  WB_QUIC_SYM(gnutls, gnutls_credentials_set);
  WB_QUIC_SYM(gnutls, gnutls_alpn_set_protocols);
  WB_QUIC_SYM(gnutls, gnutls_alpn_get_selected_protocol);
  WB_QUIC_SYM(gnutls, gnutls_server_name_set);
  WB_QUIC_SYM(gnutls, gnutls_session_set_verify_cert);
  WB_QUIC_SYM(gnutls, gnutls_session_get_verify_cert_status);
  WB_QUIC_SYM(gnutls, gnutls_certificate_verification_status_print);
  WB_QUIC_SYM(gnutls, gnutls_alert_get_name);
  WB_QUIC_SYM(gnutls, gnutls_rnd);
  WB_QUIC_SYM(gnutls, gnutls_session_set_ptr);
#undef WB_QUIC_SYM
  gnutls_free_function *free_fn = (gnutls_free_function *)dlsym(gnutls, "gnutls_free");
  if (free_fn == NULL || *free_fn == NULL) {
    snprintf(err, errlen, "dlsym(gnutls_free) failed");
    return -1;
  }
  api->gnutls_free = *free_fn;
  // The library must be the minor version the shim was built for: the structs' layouts and the
  // callbacks' meanings are those of these headers.
  const ngtcp2_info *info = api->ngtcp2_version(0);
  if (info == NULL || (info->version_num >> 8) != (NGTCP2_VERSION_NUM >> 8)) {
    snprintf(err, errlen, "libngtcp2 %s is installed; this board was built for %s", info ? info->version_str : "?",
             NGTCP2_VERSION);
    return -1;
  }
  return 0;
}

/// Random bytes from GnuTLS's generator (ngtcp2's own needs): `ctx->native_handle` is the table.
static inline void wb_quic_rand(uint8_t *dest, size_t destlen, const ngtcp2_rand_ctx *ctx) {
  const wb_quic_api *a = (const wb_quic_api *)ctx->native_handle;
  (void)a->gnutls_rnd(GNUTLS_RND_RANDOM, dest, destlen);
}

/// A client's callbacks with the crypto and random ones filled (by name); the application's
/// (new connection ids among them) are the caller's to set.
static inline void wb_quic_client_callbacks(const wb_quic_api *a, ngtcp2_callbacks *cb) {
  memset(cb, 0, sizeof(*cb));
  cb->client_initial = a->ngtcp2_crypto_client_initial_cb;
  cb->recv_crypto_data = a->ngtcp2_crypto_recv_crypto_data_cb;
  cb->encrypt = a->ngtcp2_crypto_encrypt_cb;
  cb->decrypt = a->ngtcp2_crypto_decrypt_cb;
  cb->hp_mask = a->ngtcp2_crypto_hp_mask_cb;
  cb->recv_retry = a->ngtcp2_crypto_recv_retry_cb;
  cb->update_key = a->ngtcp2_crypto_update_key_cb;
  cb->delete_crypto_aead_ctx = a->ngtcp2_crypto_delete_crypto_aead_ctx_cb;
  cb->delete_crypto_cipher_ctx = a->ngtcp2_crypto_delete_crypto_cipher_ctx_cb;
  cb->get_path_challenge_data = a->ngtcp2_crypto_get_path_challenge_data_cb;
  cb->version_negotiation = a->ngtcp2_crypto_version_negotiation_cb;
  cb->rand = wb_quic_rand;
}

/// ngtcp2's defaults, and the random context pointed at the table (for `wb_quic_rand`).
static inline void wb_quic_settings_default(const wb_quic_api *a, ngtcp2_settings *s) {
  a->ngtcp2_settings_default_versioned(NGTCP2_SETTINGS_VERSION, s);
  s->rand_ctx.native_handle = (void *)a;
}
static inline void wb_quic_transport_params_default(const wb_quic_api *a, ngtcp2_transport_params *p) {
  a->ngtcp2_transport_params_default_versioned(NGTCP2_TRANSPORT_PARAMS_VERSION, p);
}

static inline int wb_quic_client_new(const wb_quic_api *a, ngtcp2_conn **pconn, const ngtcp2_cid *dcid,
                                     const ngtcp2_cid *scid, const ngtcp2_path *path,
                                     const ngtcp2_callbacks *callbacks, const ngtcp2_settings *settings,
                                     const ngtcp2_transport_params *params, void *user_data) {
  return a->ngtcp2_conn_client_new_versioned(pconn, dcid, scid, path, NGTCP2_PROTO_VER_V1, NGTCP2_CALLBACKS_VERSION,
                                             callbacks, NGTCP2_SETTINGS_VERSION, settings,
                                             NGTCP2_TRANSPORT_PARAMS_VERSION, params, NULL, user_data);
}

static inline int wb_quic_read_pkt(const wb_quic_api *a, ngtcp2_conn *conn, const ngtcp2_path *path,
                                   const uint8_t *pkt, size_t pktlen, ngtcp2_tstamp ts) {
  ngtcp2_pkt_info pi;
  memset(&pi, 0, sizeof(pi));
  return a->ngtcp2_conn_read_pkt_versioned(conn, path, NGTCP2_PKT_INFO_VERSION, &pi, pkt, pktlen, ts);
}

/// One packet: stream data of `stream_id` (−1: none, only what the connection itself has to
/// send), `*pdatalen` set to the stream bytes it took (−1 when none). `fin` ends the stream with
/// the last of `data`; `more` asks to coalesce (NGTCP2_ERR_WRITE_MORE then means: call again).
static inline ngtcp2_ssize wb_quic_write_stream(const wb_quic_api *a, ngtcp2_conn *conn, ngtcp2_path *path,
                                                uint8_t *dest, size_t destlen, ngtcp2_ssize *pdatalen, int more,
                                                int fin, int64_t stream_id, const uint8_t *data, size_t datalen,
                                                ngtcp2_tstamp ts) {
  ngtcp2_vec v;
  v.base = (uint8_t *)data;
  v.len = datalen;
  uint32_t flags = NGTCP2_WRITE_STREAM_FLAG_NONE;
  if (more) flags |= NGTCP2_WRITE_STREAM_FLAG_MORE;
  if (fin) flags |= NGTCP2_WRITE_STREAM_FLAG_FIN;
  ngtcp2_pkt_info pi;
  return a->ngtcp2_conn_writev_stream_versioned(conn, path, NGTCP2_PKT_INFO_VERSION, &pi, dest, destlen, pdatalen,
                                                flags, stream_id, stream_id < 0 ? NULL : &v, stream_id < 0 ? 0 : 1,
                                                ts);
}

/// A CONNECTION_CLOSE with an application error code (0: no error).
static inline ngtcp2_ssize wb_quic_write_close(const wb_quic_api *a, ngtcp2_conn *conn, uint8_t *dest,
                                               size_t destlen, uint64_t app_error, ngtcp2_tstamp ts) {
  wb_quic_ccerr err;
  ngtcp2_pkt_info pi;
#if WB_QUIC_NGTCP2_1
  a->ngtcp2_ccerr_default(&err);
  a->ngtcp2_ccerr_set_application_error(&err, app_error, NULL, 0);
#else
  a->ngtcp2_connection_close_error_default(&err);
  a->ngtcp2_connection_close_error_set_application_error(&err, app_error, NULL, 0);
#endif
  return a->ngtcp2_conn_write_connection_close_versioned(conn, NULL, NGTCP2_PKT_INFO_VERSION, &pi, dest, destlen,
                                                         &err, ts);
}

/// A CONNECTION_CLOSE carrying the TLS alert this side's handshake failed with (CRYPTO_ERROR).
static inline ngtcp2_ssize wb_quic_write_close_tls(const wb_quic_api *a, ngtcp2_conn *conn, uint8_t *dest,
                                                   size_t destlen, uint8_t alert, ngtcp2_tstamp ts) {
  wb_quic_ccerr err;
  ngtcp2_pkt_info pi;
#if WB_QUIC_NGTCP2_1
  a->ngtcp2_ccerr_default(&err);
  a->ngtcp2_ccerr_set_tls_alert(&err, alert, NULL, 0);
#else
  a->ngtcp2_connection_close_error_default(&err);
  a->ngtcp2_connection_close_error_set_transport_error_tls_alert(&err, alert, NULL, 0);
#endif
  return a->ngtcp2_conn_write_connection_close_versioned(conn, NULL, NGTCP2_PKT_INFO_VERSION, &pi, dest, destlen,
                                                         &err, ts);
}

/// Why the connection was closed, as the peer's CONNECTION_CLOSE (or this side's) said it:
/// `*is_application` (1: an application code, 0: a transport code), the code, and up to
/// `reasoncap` bytes of the reason (`*reasonlen` set).
static inline uint64_t wb_quic_close_error(const wb_quic_api *a, ngtcp2_conn *conn, int *is_application,
                                           uint8_t *reason, size_t reasoncap, size_t *reasonlen) {
#if WB_QUIC_NGTCP2_1
  const ngtcp2_ccerr *e = a->ngtcp2_conn_get_ccerr(conn);
#else
  ngtcp2_connection_close_error stored;
  a->ngtcp2_conn_get_connection_close_error(conn, &stored);
  const ngtcp2_connection_close_error *e = &stored;
#endif
  *is_application = e->type == WB_QUIC_CCERR_TYPE_APPLICATION;
  size_t n = e->reasonlen < reasoncap ? e->reasonlen : reasoncap;
  if (n > 0 && e->reason != NULL) memcpy(reason, e->reason, n);
  *reasonlen = n;
  return e->error_code;
}

static inline int wb_quic_shutdown_stream(const wb_quic_api *a, ngtcp2_conn *conn, int64_t stream_id,
                                          uint64_t app_error) {
#if WB_QUIC_NGTCP2_1
  return a->ngtcp2_conn_shutdown_stream(conn, 0, stream_id, app_error);
#else
  return a->ngtcp2_conn_shutdown_stream(conn, stream_id, app_error);
#endif
}

/// Nonzero once this side has sent its CONNECTION_CLOSE (the closing period) or received the
/// peer's (the draining period): nothing more is to be written. 1.0 dropped the `is_` of
/// ngtcp2_conn_is_in_closing_period and ngtcp2_conn_is_in_draining_period.
static inline int wb_quic_closing_or_draining(const wb_quic_api *a, ngtcp2_conn *conn) {
#if WB_QUIC_NGTCP2_1
  return a->ngtcp2_conn_in_closing_period(conn) || a->ngtcp2_conn_in_draining_period(conn);
#else
  return a->ngtcp2_conn_is_in_closing_period(conn) || a->ngtcp2_conn_is_in_draining_period(conn);
#endif
}

/// Points `session`'s user pointer at `ref`, whose get_conn hands ngtcp2's crypto the connection.
static inline void wb_quic_tls_bind(const wb_quic_api *a, gnutls_session_t session, ngtcp2_crypto_conn_ref *ref) {
  a->gnutls_session_set_ptr(session, ref);
}

/// The GnuTLS priorities of a QUIC client: TLS 1.3 only, without the middlebox compatibility
/// mode (a non-empty legacy session id, which QUIC peers such as aioquic reject).
static inline const char *wb_quic_priorities(void) {
  return "NORMAL:-VERS-ALL:+VERS-TLS1.3:%DISABLE_TLS13_COMPAT_MODE";
}

// Error codes Swift cannot import as plain constants on every version.
static inline int wb_quic_err_stream_data_blocked(void) { return NGTCP2_ERR_STREAM_DATA_BLOCKED; }
static inline int wb_quic_err_stream_shut_wr(void) { return NGTCP2_ERR_STREAM_SHUT_WR; }
static inline int wb_quic_err_stream_not_found(void) { return NGTCP2_ERR_STREAM_NOT_FOUND; }
static inline int wb_quic_err_streams_blocked(void) { return NGTCP2_ERR_STREAM_ID_BLOCKED; }
static inline int wb_quic_err_draining(void) { return NGTCP2_ERR_DRAINING; }
static inline int wb_quic_err_closing(void) { return NGTCP2_ERR_CLOSING; }
static inline int wb_quic_err_idle_close(void) { return NGTCP2_ERR_IDLE_CLOSE; }
static inline int wb_quic_err_handshake_timeout(void) { return NGTCP2_ERR_HANDSHAKE_TIMEOUT; }
static inline int wb_quic_err_crypto(void) { return NGTCP2_ERR_CRYPTO; }
static inline int wb_quic_err_callback_failure(void) { return NGTCP2_ERR_CALLBACK_FAILURE; }

#endif
