"""caldav-server-tester (pinned), adapted to a server whose collections hold tasks only.

The tester's calendar preparation stores events before anything else and stops at the
first refusal; Slate answers a VEVENT with 403 supported-calendar-component (a task list
holds tasks, as Apple Reminders and tasks.org expect), so unadapted only 29 of its
features ran. This runner changes two things, in this process only, and nothing else:

1. The fixtures: the preparation stores the tester's task fixtures (same UIDs, dates and
   properties as its own), and not its events or journals; every event and journal
   feature is then found unsupported, which is what Slate is.
2. Checks whose feature is not about events but which happen to use an event as their
   object (sync tokens and DAV:limit, RELATED-TO, ETags on PUT, If-Match, UID conflicts,
   mutability, synchronous writes, time zones) get that object as a VTODO: while they
   run, a PUT body's VEVENT becomes a VTODO and its DTEND a DUE.

Everything else (the checks, their grading, the report) is the tester's own. Used by
tests/caldav/server_tester.py; arguments are the tester's.
"""

import sys
from datetime import date, datetime, timedelta, timezone

import caldav.davclient
from caldav import Todo
from caldav_server_tester import checks
from caldav_server_tester.caldav_server_tester import check_server_compatibility

UTC = timezone.utc

# The checks that get their event as a task (see 2. above).
AS_TASK = {"CheckSyncToken", "CheckSyncTokenLimit", "CheckRelatedTo", "CheckPutEtag", "CheckNoUidConflict",
           "CheckMutable", "CheckIfMatchOptional", "CheckDuplicateUID", "CheckSynchronousWrite", "CheckTimezone"}

_converting = False


def as_task(body):
    """A calendar object's VEVENT as a VTODO (DTEND → DUE); anything else unchanged."""
    if not _converting or not body:
        return body
    text = body.decode() if isinstance(body, bytes) else body
    if "BEGIN:VEVENT" not in text:
        return body
    text = text.replace("BEGIN:VEVENT", "BEGIN:VTODO").replace("END:VEVENT", "END:VTODO")
    text = "\n".join("DUE" + line[len("DTEND"):] if line.startswith("DTEND") else line for line in text.split("\n"))
    return text.encode() if isinstance(body, bytes) else text


_put, _request = caldav.davclient.DAVClient.put, caldav.davclient.DAVClient.request


def put(self, url, body, headers=None):
    return _put(self, url, as_task(body), headers)


def request(self, url, method="GET", body="", headers=None, *rest, **named):
    return _request(self, url, method, as_task(body) if method == "PUT" else body, headers, *rest, **named)


caldav.davclient.DAVClient.put, caldav.davclient.DAVClient.request = put, request

_run_check = checks.Check.run_check


def run_check(self, *args, **kwargs):
    global _converting
    before, _converting = _converting, type(self).__name__ in AS_TASK
    measure = self._run_check

    def measured():
        # A check whose fixture is an event finds nothing and grades nothing: its features
        # are recorded unsupported (they are event features; a task feature left unset this
        # way fails the comparison with the expected file).
        known = lambda: set(self.checker._features_checked.dotted_feature_set_list().keys())
        start = known()
        measure()
        done = known()
        for feature in self.features_to_be_checked - (done - start):
            parents = [feature[:index] for index in range(len(feature)) if feature[index] == "."]
            if not any(parent in done for parent in parents):
                self.set_feature(feature, {"support": "unsupported",
                                           "behaviour": "not measured: its fixture is an event; this server holds tasks only"})

    self._run_check = measured
    try:
        return _run_check(self, *args, **kwargs)
    finally:
        _converting = before
        del self._run_check


checks.Check.run_check = run_check


def task_fixtures(self, calendar, cal_id, name, add_if_not_existing):
    """The tester's task fixtures, and none of its events or journals."""
    base = self.checker.fixture_base_year
    if not self._prepare_task_calendar(cal_id, name, add_if_not_existing):
        return
    for feature in ("save-load.event", "save-load.event.recurrences", "save-load.event.recurrences.count",
                    "save-load.event.recurrences.exception", "save-load.journal", "save-load.journal.mixed-calendar"):
        self.set_feature(feature, False)
    add_if_not_existing(Todo, summary="task with a due date", uid="csc_simple_task2", due=date(base, 1, 8))
    add_if_not_existing(Todo, summary="task with a dtstart time and due time", uid="csc_simple_task3",
                        dtstart=datetime(base, 1, 9, 12, tzinfo=UTC), due=datetime(base, 1, 9, 13, tzinfo=UTC))
    add_if_not_existing(Todo, summary="task with dtstart and duration (no due)", uid="csc_task_with_duration",
                        dtstart=datetime(base, 1, 18, 12, tzinfo=UTC), duration=timedelta(hours=2))
    monthly = add_if_not_existing(Todo, summary="monthly recurring task", uid="csc_monthly_recurring_task",
                                  rrule={"FREQ": "MONTHLY"}, dtstart=datetime(base, 1, 12, 12, tzinfo=UTC),
                                  due=datetime(base, 1, 12, 13, tzinfo=UTC))
    monthly.load()
    self.set_feature("save-load.todo.recurrences")
    counted = add_if_not_existing(Todo, "\n".join([
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Slate tests//todo-only tester//EN", "BEGIN:VTODO",
        "UID:csc_recurring_count_task", f"DTSTAMP:{base}0113T151313Z", f"DTSTART:{base}0119T065500Z",
        "STATUS:NEEDS-ACTION", "DURATION:PT10M", "SUMMARY:Weekly task to be done three times",
        "RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=3", "CATEGORIES:CHORE", "PRIORITY:3", "END:VTODO", "END:VCALENDAR"]))
    counted.load()
    rule = counted.component.get("RRULE", None)
    self.set_feature("save-load.todo.recurrences.count", (rule and rule.get("COUNT")) == [3])
    self._create_olddate_probes()


checks.PrepareCalendar._create_test_events = task_fixtures

if __name__ == "__main__":
    check_server_compatibility.main(sys.argv[1:], prog_name="caldav-server-tester", standalone_mode=False)
