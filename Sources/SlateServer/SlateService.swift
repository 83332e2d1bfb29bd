import Foundation
import SlateCore
import SlateHTTP

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
    ///   - logLevel: which requests get an access-log line on standard error.
    public init(container: BoardStore, webRoot: String?, secureCookies: Bool, logLevel: AccessLog.Level) {
        self.container = container
        let api = SlateAPI(container: container, secureCookies: secureCookies)
        pageAlerts = api.pageAlerts
        var router = api.router
        router.use(AccessLog(level: logLevel))
        router.use(SecurityHeaders())
        if let webRoot { router.use(StaticFiles(root: webRoot)) }
        self.router = router
    }

    /// The scheduler that delivers task alerts to open pages and webhooks (and `extra`
    /// channels); run it with `run()`.
    public func alertScheduler(extra: [any AlertChannel] = [], maximumAge: TimeInterval,
                               log: @escaping @Sendable (String) -> Void) -> AlertScheduler {
        AlertScheduler(container: container, channels: [pageAlerts, WebhookAlerts(container: container)] + extra,
                       maximumAge: maximumAge, log: log)
    }

    /// Reports writes made by other processes as live events, checking every `interval`
    /// (one indexed read of the revision counter), until the task is cancelled; 50 ms keeps
    /// a CLI change within the 100 ms the live views promise.
    public func watchExternalChanges(every interval: Duration = .milliseconds(50)) -> Task<Void, Never> {
        let container = self.container
        return Task {
            while !Task.isCancelled {
                _ = try? await BoardThreads.shared.read { _ = try container.publishExternalChanges() }
                try? await Task.sleep(for: interval)
            }
        }
    }
}
