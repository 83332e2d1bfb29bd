import Foundation
import SlateCore

/// The JSON schemas of the API's values (OpenAPI 3.1, JSON Schema 2020-12).
enum Schemas {
    static var uuid: [String: Any] { ["type": "string", "format": "uuid"] }
    static var priority: [String: Any] { ["type": "string", "enum": Priority.allCases.map(\.name)] }

    static func ref(_ name: String) -> [String: Any] { ["$ref": "#/components/schemas/\(name)"] }
    static func nullable(_ schema: [String: Any]) -> [String: Any] { ["oneOf": [schema, ["type": "null"]]] }

    static var all: [String: Any] {
        [
            "Error": OpenAPIDocument.object([
                "error": ["type": "object", "required": ["code", "message"],
                          "properties": ["code": ["type": "string"], "message": ["type": "string"], "field": ["type": "string"],
                                         "current": ["type": "object"], "requestId": ["type": "string"]]],
            ], required: ["error"]),
            "Token": OpenAPIDocument.object(tokenFields, required: ["id", "label", "created", "lastUsed", "expires"]),
            "NewToken": OpenAPIDocument.object(tokenFields.merging(["token": ["type": "string"]]) { $1 },
                                               required: ["id", "label", "created", "lastUsed", "expires", "token"]),
            "Task": TaskRecord.schema,
            "TaskInput": OpenAPIDocument.object(taskFields, required: ["title"]),
            "UpcomingAlert": OpenAPIDocument.object([
                "taskId": uuid, "number": ["type": "integer"], "title": ["type": "string"], "fireAt": ["type": "string"],
                "snoozed": ["type": "boolean"],
            ], required: ["taskId", "number", "title", "fireAt", "snoozed"]),
            "AlertSettings": OpenAPIDocument.object([
                "timedDefaults": alertList, "allDayDefaults": alertList, "webhookURL": nullable(["type": "string"]),
                "webhookSecret": nullable(["type": "string"]), "email": nullable(["type": "string"]),
            ], required: ["timedDefaults", "allDayDefaults", "webhookURL", "webhookSecret", "email"]),
            "PushDevice": OpenAPIDocument.object(["id": uuid, "label": ["type": "string"], "service": ["type": "string"], "created": ["type": "string"]],
                                                 required: ["id", "label", "service", "created"]),
            "AlertState": OpenAPIDocument.object(["taskId": uuid, "snoozedUntil": nullable(["type": "string"])],
                                                 required: ["taskId", "snoozedUntil"]),
            "TaskPatch": OpenAPIDocument.object(taskFields.merging(["isCompleted": ["type": "boolean"]]) { $1 }),
            "TaskPage": OpenAPIDocument.object([
                "tasks": ["type": "array", "items": ref("Task")], "total": ["type": "integer"],
                "nextCursor": nullable(["type": "string"]), "revision": ["type": "integer"],
                "activeTotal": ["type": "integer", "minimum": 0, "description": "With counts=active: the matching tasks not completed"],
            ], required: ["tasks", "total", "nextCursor", "revision"]),
            "BatchInput": OpenAPIDocument.object([
                "action": ["type": "string", "enum": ["complete", "reopen", "flag", "unflag", "delete", "move"]],
                "ids": ["type": "array", "items": uuid, "minItems": 1, "maxItems": Vocabulary.maximumBatchSize],
                "before": nullable(uuid),
            ], required: ["action", "ids"]),
            "List": ListRecord.schema,
            "ListInput": OpenAPIDocument.object(listFields, required: ["name"]),
            "ListPatch": OpenAPIDocument.object(listFields),
            "Vocabulary": vocabulary,
            "Account": OpenAPIDocument.object([
                "name": ["type": "string"], "timeZone": nullable(["type": "string"]), "serverTimeZone": ["type": "string"],
            ], required: ["name", "timeZone", "serverTimeZone"]),
            "QuickEntry": quickEntry,
            "Statistics": statistics,
            "Changes": OpenAPIDocument.object([
                "revision": ["type": "integer"], "tasks": ["type": "array", "items": ref("Task")],
                "lists": ["type": "array", "items": ref("List")],
                "deletedTaskIds": ["type": "array", "items": uuid], "deletedListIds": ["type": "array", "items": uuid],
                "counts": ref("Counts"),
            ], required: ["revision", "tasks", "lists", "deletedTaskIds", "deletedListIds"]),
            "Counts": CountsController.schema,
        ]
    }

    /// What `POST /tasks/parse` answers: every key is always there (null when the line
    /// does not say it).
    static var quickEntry: [String: Any] {
        let string: [String: Any] = ["type": "string"]
        let strings: [String: Any] = ["type": "array", "items": string]
        let properties: [String: Any] = [
            "title": string, "due": nullable(string), "isAllDay": ["type": "boolean"], "priority": nullable(priority),
            "list": nullable(string), "listId": nullable(uuid), "tags": strings, "recurrence": nullable(string),
            "isFlagged": ["type": "boolean"], "notes": nullable(string), "alerts": nullable(strings), "warnings": strings,
            "understood": ["type": "array", "items": OpenAPIDocument.object([
                "kind": ["type": "string", "enum": QuickEntry.Part.Kind.allCases.map(\.rawValue)], "text": string, "description": string,
                "start": ["type": "integer", "minimum": 0], "end": ["type": "integer", "minimum": 0],
            ], required: ["kind", "text", "description", "start", "end"])],
        ]
        return OpenAPIDocument.object(properties, required: properties.keys.sorted())
    }

    /// What `GET /stats` answers (`PublicJSON.statistics`).
    static var statistics: [String: Any] {
        let count: [String: Any] = ["type": "integer", "minimum": 0]
        let byPriority = OpenAPIDocument.object(Dictionary(uniqueKeysWithValues: Priority.allCases.map { ($0.name, count) }),
                                                required: Priority.allCases.map(\.name))
        let properties: [String: Any] = [
            "total": count, "active": count, "completed": count, "completedToday": count, "overdue": count,
            "activeByPriority": byPriority,
            "byList": ["type": "array", "items": OpenAPIDocument.object([
                "listId": nullable(uuid), "name": ["type": "string"], "color": nullable(["type": "string"]), "active": count, "total": count,
            ], required: ["listId", "name", "color", "active", "total"])],
            "meanTimeToCompleteSeconds": nullable(["type": "number"]),
            "completionsPerDay": ["type": "array", "items": OpenAPIDocument.object(["day": ["type": "string", "format": "date"], "count": count],
                                                                                   required: ["day", "count"])],
        ]
        return OpenAPIDocument.object(properties, required: properties.keys.sorted())
    }

    /// `Vocabulary.json`'s shape.
    static var vocabulary: [String: Any] {
        let string: [String: Any] = ["type": "string"]
        let strings: [String: Any] = ["type": "array", "items": string]
        func named(_ properties: [String: Any]) -> [String: Any] {
            ["type": "array", "items": OpenAPIDocument.object(properties, required: properties.keys.sorted())]
        }
        return OpenAPIDocument.object([
            "smartLists": named(["name": ["type": "string", "enum": SmartList.all.map(\.name)], "title": string, "glyph": string,
                                 "sort": ["type": "string", "enum": TaskQuery.Sort.allCases.map(\.rawValue)],
                                 "status": ["type": "string", "enum": TaskQuery.Status.allCases.map(\.rawValue)]]),
            "sorts": named(["name": ["type": "string", "enum": TaskQuery.Sort.allCases.map(\.rawValue)], "title": string]),
            "statuses": strings,
            "priorities": named(["name": priority, "title": string, "marks": string, "rank": ["type": "integer"]]),
            "palette": ["type": "array", "items": ["type": "string", "pattern": "^#[0-9A-F]{6}$"]],
            "defaultColor": string,
            "icons": named(["name": string, "glyph": string]),
            "defaultIcon": string,
            "recurrenceFrequencies": strings,
            "limits": OpenAPIDocument.object(Dictionary(uniqueKeysWithValues: Vocabulary.limits.keys.map { ($0, ["type": "integer"] as [String: Any]) }),
                                             required: Vocabulary.limits.keys.sorted()),
        ], required: Vocabulary.json.keys.sorted())
    }

    /// null colour or icon: the default (on create) or unchanged (on change).
    static var tokenFields: [String: Any] {
        ["id": uuid, "label": ["type": "string"], "created": ["type": "string", "format": "date-time"],
         "lastUsed": nullable(["type": "string", "format": "date-time"]), "expires": nullable(["type": "string", "format": "date-time"])]
    }

    static var listFields: [String: Any] {
        [
            "name": ["type": "string", "minLength": 1, "maxLength": TaskRules.maximumListNameLength],
            "color": nullable(["type": "string", "pattern": "^#?[0-9A-Fa-f]{6}$"]),
            "icon": nullable(["type": "string", "pattern": "^[A-Za-z0-9.-]{1,64}$"]),
        ]
    }

    static var taskFields: [String: Any] {
        [
            "title": ["type": "string", "minLength": 1, "maxLength": TaskRules.maximumTitleLength],
            "notes": nullable(["type": "string", "maxLength": TaskRules.maximumNotesLength]),
            "listId": nullable(uuid),
            "priority": priority.merging([
                "default": Priority.medium.name,
                "description": "A new task without one is medium, as the web app's full form; quick entry (POST /tasks/parse, slate add) and CalDAV make none unless stated.",
            ]) { _, new in new },
            "due": nullable(["type": "string", "description": "YYYY-MM-DD (all day), an ISO 8601 date-time, or a phrase such as 'tomorrow 5pm'"]),
            "isFlagged": ["type": "boolean"],
            "tags": ["type": "array", "items": ["type": "string", "maxLength": TaskRules.maximumTagLength]],
            "recurrence": nullable(["type": "string"]),
            "parentId": nullable(uuid),
            "alerts": nullable(alertList),
        ]
    }

    /// A task's alerts in their text form (`TaskAlert`).
    static var alertList: [String: Any] {
        ["type": "array", "maxItems": TaskAlert.maximumCount,
         "items": ["type": "string", "maxLength": 40, "description": "One of " + TaskAlert.acceptedForms],
         "examples": [["15m", "1d@09:00"]]]
    }
}
