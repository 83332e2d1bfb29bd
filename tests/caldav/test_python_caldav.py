"""python-caldav (pinned) against a real `slate serve`: discovery, lists, tasks both ways,
completion, search and sync tokens, with Slate's REST API checking the other side."""

from datetime import date, datetime, timedelta, timezone

import caldav
import pytest
from conftest import ANA, ANA_APP, BASE, api, api_tasks, http


def find(title):
    return [task for task in api_tasks() if task["title"] == title]


def test_discovery_finds_the_inbox_and_every_list(client):
    api("POST", "/lists", {"name": "Discovered"})
    principal = client.principal()
    names = {cal.get_display_name() for cal in principal.calendars()}
    assert {"Inbox", "Discovered"} <= names
    assert str(principal.url).endswith("/dav/principals/ana/")


def test_the_account_password_works_as_well_as_an_app_password():
    with caldav.DAVClient(url=BASE + "/dav/", username=ANA[0], password=ANA[1]) as dav:
        assert any(cal.get_display_name() == "Inbox" for cal in dav.principal().calendars())
    with caldav.DAVClient(url=BASE + "/dav/", username="ana", password="wrong password") as dav:
        with pytest.raises(caldav.lib.error.AuthorizationError):
            dav.principal()


def test_a_new_list_and_a_task_reach_slate(calendar):
    assert calendar.get_supported_components() == ["VTODO"]
    due = datetime(2026, 12, 24, 17, 0, tzinfo=timezone.utc)
    calendar.add_todo(summary="Mix the trailer", due=due, priority=1, categories=["Sound", "urgent"],
                      description="Two passes\nthen the final")
    [task] = find("Mix the trailer")
    assert task["due"] == "2026-12-24T17:00:00.000Z"
    assert task["priority"] == "high"
    assert task["tags"] == ["sound", "urgent"]
    assert task["notes"] == "Two passes\nthen the final"
    assert task["list"] == calendar.get_display_name()


def test_a_task_made_in_slate_reaches_the_client_and_its_completion_comes_back(calendar):
    list_id = next(item["id"] for item in api("GET", "/lists")["lists"] if item["name"] == calendar.get_display_name())
    made = api("POST", "/tasks", {"title": "Call the composer", "listId": list_id, "priority": "medium"})
    [todo] = calendar.todos()
    component = todo.icalendar_component
    assert str(component["SUMMARY"]) == "Call the composer"
    assert int(component["PRIORITY"]) == 5
    todo.complete()
    task = api("GET", f"/tasks/{made['id']}")
    assert task["isCompleted"] is True
    assert calendar.todos() == []
    assert len(calendar.todos(include_completed=True)) == 1


def test_editing_in_the_client_and_in_slate(calendar):
    todo = calendar.add_todo(summary="Draft", dtstart=date(2026, 12, 1), due=date(2026, 12, 1))
    [task] = find("Draft")
    assert task["isAllDay"] is True
    todo.icalendar_component["SUMMARY"] = "Draft two"
    todo.save()
    assert find("Draft two")
    api("PATCH", f"/tasks/{task['id']}", {"title": "Draft three"})
    todo.load()
    assert str(todo.icalendar_component["SUMMARY"]) == "Draft three"


def test_subtasks_are_linked_both_ways(calendar):
    calendar.add_todo(summary="Shoot day", uid="shoot-day-parent")
    child = calendar.add_todo(ical=(
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Test//EN\r\nBEGIN:VTODO\r\nUID:shoot-day-van\r\n"
        "DTSTAMP:20261201T090000Z\r\nSUMMARY:Book the van\r\nRELATED-TO;RELTYPE=PARENT:shoot-day-parent\r\n"
        "END:VTODO\r\nEND:VCALENDAR\r\n"))
    [parent_task] = find("Shoot day")
    [child_task] = find("Book the van")
    assert child_task["parentId"] == parent_task["id"]
    # A subtask made in Slate links back to its parent's UID.
    made = api("POST", f"/tasks/{parent_task['id']}/subtasks", {"title": "Fuel the van"})
    [todo] = [item for item in calendar.todos() if str(item.icalendar_component["SUMMARY"]) == "Fuel the van"]
    assert str(todo.icalendar_component["RELATED-TO"]) == "shoot-day-parent"
    assert made["parentId"] == parent_task["id"]
    assert child.icalendar_component["UID"] == "shoot-day-van"


def test_search_pending_todos(calendar):
    calendar.add_todo(summary="Open one")
    done = calendar.add_todo(summary="Closed one")
    done.complete()
    pending = calendar.search(todo=True, include_completed=False)
    assert [str(item.icalendar_component["SUMMARY"]) for item in pending] == ["Open one"]
    everything = calendar.search(todo=True, include_completed=True)
    assert len(everything) == 2


def test_sync_tokens_follow_changes_from_slate(calendar):
    first = calendar.add_todo(summary="Sync me")
    second = calendar.add_todo(summary="Delete me")
    objects = calendar.objects_by_sync_token(load_objects=True)
    assert len(list(objects)) == 2
    token = objects.sync_token
    again = calendar.objects_by_sync_token(sync_token=token, load_objects=True)
    assert len(list(again)) == 0
    [task] = find("Sync me")
    api("PATCH", f"/tasks/{task['id']}", {"title": "Synced"})
    second.delete()
    changed = calendar.objects_by_sync_token(sync_token=token, load_objects=True)
    urls = {str(item.url) for item in changed}
    assert str(first.url) in urls and str(second.url) in urls
    assert changed.sync_token != token


def test_deleting_a_list(client):
    made = client.principal().make_calendar(name="Short lived", cal_id="short-lived", supported_calendar_component_set=["VTODO"])
    made.add_todo(summary="Goes with it")
    made.delete()
    assert not find("Goes with it")
    assert all(item["name"] != "Short lived" for item in api("GET", "/lists")["lists"])


def test_properties_of_a_list_can_be_changed(calendar):
    calendar.set_properties([caldav.elements.dav.DisplayName("Renamed list")])
    assert calendar.get_property(caldav.elements.dav.DisplayName(), use_cached=False) == "Renamed list"
    reply = http("PROPPATCH", calendar.url.path, headers={"Content-Type": "application/xml"}, body=(
        '<d:propertyupdate xmlns:d="DAV:" xmlns:a="http://apple.com/ns/ical/"><d:set><d:prop>'
        "<a:calendar-color>#4ECDC4FF</a:calendar-color><a:calendar-order>3</a:calendar-order></d:prop></d:set></d:propertyupdate>"))
    assert reply.status == 207
    [listed] = [item for item in api("GET", "/lists")["lists"] if item["name"] == "Renamed list"]
    assert listed["color"] == "#4ECDC4"
