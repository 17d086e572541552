import CCurl
import Foundation

/// `HTTPTransport` over libcurl (docs/store.md#libcurl), one easy handle per request so that `--jobs` threads send at
/// once with nothing shared. Redirects are not followed (a 3xx is the answer; the client decides what it means),
/// libcurl retries nothing, HTTPS is verified as libcurl does by default, and only http and https are spoken.
struct CurlTransport: HTTPTransport {
    /// Seconds to connect, and seconds a transfer may go without a byte moving before it counts as timed out
    /// (`ODRPACK_ASC_TIMEOUT`, UploadTiming).
    let timeout: Int

    func send(_ request: HTTPRequest) -> Result<HTTPResponse, HTTPFailure> {
        // An empty value is sent as "Name;": libcurl reads "Name:" as "remove this header".
        let lines = request.headers.map { $0.value.isEmpty ? "\($0.name);" : "\($0.name): \($0.value)" }
        let copies = lines.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        var response = odrpack_curl_response()
        defer { odrpack_curl_response_free(&response) }
        let pointers: [UnsafePointer<CChar>?] = copies.map { $0.map { UnsafePointer($0) } }
        request.method.withCString { method in
            request.url.absoluteString.withCString { url in
                pointers.withUnsafeBufferPointer { headers in
                    var exchange = odrpack_curl_request()
                    exchange.method = method
                    exchange.url = url
                    exchange.headers = headers.baseAddress
                    exchange.header_count = Int32(headers.count)
                    exchange.body_descriptor = -1
                    exchange.connect_timeout = timeout
                    exchange.stall_timeout = timeout
                    exchange.body_limit = HTTPResponse.bodyLimit
                    switch request.body {
                    case .file(let descriptor, let offset, let length):
                        exchange.body_descriptor = descriptor
                        exchange.body_offset = offset
                        exchange.body_length = length
                        odrpack_curl_perform(&exchange, &response)
                    case .bytes(let data):
                        data.withUnsafeBytes { bytes in
                            // A non-NULL pointer says "a body" even for zero bytes.
                            exchange.body_bytes = UnsafeRawPointer(bytes.baseAddress) ?? UnsafeRawPointer(url)
                            exchange.body_bytes_length = bytes.count
                            odrpack_curl_perform(&exchange, &response)
                        }
                    case nil:
                        odrpack_curl_perform(&exchange, &response)
                    }
                }
            }
        }
        let reason = withUnsafeBytes(of: response.reason) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        switch Int(response.outcome) {
        case ODRPACK_CURL_OK:
            let headerBlock =
                response.headers.map {
                    String(decoding: UnsafeRawBufferPointer(start: $0, count: response.headers_length), as: UTF8.self)
                } ?? ""
            let body = response.body.map { Data(bytes: $0, count: response.body_length) } ?? Data()
            return .success(
                HTTPResponse(
                    status: response.status, headers: HTTPResponse.parseHeaders(headerBlock), body: body))
        case ODRPACK_CURL_TIMED_OUT: return .failure(.timedOut)
        case ODRPACK_CURL_TOO_LARGE: return .failure(.tooLarge)
        case ODRPACK_CURL_HEADERS_TOO_LARGE: return .failure(.headersTooLarge(Int(ODRPACK_CURL_HEADER_LIMIT)))
        case ODRPACK_CURL_READ_FAILED: return .failure(.unreadable(reason))
        case ODRPACK_CURL_NOT_LOADED: return .failure(.unavailable(reason))
        default: return .failure(.dropped(reason.isEmpty ? "no response" : reason))
        }
    }
}
