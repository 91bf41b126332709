// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "petlog",
    platforms: [.macOS(.v15)],  // Int128 for exact money and mass arithmetic
    products: [
        .executable(name: "petlog", targets: ["petlog"]),
        .executable(name: "petlog-ocr", targets: ["petlog-ocr"]),
        .executable(name: "petlog-fetch", targets: ["petlog-fetch"]),
        /** For the fuzz targets in Fuzz/, a separate package that builds with sanitizers. */
        .library(name: "PetModel", targets: ["PetModel"]),
        .library(name: "PetStoreCore", targets: ["PetStoreCore"]),
        .library(name: "PetTransfer", targets: ["PetTransfer"]),
        .library(name: "PetStoreSQLite", targets: ["PetStoreSQLite"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", exact: "3.12.3"),
        .package(url: "https://github.com/LebJe/TOMLKit", exact: "0.6.0"),
        .package(url: "https://github.com/vapor/postgres-nio", exact: "1.33.2"),
        // `petlog serve` (docs/serve.md); no traits: neither swift-configuration nor the full-Foundation form coder is used
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1", traits: []),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", exact: "2.5.0"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),  // Hummingbird's own logger, silenced
        .package(url: "https://github.com/apple/swift-nio-ssl", exact: "2.37.6"),  // `serve --tls-cert/--tls-key` (HummingbirdTLS)
    ],
    targets: [
        /** Values and pure rules: pets, records, units, money and the strict parsers that build them, and the facts commands show. */
        .target(name: "PetModel", dependencies: ["Assets"]),
        /** The data petlog ships (vaccination schedules, symptom and vaccine names, the words receipts are read by), embedded in the binary at build time. */
        .target(name: "Assets", path: "assets", resources: [.embedInCode("vaccine-schedules.json"), .embedInCode("care-names.json"), .embedInCode("receipt-words.json")]),
        /** Every user-facing string, keyed by one enum, with the en/ko/ja tables compiled in (from the files in Localization/Strings, by L10nPlugin); one formatter of masses, money and dates per language. */
        .target(name: "Localization", dependencies: ["PetModel"], path: "Localization", exclude: ["Strings"], plugins: ["L10nPlugin"]),
        /** Localization's keys, typed constructors and per-language switches, made at build time from
            Localization/Strings/{en,ko,ja}.txt (checked complete: a missing text fails the build). */
        .plugin(name: "L10nPlugin", capability: .buildTool(), dependencies: ["l10n-gen"]),
        /** The generator the plugin runs: the string files in, one Swift file out. */
        .executableTarget(name: "l10n-gen"),
        /** Files on disk and the programs petlog runs: the one atomic file writer (OutputFile, OutputSink),
            spawning helper programs (HelperProgram), the rates download through petlog-fetch; Foundation only. */
        .target(name: "PetFiles"),
        /** The store without an engine: the repository protocols (pets, records, care, money, transfer, maintenance,
            history), the store logic written once over `SQLExecutor`, the record-kind descriptor, the errors, the
            store location (a SQLite file or a PostgreSQL server, parsed once), the store's transfer entry points
            (Transfer/: the import batch and its writing, the JSON and CSV export writers the engines call) and the
            demo household. Imports neither GRDB nor PostgresNIO, nor PetTransfer. */
        .target(
            name: "PetStoreCore",
            dependencies: ["PetModel", "PetFiles", .product(name: "Crypto", package: "swift-crypto")]
        ),
        /** The transfer formats read and written outside the store: `petlog import`'s readers (a JSON export, a CSV
            folder, spreadsheet tables, a scale's CSV) into an `ImportBatch`, the FHIR bundle and the expense sheet; each record kind
            read by its descriptor. Above the core: the core does not depend on it. */
        .target(name: "PetTransfer", dependencies: ["PetModel", "PetStoreCore", .product(name: "Crypto", package: "swift-crypto")]),
        /** The store protocols on a SQLite file (GRDB): schema, migrations, the search index, the undo triggers, the
            raw fast paths (weight series, bulk import, JSON export), attachments beside the file, check and repair. */
        .target(
            name: "PetStoreSQLite",
            dependencies: [
                "PetModel", "PetFiles", "PetStoreCore",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        /** The same store protocols on a PostgreSQL 15 server (postgres-nio): connection settings as libpq reads them,
            the `petlog` schema and its migrations, transactions retried on serialization failures. No GRDB. */
        .target(
            name: "PetStorePostgres",
            dependencies: ["PetStoreCore", "PetFiles", "PetModel", .product(name: "PostgresNIO", package: "postgres-nio"),
                           .product(name: "Crypto", package: "swift-crypto")]
        ),
        /** The one place petlog names an engine: `--db` (a file or a server URL) opened as the `Store` over the
            SQLite or the PostgreSQL engine. The CLI imports this and neither engine. */
        .target(name: "StoreOpening", dependencies: ["PetStoreCore", "PetStoreSQLite", "PetStorePostgres", "PetFiles", "PetModel"]),
        /** The system's cairo, cairo-pdf, cairo-svg and pangocairo headers; the only place C is included. */
        .systemLibrary(name: "CCairo", pkgConfig: "pangocairo", providers: [.apt(["libcairo2-dev", "libpango1.0-dev"])]),
        /** A small Swift wrapper over cairo and pango: surfaces, drawing context, text layout, errors; knows nothing about pets. */
        .target(name: "Cairo", dependencies: ["CCairo", "PetFiles"]),
        /** The system's tesseract C API and leptonica headers; the only place they are included. */
        .systemLibrary(name: "CTesseract", pkgConfig: "tesseract", providers: [.apt(["libtesseract-dev", "libleptonica-dev"])]),
        /** A small Swift wrapper over tesseract: image in (checked, oriented, deskewed), words with boxes and confidences out; knows nothing about receipts. */
        /** libheif (HEIC/HEIF photos, which leptonica cannot decode), through pkg-config `libheif`. */
        .systemLibrary(name: "CHeif", pkgConfig: "libheif", providers: [.apt(["libheif-dev"])]),
        .target(name: "OCR", dependencies: ["CTesseract", "CHeif"]),
        /** A developer tool for bench/ocr.sh: runs OCREngine over receipt images and prints milliseconds and text accuracy per image. */
        .executableTarget(name: "ocr-bench", dependencies: ["OCR"], path: "bench/ocr-bench"),
        /** `petlog expense scan`'s reader: one image in, the OCR result as JSON out, in its own process so that
            petlog itself links neither tesseract nor leptonica (and their libraries) for every other command. */
        .executableTarget(name: "petlog-ocr", dependencies: ["OCR", "OCRWire"]),
        /** Reading a receipt photo through petlog-ocr (OCRClient: the helper run, its failures in words) into the
            proposal `expense scan` and `petlog serve`'s receipt form show (ReceiptScan); links no OCR library. */
        .target(name: "ReceiptScan", dependencies: ["OCRWire", "PetFiles", "PetModel", "Localization"]),
        /** The JSON petlog-ocr prints and petlog reads (a reading or a failure): one Codable type both sides share; Foundation only. */
        .target(name: "OCRWire"),
        /** `petlog rates update`'s one HTTP(S) GET, in its own process so that petlog links no HTTP library. */
        .executableTarget(name: "petlog-fetch"),
        /** The system's libqrencode header; the only place it is included. */
        .systemLibrary(name: "CQRencode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
        /** A small Swift wrapper over libqrencode: UTF-8 text in (byte mode), the QR symbol's modules out; knows nothing about pets. */
        .target(name: "QRCode", dependencies: ["CQRencode"]),
        /** Chart specs turned into drawings: scales, nice ticks, M4 decimation, weight lines, stacked bars, text charts. */
        .target(name: "PetCharts", dependencies: ["Cairo"]),
        /** The vet-visit report: the composer that turns report facts into translated blocks, and the paginated, deterministic PDF of those blocks. */
        .target(name: "PetReport", dependencies: ["Cairo", "PetCharts", "PetModel", "Localization", "QRCode"]),
        /** What commands show, apart from the terminal: every `--json` view as an `Encodable` type written by one
            encoder (`JSONView`), and the presenters that turn facts into translated lines. */
        .target(name: "PetViews", dependencies: ["PetModel", "PetFiles", "PetStoreCore", "Localization", "PetCharts", "PetReport"]),
        /** `petlog serve`: the web face (Hummingbird). Routes, sessions, CSRF and the security headers, and pages
            written as typed HTML from the PetViews views, every text through one escaping function; accounts' passwords
            with bcrypt. Knows the store only through its protocols (`PetlogStore`, `AccountStore`), never an engine. */
        .target(
            name: "PetServe",
            dependencies: [
                "PetModel", "PetStoreCore", "Localization", "PetViews",
                "PetCharts", "PetReport", "PetTransfer",
                "ReceiptScan", "PetFiles",  // the trip's chart as SVG; receipts read as `expense scan` reads them
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            resources: [.embedInCode("Static/petlog.css")]
        ),
        /** The user's preferences file ($XDG_CONFIG_HOME/petlog/config.toml): reading, checking and writing its keys. */
        .target(name: "PetConfig", dependencies: ["PetModel", .product(name: "TOMLKit", package: "TOMLKit")]),
        /** The command-line tool: argv, terminal output, exit codes; nothing else knows about them. */
        .executableTarget(
            name: "petlog",
            dependencies: [
                "PetModel", "PetFiles", "PetStoreCore", "PetTransfer", "StoreOpening", "Localization", "PetCharts", "PetReport", "PetConfig", "PetViews", "PetServe",
                "OCRWire", "ReceiptScan", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        /** What the test suites share, for tests only: `StoreTestCase` (each test runs on SQLite and on PostgreSQL),
            the run's throwaway PostgreSQL server, the CLI runner (`CLITestCase`), the terminal drivers, locked
            values for threads and typed reading of `--json` output into the PetViews types (docs/testing.md). */
        .target(name: "PetlogTestSupport", dependencies: ["PetModel", "PetStoreCore", "PetStoreSQLite", "PetStorePostgres", "PetViews"],
                path: "Tests/PetlogTestSupport", exclude: ["pty"]),
        .testTarget(name: "PetModelTests", dependencies: ["PetModel"]),
        .testTarget(name: "LocalizationTests", dependencies: ["Localization", "PetModel"]),
        .testTarget(name: "PetStoreTests", dependencies: ["PetFiles", "PetStoreCore", "PetTransfer", "PetStoreSQLite", "PetStorePostgres", "PetModel", "PetlogTestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "petlogTests", dependencies: ["PetFiles", "PetStoreCore", "PetStoreSQLite", "PetModel", "PetViews", "PetlogTestSupport"], exclude: ["Fixtures", "HostileCorpus"]),
        .testTarget(name: "CairoTests", dependencies: ["Cairo"]),
        .testTarget(name: "PetConfigTests", dependencies: ["PetConfig"]),
        /** argument-parser's definition checks (DEBUG-only in the library) run on petlog's whole command tree in any build. */
        .testTarget(name: "CommandDefinitionTests", dependencies: ["petlog", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        .testTarget(name: "PetViewsTests", dependencies: ["PetViews", "PetModel", "PetStoreCore", "PetStoreSQLite", "PetCharts", "Localization", "PetlogTestSupport"]),
        .testTarget(name: "PetServeTests", dependencies: ["PetServe", "PetViews", "PetModel", "PetStoreCore", "Localization", "PetlogTestSupport",
                                                      .product(name: "HummingbirdTesting", package: "hummingbird")]),
        .testTarget(name: "OCRTests", dependencies: ["OCR", "OCRWire"], exclude: ["Fixtures"]),
        .testTarget(name: "PetChartsTests", dependencies: ["PetCharts", "Cairo"], exclude: ["README.md", "Golden"]),
        .testTarget(name: "PetReportTests", dependencies: ["PetReport", "PetCharts", "Cairo", "PetModel", "Localization"], exclude: ["README.md", "Golden"]),
    ]
)
