import Testing

/// The suites that talk to a real server over a socket run one test at a time, even across
/// suites: the machine has two cores, and a test that floods the server must not slow the
/// one that waits for a heartbeat.
@Suite(.serialized) struct OverTheWire {}
