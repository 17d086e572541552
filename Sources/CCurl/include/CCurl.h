#ifndef ODRPACK_CCURL_H
#define ODRPACK_CCURL_H

#include <stddef.h>

/// libcurl, loaded with dlopen the first time `upload` needs it (docs/store.md#libcurl): the release binary links only
/// the C library, so that every other command starts on a system without libcurl. No <curl/curl.h> either: the few
/// option numbers used are libcurl's stable ABI, defined in CCurl.c.

/// Loads libcurl once (later calls return the first answer): `path` first when it is not NULL (a test hook), else
/// libcurl.so.4, then libcurl.so (/usr/lib/libcurl.4.dylib on macOS), and runs curl_global_init under a lock.
/// Returns 1 when every symbol used was found; 0 otherwise, with the loader's reason in `reason` (NUL-terminated).
int odrpack_curl_load(const char *path, char *reason, size_t reason_size);

/// One HTTP exchange, no redirect followed, no retry.
typedef struct {
    const char *method;
    const char *url;
    /// "Name: value" lines; libcurl adds no header of its own that these do not replace.
    const char *const *headers;
    int header_count;
    /// The body in memory (an API request's JSON), or NULL.
    const void *body_bytes;
    size_t body_bytes_length;
    /// The body read with pread(2) from `body_descriptor` at `body_offset` for `body_length` bytes (an upload part),
    /// when `body_descriptor` is not -1: the part is never a buffer of its own.
    int body_descriptor;
    long long body_offset;
    long long body_length;
    /// Seconds to connect; seconds a transfer may go without a byte moving either way before it is timed out.
    long connect_timeout;
    long stall_timeout;
    /// A response body longer than this aborts the transfer (outcome ODRPACK_CURL_TOO_LARGE).
    size_t body_limit;
} odrpack_curl_request;

enum {
    ODRPACK_CURL_OK = 0,
    ODRPACK_CURL_TIMED_OUT = 1,
    ODRPACK_CURL_DROPPED = 2,
    ODRPACK_CURL_TOO_LARGE = 3,
    /// The part's file could not be read (pread failed or ended early).
    ODRPACK_CURL_READ_FAILED = 4,
    ODRPACK_CURL_NOT_LOADED = 5,
    /// The response's header block passed ODRPACK_CURL_HEADER_LIMIT: the transfer was stopped there.
    ODRPACK_CURL_HEADERS_TOO_LARGE = 6,
};

/// The most header bytes a response may have (one response's block, after any 100 Continue).
#define ODRPACK_CURL_HEADER_LIMIT (256 * 1024)

typedef struct {
    int outcome;
    long status;
    /// The last response's header lines as received (malloc'ed; free with odrpack_curl_response_free).
    char *headers;
    size_t headers_length;
    /// The response body (malloc'ed, possibly NULL when empty).
    char *body;
    size_t body_length;
    /// libcurl's message for a failure, NUL-terminated.
    char reason[256];
} odrpack_curl_response;

/// Performs `request` on an easy handle of its own (so any number of threads may call it at once) and fills `response`.
void odrpack_curl_perform(const odrpack_curl_request *request, odrpack_curl_response *response);

void odrpack_curl_response_free(odrpack_curl_response *response);

#endif
