import Foundation
import Testing
@testable import SlateHTTP

@Suite struct RouterTests {
    static func router() -> Router {
        var router = Router()
        router.on(.get, "/tasks") { _ in .text("list") }
        router.on(.post, "/tasks") { request in .text("created \(request.text)", status: .created) }
        router.on(.get, "/tasks/:id") { request in .text("task \(request.parameters["id"] ?? "?")") }
        router.on(.delete, "/tasks/:id") { _ in Response(status: .noContent) }
        router.on(.get, "/lists/:list/tasks/:id") { request in
            .text("\(request.parameters["list"]!)/\(request.parameters["id"]!)")
        }
        router.on(.get, "/files/*path") { request in .text("file \(request.parameters["path"]!)") }
        router.on("PROPFIND", "/dav/:calendar") { request in .text("propfind \(request.parameters["calendar"]!)") }
        router.on("MKCALENDAR", "/dav/:calendar") { _ in Response(status: .created) }
        return router
    }

    /// Routes are chosen by shape first and read their parameters only when they answer:
    /// the shape test says exactly what reading the parameters would.
    /// A request's path is read as the segments the standard library's `split` gives, but
    /// those that look like a pattern's `:name` or `*name`.
    @Test(arguments: ["", "/", "//", "/tasks", "/tasks/", "//tasks//42/", "/a/:b/*c/d", "/:x", "/*", "/é/ü%20x/🎬", "a/b", "/a//b///c"])
    func aPathsSegmentsAreWhatSplitGives(path: String) {
        let expected = path.split(separator: "/").map(String.init).filter { !$0.hasPrefix(":") && !$0.hasPrefix("*") }
        #expect(Router.literalSegments(of: path) == expected)
    }

    @Test func aRouteMatchesByShapeExactlyWhenItsParametersRead() {
        let patterns = ["/tasks", "/tasks/:id", "/tasks/batch", "/lists/:list/tasks/:id", "/files/*path", "/dav/*rest", "/", "/*all"]
        let paths = ["/", "/tasks", "/tasks/", "/tasks/42", "/tasks/batch", "/tasks/42/x", "/lists/a/tasks/b", "/lists/a/tasks",
                     "/files", "/files/a", "/files/a/b/c", "/dav", "/dav/calendars/ana/inbox/a.ics", "/x/y"]
        for pattern in patterns {
            let segments = Router.segments(pattern)
            for path in paths {
                let parts = path.split(separator: "/").map(String.init)
                #expect(Router.matches(segments, parts) == (Router.match(segments, parts) != nil), "\(pattern) against \(path)")
            }
        }
        #expect(Router.matches(Router.segments("/dav/*rest"), ["dav", "a", "b"]))
        #expect(!Router.matches(Router.segments("/tasks/:id"), ["tasks"]))
    }

    @Test(arguments: [
        ("GET", "/tasks", "list"),
        ("GET", "/tasks/", "list"),
        ("GET", "/tasks/42", "task 42"),
        ("GET", "/tasks/a%20b", "task a b"),
        ("GET", "/lists/home/tasks/7", "home/7"),
        ("GET", "/files/css/app.css", "file css/app.css"),
        ("PROPFIND", "/dav/work", "propfind work"),
        ("propfind", "/dav/home", "propfind home"),
    ])
    func matchesPatternsAndCapturesParameters(method: String, path: String, expected: String) async throws {
        let response = try await Self.router().respond(to: Request(method: HTTPMethod(rawValue: method), target: path))
        #expect(response.status == .ok)
        #expect(response.text == expected)
    }

    @Test func customMethodsAndBodiesReachHandlers() async throws {
        let router = Self.router()
        let created = try await router.respond(to: Request(method: .post, target: "/tasks", body: Data("milk".utf8)))
        #expect(created.status == .created && created.text == "created milk")
        let calendar = try await router.respond(to: Request(method: "MKCALENDAR", target: "/dav/new"))
        #expect(calendar.status == .created)
    }

    @Test func unknownPathIsA404JSONError() async throws {
        let response = try await Self.router().respond(to: Request(method: .get, target: "/nowhere"))
        #expect(response.status == .notFound)
        #expect(response.headers["Content-Type"] == "application/json")
        #expect(response.text == #"{"error":{"code":"not_found","message":"Nothing is at \/nowhere."}}"#
            || response.text == #"{"error":{"code":"not_found","message":"Nothing is at /nowhere."}}"#)
        #expect(response.errorObject == ["code": "not_found", "message": "Nothing is at /nowhere."])
    }

    @Test func wrongMethodIsA405WithAllow() async throws {
        let response = try await Self.router().respond(to: Request(method: .put, target: "/tasks/3"))
        #expect(response.status == .methodNotAllowed)
        #expect(response.headers["Allow"] == "DELETE, GET")
        #expect(response.errorObject?["code"] == "method_not_allowed")
        #expect(response.errorObject?["message"] == "PUT is not allowed on /tasks/3; use DELETE, GET.")
    }

    @Test func aLiteralSegmentWinsOverAParameter() async throws {
        var router = Self.router()
        router.on(.post, "/tasks/batch") { _ in .text("batch") }
        #expect(try await router.respond(to: Request(method: .post, target: "/tasks/batch")).text == "batch")
        // DELETE /tasks/:id exists, but /tasks/batch is not a task: 405, not "no task batch".
        let response = try await router.respond(to: Request(method: .delete, target: "/tasks/batch"))
        #expect(response.status == .methodNotAllowed)
        #expect(response.headers["Allow"] == "POST")
        #expect(try await router.respond(to: Request(method: .get, target: "/tasks/7")).text == "task 7")
    }

    @Test func headIsAnsweredByTheGetRoute() async throws {
        let response = try await Self.router().respond(to: Request(method: .head, target: "/tasks/9"))
        #expect(response.status == .ok && response.text == "task 9")
    }

    @Test func fieldErrorsRenderTheirField() async throws {
        var router = Router()
        router.on(.post, "/tasks") { _ in
            throw HTTPError(.unprocessableContent, code: "invalid_field", message: "A title is required.", field: "title")
        }
        let response = try await router.respond(to: Request(method: .post, target: "/tasks"))
        #expect(response.status == .unprocessableContent)
        #expect(response.text == #"{"error":{"code":"invalid_field","field":"title","message":"A title is required."}}"#)
    }

    /// A zone name, a path or a URL in a message reads as typed: `Europe/Paris`, not `Europe\/Paris`.
    @Test func errorMessagesKeepTheirSlashes() async throws {
        var router = Router()
        router.on(.patch, "/account") { _ in
            throw HTTPError(.unprocessableContent, code: "invalid_field", message: "Mars/Olympus is not a time zone; try Europe/Paris.", field: "timeZone")
        }
        let response = try await router.respond(to: Request(method: .patch, target: "/account"))
        #expect(response.text == #"{"error":{"code":"invalid_field","field":"timeZone","message":"Mars/Olympus is not a time zone; try Europe/Paris."}}"#)
    }

    @Test func middlewareRunsInTheOrderAdded() async throws {
        struct Tag: Middleware {
            let name: String
            func handle(_ request: Request, next: Handler) async throws -> Response {
                var request = request
                request.headers.add("X-Trail", name)
                var response = try await next(request)
                response.headers.add("X-Trail", name)
                return response
            }
        }
        var router = Router()
        router.use(Tag(name: "outer"))
        router.use(Tag(name: "inner"))
        router.on(.get, "/") { request in .text(request.headers.values("X-Trail").joined(separator: ",")) }
        let response = try await router.respond(to: Request(method: .get, target: "/"))
        #expect(response.text == "outer,inner")
        #expect(response.headers.values("X-Trail") == ["inner", "outer"])
    }

    @Test func middlewareCanAnswerEarly() async throws {
        struct Refuse: Middleware {
            func handle(_ request: Request, next: Handler) async throws -> Response {
                guard request.headers["Authorization"] != nil else {
                    throw HTTPError(.unauthorized, code: "unauthorized", message: "Sign in first.", headers: ["WWW-Authenticate": "Bearer"])
                }
                return try await next(request)
            }
        }
        var router = Router()
        router.use(Refuse())
        router.on(.get, "/") { _ in .text("secret") }
        let refused = try await router.respond(to: Request(method: .get, target: "/"))
        #expect(refused.status == .unauthorized && refused.headers["WWW-Authenticate"] == "Bearer")
        let allowed = try await router.respond(to: Request(method: .get, target: "/", headers: ["Authorization": "Bearer x"]))
        #expect(allowed.text == "secret")
    }

    @Test(arguments: [
        ("a=1&b=2", [("a", "1"), ("b", "2")]),
        ("q=milk+and+eggs&tag=%23home", [("q", "milk and eggs"), ("tag", "#home")]),
        ("flag&empty=&x=1=2", [("flag", ""), ("empty", ""), ("x", "1=2")]),
        ("a=1&a=2&&=skip", [("a", "1"), ("a", "2")]),
        ("", []),
    ])
    func parsesQueries(query: String, expected: [(String, String)]) {
        let parsed = Request.parseQuery(query)
        #expect(parsed.map(\.name) == expected.map(\.0))
        #expect(parsed.map(\.value) == expected.map(\.1))
    }

    @Test func requestTargetsSplitPathAndQuery() {
        let request = Request(method: .get, target: "/tasks?list=home&limit=50&list=work")
        #expect(request.path == "/tasks")
        #expect(request.queryValue("list") == "work")
        #expect(request.queryValue("limit") == "50")
        #expect(request.queryValue("missing") == nil)
    }

    @Test func headerNamesIgnoreASCIICaseOnly() {
        var headers: HTTPHeaders = ["Content-Type": "text/plain", "X-Trace-ID": "1"]
        #expect(headers["content-type"] == "text/plain")
        #expect(headers["CONTENT-TYPE"] == "text/plain")
        #expect(headers["x-trace-id"] == "1")
        #expect(headers["Content-Typ"] == nil && headers["Content-Types"] == nil)
        #expect(!HTTPHeaders.sameName("a-b", "a\rb") && !HTTPHeaders.sameName("[", "{"))
        headers["CONTENT-type"] = "application/json"
        #expect(headers.values("Content-Type") == ["application/json"])
        // Short and long names, and a name bridged from Foundation (no contiguous bytes of its own).
        let long = String(repeating: "X-Long-Header-Name-", count: 3)
        #expect(HTTPHeaders.sameName(long, long.uppercased()) && !HTTPHeaders.sameName(long, long.uppercased() + "x"))
        #expect(HTTPHeaders.sameName(NSString(string: "Content-Type") as String, "content-TYPE"))
        #expect(!HTTPHeaders.sameName(NSString(string: "Content-Typf") as String, "content-type"))
        #expect(!HTTPHeaders.sameName("é", "É"), "only ASCII letters fold")
    }

    @Test func anyOtherErrorBecomesAnOpaque500() async {
        struct Leaky: Error, CustomStringConvertible { var description: String { "password=hunter2" } }
        var router = Router()
        router.on(.get, "/") { _ in throw Leaky() }
        let response = await ServerCore.respond(to: Request(method: .get, target: "/"), with: router)
        #expect(response.status == .internalServerError)
        #expect(response.errorObject == ["code": "internal_error", "message": "The server could not complete the request."])
        #expect(!response.text.contains("hunter2"))
    }
}

extension Request {
    var text: String { String(decoding: body, as: UTF8.self) }
}
