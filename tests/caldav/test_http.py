"""Raw HTTP against the server: discovery as iOS does it, bad inputs, recurring completion
styles and account isolation on every method."""

import uuid

from conftest import ANA_APP, BOB, api, api_tasks, http

TODO = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Test//EN\r\nBEGIN:VTODO\r\nUID:{uid}\r\nDTSTAMP:20261201T090000Z\r\nSUMMARY:{summary}\r\n{extra}END:VTODO\r\nEND:VCALENDAR\r\n"
ICS = {"Content-Type": "text/calendar; charset=utf-8"}


def todo(summary, uid=None, extra=""):
    return TODO.format(uid=uid or uuid.uuid4().hex, summary=summary, extra=extra)


def test_well_known_and_ios_style_propfind():
    assert http("GET", "/.well-known/caldav", auth=None).status == 301
    reply = http("PROPFIND", "/dav/", headers={"Depth": "0", "Brief": "t", "Prefer": "return=minimal"}, body=(
        '<?xml version="1.0"?><A:propfind xmlns:A="DAV:"><A:prop><A:current-user-principal/><A:principal-URL/>'
        "<A:resourcetype/></A:prop></A:propfind>"))
    assert reply.status == 207
    assert "<d:href>/dav/principals/ana/</d:href>" in reply.text
    assert http("PROPFIND", "/dav/", auth=None, headers={"Depth": "0"}).status == 401


def test_bad_inputs_name_what_was_wrong_and_write_nothing():
    before = len(api_tasks())
    cases = [
        ("not iCalendar", 400, "valid-calendar-data"),
        ("BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:x\r\nEND:VCALENDAR\r\n", 400, "valid-calendar-data"),
        ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:e\r\nDTSTART:20261201T090000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n", 403,
         "supported-calendar-component"),
        (todo("Bad due", extra="DUE:tomorrow\r\n"), 400, "DUE"),
        (todo("Bad priority", extra="PRIORITY:12\r\n"), 400, "PRIORITY"),
        (b"BEGIN:VCALENDAR\r\nSUMMARY:\xff\xfe\r\nEND:VCALENDAR\r\n", 400, "UTF-8"),
    ]
    for body, status, words in cases:
        reply = http("PUT", f"/dav/calendars/ana/inbox/{uuid.uuid4().hex}.ics", body=body, headers=ICS)
        assert reply.status == status, (body, reply.text)
        assert words in reply.text
    huge = todo("Huge", extra="X-BIG:" + "a" * 700_000 + "\r\n")
    assert http("PUT", "/dav/calendars/ana/inbox/huge.ics", body=huge, headers=ICS).status == 413
    assert len(api_tasks()) == before
    xxe = ('<?xml version="1.0"?><!DOCTYPE d [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>'
           '<d:propfind xmlns:d="DAV:"><d:prop><d:displayname>&xxe;</d:displayname></d:prop></d:propfind>')
    reply = http("PROPFIND", "/dav/calendars/ana/", body=xxe, headers={"Depth": "0"})
    assert reply.status == 400 and "root:" not in reply.text


def test_uid_conflict_and_preconditions():
    uid = uuid.uuid4().hex
    first = http("PUT", "/dav/calendars/ana/inbox/first.ics", body=todo("First", uid), headers={**ICS, "If-None-Match": "*"})
    assert first.status == 201
    clash = http("PUT", "/dav/calendars/ana/inbox/second.ics", body=todo("Second", uid), headers=ICS)
    assert clash.status == 403 and "no-uid-conflict" in clash.text
    assert http("PUT", "/dav/calendars/ana/inbox/first.ics", body=todo("Again", uid), headers={**ICS, "If-None-Match": "*"}).status == 412
    assert http("PUT", "/dav/calendars/ana/inbox/first.ics", body=todo("Stale", uid), headers={**ICS, "If-Match": '"1"'}).status == 412
    ok = http("PUT", "/dav/calendars/ana/inbox/first.ics", body=todo("Fresh", uid), headers={**ICS, "If-Match": first.headers["ETag"]})
    assert ok.status == 204


def test_apple_style_recurring_completion_gives_one_done_and_one_next():
    uid = uuid.uuid4().hex
    repeating = todo("Water the plants", uid, "RRULE:FREQ=WEEKLY\r\nDTSTART;VALUE=DATE:20261201\r\nDUE;VALUE=DATE:20261201\r\n")
    http("PUT", f"/dav/calendars/ana/inbox/{uid}.ics", body=repeating, headers=ICS)
    # Apple: a completed copy with a new UID, and the original moved forward.
    copy = todo("Water the plants", None, "STATUS:COMPLETED\r\nCOMPLETED:20261201T180000Z\r\nDUE;VALUE=DATE:20261201\r\n")
    http("PUT", f"/dav/calendars/ana/inbox/{uuid.uuid4().hex}.ics", body=copy, headers=ICS)
    moved = repeating.replace("20261201", "20261208")
    assert http("PUT", f"/dav/calendars/ana/inbox/{uid}.ics", body=moved, headers=ICS).status == 204
    plants = [task for task in api_tasks() if task["title"] == "Water the plants"]
    assert sorted(task["isCompleted"] for task in plants) == [False, True]
    [active] = [task for task in plants if not task["isCompleted"]]
    assert active["due"].startswith("2026-12-0")  # the 8th, in the server's zone
    assert active["recurrence"] is not None


def test_tasks_org_style_moves_due_on_the_same_todo():
    uid = uuid.uuid4().hex
    body = todo("Weekly report", uid, "RRULE:FREQ=WEEKLY\r\nDUE;VALUE=DATE:20261204\r\n")
    http("PUT", f"/dav/calendars/ana/inbox/{uid}.ics", body=body, headers=ICS)
    http("PUT", f"/dav/calendars/ana/inbox/{uid}.ics", body=body.replace("20261204", "20261211"), headers=ICS)
    reports = [task for task in api_tasks() if task["title"] == "Weekly report"]
    # One completed copy of the occurrence that was due, and the series moved on.
    assert sorted(task["isCompleted"] for task in reports) == [False, True]
    [active] = [task for task in reports if not task["isCompleted"]]
    assert active["recurrence"] is not None


def test_thunderbird_style_override_completes_one_occurrence():
    uid = uuid.uuid4().hex
    master = todo("Feed the cat", uid, "DTSTART;VALUE=DATE:20261201\r\nDUE;VALUE=DATE:20261201\r\nRRULE:FREQ=DAILY\r\n")
    href = f"/dav/calendars/ana/inbox/{uid}.ics"
    assert http("PUT", href, body=master, headers=ICS).status == 201
    override = (f"BEGIN:VTODO\r\nUID:{uid}\r\nRECURRENCE-ID;VALUE=DATE:20261201\r\nDTSTAMP:20261201T090000Z\r\n"
                "SUMMARY:Feed the cat\r\nSTATUS:COMPLETED\r\nCOMPLETED:20261201T080000Z\r\nEND:VTODO\r\n")
    both = master.replace("END:VCALENDAR", override + "END:VCALENDAR")
    put = http("PUT", href, body=both, headers=ICS)
    assert put.status == 204
    cats = [task for task in api_tasks() if task["title"] == "Feed the cat"]
    assert sorted(task["isCompleted"] for task in cats) == [False, True]
    # The client gets its bytes back, and no second resource for the completed occurrence.
    assert http("GET", href).body == both.encode()
    listing = http("PROPFIND", "/dav/calendars/ana/inbox/", headers={"Depth": "1"})
    done = next(task for task in cats if task["isCompleted"])
    assert done["id"].upper() not in listing.text.upper()


def test_another_account_sees_nothing_on_any_method():
    uid = uuid.uuid4().hex
    http("PUT", f"/dav/calendars/ana/inbox/{uid}.ics", body=todo("Ana only", uid), headers=ICS)
    resource = f"/dav/calendars/ana/inbox/{uid}.ics"
    attempts = [
        ("GET", resource, ""), ("DELETE", resource, ""), ("PUT", resource, todo("Taken over", uid)),
        ("PROPFIND", "/dav/calendars/ana/", ""), ("PROPFIND", resource, ""), ("PROPFIND", "/dav/principals/ana/", ""),
        ("PROPPATCH", "/dav/calendars/ana/inbox/", '<d:propertyupdate xmlns:d="DAV:"/>'),
        ("REPORT", "/dav/calendars/ana/inbox/", '<d:sync-collection xmlns:d="DAV:"><d:sync-token/></d:sync-collection>'),
        ("MKCALENDAR", "/dav/calendars/ana/bobs-list/", ""), ("DELETE", "/dav/calendars/ana/inbox/", ""),
    ]
    for method, path, body in attempts:
        reply = http(method, path, body=body, headers={**ICS, "Depth": "0"}, auth=BOB)
        missing = http(method, path.replace("/ana/", "/nobody/"), body=body, headers={**ICS, "Depth": "0"}, auth=BOB)
        assert reply.status == 404, (method, path)
        assert reply.body == missing.body.replace(b"/nobody/", b"/ana/")
    assert [task["title"] for task in api_tasks() if task["title"] == "Ana only"] == ["Ana only"]
    bob_calendars = http("PROPFIND", "/dav/calendars/bob/", headers={"Depth": "1"}, auth=BOB)
    assert "Ana only" not in bob_calendars.text and bob_calendars.status == 207
