// swift-tools-version:6.0
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
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        .systemLibrary(
            name: "CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"]), .brew(["libmicrohttpd"])]
        ),
        // gzip for static files: Foundation on Linux has no compression API.
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]
        ),
        .target(name: "SlateStore", dependencies: ["CSQLite"]),
        .target(name: "SlateCore", dependencies: ["SlateStore"]),
        .target(name: "SlateCLI", dependencies: ["SlateCore", "SlateServer", "SlateHTTP"]),
        .target(name: "SlateHTTP", dependencies: ["CMicroHTTPD", "CZlib"]),
        .systemLibrary(
            name: "CSodium",
            pkgConfig: "libsodium",
            providers: [.apt(["libsodium-dev"]), .brew(["libsodium"])]
        ),
        // Email alerts over SMTP (with STARTTLS): libcurl rather than a hand-written client.
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"]), .brew(["curl"])]
        ),
        .target(name: "SlateServer", dependencies: ["SlateHTTP", "SlateCore", "CSodium", "CCurl"]),
        .executableTarget(name: "slate", dependencies: ["SlateCLI"]),
        // A tiny writer that the crash-safety test starts as a child process and kills with SIGKILL.
        .target(name: "StoreCrashModel", dependencies: ["SlateStore"], path: "Tests/Support/StoreCrashModel"),
        .executableTarget(name: "store-crash-writer", dependencies: ["SlateStore", "StoreCrashModel"], path: "Tests/Support/StoreCrashWriter"),
        // Serves a fixed 200 "ok" through the same bridge: the ceiling for the API benchmark.
        .executableTarget(name: "http-ceiling", dependencies: ["SlateHTTP"], path: "bench/server/Ceiling"),
        .executableTarget(name: "store-bench", dependencies: ["SlateStore", "CSQLite"], path: "bench/store/Sources"),
        // Seeds the same board for `slate` and Taskwarrior for bench/cli/run.
        .executableTarget(name: "slate-bench-seed", dependencies: ["SlateCore", "SlateStore"], path: "bench/cli/Seeder"),
        // Shared by the tests that start child processes.
        .target(name: "ProcessSupport", path: "Tests/Support/ProcessSupport"),
        .testTarget(name: "SlateStoreTests", dependencies: ["SlateStore", "store-crash-writer", "ProcessSupport", "StoreCrashModel"]),
        .testTarget(name: "SlateCoreTests", dependencies: ["SlateCore", "SlateStore"]),
        .testTarget(name: "SlateCLITests", dependencies: ["SlateCLI", "slate", "ProcessSupport"]),
        .testTarget(name: "SlateServerTests", dependencies: ["SlateServer", "SlateStore"]),
        .testTarget(name: "SlateHTTPTests", dependencies: ["SlateHTTP", "http-ceiling", "ProcessSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
