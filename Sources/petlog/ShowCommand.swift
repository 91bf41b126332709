import ArgumentParser
import Foundation
import PetModel
import PetFiles
import PetStoreCore
import PetViews

/// `show ID`: every field of one record and its attachments; `--save-files DIR` copies the attachments out
/// under their original names (made safe, made distinct; an existing file is refused unless `--force`);
/// `--open` hands them to `xdg-open`.
struct ShowCommand: ParsableCommand {
    @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
    static var configuration: CommandConfiguration { CommandConfiguration(commandName: "show", abstract: Help.s(.helpShowCommandAbstract)) }
    @Argument(help: ArgumentHelp(Help.s(.helpShowCommandId))) var id: Int64
    @Option(name: .customLong("save-files"), help: ArgumentHelp(Help.s(.helpShowCommandSaveFiles), valueName: "DIR"), completion: .directory) var saveFiles: String?
    @Flag(help: ArgumentHelp(Help.s(.helpShowCommandForce))) var force = false
    @Flag(help: ArgumentHelp(Help.s(.helpShowCommandOpen))) var open = false

    func run() throws {
        try Session.run(global) { s in
            let record = try s.repository().record(id: id)
            let attachments = record.attachments.sorted { $0.position < $1.position }
            // Nothing to save or open: said first, whether or not a viewer is installed.
            if (open || saveFiles != nil) && attachments.isEmpty { s.terminal.line(s.t(.showNoAttachments)); return }
            // Without a viewer nothing is written: say so before any file is made.
            var opener: String?
            if open {
                guard let found = Self.xdgOpen() else { throw UsageError(message: s.t(.showNoViewer), code: Failure.unavailable) }
                opener = found
            }
            if saveFiles == nil, !open {
                if s.json { try s.terminal.json(RecordJSON(record)); return }
                let present = RecordDetailPresenter(screen: s.terminal.screen, l10n: s.l10n, format: s.format, wording: s.wording, time: s.time)
                for line in present.lines(record) { s.terminal.line(line) }
                return
            }
            let folder: String
            var temporary: String?
            if let dir = saveFiles {
                folder = dir
            } else {
                let made = NSTemporaryDirectory() + "petlog-show-\(record.id)-" + UUID().uuidString
                try FileManager.default.createDirectory(atPath: made, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
                temporary = made
                folder = made
            }
            let written: [String]
            do {
                written = try save(attachments, into: folder, store: try s.repository(), session: s)
            } catch {
                if let temporary { try? FileManager.default.removeItem(atPath: temporary) }
                throw error
            }
            for path in written { s.terminal.line(s.t(.showSaved(path: Terminal.sanitize(path)))) }
            guard let opener else { return }
            for path in written {
                let result = try HelperProgram.run(opener, [path])
                guard result.status == 0 else {
                    throw UsageError(message: s.t(.showOpenFailed(path: Terminal.sanitize(path), status: String(result.status))), code: Failure.unavailable)
                }
                s.terminal.line(s.t(.showOpened(path: Terminal.sanitize(path))))
            }
        }
    }

    /// `xdg-open` on the PATH (never through a shell), or nil.
    static func xdgOpen(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for dir in path.split(separator: ":") where !dir.isEmpty {
            let candidate = "\(dir)/xdg-open"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Writes each attachment into `folder` (created if missing) under its original name made safe and
    /// distinct; refuses (writing nothing) when one of those names is already taken there, unless `--force`.
    /// Returns the paths written, in the attachments' order.
    func save(_ attachments: [Attachment], into folder: String, store: any PetlogStore, session s: Session) throws -> [String] {
        let names = SafeFileName.distinct(attachments.enumerated().map { i, a in
            SafeFileName.name(a.originalName, fallback: "attachment-\(i + 1)")
        })
        let base = folder.hasSuffix("/") ? String(folder.dropLast()) : folder
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) {
            if !isDirectory.boolValue { throw OutputError(path: folder, cause: .isFile) }
        } else {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                let code = ((error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError)?.code ?? Int(EACCES)
                throw OutputError(path: folder, cause: OutputError.Cause(errno: Int32(code), folder: OutputFile.folder(of: folder)))
            }
        }
        let paths = names.map { (base.isEmpty ? "" : base) + "/" + $0 }
        if !force {
            for path in paths {
                var st = stat()
                if lstat(path, &st) == 0 { throw UsageError(message: s.t(.showFileExists(path: Terminal.sanitize(path))), code: Failure.cannotCreate) }
            }
        }
        for (a, path) in zip(attachments, paths) { try store.writeAttachment(sha256: a.sha256, to: path) }
        return paths
    }
}
