import Foundation
import SlateCore

/// The OpenAPI 3.1 description of `/api/v1`, served at `/api/v1/openapi.json`.
///
/// A test checks that every route of the router is described here and every path
/// described here is routed; schemathesis checks the responses against the schemas.
enum OpenAPIDocument {
    static let version = "1.0.0"

    static var json: [String: Any] {
        [
            "openapi": "3.1.0",
            "info": ["title": "Slate API", "version": version,
                     "description": "Tasks, lists and live changes of one account. Errors are {\"error\": {\"code\", \"message\", \"field\"}}."],
            "servers": [["url": "/"]],
            "paths": withChangeHeaders(paths),
            "components": ["schemas": Schemas.all, "responses": responses,
                           "securitySchemes": ["bearer": ["type": "http", "scheme": "bearer"],
                                               "session": ["type": "apiKey", "in": "cookie", "name": "slate_session"]]],
            "security": [["bearer": []], ["session": []]],
        ]
    }

    static var paths: [String: Any] {
        [
            "/api/v1/tasks": [
                "get": operation("listTasks", "Tasks of a view, filtered, searched, sorted and paged", parameters: taskQueryParameters + [timeZone],
                                 responses: ["200": content(Schemas.ref("TaskPage")), "404": error]),
                "post": operation("createTask", "Create a task", parameters: [timeZone], body: Schemas.ref("TaskInput"),
                                  responses: ["201": content(Schemas.ref("Task")), "404": error, "409": error]),
            ],
            "/api/v1/tasks/parse": [
                "post": operation("parseQuickEntry", "What a quick-entry line means, without saving", parameters: [timeZone],
                                  body: object(["text": ["type": "string"]], required: ["text"]),
                                  responses: ["200": content(Schemas.ref("QuickEntry"))]),
            ],
            "/api/v1/tasks/batch": [
                "post": operation("batchTasks", "Complete, reopen, flag, unflag, delete or move tasks as one change",
                                  body: Schemas.ref("BatchInput"),
                                  responses: ["200": content(object(["action": ["type": "string"], "ids": ["type": "array", "items": Schemas.uuid], "revision": ["type": "integer"]], required: ["action", "ids", "revision"])), "404": error, "412": error]),
            ],
            "/api/v1/tasks/clear-completed": [
                "post": operation("clearCompleted", "Delete the completed tasks of a list or everywhere",
                                  body: object(["listId": Schemas.nullable(Schemas.uuid)]),
                                  responses: ["200": content(object(["deleted": ["type": "integer"]], required: ["deleted"])), "404": error]),
            ],
            "/api/v1/tasks/{id}": [
                "parameters": [idParameter],
                "get": operation("getTask", "One task", responses: ["200": content(Schemas.ref("Task")), "404": error]),
                "patch": operation("updateTask", "Change some fields of a task", parameters: [ifMatch, timeZone], body: Schemas.ref("TaskPatch"),
                                   responses: ["200": content(Schemas.ref("Task")), "404": error, "409": error, "412": error]),
                "delete": operation("deleteTask", "Delete a task and its subtasks", parameters: [ifMatch],
                                    responses: ["204": ["description": "Deleted"], "404": error, "412": error]),
            ],
            "/api/v1/tasks/{id}/subtasks": [
                "parameters": [idParameter],
                "get": operation("listSubtasks", "The subtasks of a task",
                                 responses: ["200": content(object(["tasks": ["type": "array", "items": Schemas.ref("Task")]], required: ["tasks"])), "404": error]),
                "post": operation("createSubtask", "Add a subtask", parameters: [timeZone], body: Schemas.ref("TaskInput"),
                                  responses: ["201": content(Schemas.ref("Task")), "404": error]),
            ],
            "/api/v1/lists": [
                "get": operation("listLists", "Lists with their active counts",
                                 parameters: [query("sort", ["type": "string", "enum": ["manual", "name"]])],
                                 responses: ["200": content(object(["lists": ["type": "array", "items": Schemas.ref("List")]], required: ["lists"]))]),
                "post": operation("createList", "Create a list", body: Schemas.ref("ListInput"),
                                  responses: ["201": content(Schemas.ref("List")), "409": error]),
            ],
            "/api/v1/lists/{id}": [
                "parameters": [idParameter],
                "get": operation("getList", "One list", responses: ["200": content(Schemas.ref("List")), "404": error]),
                "patch": operation("updateList", "Rename, recolour or change the icon", parameters: [ifMatch], body: Schemas.ref("ListPatch"),
                                   responses: ["200": content(Schemas.ref("List")), "404": error, "409": error, "412": error]),
                "delete": operation("deleteList", "Delete a list, keeping or deleting its tasks",
                                    parameters: [ifMatch, query("tasks", ["type": "string", "enum": ["keep", "delete"]], required: true)],
                                    responses: ["204": ["description": "Deleted"], "404": error, "412": error]),
            ],
            "/api/v1/lists/{id}/move": [
                "parameters": [idParameter],
                "post": operation("moveList", "Put a list before another (null: at the end)",
                                  body: object(["before": Schemas.nullable(Schemas.uuid)]),
                                  responses: ["200": content(Schemas.ref("List")), "404": error]),
            ],
            "/api/v1/account": [
                "get": operation("getAccount", "The signed-in account and its default time zone",
                                 responses: ["200": content(Schemas.ref("Account"))]),
                "patch": operation("updateAccount", "Set the account's default time zone (null: the server's)",
                                   body: object(["timeZone": Schemas.nullable(["type": "string", "minLength": 1, "maxLength": 64, "examples": ["Europe/Paris"]])]),
                                   responses: ["200": content(Schemas.ref("Account"))]),
            ],
            "/api/v1/alerts": [
                "get": operation("upcomingAlerts", "The next alert of each active task, soonest first",
                                 responses: ["200": content(object(["alerts": ["type": "array", "items": Schemas.ref("UpcomingAlert")]], required: ["alerts"]))]),
            ],
            "/api/v1/alerts/settings": [
                "get": operation("getAlertSettings", "The account's default alerts, webhook and email address",
                                 responses: ["200": content(Schemas.ref("AlertSettings"))]),
                "patch": operation("updateAlertSettings", "Change the default alerts, the webhook (null removes it and its secret) or the email address; a new webhook secret (set with a new webhook, or asked for with newWebhookSecret) is in this answer only",
                                   body: object(["timedDefaults": Schemas.nullable(Schemas.alertList), "allDayDefaults": Schemas.nullable(Schemas.alertList),
                                                 "newWebhookSecret": ["type": "boolean"],
                                                 "webhookURL": Schemas.nullable(["type": "string", "maxLength": AlertRules.maximumAddressLength, "examples": ["https://ntfy.example.org/slate"]]),
                                                 "email": Schemas.nullable(["type": "string", "maxLength": AlertRules.maximumAddressLength, "examples": ["ana@example.org"]])]),
                                   responses: ["200": content(Schemas.ref("AlertSettings"))]),
            ],
            "/api/v1/alerts/test": [
                "post": operation("sendTestAlert", "Send a test alert through every channel and device of the account now",
                                  responses: ["202": content(object(["taskId": ["type": "string", "format": "uuid"], "title": ["type": "string"]],
                                                                    required: ["taskId", "title"]))]),
            ],
            "/api/v1/push/key": [
                "get": operation("pushKey", "The server's VAPID public key (base64url), the applicationServerKey to subscribe with",
                                 responses: ["200": content(object(["publicKey": ["type": "string"]], required: ["publicKey"]))]),
            ],
            "/api/v1/push/devices": [
                "get": operation("listPushDevices", "The account's Web Push devices",
                                 responses: ["200": content(object(["devices": ["type": "array", "items": Schemas.ref("PushDevice")]], required: ["devices"]))]),
                "post": operation("addPushDevice", "Register a push subscription (endpoint and keys from PushSubscription.toJSON())",
                                  body: object(["endpoint": ["type": "string", "maxLength": 2048], "p256dh": ["type": "string", "maxLength": 200],
                                                "auth": ["type": "string", "maxLength": 100], "label": ["type": "string", "maxLength": 100]],
                                               required: ["endpoint", "p256dh", "auth"]),
                                  responses: ["201": content(Schemas.ref("PushDevice")), "422": error]),
            ],
            "/api/v1/push/devices/{id}": [
                "parameters": [idParameter],
                "delete": operation("removePushDevice", "Remove a push device", responses: ["204": ["description": "Removed"], "404": error]),
            ],
            "/api/v1/tasks/{id}/snooze": [
                "parameters": [idParameter],
                "post": operation("snoozeAlert", "Put off the task's alert: it fires again at 'until' (10m, 1h, tomorrow or an ISO 8601 moment)",
                                  body: object(["until": ["type": "string", "examples": ["10m", "1h", "tomorrow"]]], required: ["until"]),
                                  responses: ["200": content(Schemas.ref("AlertState")), "404": error]),
            ],
            "/api/v1/tasks/{id}/dismiss": [
                "parameters": [idParameter],
                "post": operation("dismissAlert", "Dismiss the task's alerts due so far",
                                  responses: ["200": content(Schemas.ref("AlertState")), "404": error]),
            ],
            "/api/v1/undo": ["post": operation("undo", "Undo the change named by 'change' (a write's Slate-Change header), even after other changes; without it, the latest change",
                                               body: object(["change": ["type": "integer", "minimum": 1]]),
                                               responses: ["200": content(object(["undone": ["type": ["string", "null"]]], required: ["undone"])), "409": error])],
            "/api/v1/redo": ["post": operation("redo", "Redo the last undone change", responses: ["200": content(object(["redone": ["type": ["string", "null"]]], required: ["redone"]))])],
            "/api/v1/vocabulary": ["get": operation("vocabulary", "The smart lists, sorts, statuses, priorities, palette, list icons and limits the server accepts",
                                                    responses: ["200": content(Schemas.ref("Vocabulary"))])],
            "/api/v1/stats": ["get": operation("statistics", "Totals, breakdowns and completions per day", parameters: [timeZone], responses: ["200": content(Schemas.ref("Statistics"))])],
            "/api/v1/changes": [
                "get": operation("changes", "What changed since a revision",
                                 parameters: [query("since", ["type": "integer", "minimum": 0]),
                                              query("counts", ["type": "boolean", "description": "also the sidebar's counts (as GET /counts answers)"]),
                                              timeZone],
                                 responses: ["200": content(Schemas.ref("Changes")), "409": error]),
            ],
            "/api/v1/counts": [
                "get": operation("counts", "Each smart list's count and each list's active count, in one request",
                                 parameters: [timeZone], responses: ["200": content(Schemas.ref("Counts"))]),
            ],
            "/api/v1/export": [
                "get": operation("export", "Every list and task as a file",
                                 parameters: [query("format", ["type": "string", "enum": ["json", "ics", "todotxt", "taskwarrior"]])],
                                 responses: ["200": ["description": "The file", "content": ["application/json": ["schema": [:]], "text/calendar": ["schema": ["type": "string"]], "text/plain": ["schema": ["type": "string"]]]]]),
            ],
            "/api/v1/import": [
                "post": operation("import", "Add lists and tasks from a file, all or nothing",
                                  parameters: [query("format", ["type": "string", "enum": ["json", "ics", "todotxt", "taskwarrior"]])],
                                  rawBody: true,
                                  responses: ["200": content(object(["listsCreated": ["type": "integer"], "tasksCreated": ["type": "integer"], "tasksUpdated": ["type": "integer"]], required: ["listsCreated", "tasksCreated", "tasksUpdated"]))]),
            ],
            "/api/v1/events": [
                "get": operation("events", "Server-Sent Events: a change event per commit to this account; Last-Event-ID resumes",
                                 parameters: [["name": "Last-Event-ID", "in": "header", "required": false, "schema": ["type": "string"]]],
                                 responses: ["200": ["description": "An event stream", "content": ["text/event-stream": ["schema": ["type": "string"]]]],
                                             "429": error]),
            ],
            "/api/v1/session": [
                "post": operation("signIn", "Sign in with a name and password; sets the session cookie",
                                  body: object(["name": ["type": "string"], "password": ["type": "string"]], required: ["name", "password"]),
                                  responses: ["200": content(object(["account": ["type": "string"], "csrfHeader": ["type": "string"]], required: ["account"])), "401": error, "429": error,
                                              "503": error],
                                  secured: false),
                "get": operation("currentSession", "Whether a session (or token) is signed in, and its account; signed out is {\"signedIn\": false}, not 401",
                                 responses: ["200": content(object(["signedIn": ["type": "boolean"], "account": ["type": "string"]], required: ["signedIn"])),
                                             "401": error],
                                 secured: false),
                "delete": operation("signOut", "Sign out", responses: ["204": ["description": "Signed out"]]),
            ],
            "/api/v1/tokens": [
                "get": operation("listTokens", "The account's API tokens (never their secrets)",
                                 responses: ["200": content(object(["tokens": ["type": "array", "items": Schemas.ref("Token")]], required: ["tokens"]))]),
                "post": operation("createToken", "Create an API token; its secret is in this answer only",
                                  body: object(["label": ["type": "string", "maxLength": 100],
                                                "expiresIn": ["type": "string", "description": "12h, 30d, 8w, 1y (at most 10y) or never; absent: never",
                                                              "examples": ["30d"]]]),
                                  responses: ["201": content(Schemas.ref("NewToken"))]),
            ],
            "/api/v1/tokens/{id}": [
                "parameters": [idParameter],
                "delete": operation("revokeToken", "Revoke a token: it stops working at once", responses: ["204": ["description": "Revoked"], "404": error]),
            ],
            "/api/v1/openapi.json": [
                "get": operation("openapi", "This document", responses: ["200": content(["type": "object"])], secured: false),
            ],
        ]
    }

    // MARK: Building blocks

    /// Operations that answer without writing anything of the board.
    static let readOnlyOperations: Set<String> = ["parseQuickEntry", "signIn", "signOut", "updateAccount", "updateAlertSettings",
                                                   "snoozeAlert", "dismissAlert", "sendTestAlert",
                                                   "addPushDevice", "removePushDevice"]

    /// Every writing operation's success answers carry `Slate-Change`.
    static func withChangeHeaders(_ paths: [String: Any]) -> [String: Any] {
        paths.mapValues { item in
            guard var item = item as? [String: Any] else { return item }
            for method in ["post", "patch", "delete"] {
                guard var operation = item[method] as? [String: Any], let id = operation["operationId"] as? String,
                      !readOnlyOperations.contains(id), var responses = operation["responses"] as? [String: Any]
                else { continue }
                for (status, response) in responses where status.hasPrefix("2") {
                    guard var response = response as? [String: Any] else { continue }
                    response["headers"] = ["Slate-Change": changeHeader]
                    responses[status] = response
                }
                operation["responses"] = responses
                item[method] = operation
            }
            return item
        }
    }

    static var changeHeader: [String: Any] {
        ["description": "The change this write made (its revision), for POST /api/v1/undo {\"change\": N}; absent when nothing changed.",
         "required": false, "schema": ["type": "string", "pattern": "^[0-9]+$"]]
    }

    static var error: [String: Any] { ["$ref": "#/components/responses/Error"] }
    static var responses: [String: Any] { [
        "Error": ["description": "An error", "content": ["application/json": ["schema": Schemas.ref("Error")]]],
    ] }
    static var idParameter: [String: Any] { ["name": "id", "in": "path", "required": true, "schema": Schemas.uuid] }
    static var ifMatch: [String: Any] { ["name": "If-Match", "in": "header", "required": false,
                                         "description": "The ETag read (\"r42\") or *; a stale or foreign one answers 412 with the current version. An ETag that is older only because the task's subtasks changed since is not stale.",
                                         "schema": ["type": "string"]] }

    static var timeZone: [String: Any] { ["name": "X-Slate-Time-Zone", "in": "header", "required": false,
                                          "description": "The client's IANA time zone (Europe/Paris): dates and times such as 'fri 5pm' are read in it, and all-day dates are its days. Without it, the account's default zone, else the server's. An unknown name answers 400.",
                                          "schema": ["type": "string", "examples": ["America/New_York"]]] }

    static var taskQueryParameters: [[String: Any]] {
        [
            query("scope", ["type": "string", "enum": SmartList.all.map(\.name)]),
            query("list", Schemas.uuid),
            query("status", ["type": "string", "enum": TaskQuery.Status.allCases.map(\.rawValue)]),
            query("search", ["type": "string"]),
            query("priority", Schemas.priority),
            query("tag", ["type": "string"]),
            query("sort", ["type": "string", "enum": TaskQuery.Sort.allCases.map(\.rawValue)]),
            query("parent", ["oneOf": [Schemas.uuid, ["type": "string", "const": "none"]],
                             "description": "A task's id: its subtasks; none: only tasks that are no one's subtask"]),
            query("limit", ["type": "integer", "minimum": 1, "maximum": Vocabulary.maximumPageSize]),
            query("cursor", ["type": "string", "minLength": 1, "description": "nextCursor of the page before"]),
            query("counts", ["type": "string", "enum": ["active"],
                             "description": "active: the page also carries activeTotal, how many of the matching tasks are not completed"]),
        ]
    }

    static func query(_ name: String, _ schema: [String: Any], required: Bool = false) -> [String: Any] {
        ["name": name, "in": "query", "required": required, "schema": schema]
    }

    static func bodyRequires(_ body: [String: Any]) -> Bool {
        if let reference = body["$ref"] as? String {
            return bodyRequires(Schemas.all[String(reference.split(separator: "/").last ?? "")] as? [String: Any] ?? [:])
        }
        return !((body["required"] as? [String]) ?? []).isEmpty
    }

    static func object(_ properties: [String: Any], required: [String] = []) -> [String: Any] {
        var schema: [String: Any] = ["type": "object", "properties": properties, "additionalProperties": false]
        if !required.isEmpty { schema["required"] = required }
        return schema
    }

    static func content(_ schema: [String: Any]) -> [String: Any] {
        ["description": "OK", "content": ["application/json": ["schema": schema]]]
    }

    static func operation(_ id: String, _ summary: String, parameters: [[String: Any]] = [], body: [String: Any]? = nil,
                          rawBody: Bool = false, responses: [String: Any], secured: Bool = true) -> [String: Any] {
        var all = responses
        all["400"] = error
        all["503"] = error   // the database stayed locked by another program: try again (Retry-After)
        if secured { all["401"] = error }
        if body != nil || rawBody {
            all["413"] = error   // over the server's body limit (1 MiB)
            all["422"] = error
        }
        if body != nil { all["415"] = error }   // JSON bodies only; an import's format comes from ?format= or the file
        var operation: [String: Any] = ["operationId": id, "summary": summary, "responses": all]
        if !parameters.isEmpty { operation["parameters"] = parameters }
        // A body with no required field may be left out (an empty body reads as {}).
        if let body { operation["requestBody"] = ["required": bodyRequires(body), "content": ["application/json": ["schema": body]]] }
        if rawBody {
            operation["requestBody"] = ["required": true, "content": ["application/json": ["schema": [:]], "text/calendar": ["schema": ["type": "string"]], "text/plain": ["schema": ["type": "string"]]]]
            operation["responses"] = all
        }
        if !secured { operation["security"] = [] }
        return operation
    }
}
