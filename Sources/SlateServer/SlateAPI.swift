import Foundation
import SlateCore
import SlateHTTP

/// The REST API (`/api/v1`) over a Slate database, as a router that can be served by
/// `HTTPServer` or called in-process.
public struct SlateAPI: Sendable {
    /// Every route, with its middleware.
    public let router: Router
    /// The open-pages alert channel whose events the live streams carry.
    public let pageAlerts: PageAlerts

    /// The API with its own sign-in: bearer tokens and cookie sessions of the accounts in
    /// `container`, and `/api/v1/session` to sign in and out.
    /// - Parameters:
    ///   - secureCookies: mark the session cookie `Secure` (HTTPS or behind a TLS proxy).
    ///   - streamsPerAccount: how many live event streams one account may keep open.
    public init(container: BoardStore, secureCookies: Bool, streamsPerAccount: Int = 16,
                clock: @escaping @Sendable () -> Date = { Date() }) {
        // On a shared database the limits count every node's attempts (`SignInLedger`).
        self.init(container: container, secureCookies: secureCookies, clock: clock,
                  signIn: SignInGuard(limiter: LoginLimiter(ledger: SignInLedger(store: container))),
                  streamsPerAccount: streamsPerAccount)
    }

    /// The API with its own sign-in, guarded by `signIn` (its limits and password workers).
    init(container: BoardStore, secureCookies: Bool, clock: @escaping @Sendable () -> Date = { Date() }, signIn: SignInGuard,
         streamsPerAccount: Int = EventsController.streamsPerAccount) {
        let authenticator = Authenticator(directory: AccountDirectory(container: container), clock: clock)
        // Looking a token or session up reads the database: on a reader thread, off the cooperative pool.
        self.init(container: container, authenticate: { request in try await BoardThreads.shared.read { try authenticator.accountID(for: request) } },
                  identify: { request in try authenticator.accountID(for: request) },
                  identifyKnown: { request in try authenticator.knownAccountID(for: request) }, clock: clock,
                  streamsPerAccount: streamsPerAccount) { router in
            SessionController(authenticator: authenticator, guardian: signIn, secureCookies: secureCookies)
                .addRoutes(to: &router)
            TokensController(authenticator: authenticator, administration: AccountAdministration(container: container, clock: clock))
                .addRoutes(to: &router)
        }
    }

    /// An API on `container`; `authenticate` names the account of a request or throws 401.
    public init(container: BoardStore, authenticate: @escaping @Sendable (Request) async throws -> UUID,
                clock: @escaping @Sendable () -> Date = { Date() }) {
        self.init(container: container, authenticate: authenticate, identify: nil, identifyKnown: nil, clock: clock,
                  streamsPerAccount: EventsController.streamsPerAccount) { _ in }
    }

    private init(container: BoardStore, authenticate: @escaping @Sendable (Request) async throws -> UUID,
                 identify: (@Sendable (Request) throws -> UUID)?, identifyKnown: (@Sendable (Request) throws -> UUID?)?,
                 clock: @escaping @Sendable () -> Date, streamsPerAccount: Int, extraRoutes: (inout Router) -> Void) {
        let context = APIContext(container: container, authenticate: authenticate, identify: identify, identifyKnown: identifyKnown,
                                 clock: clock)
        var router = Router()
        router.use(ErrorBoundary())
        extraRoutes(&router)
        TasksController(context: context).addRoutes(to: &router)
        ListsController(context: context).addRoutes(to: &router)
        BoardController(context: context).addRoutes(to: &router)
        CountsController(context: context).addRoutes(to: &router)
        AccountController(context: context).addRoutes(to: &router)
        EventsController(context: context, streamsPerAccount: streamsPerAccount).addRoutes(to: &router)
        AlertsController(context: context).addRoutes(to: &router)
        PushController(context: context).addRoutes(to: &router)
        let document = JSONSerialization.body(OpenAPIDocument.json)
        router.on(.get, "/api/v1/openapi.json") { _ in Response.json(document) }
        self.router = router
        self.pageAlerts = context.pageAlerts
    }

    /// The OpenAPI 3.1 document, as served at `/api/v1/openapi.json`.
    public static var openAPIDocument: [String: Any] { OpenAPIDocument.json }
}
