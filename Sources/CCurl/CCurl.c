#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "CCurl.h"

// libcurl's ABI, as curl/curl.h defines it (stable since 7.x): option numbers are a type base plus an index.
typedef int odrpack_curl_code;
typedef long long odrpack_curl_off_t;
enum {
    OPT_LONG = 0,
    OPT_OBJECT = 10000,
    OPT_FUNCTION = 20000,
    OPT_OFF_T = 30000,
    CURLOPT_WRITEDATA = OPT_OBJECT + 1,
    CURLOPT_URL = OPT_OBJECT + 2,
    CURLOPT_READDATA = OPT_OBJECT + 9,
    CURLOPT_ERRORBUFFER = OPT_OBJECT + 10,
    CURLOPT_WRITEFUNCTION = OPT_FUNCTION + 11,
    CURLOPT_READFUNCTION = OPT_FUNCTION + 12,
    CURLOPT_LOW_SPEED_LIMIT = OPT_LONG + 19,
    CURLOPT_LOW_SPEED_TIME = OPT_LONG + 20,
    CURLOPT_HTTPHEADER = OPT_OBJECT + 23,
    CURLOPT_HEADERDATA = OPT_OBJECT + 29,
    CURLOPT_CUSTOMREQUEST = OPT_OBJECT + 36,
    CURLOPT_NOBODY = OPT_LONG + 44,
    CURLOPT_UPLOAD = OPT_LONG + 46,
    CURLOPT_FOLLOWLOCATION = OPT_LONG + 52,
    CURLOPT_CONNECTTIMEOUT = OPT_LONG + 78,
    CURLOPT_HEADERFUNCTION = OPT_FUNCTION + 79,
    CURLOPT_HTTPGET = OPT_LONG + 80,
    CURLOPT_NOPROGRESS = OPT_LONG + 43,
    CURLOPT_XFERINFODATA = OPT_OBJECT + 57,
    CURLOPT_XFERINFOFUNCTION = OPT_FUNCTION + 219,
    CURLOPT_NOSIGNAL = OPT_LONG + 99,
    CURLOPT_INFILESIZE_LARGE = OPT_OFF_T + 115,
    CURLOPT_PROTOCOLS = OPT_LONG + 181,
    CURLPROTO_HTTP = 1,
    CURLPROTO_HTTPS = 2,
    CURLINFO_RESPONSE_CODE = 0x200000 + 2,
    CURL_GLOBAL_DEFAULT = 3,
    CURLE_OK = 0,
    CURLE_OPERATION_TIMEDOUT = 28,
    CURL_ERROR_SIZE = 256,
};
#define CURL_READFUNC_ABORT 0x10000000

typedef void odrpack_curl_handle;
struct curl_slist;

static struct {
    odrpack_curl_code (*global_init)(long);
    odrpack_curl_handle *(*easy_init)(void);
    odrpack_curl_code (*easy_setopt)(odrpack_curl_handle *, int, ...);
    odrpack_curl_code (*easy_perform)(odrpack_curl_handle *);
    odrpack_curl_code (*easy_getinfo)(odrpack_curl_handle *, int, ...);
    void (*easy_cleanup)(odrpack_curl_handle *);
    const char *(*easy_strerror)(odrpack_curl_code);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
} curl;

static pthread_mutex_t load_lock = PTHREAD_MUTEX_INITIALIZER;
static int load_state = 0;  // 0 not tried, 1 loaded, -1 failed
static char load_reason[512];

static void *find(void *library, const char *name, int *missing) {
    void *symbol = dlsym(library, name);
    if (symbol == NULL && !*missing) {
        *missing = 1;
        snprintf(load_reason, sizeof load_reason, "libcurl has no %s", name);
    }
    return symbol;
}

static int load_locked(const char *path) {
    const char *candidates[4] = {NULL, NULL, NULL, NULL};
    int count = 0;
    if (path != NULL) {
        candidates[count++] = path;
    } else {
#ifdef __APPLE__
        candidates[count++] = "/usr/lib/libcurl.4.dylib";
        candidates[count++] = "libcurl.4.dylib";
#else
        candidates[count++] = "libcurl.so.4";
        candidates[count++] = "libcurl.so";
#endif
    }
    void *library = NULL;
    for (int index = 0; index < count && library == NULL; index++) {
        library = dlopen(candidates[index], RTLD_NOW | RTLD_LOCAL);
        if (library == NULL) {
            const char *error = dlerror();
            snprintf(load_reason, sizeof load_reason, "%s", error ? error : candidates[index]);
        }
    }
    if (library == NULL) return -1;
    int missing = 0;
    *(void **)&curl.global_init = find(library, "curl_global_init", &missing);
    *(void **)&curl.easy_init = find(library, "curl_easy_init", &missing);
    *(void **)&curl.easy_setopt = find(library, "curl_easy_setopt", &missing);
    *(void **)&curl.easy_perform = find(library, "curl_easy_perform", &missing);
    *(void **)&curl.easy_getinfo = find(library, "curl_easy_getinfo", &missing);
    *(void **)&curl.easy_cleanup = find(library, "curl_easy_cleanup", &missing);
    *(void **)&curl.easy_strerror = find(library, "curl_easy_strerror", &missing);
    *(void **)&curl.slist_append = find(library, "curl_slist_append", &missing);
    *(void **)&curl.slist_free_all = find(library, "curl_slist_free_all", &missing);
    if (missing) return -1;
    if (curl.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        snprintf(load_reason, sizeof load_reason, "curl_global_init failed");
        return -1;
    }
    return 1;
}

int odrpack_curl_load(const char *path, char *reason, size_t reason_size) {
    pthread_mutex_lock(&load_lock);
    if (load_state == 0) load_state = load_locked(path);
    int state = load_state;
    if (state != 1 && reason != NULL && reason_size > 0) snprintf(reason, reason_size, "%s", load_reason);
    pthread_mutex_unlock(&load_lock);
    return state == 1;
}

// The typed wrappers of the variadic curl_easy_setopt: one per argument type, so each call passes exactly the type
// libcurl reads (a long, a pointer, a function pointer or a curl_off_t).
static odrpack_curl_code set_long(odrpack_curl_handle *handle, int option, long value) {
    return curl.easy_setopt(handle, option, value);
}
static odrpack_curl_code set_pointer(odrpack_curl_handle *handle, int option, const void *value) {
    return curl.easy_setopt(handle, option, value);
}
typedef size_t (*transfer_function)(char *, size_t, size_t, void *);
static odrpack_curl_code set_function(odrpack_curl_handle *handle, int option, transfer_function value) {
    return curl.easy_setopt(handle, option, value);
}
typedef int (*progress_function)(void *, odrpack_curl_off_t, odrpack_curl_off_t, odrpack_curl_off_t,
                                 odrpack_curl_off_t);
static odrpack_curl_code set_progress(odrpack_curl_handle *handle, int option, progress_function value) {
    return curl.easy_setopt(handle, option, value);
}
static odrpack_curl_code set_offset(odrpack_curl_handle *handle, int option, odrpack_curl_off_t value) {
    return curl.easy_setopt(handle, option, value);
}

struct exchange {
    const odrpack_curl_request *request;
    // The stall clock: when a byte last moved either way, and the counts then.
    double moved_at;
    odrpack_curl_off_t received, sent_so_far;
    int stalled;
    long long sent;
    int read_failed;
    int too_large;
    char *body;
    size_t body_length;
    size_t body_capacity;
    char *headers;
    size_t headers_length;
    size_t headers_capacity;
};

static int append(char **buffer, size_t *length, size_t *capacity, const char *bytes, size_t count) {
    if (count == 0) return 1;
    if (*length + count > *capacity) {
        size_t next = *capacity ? *capacity : 4096;
        while (next < *length + count) next *= 2;
        char *grown = realloc(*buffer, next);
        if (grown == NULL) return 0;
        *buffer = grown;
        *capacity = next;
    }
    memcpy(*buffer + *length, bytes, count);
    *length += count;
    return 1;
}

static double seconds_now(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

// libcurl's LOW_SPEED check averages over several seconds, so a small part followed by a silent server would pass
// for a long time: this stops a transfer once no byte has moved either way for `stall_timeout` seconds (libcurl calls
// it at least once a second).
static int watch_progress(void *context, odrpack_curl_off_t download_total, odrpack_curl_off_t downloaded,
                          odrpack_curl_off_t upload_total, odrpack_curl_off_t uploaded) {
    (void)download_total;
    (void)upload_total;
    struct exchange *exchange = context;
    double now = seconds_now();
    if (downloaded != exchange->received || uploaded != exchange->sent_so_far) {
        exchange->received = downloaded;
        exchange->sent_so_far = uploaded;
        exchange->moved_at = now;
        return 0;
    }
    if (now - exchange->moved_at >= (double)exchange->request->stall_timeout) {
        exchange->stalled = 1;
        return 1;
    }
    return 0;
}

static size_t read_body(char *buffer, size_t size, size_t count, void *context) {
    struct exchange *exchange = context;
    const odrpack_curl_request *request = exchange->request;
    long long total = request->body_descriptor != -1 ? request->body_length : (long long)request->body_bytes_length;
    long long left = total - exchange->sent;
    size_t wanted = size * count;
    if (left <= 0) return 0;
    if ((long long)wanted > left) wanted = (size_t)left;
    if (request->body_descriptor == -1) {
        memcpy(buffer, (const char *)request->body_bytes + exchange->sent, wanted);
        exchange->sent += (long long)wanted;
        return wanted;
    }
    ssize_t got;
    do {
        got = pread(request->body_descriptor, buffer, wanted, (off_t)(request->body_offset + exchange->sent));
    } while (got < 0 && errno == EINTR);
    if (got <= 0) {
        exchange->read_failed = 1;
        return CURL_READFUNC_ABORT;
    }
    exchange->sent += got;
    return (size_t)got;
}

static size_t write_body(char *bytes, size_t size, size_t count, void *context) {
    struct exchange *exchange = context;
    size_t length = size * count;
    if (exchange->body_length + length > exchange->request->body_limit) {
        exchange->too_large = 1;
        return 0;  // anything but `length` makes libcurl stop the transfer
    }
    if (!append(&exchange->body, &exchange->body_length, &exchange->body_capacity, bytes, length)) return 0;
    return length;
}

static size_t write_header(char *bytes, size_t size, size_t count, void *context) {
    struct exchange *exchange = context;
    size_t length = size * count;
    // A new status line (after "100 Continue") starts the headers of the response that counts.
    if (length >= 5 && memcmp(bytes, "HTTP/", 5) == 0) exchange->headers_length = 0;
    if (exchange->headers_length + length > ODRPACK_CURL_HEADER_LIMIT) {
        exchange->too_large = 2;
        return 0;
    }
    if (!append(&exchange->headers, &exchange->headers_length, &exchange->headers_capacity, bytes, length)) return 0;
    return length;
}

void odrpack_curl_perform(const odrpack_curl_request *request, odrpack_curl_response *response) {
    memset(response, 0, sizeof *response);
    if (!odrpack_curl_load(NULL, response->reason, sizeof response->reason)) {
        response->outcome = ODRPACK_CURL_NOT_LOADED;
        return;
    }
    odrpack_curl_handle *handle = curl.easy_init();
    if (handle == NULL) {
        response->outcome = ODRPACK_CURL_DROPPED;
        snprintf(response->reason, sizeof response->reason, "curl_easy_init failed");
        return;
    }
    struct exchange exchange = {.request = request, .moved_at = seconds_now()};
    struct curl_slist *headers = NULL;
    int failed = 0;
    for (int index = 0; index < request->header_count && !failed; index++) {
        struct curl_slist *next = curl.slist_append(headers, request->headers[index]);
        if (next == NULL) failed = 1; else headers = next;
    }
    // libcurl's own "Expect: 100-continue" would add a round trip before every part.
    struct curl_slist *next = curl.slist_append(headers, "Expect:");
    if (next == NULL) failed = 1; else headers = next;
    char error[CURL_ERROR_SIZE] = {0};
    int has_body = request->body_descriptor != -1 || request->body_bytes != NULL;
    long long body_size = request->body_descriptor != -1 ? request->body_length : (long long)request->body_bytes_length;
    odrpack_curl_code code = 0;
    if (!failed) {
        code |= set_pointer(handle, CURLOPT_URL, request->url);
        code |= set_long(handle, CURLOPT_NOSIGNAL, 1);
        code |= set_long(handle, CURLOPT_FOLLOWLOCATION, 0);
        // Hardening only (upload checks every URL's scheme itself): a libcurl that dropped the option still works.
        (void)set_long(handle, CURLOPT_PROTOCOLS, CURLPROTO_HTTP | CURLPROTO_HTTPS);
        code |= set_long(handle, CURLOPT_CONNECTTIMEOUT, request->connect_timeout);
        code |= set_long(handle, CURLOPT_LOW_SPEED_LIMIT, 1);
        code |= set_long(handle, CURLOPT_LOW_SPEED_TIME, request->stall_timeout);
        code |= set_pointer(handle, CURLOPT_ERRORBUFFER, error);
        code |= set_pointer(handle, CURLOPT_HTTPHEADER, headers);
        code |= set_function(handle, CURLOPT_WRITEFUNCTION, write_body);
        code |= set_pointer(handle, CURLOPT_WRITEDATA, &exchange);
        code |= set_function(handle, CURLOPT_HEADERFUNCTION, write_header);
        code |= set_long(handle, CURLOPT_NOPROGRESS, 0);
        code |= set_progress(handle, CURLOPT_XFERINFOFUNCTION, watch_progress);
        code |= set_pointer(handle, CURLOPT_XFERINFODATA, &exchange);
        code |= set_pointer(handle, CURLOPT_HEADERDATA, &exchange);
        if (has_body) {
            code |= set_long(handle, CURLOPT_UPLOAD, 1);
            code |= set_function(handle, CURLOPT_READFUNCTION, read_body);
            code |= set_pointer(handle, CURLOPT_READDATA, &exchange);
            code |= set_offset(handle, CURLOPT_INFILESIZE_LARGE, body_size);
        } else {
            code |= set_long(handle, CURLOPT_HTTPGET, 1);
        }
        if (strcmp(request->method, has_body ? "PUT" : "GET") != 0) {
            code |= set_pointer(handle, CURLOPT_CUSTOMREQUEST, request->method);
        }
        if (strcmp(request->method, "HEAD") == 0) code |= set_long(handle, CURLOPT_NOBODY, 1);
        if (code != CURLE_OK) {
            failed = 1;
            snprintf(response->reason, sizeof response->reason, "this libcurl refused an option odrpack sets");
        }
    } else {
        snprintf(response->reason, sizeof response->reason, "out of memory");
    }
    if (!failed) {
        odrpack_curl_code result = curl.easy_perform(handle);
        long status = 0;
        curl.easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &status);
        response->status = status;
        if (exchange.too_large) {
            response->outcome = exchange.too_large == 2 ? ODRPACK_CURL_HEADERS_TOO_LARGE : ODRPACK_CURL_TOO_LARGE;
        } else if (exchange.read_failed) {
            response->outcome = ODRPACK_CURL_READ_FAILED;
            snprintf(response->reason, sizeof response->reason, "the archive could not be read at byte %lld",
                     request->body_offset + exchange.sent);
        } else if (result == CURLE_OPERATION_TIMEDOUT || exchange.stalled) {
            response->outcome = ODRPACK_CURL_TIMED_OUT;
        } else if (result != CURLE_OK) {
            response->outcome = ODRPACK_CURL_DROPPED;
            snprintf(response->reason, sizeof response->reason, "%s", error[0] ? error : curl.easy_strerror(result));
        } else {
            response->outcome = ODRPACK_CURL_OK;
        }
    } else {
        response->outcome = ODRPACK_CURL_DROPPED;
    }
    curl.slist_free_all(headers);
    curl.easy_cleanup(handle);
    response->body = exchange.body;
    response->body_length = exchange.body_length;
    response->headers = exchange.headers;
    response->headers_length = exchange.headers_length;
}

void odrpack_curl_response_free(odrpack_curl_response *response) {
    free(response->body);
    free(response->headers);
    response->body = NULL;
    response->headers = NULL;
}
