import Foundation
import SlateCore
import SlateHTTP
import Synchronization

/// Everything `slate serve` runs: the API with sign-in, live events, the web app's files,
/// the access log and security headers, and a watcher that turns other processes'
/// writes (the CLI on the same file) into live events.
public struct SlateService: Sendable {
    /// The responder to hand to `HTTPServer`.
    public let router: Router
    let container: BoardStore
    /// The open-pages alert channel (see `alertScheduler`).
    public let pageAlerts: PageAlerts

    /// - Parameters:
    ///   - webRoot: the folder of the web app; nil serves the API only.
    ///   - secureCookies: mark session cookies `Secure` (HTTPS, or behind a TLS proxy).
    ///   - strictTransportSecurity: send `Strict-Transport-Security` (served over TLS, by a
    ///     proxy or otherwise), so a browser never uses plain HTTP for this site again.
    ///   - logLevel: which requests get an access-log line on standard error.
    public init(container: BoardStore, webRoot: String?, secureCookies: Bool, strictTransportSecurity: Bool = false,
                logLevel: AccessLog.Level) {
        var options = ServiceOptions()
        options.log = ServiceLog(requestLevel: logLevel)
        options.strictTransportSecurity = strictTransportSecurity
        self.init(container: container, webRoot: webRoot, secureCookies: secureCookies, options: options)
    }

    /// The service with `/healthz`, `/readyz`, the log in `options.log`'s format and,
    /// when `options.metrics` is set, every request counted there.
    public init(container: BoardStore, webRoot: String?, secureCookies: Bool, options: ServiceOptions) {
        self.container = container
        let api = SlateAPI(container: container, secureCookies: secureCookies, streamsPerAccount: options.streamsPerAccount)
        pageAlerts = api.pageAlerts
        var router = api.router
        HealthController(container: container, schemaVersion: options.schemaVersion).addRoutes(to: &router)
        router.use(AccessLog(log: options.log))
        if let metrics = options.metrics {
            router.use(RequestMetrics(registry: metrics, routes: router.routeTable.map(\.pattern)))
        }
        var security = SecurityHeaders()
        if options.strictTransportSecurity { security.additional["Strict-Transport-Security"] = Self.strictTransportSecurity }
        router.use(security)
        if let webRoot { router.use(StaticFiles(root: webRoot)) }
        self.router = router
    }

    /// The scheduler that delivers task alerts to open pages and webhooks (and `extra`
    /// channels); run it with `run()`.
    /// Web Push is on when its VAPID key could be loaded or made (`pushSubject`: the contact
    /// push services may write to).
    public func alertScheduler(extra: [any AlertChannel] = [], maximumAge: TimeInterval, pushSubject: String = "mailto:admin@localhost",
                               log: @escaping @Sendable (String) -> Void) -> AlertScheduler {
        var channels: [any AlertChannel] = [pageAlerts, WebhookAlerts(container: container)]
        do {
            channels.append(try WebPushAlerts(container: container, subject: pushSubject, log: log))
        } catch {
            log("Web Push is off: the VAPID key could not be loaded or made (\(error))")
        }
        return AlertScheduler(container: container, channels: channels + extra, maximumAge: maximumAge, log: log)
    }

    /// One year, the value browsers' preload lists ask for; subdomains are left alone.
    public static let strictTransportSecurity = "max-age=31536000"

    /// Reports writes made by other processes as live events, checking every `interval`
    /// (one indexed read of the revision counter), until the task is cancelled; 50 ms keeps
    /// a CLI change within the 100 ms the live views promise.
    ///
    /// On PostgreSQL (several nodes) other nodes' commits are announced: a thread of its own
    /// waits for them, and looks at least every `fallback` too (a notification missed while
    /// the listening connection was down is found in the commit log all the same).
    public func watchExternalChanges(every interval: Duration = .milliseconds(50), fallback: TimeInterval = 1) -> Task<Void, Never> {
        let container = self.container
        if container.announcesCommits {
            let stop = Atomic<Bool>(false)
            let thread = Thread {
                while !stop.load(ordering: .acquiring) {
                    // What was announced is published as heard; a quiet spell still reads the log.
                    if container.waitForExternalCommits(timeout: fallback) {
                        _ = try? container.publishAnnouncedChanges()
                    } else {
                        _ = try? container.publishExternalChanges()
                    }
                }
            }
            thread.name = "slate.commits.listener"
            thread.start()
            return Task {
                await withTaskCancellationHandler {
                    while !Task.isCancelled { try? await Task.sleep(for: .seconds(3600)) }
                } onCancel: {
                    stop.store(true, ordering: .releasing)
                }
            }
        }
        return Task {
            while !Task.isCancelled {
                _ = try? await BoardThreads.shared.read { _ = try container.publishExternalChanges() }
                try? await Task.sleep(for: interval)
            }
        }
    }
}
