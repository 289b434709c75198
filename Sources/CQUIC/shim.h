#ifndef WALLBOARD_CQUIC_SHIM_H
#define WALLBOARD_CQUIC_SHIM_H
// ngtcp2 (QUIC) with its GnuTLS crypto backend, and GnuTLS: the one C door of the QUIC module.
//
// Many ngtcp2 entry points are function-like macros over `*_versioned` functions, which Swift
// cannot import, and ngtcp2 1.0 renamed a few (connection_close_error → ccerr, with its
// NGTCP2_CCERR_TYPE_* constants; a flags argument on shutdown_stream; is_in_closing_period and
// is_in_draining_period → in_closing_period and in_draining_period). The `wb_quic_` helpers
// below give one spelling for Debian 12's 0.12 and for 1.x (bookworm-backports, trixie; checked
// by scripts/check-ngtcp2-1x.sh); the Swift side calls only these and the functions whose
// names did not change.
#include <stdint.h>
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
#else
#define WB_QUIC_NGTCP2_1 0
typedef ngtcp2_connection_close_error wb_quic_ccerr;
#define WB_QUIC_CCERR_TYPE_APPLICATION NGTCP2_CONNECTION_CLOSE_ERROR_CODE_TYPE_APPLICATION
#endif

/// Random bytes from GnuTLS's generator (connection ids, reset tokens, ngtcp2's own needs).
static inline void wb_quic_rand(uint8_t *dest, size_t destlen, const ngtcp2_rand_ctx *ctx) {
  (void)ctx;
  (void)gnutls_rnd(GNUTLS_RND_RANDOM, dest, destlen);
}

static inline int wb_quic_new_connection_id(ngtcp2_conn *conn, ngtcp2_cid *cid, uint8_t *token, size_t cidlen,
                                            void *user_data) {
  (void)conn;
  (void)user_data;
  if (gnutls_rnd(GNUTLS_RND_RANDOM, cid->data, cidlen) != 0) return NGTCP2_ERR_CALLBACK_FAILURE;
  cid->datalen = cidlen;
  if (gnutls_rnd(GNUTLS_RND_RANDOM, token, NGTCP2_STATELESS_RESET_TOKENLEN) != 0) return NGTCP2_ERR_CALLBACK_FAILURE;
  return 0;
}

/// A client's callbacks with the crypto, random and connection-id ones filled (by name); the
/// application's are the caller's to set.
static inline void wb_quic_client_callbacks(ngtcp2_callbacks *cb) {
  memset(cb, 0, sizeof(*cb));
  cb->client_initial = ngtcp2_crypto_client_initial_cb;
  cb->recv_crypto_data = ngtcp2_crypto_recv_crypto_data_cb;
  cb->encrypt = ngtcp2_crypto_encrypt_cb;
  cb->decrypt = ngtcp2_crypto_decrypt_cb;
  cb->hp_mask = ngtcp2_crypto_hp_mask_cb;
  cb->recv_retry = ngtcp2_crypto_recv_retry_cb;
  cb->update_key = ngtcp2_crypto_update_key_cb;
  cb->delete_crypto_aead_ctx = ngtcp2_crypto_delete_crypto_aead_ctx_cb;
  cb->delete_crypto_cipher_ctx = ngtcp2_crypto_delete_crypto_cipher_ctx_cb;
  cb->get_path_challenge_data = ngtcp2_crypto_get_path_challenge_data_cb;
  cb->version_negotiation = ngtcp2_crypto_version_negotiation_cb;
  cb->rand = wb_quic_rand;
  cb->get_new_connection_id = wb_quic_new_connection_id;
}

static inline void wb_quic_settings_default(ngtcp2_settings *s) { ngtcp2_settings_default(s); }
static inline void wb_quic_transport_params_default(ngtcp2_transport_params *p) {
  ngtcp2_transport_params_default(p);
}

static inline int wb_quic_client_new(ngtcp2_conn **pconn, const ngtcp2_cid *dcid, const ngtcp2_cid *scid,
                                     const ngtcp2_path *path, const ngtcp2_callbacks *callbacks,
                                     const ngtcp2_settings *settings, const ngtcp2_transport_params *params,
                                     void *user_data) {
  return ngtcp2_conn_client_new(pconn, dcid, scid, path, NGTCP2_PROTO_VER_V1, callbacks, settings, params, NULL,
                                user_data);
}

static inline int wb_quic_read_pkt(ngtcp2_conn *conn, const ngtcp2_path *path, const uint8_t *pkt, size_t pktlen,
                                   ngtcp2_tstamp ts) {
  ngtcp2_pkt_info pi;
  memset(&pi, 0, sizeof(pi));
  return ngtcp2_conn_read_pkt(conn, path, &pi, pkt, pktlen, ts);
}

/// One packet: stream data of `stream_id` (−1: none, only what the connection itself has to
/// send), `*pdatalen` set to the stream bytes it took (−1 when none). `fin` ends the stream with
/// the last of `data`; `more` asks to coalesce (NGTCP2_ERR_WRITE_MORE then means: call again).
static inline ngtcp2_ssize wb_quic_write_stream(ngtcp2_conn *conn, ngtcp2_path *path, uint8_t *dest, size_t destlen,
                                                ngtcp2_ssize *pdatalen, int more, int fin, int64_t stream_id,
                                                const uint8_t *data, size_t datalen, ngtcp2_tstamp ts) {
  ngtcp2_vec v;
  v.base = (uint8_t *)data;
  v.len = datalen;
  uint32_t flags = NGTCP2_WRITE_STREAM_FLAG_NONE;
  if (more) flags |= NGTCP2_WRITE_STREAM_FLAG_MORE;
  if (fin) flags |= NGTCP2_WRITE_STREAM_FLAG_FIN;
  ngtcp2_pkt_info pi;
  return ngtcp2_conn_writev_stream(conn, path, &pi, dest, destlen, pdatalen, flags, stream_id,
                                   stream_id < 0 ? NULL : &v, stream_id < 0 ? 0 : 1, ts);
}

/// A CONNECTION_CLOSE with an application error code (0: no error).
static inline ngtcp2_ssize wb_quic_write_close(ngtcp2_conn *conn, uint8_t *dest, size_t destlen, uint64_t app_error,
                                               ngtcp2_tstamp ts) {
  wb_quic_ccerr err;
  ngtcp2_pkt_info pi;
#if WB_QUIC_NGTCP2_1
  ngtcp2_ccerr_default(&err);
  ngtcp2_ccerr_set_application_error(&err, app_error, NULL, 0);
#else
  ngtcp2_connection_close_error_default(&err);
  ngtcp2_connection_close_error_set_application_error(&err, app_error, NULL, 0);
#endif
  return ngtcp2_conn_write_connection_close(conn, NULL, &pi, dest, destlen, &err, ts);
}

/// A CONNECTION_CLOSE carrying the TLS alert this side's handshake failed with (CRYPTO_ERROR).
static inline ngtcp2_ssize wb_quic_write_close_tls(ngtcp2_conn *conn, uint8_t *dest, size_t destlen, uint8_t alert,
                                                   ngtcp2_tstamp ts) {
  wb_quic_ccerr err;
  ngtcp2_pkt_info pi;
#if WB_QUIC_NGTCP2_1
  ngtcp2_ccerr_default(&err);
  ngtcp2_ccerr_set_tls_alert(&err, alert, NULL, 0);
#else
  ngtcp2_connection_close_error_default(&err);
  ngtcp2_connection_close_error_set_transport_error_tls_alert(&err, alert, NULL, 0);
#endif
  return ngtcp2_conn_write_connection_close(conn, NULL, &pi, dest, destlen, &err, ts);
}

/// Why the connection was closed, as the peer's CONNECTION_CLOSE (or this side's) said it:
/// `*is_application` (1: an application code, 0: a transport code), the code, and up to
/// `reasoncap` bytes of the reason (`*reasonlen` set).
static inline uint64_t wb_quic_close_error(ngtcp2_conn *conn, int *is_application, uint8_t *reason,
                                           size_t reasoncap, size_t *reasonlen) {
#if WB_QUIC_NGTCP2_1
  const ngtcp2_ccerr *e = ngtcp2_conn_get_ccerr(conn);
#else
  ngtcp2_connection_close_error stored;
  ngtcp2_conn_get_connection_close_error(conn, &stored);
  const ngtcp2_connection_close_error *e = &stored;
#endif
  *is_application = e->type == WB_QUIC_CCERR_TYPE_APPLICATION;
  size_t n = e->reasonlen < reasoncap ? e->reasonlen : reasoncap;
  if (n > 0 && e->reason != NULL) memcpy(reason, e->reason, n);
  *reasonlen = n;
  return e->error_code;
}

static inline int wb_quic_shutdown_stream(ngtcp2_conn *conn, int64_t stream_id, uint64_t app_error) {
#if WB_QUIC_NGTCP2_1
  return ngtcp2_conn_shutdown_stream(conn, 0, stream_id, app_error);
#else
  return ngtcp2_conn_shutdown_stream(conn, stream_id, app_error);
#endif
}

/// Nonzero once this side has sent its CONNECTION_CLOSE (the closing period) or received the
/// peer's (the draining period): nothing more is to be written. 1.0 dropped the `is_` of
/// ngtcp2_conn_is_in_closing_period and ngtcp2_conn_is_in_draining_period.
static inline int wb_quic_closing_or_draining(ngtcp2_conn *conn) {
#if WB_QUIC_NGTCP2_1
  return ngtcp2_conn_in_closing_period(conn) || ngtcp2_conn_in_draining_period(conn);
#else
  return ngtcp2_conn_is_in_closing_period(conn) || ngtcp2_conn_is_in_draining_period(conn);
#endif
}

static inline uint64_t wb_quic_seconds(uint64_t n) { return n * NGTCP2_SECONDS; }
static inline uint64_t wb_quic_milliseconds(uint64_t n) { return n * NGTCP2_MILLISECONDS; }

/// Points `session`'s user pointer at `ref`, whose get_conn hands ngtcp2's crypto the connection.
static inline void wb_quic_tls_bind(gnutls_session_t session, ngtcp2_crypto_conn_ref *ref) {
  gnutls_session_set_ptr(session, ref);
}

/// The GnuTLS priorities of a QUIC client: TLS 1.3 only, without the middlebox compatibility
/// mode (a non-empty legacy session id, which QUIC peers such as aioquic reject).
static inline const char *wb_quic_priorities(void) {
  return "NORMAL:-VERS-ALL:+VERS-TLS1.3:%DISABLE_TLS13_COMPAT_MODE";
}

/// GnuTLS's free, a function pointer variable Swift sees as shared mutable state.
static inline void wb_quic_gnutls_free(void *p) { gnutls_free(p); }

static inline int wb_quic_error_is_fatal(int rv) { return ngtcp2_err_is_fatal(rv); }

// Error codes Swift cannot import as plain constants on every version.
static inline int wb_quic_err_write_more(void) { return NGTCP2_ERR_WRITE_MORE; }
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
static inline int wb_quic_err_drop_conn(void) { return NGTCP2_ERR_DROP_CONN; }

#endif
