import Foundation

/// `petlog-ocr` behind a cache for the end-to-end tests (`scripts/ocr-test-cache.sh`): a reading the helper has
/// given once in this test run, for the same arguments and the same image bytes, is replayed instead of read
/// again by tesseract (the receipt tests read the same receipts under several UI languages and on both stores).
/// petlog still runs the helper as a program named by `PETLOG_OCR` and reads its JSON; only the OCR is not
/// repeated. Set by `CLITestCase.launch` (a test's own `PETLOG_OCR` wins), never in a user's run.
public enum OCRTestCache {
    /// The run's cache folder: one per `swift test` (the process that runs the test processes, as
    /// `TestServer` names its run), removed when that process ends.
    public static let folder: String = {
        let env = ProcessInfo.processInfo.environment
        let run = env["PETLOG_TEST_PG_RUN"].flatMap { $0.isEmpty ? nil : $0 } ?? "p\(getppid())"
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("petlog-ocr-cache-\(run)").path
        // The process that makes the folder has it removed when the run ends (`tail --pid` waits for it).
        if mkdir(folder, 0o700) == 0, env["PETLOG_TEST_PG_RUN"].map({ $0.isEmpty }) ?? true {
            _ = try? TestServer.shell(["bash", "-c", "setsid bash -c 'tail --pid=\"$0\" -f /dev/null; rm -rf \"$1\"' \"$0\" \"$1\" </dev/null >/dev/null 2>&1 &",
                                       String(getppid()), folder], capture: false)
        }
        return folder
    }()

    public static var script: URL { TestServer.repoRoot.appendingPathComponent("scripts/ocr-test-cache.sh") }

    /// What puts the cache in front of `real` (the `petlog-ocr` built beside the tested `petlog`), in `folder`.
    public static func environment(real: URL, folder: String = OCRTestCache.folder) -> [String: String] {
        ["PETLOG_OCR": script.path, "PETLOG_TEST_OCR_REAL": real.path, "PETLOG_TEST_OCR_CACHE": folder]
    }
}
