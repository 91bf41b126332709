// swift-tools-version:5.4
// libFuzzer targets for petlog's parsers, kept out of the main build: they need
// -sanitize=fuzzer,address and -parse-as-library (see `make fuzz` and docs/testing.md). Tools version
// 5.4 on purpose: from 5.5 on SwiftPM links executables with `--defsym main=<Target>_main`, a symbol
// -parse-as-library never emits, so libFuzzer's own main could not be the entry point.
import PackageDescription

let petModel: Target.Dependency = .product(name: "PetModel", package: "petlog")

/// One fuzz target: an executable whose only code is `LLVMFuzzerTestOneInput`, built on FuzzSupport.
/// Add one: a folder Sources/FuzzX/ with FuzzX.swift, a line here, seeds in Corpus/FuzzX/.
func fuzzer(_ name: String, _ dependencies: [Target.Dependency] = [petModel]) -> Target {
    .executableTarget(name: name, dependencies: ["FuzzSupport"] + dependencies)
}

let package = Package(
    name: "petlog-fuzz",
    dependencies: [.package(name: "petlog", path: "..")],
    targets: [
        /** Decoding the fuzzer's bytes and failing loudly when a property does not hold. */
        .target(name: "FuzzSupport"),
        fuzzer("FuzzTime"),
        fuzzer("FuzzDates"),
        fuzzer("FuzzMass"),
        fuzzer("FuzzMoney"),
        fuzzer("FuzzDuration"),
        fuzzer("FuzzImport", [petModel, .product(name: "PetStoreCore", package: "petlog"), .product(name: "PetTransfer", package: "petlog"), .product(name: "PetStoreSQLite", package: "petlog")]),
    ]
)
