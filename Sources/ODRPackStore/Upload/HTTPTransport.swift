import Foundation
import ODRPackPlatform

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One HTTP exchange at a time per caller, over URLSession (FoundationNetworking, libcurl, on Linux): blocking calls,
/// since `upload` runs its packs and parts on threads of its own (`parallelMap(ownThreads:)`). No cookies, no cache, no
/// credential store: every header a request carries is the one the caller gives.
final class HTTPTransport: Sendable {
    struct Response: Sendable {
        var status: Int
        /// Header names lowercased.
        var headers: [String: String]
        var body: Data
    }

    /// Why no response came: retried like a 503.
    enum Failure: Error, Sendable {
        case timedOut
        case dropped(String)
    }

    /// Replaced after a time-out or a dropped connection, so that the retry opens a connection of its own instead
    /// of queueing behind a request the server is still working on.
    private let session: Locked<URLSession>
    private let timeout: TimeInterval

    /// - Parameter timeout: seconds a request may stay without progress before it counts as timed out.
    init(timeout: TimeInterval) {
        self.timeout = timeout
        session = Locked(Self.makeSession(timeout: timeout))
    }

    private static func makeSession(timeout: TimeInterval) -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = 7 * 24 * 3600
        configuration.httpCookieAcceptPolicy = .never
        configuration.httpShouldSetCookies = false
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpMaximumConnectionsPerHost = 16
        return URLSession(configuration: configuration)
    }

    func send(method: String, url: URL, headers: [(name: String, value: String)], body: Data?) -> Result<
        Response, Failure
    > {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let done = DispatchSemaphore(value: 0)
        let outcome = Locked<Result<Response, Failure>?>(nil)
        let completion: @Sendable (Data?, URLResponse?, (any Error)?) -> Void = { data, response, error in
            let result: Result<Response, Failure>
            if let http = response as? HTTPURLResponse, error == nil {
                var fields: [String: String] = [:]
                for (key, value) in http.allHeaderFields {
                    if let key = key as? String, let value = value as? String { fields[key.lowercased()] = value }
                }
                result = .success(Response(status: http.statusCode, headers: fields, body: data ?? Data()))
            } else if let error = error as? URLError, error.code == .timedOut {
                result = .failure(.timedOut)
            } else {
                result = .failure(.dropped(error.map { ($0 as NSError).localizedDescription } ?? "no response"))
            }
            outcome.withLock { $0 = result }
            done.signal()
        }
        let session = self.session.withLock { $0 }
        let task: URLSessionTask
        if let body {
            task = session.uploadTask(with: request, from: body, completionHandler: completion)
        } else {
            task = session.dataTask(with: request, completionHandler: completion)
        }
        task.resume()
        done.wait()
        let result = outcome.withLock { $0 } ?? .failure(.dropped("no response"))
        if case .failure = result {
            self.session.withLock { current in
                guard current === session else { return }
                current = Self.makeSession(timeout: timeout)
                session.finishTasksAndInvalidate()
            }
        }
        return result
    }
}
