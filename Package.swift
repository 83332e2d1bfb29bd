// swift-tools-version:6.0
import Foundation
import PackageDescription

/// Slate — a self-hosted task manager. See `docs/architecture.md`
/// for the module map; this package has no package dependencies by design: nothing
/// outside the toolchain and Debian's C libraries can be fetched.
let package = Package(
    name: "Slate",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "SlateStore", targets: ["SlateStore"]),
        .library(name: "SlateCore", targets: ["SlateCore"]),
        .library(name: "SlateHTTP", targets: ["SlateHTTP"]),
        .executable(name: "slate", targets: ["slate"]),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        // The HTTP server: loaded with dlopen when one starts, not linked into every command
        // (libmicrohttpd-dev: its header).
        // Opens a library with dlopen on first use, for the four wrappers below that do.
        .target(name: "CLoader"),
        // The allocator's free pages back to the system after bulk work (`slate serve`'s MemoryKeeper).
        .target(name: "CMemory"),
        .target(name: "CMicroHTTPD", dependencies: ["CLoader"]),
        // gzip for static files: Foundation on Linux has no compression API.
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]
        ),
        // The second backend of SlateStore, for many nodes: libpq, never a hand-written protocol.
        // Loaded with dlopen when a PostgreSQL URL is first opened, not linked: most commands
        // never need it, and its 24 libraries would cost every start (libpq-dev: its header).
        .target(name: "CPostgreSQL", dependencies: ["CLoader"]),
        // SQLite (libsqlite3-dev): the shared library for tests and debug builds; a release
        // build on Linux links Debian's static one into the binary (see the end of this file).
        .target(name: "SlateStore", dependencies: ["CSQLite", "CPostgreSQL"],
                linkerSettings: [
                    .linkedLibrary("sqlite3", .when(platforms: [.linux], configuration: .debug)),
                    .linkedLibrary("sqlite3", .when(platforms: [.macOS])),
                ]),
        .target(name: "SlateCore", dependencies: ["SlateStore", "CSodium"]),
        .target(name: "SlateCLI", dependencies: ["SlateCore", "SlateServer", "SlateDAV", "SlateHTTP"]),
        .target(name: "SlateHTTP", dependencies: ["CMicroHTTPD", "CZlib"]),
        .systemLibrary(
            name: "CSodium",
            pkgConfig: "libsodium",
            providers: [.apt(["libsodium-dev"]), .brew(["libsodium"])]
        ),
        // Email alerts over SMTP (with STARTTLS): libcurl rather than a hand-written client,
        // loaded with dlopen by `slate serve --smtp-url`, not linked into every command
        // (libcurl4-openssl-dev: its header).
        .target(name: "CCurl", dependencies: ["CLoader"]),
        // Web Push (RFC 8291 encryption, RFC 8292 VAPID) with OpenSSL's primitives, loaded with
        // dlopen by the first push, not linked into every command (libssl-dev: its headers).
        .target(name: "CCrypto", dependencies: ["CLoader"]),
        .target(name: "SlateServer", dependencies: ["SlateHTTP", "SlateCore", "CSodium", "CCurl", "CCrypto", "CMemory"]),
        // CalDAV (VTODO) under /dav/, over SlateCore like the REST API.
        .target(name: "SlateDAV", dependencies: ["SlateHTTP", "SlateCore"]),
        .executableTarget(name: "slate", dependencies: ["SlateCLI"]),
        // A tiny writer that the crash-safety test starts as a child process and kills with SIGKILL.
        .target(name: "StoreCrashModel", dependencies: ["SlateStore"], path: "Tests/Support/StoreCrashModel"),
        .executableTarget(name: "store-crash-writer", dependencies: ["SlateStore", "StoreCrashModel"], path: "Tests/Support/StoreCrashWriter"),
        // Serves a fixed 200 "ok" through the same bridge: the ceiling for the API benchmark.
        .executableTarget(name: "http-ceiling", dependencies: ["SlateHTTP"], path: "bench/server/Ceiling"),
        // bench/server's Server-Sent Events fan-out client: one thread, epoll, 10,000 streams.
        .target(name: "CEventPoll", path: "bench/server/CEventPoll"),
        .executableTarget(name: "sse-client", dependencies: ["CEventPoll"], path: "bench/server/SSEClient"),
        .executableTarget(name: "store-bench", dependencies: ["SlateStore", "CSQLite"], path: "bench/store/Sources"),
        // Seeds the same board for `slate` and Taskwarrior for bench/cli/run.
        .executableTarget(name: "slate-bench-seed", dependencies: ["SlateCore", "SlateStore"], path: "bench/cli/Seeder"),
        // The database the store, core and API suites run on (SQLite, or PostgreSQL when
        // SLATE_TEST_POSTGRES_URL is set: scripts/pg-cluster).
        .target(name: "TestDatabases", dependencies: ["SlateStore"], path: "Tests/Support/TestDatabases"),
        // Shared by the tests that start child processes.
        .target(name: "ProcessSupport", path: "Tests/Support/ProcessSupport"),
        .testTarget(name: "SlateStoreTests", dependencies: ["SlateStore", "store-crash-writer", "ProcessSupport", "StoreCrashModel", "TestDatabases"]),
        .testTarget(name: "SlateCoreTests", dependencies: ["SlateCore", "SlateStore", "TestDatabases"]),
        .testTarget(name: "SlateCLITests", dependencies: ["SlateCLI", "slate", "ProcessSupport"]),
        .testTarget(name: "SlateServerTests", dependencies: ["SlateServer", "SlateDAV", "SlateStore", "TestDatabases"]),
        .testTarget(name: "SlateDAVTests", dependencies: ["SlateDAV", "SlateServer", "SlateCore", "SlateStore", "TestDatabases"]),
        .testTarget(name: "SlateHTTPTests", dependencies: ["SlateHTTP", "http-ceiling", "ProcessSupport"]),
    ],
    swiftLanguageModes: [.v6]
)

// One release build: every `swift build -c release` on Linux links the Swift runtime and
// Foundation into its executables (`-static-stdlib`, for compiling and linking alike, so
// the Makefile's `run`, `release` and `install`, the packages and the benchmarks all build
// and measure the same binary, and none rebuilds over another's objects with other flags).
// Without the runtime's 20 shared libraries to load and relocate, a `slate` command starts
// in about half the instructions (BENCHMARKS.md, CLI). Debug builds (tests) stay dynamic.
//
// The compiler is also told to reach the metadata of a concrete generic type (a
// `Dictionary<String, Set<UUID>>`) through its accessor, with the conformances it needs
// passed in, instead of by its mangled name: a name is demangled at the first use and each
// conformance in it is found by scanning every conformance record of the binary (about
// 365,000 instructions a scan with Foundation linked in). A `slate add` made 116 such first
// uses, 29% of its instructions; with the accessors 18 remain (Foundation's own code).
//
// The C++ runtime and SQLite are linked in the same way, from Debian's static libraries
// (libstdc++.a, which the toolchain's clang needs anyway, and libsqlite3-dev's
// libsqlite3.a). As shared libraries they cost every command a symbol lookup for each of
// their ~3,300 relocations that name a symbol, including SQLite's calls to its own functions
// (Debian links it with BIND_NOW): `slate --version` ran 5.3M instructions, 3.0M of them in
// the dynamic loader; with both linked in, 2.3M (BENCHMARKS.md, CLI). The Swift driver
// names `-lstdc++` itself, so `link/libstdc++.so`, a linker script found first on the
// library path, turns that name into the static archive. The cost: a SQLite security fix
// from Debian reaches `slate` when it is rebuilt, as a Swift runtime fix does.
if ProcessInfo.processInfo.environment["SLATE_FUZZ"] != "1" {
    let staticRuntime: [String] = ["-static-stdlib"]
    let staticCLibraries: [String] = ["-L", Context.packageDirectory + "/link", "-Xlinker", "-l:libsqlite3.a"]
    let directMetadata: [String] = ["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"]
    let cTargets: Set<String> = ["CLoader", "CMemory", "CPostgreSQL", "CCurl", "CCrypto", "CMicroHTTPD"]
    for target in package.targets where (target.type == .regular || target.type == .executable) && !cTargets.contains(target.name) {
        target.swiftSettings = (target.swiftSettings ?? []) + [
            .unsafeFlags(staticRuntime + directMetadata, .when(platforms: [.linux], configuration: .release))
        ]
        if target.type == .executable {
            target.linkerSettings = (target.linkerSettings ?? []) + [
                .unsafeFlags(staticRuntime + staticCLibraries, .when(platforms: [.linux], configuration: .release))
            ]
        }
    }
}

// Fuzzing (`scripts/fuzz`): with SLATE_FUZZ=1 the package is the library modules plus one
// libFuzzer executable per parser (fuzz/Targets/*), and nothing else, so that one
// `swift build --scratch-path .build/fuzz -Xswiftc -sanitize=fuzzer,address` builds them
// all. Without it (every other build) the fuzz targets do not exist.
if ProcessInfo.processInfo.environment["SLATE_FUZZ"] == "1" {
    // Every system library stays (a module may gain one); of the other targets, the libraries.
    let libraries: Set<String> = ["CLoader", "CMemory", "CPostgreSQL", "CCurl", "CCrypto", "CMicroHTTPD", "SlateStore", "SlateCore", "SlateHTTP", "SlateServer", "SlateDAV"]
    package.targets.removeAll { $0.type != .system && !libraries.contains($0.name) }
    package.products = []
    package.targets.append(.systemLibrary(name: "CLibFuzzer", path: "fuzz/Targets/CLibFuzzer"))
    package.targets.append(.target(name: "FuzzSupport", dependencies: ["CLibFuzzer"], path: "fuzz/Targets/FuzzSupport"))
    for (name, modules) in FuzzTarget.all {
        package.targets.append(.executableTarget(name: "fuzz-" + name, dependencies: ["FuzzSupport"] + modules.map { .target(name: $0) },
                                                 path: "fuzz/Targets/" + name))
    }
}

/// The fuzz targets: the folder under fuzz/Targets (and fuzz/corpus) and the modules it reads.
enum FuzzTarget {
    static let all: [(name: String, modules: [String])] = [
        ("ical", ["SlateCore"]),
        ("todotxt", ["SlateCore"]),
        ("taskwarrior", ["SlateCore"]),
        ("slate-json", ["SlateCore"]),
        ("json-body", ["SlateHTTP", "SlateServer"]),
        ("quick-entry", ["SlateCore"]),
        ("dates", ["SlateCore", "SlateServer"]),
        ("router", ["SlateStore", "SlateCore", "SlateHTTP", "SlateServer", "SlateDAV"]),
        ("dav-xml", ["SlateDAV"]),
        ("http-head", ["SlateHTTP"]),
    ]
}
