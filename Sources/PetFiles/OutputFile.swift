import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a file petlog writes could not be written, and where. The CLI turns each cause into one
/// localized line naming the path (exit 74 for a disk that failed or filled up, 73 otherwise).
public struct OutputError: Error, Equatable, Sendable {
    public enum Cause: Equatable, Sendable {
        /// ENOSPC, EDQUOT, EFBIG: the disk (or the quota) is full.
        case noSpace
        /// EIO and other failures of the device while writing.
        case ioError
        /// EACCES, EPERM.
        case permissionDenied
        /// EROFS.
        case readOnly
        /// The folder the file would go into does not exist (named, as typed or as a link leads).
        case noFolder(String)
        /// A component of the path is a file, not a folder (ENOTDIR).
        case notAFolder(String)
        /// A folder stands where a file is expected.
        case isDirectory
        /// A file stands where a folder is expected (`export --format csv -o FILE`).
        case isFile
        /// A character or block device, or a socket (`-o /dev/stdout` on a terminal, `/dev/sda`).
        case isDevice
        /// A named pipe (`-o /dev/stdout` when stdout is a pipe).
        case isFIFO
        /// EEXIST: petlog never writes over what is there (a backup, a restore target).
        case exists
        /// ELOOP: a chain of symbolic links too long or circular.
        case linkLoop
        /// ENAMETOOLONG.
        case nameTooLong
        /// Any other errno, with the system's own text.
        case other(code: Int32, text: String)

        /// The one place an errno becomes a cause (`folder` is what ENOENT/ENOTDIR refer to).
        public init(errno code: Int32, folder: String = "") {
            switch code {
            case ENOSPC, EDQUOT, EFBIG: self = .noSpace
            case EIO: self = .ioError
            case EACCES, EPERM: self = .permissionDenied
            case EROFS: self = .readOnly
            case ENOENT: self = .noFolder(folder)
            case ENOTDIR: self = .notAFolder(folder)
            case EISDIR: self = .isDirectory
            case ELOOP: self = .linkLoop
            case EEXIST: self = .exists
            case ENAMETOOLONG: self = .nameTooLong
            case ENXIO, ENODEV: self = .isDevice
            default: self = .other(code: code, text: String(cString: strerror(code)))
            }
        }

        /// The disk failed or filled up while writing (sysexits 74), rather than a path that cannot
        /// take a file (73).
        public var isIOFailure: Bool {
            switch self {
            case .noSpace, .ioError, .other: return true
            default: return false
            }
        }
    }

    /// The path as the user gave it (for standard output, "-").
    public let path: String
    public let cause: Cause

    public init(path: String, cause: Cause) {
        self.path = path
        self.cause = cause
    }

    init(path: String, errno code: Int32, folder: String? = nil) {
        self.init(path: path, cause: Cause(errno: code, folder: folder ?? OutputFile.folder(of: path)))
    }
}

/// Where every file petlog writes goes through: `-o -` is standard output, and a path naming a descriptor
/// petlog already has open (`/dev/stdout`, `/proc/self/fd/1`) is written through it; any other path is followed
/// through its symbolic links (chains and dangling links too) to the file it names, which is then
/// replaced atomically: a temporary file in that file's own folder (0600), written with checked writes,
/// fsynced and renamed over it, so the link stays a link and the target is complete or untouched.
/// Devices, FIFOs and folders are refused (`OutputError`). Temporary files are registered with
/// `TemporaryFiles`, whose SIGINT/SIGTERM/SIGHUP handler removes them.
public enum OutputFile {
    /// The path that means standard output.
    public static let standardOutput = "-"

    /// `-`, or a path naming this process's standard output (`/dev/stdout`, `/dev/fd/1`, `/proc/self/fd/1`,
    /// or a link to one of them): the data goes there, and what petlog says about it goes to stderr.
    public static func isStandardOutput(_ path: String) -> Bool { descriptor(path) == STDOUT_FILENO }

    /// The descriptor this process already has open that `path` names: standard output for `-`; N for
    /// `/dev/stdout`, `/dev/stderr`, `/dev/fd/N`, `/proc/self/fd/N` or `/proc/PID/fd/N` (this process's),
    /// followed through symbolic links. Such a target is written through the descriptor, where the shell
    /// positioned it (after what is there for `>>`, after what came before for `{ …; } > file`), and is
    /// never replaced, truncated or re-permissioned: it is not petlog's file. Nil for any other path.
    public static func descriptor(_ path: String) -> Int32? {
        if path == standardOutput { return STDOUT_FILENO }
        guard path.hasPrefix("/dev/") || path.hasPrefix("/proc/") || isLink(path) else { return nil }
        let ownFolders = ["/proc/self/fd", "/proc/thread-self/fd", "/proc/\(getpid())/fd", "/dev/fd"]
        var current = path
        for _ in 0..<40 {
            let dir = folder(of: current)
            var real = dir
            if let r = realpath(dir, nil) { real = String(cString: r); free(r) }
            if ownFolders.contains(real) || ownFolders.contains(dir) || isOwnTaskFolder(real),
               let n = Int32(name(of: current)), n >= 0, fcntl(n, F_GETFD) != -1 {
                return n
            }
            guard isLink(current) else { return nil }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let n = readlink(current, &buffer, Int(PATH_MAX))
            guard n > 0 else { return nil }
            let text = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            // /proc's links to pipes and sockets read `pipe:[123]`: no path, and not named by a descriptor.
            guard text.hasPrefix("/") || !text.contains(":[") else { return nil }
            current = text.hasPrefix("/") ? text : dir + "/" + text
        }
        return nil
    }

    /// `/proc/PID/task/TID/fd` of this process.
    private static func isOwnTaskFolder(_ dir: String) -> Bool {
        let parts = dir.split(separator: "/")
        return parts.count == 5 && parts[0] == "proc" && parts[1] == "\(getpid())" && parts[2] == "task" && parts[4] == "fd"
    }

    private static func isLink(_ path: String) -> Bool {
        var st = stat()
        return lstat(path, &st) == 0 && st.st_mode & S_IFMT == S_IFLNK
    }

    /// The folder part of `path` as typed ("." for a bare name).
    public static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let folder = String(path[..<slash])
        return folder.isEmpty ? "/" : folder
    }

    private static func name(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    private static func fileType(_ mode: mode_t) -> mode_t { mode & S_IFMT }

    /// The file a write to `path` would replace or create: symbolic links followed (a dangling link to
    /// the path it points at, a chain to its end); refuses a folder, a device, a FIFO or a socket, and a
    /// folder that does not exist. Returns the real target path; errors name `path` as given.
    public static func resolve(_ path: String) throws -> String {
        guard !path.isEmpty else { throw OutputError(path: path, cause: .other(code: ENOENT, text: String(cString: strerror(ENOENT)))) }
        var current = path
        for _ in 0..<40 {
            var st = stat()
            if lstat(current, &st) != 0 {
                let code = errno
                guard code == ENOENT else { throw OutputError(path: path, errno: code, folder: folder(of: current)) }
                // Nothing there yet: its folder must exist and be a folder.
                let dir = folder(of: current)
                var ds = stat()
                if stat(dir, &ds) != 0 { throw OutputError(path: path, errno: errno, folder: dir) }
                guard fileType(ds.st_mode) == S_IFDIR else { throw OutputError(path: path, cause: .notAFolder(dir)) }
                return current
            }
            switch fileType(st.st_mode) {
            case S_IFREG:
                return current
            case S_IFLNK:
                // A link whose target exists is judged by what it reaches (this also covers /proc's
                // links to pipes and terminals, whose text is no path: /dev/stdout → pipe:[123]).
                var target = stat()
                if stat(current, &target) == 0 {
                    try refuseSpecial(target.st_mode, path: path)
                    if fileType(target.st_mode) == S_IFREG, let real = realpath(current, nil) {
                        defer { free(real) }
                        return String(cString: real)
                    }
                }
                var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
                let n = readlink(current, &buffer, Int(PATH_MAX))
                guard n > 0 else { throw OutputError(path: path, errno: n < 0 ? errno : ENOENT) }
                let text = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
                let base = folder(of: current)
                current = text.hasPrefix("/") || !current.contains("/") ? text : base + "/" + text
            default:
                try refuseSpecial(st.st_mode, path: path)
                return current
            }
        }
        throw OutputError(path: path, cause: .linkLoop)
    }

    private static func refuseSpecial(_ mode: mode_t, path: String) throws {
        switch fileType(mode) {
        case S_IFDIR: throw OutputError(path: path, cause: .isDirectory)
        case S_IFIFO: throw OutputError(path: path, cause: .isFIFO)
        case S_IFCHR, S_IFBLK, S_IFSOCK: throw OutputError(path: path, cause: .isDevice)
        default: return
        }
    }

    /// A temporary file beside `target` (created 0600, registered for removal on a signal).
    public final class Pending {
        /// The path as given (for messages).
        public let path: String
        /// The file that will be replaced.
        public let target: String
        /// Where the content is written first.
        public let temporary: String
        fileprivate(set) var descriptor: Int32

        init(path: String, target: String, temporary: String, descriptor: Int32) {
            self.path = path
            self.target = target
            self.temporary = temporary
            self.descriptor = descriptor
        }

        /// Writes `content` into the temporary file with checked writes.
        public func write(_ content: (OutputSink) throws -> Void) throws {
            let sink = OutputSink(descriptor: descriptor, path: path)
            try content(sink)
            try sink.flush()
        }

        /// Closes the descriptor once; returns close's errno (0 when it went well).
        fileprivate func close() -> Int32 {
            guard descriptor >= 0 else { return 0 }
            let fd = descriptor
            descriptor = -1
            return systemClose(fd) == 0 ? 0 : errno
        }
    }

    /// Opens a new temporary file in the folder of the file `path` names (links followed).
    public static func begin(_ path: String) throws -> Pending {
        let target = try resolve(path)
        let dir = folder(of: target)
        var suffix = UInt32.random(in: 0...UInt32.max)
        for _ in 0..<100 {
            let temporary = dir + "/." + name(of: target) + ".\(getpid()).\(String(suffix, radix: 36)).tmp"
            let fd = TemporaryFiles.whole {
                TemporaryFiles.register(temporary)
                return open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            }
            if fd >= 0 {
                fchmod(fd, 0o600)
                return Pending(path: path, target: target, temporary: temporary, descriptor: fd)
            }
            let code = errno
            TemporaryFiles.unregister(temporary)
            guard code == EEXIST else { throw OutputError(path: path, errno: code, folder: dir) }
            suffix &+= 1
        }
        throw OutputError(path: path, errno: EEXIST)
    }

    /// A scratch file in the system's temporary folder (for a renderer whose output goes to stdout).
    private static func beginScratch(_ path: String) throws -> Pending {
        let env = ProcessInfo.processInfo.environment["TMPDIR"] ?? ""
        let dir = env.isEmpty ? "/tmp" : env
        var template = Array((dir + "/.petlog-XXXXXX").utf8CString)
        // The file is made and registered in one section: a signal finds it registered or not there.
        let (fd, code, temporary): (Int32, Int32, String) = TemporaryFiles.whole {
            // safe: the template is a non-empty C string, so its buffer has an address.
            let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            guard fd >= 0 else { return (fd, errno, "") }
            let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            TemporaryFiles.register(temporary)
            return (fd, 0, temporary)
        }
        guard fd >= 0 else { throw OutputError(path: path, errno: code, folder: dir) }
        return Pending(path: path, target: temporary, temporary: temporary, descriptor: fd)
    }

    /// Flushes the temporary file to the disk and renames it over its target; on failure removes it.
    public static func commit(_ pending: Pending) throws {
        try flush(pending)
        try TemporaryFiles.whole { try place(pending) }
        syncFolder(folder(of: pending.target))
    }

    /// Syncs and closes the temporary file; on failure removes it.
    fileprivate static func flush(_ pending: Pending) throws {
        var failure: Int32 = 0
        if pending.descriptor >= 0, fsync(pending.descriptor) != 0 { failure = errno }
        let closed = pending.close()
        if failure == 0, closed != 0, closed != EINTR { failure = closed }
        if failure != 0 {
            unlink(pending.temporary)
            TemporaryFiles.unregister(pending.temporary)
            throw OutputError(path: pending.path, errno: failure)
        }
    }

    /// Renames the temporary file over its target and unregisters it (inside `TemporaryFiles.whole`); on failure
    /// removes it.
    fileprivate static func place(_ pending: Pending) throws {
        if rename(pending.temporary, pending.target) != 0 {
            let failure = errno
            unlink(pending.temporary)
            TemporaryFiles.unregister(pending.temporary)
            throw OutputError(path: pending.path, errno: failure)
        }
        TemporaryFiles.unregister(pending.temporary)
    }

    /// Removes the temporary file (after a failure).
    public static func discard(_ pending: Pending) {
        _ = pending.close()
        unlink(pending.temporary)
        TemporaryFiles.unregister(pending.temporary)
    }

    private static func syncFolder(_ dir: String) {
        let fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd >= 0 { fsync(fd); _ = systemClose(fd) }
    }

    /// Writes `path` (or standard output for `-`) through `content`; the file appears whole or not at all.
    public static func write(to path: String, _ content: (OutputSink) throws -> Void) throws {
        if let fd = descriptor(path) {
            let sink = OutputSink(descriptor: fd, path: path)
            try content(sink)
            try sink.flush()
            return
        }
        let pending = try begin(path)
        do {
            try pending.write(content)
            try commit(pending)
        } catch {
            discard(pending)
            throw error
        }
    }

    /// Writes `data` to `path` (or standard output for `-`) atomically.
    public static func write(_ data: Data, to path: String) throws {
        try write(to: path) { try $0.write(data) }
    }

    /// For writers that need a file name (cairo): `render` writes the temporary path it is handed, which
    /// then replaces the target as `write(to:)` does. For `-`, the temporary file is made in the system's
    /// temporary folder and copied to standard output. A failure of `render` that left errno at a disk
    /// error (cairo keeps only "write error") becomes that disk error.
    public static func write<T>(to path: String, viaTemporaryPath render: (String) throws -> T) throws -> T {
        let through = descriptor(path)
        let pending = through != nil ? try beginScratch(path) : try begin(path)
        _ = pending.close()
        do {
            let result: T
            do {
                result = try render(pending.temporary)
            } catch let error as OutputError {
                throw error
            } catch {
                let code = errno
                if let cause = diskFailure(errno: code, folder: folder(of: pending.temporary)) {
                    throw OutputError(path: path, cause: cause)
                }
                throw error
            }
            chmod(pending.temporary, 0o600)
            let fd = open(pending.temporary, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw OutputError(path: path, errno: errno) }
            let reopened = Pending(path: path, target: pending.target, temporary: pending.temporary, descriptor: fd)
            if let through {
                defer { discard(reopened) }
                let sink = OutputSink(descriptor: through, path: path)
                try sink.copy(from: fd)
            } else {
                try commit(reopened)
            }
            return result
        } catch {
            unlink(pending.temporary)
            TemporaryFiles.unregister(pending.temporary)
            throw error
        }
    }

    /// For a file that must not exist yet (a backup): `render` writes the temporary path it is handed,
    /// which is then linked into place (link(2) refuses an existing name, so nothing there is ever
    /// replaced, even one that appeared meanwhile), synced, and its folder synced. On failure, or when
    /// the name is taken (`.exists`), no file is left. Never standard output.
    /// `staysRegistered`: the new file is registered with `TemporaryFiles` as it is linked (signals held
    /// off in between, so a Ctrl-C finds it either not there or registered) and stays registered for the
    /// caller to unregister once it is to stay (a new database, once its first command is done).
    public static func create<T>(_ path: String, staysRegistered: Bool = false, viaTemporaryPath render: (String) throws -> T) throws -> T {
        let target = try resolve(path)
        if access(target, F_OK) == 0 { throw OutputError(path: path, cause: .exists) }
        let pending = try begin(path)
        _ = pending.close()
        defer {
            unlink(pending.temporary)
            TemporaryFiles.unregister(pending.temporary)
        }
        let result = try render(pending.temporary)
        chmod(pending.temporary, 0o600)
        let fd = open(pending.temporary, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw OutputError(path: path, errno: errno) }
        let synced = fsync(fd) == 0 ? 0 : errno
        _ = systemClose(fd)
        if synced != 0 { throw OutputError(path: path, errno: synced) }
        try TemporaryFiles.whole {
            if staysRegistered { TemporaryFiles.register(target) }
            do {
                if link(pending.temporary, target) != 0 {
                    let code = errno
                    guard code == EPERM || code == ENOTSUP || code == EOPNOTSUPP else { throw OutputError(path: path, errno: code) }
                    // A file system without hard links: rename, after a last check that nothing appeared.
                    if access(target, F_OK) == 0 { throw OutputError(path: path, cause: .exists) }
                    if rename(pending.temporary, target) != 0 { throw OutputError(path: path, errno: errno) }
                }
            } catch {
                if staysRegistered { TemporaryFiles.unregister(target) }
                throw error
            }
        }
        syncFolder(folder(of: target))
        return result
    }

    /// What a renderer that lost the errno probably hit: the errno if it names a disk error, else a
    /// full file system when the folder has no free blocks left.
    public static func diskFailure(errno code: Int32, folder: String) -> OutputError.Cause? {
        switch code {
        case ENOSPC, EDQUOT, EFBIG, EIO, EROFS: return OutputError.Cause(errno: code)
        default: break
        }
        var fs = statvfs()
        if statvfs(folder, &fs) == 0, fs.f_bavail == 0 { return .noSpace }
        return nil
    }

    /// Makes sure `path` names a folder to write files into, creating it (0700, and missing parents
    /// like `mkdir -p`) when it does not exist. Links to a folder are followed; a dangling link makes
    /// the folder it points at. Returns the folders created, deepest last.
    /// `registering`: each folder is registered with `TemporaryFiles` before it is made (so a signal that
    /// comes the moment after removes it too), inside the caller's `TemporaryFiles.whole`; the caller
    /// unregisters them once they are to stay.
    @discardableResult
    public static func prepareFolder(_ path: String, registering: Bool = false) throws -> [String] {
        var st = stat()
        if stat(path, &st) == 0 {
            switch fileType(st.st_mode) {
            case S_IFDIR: return []
            case S_IFREG: throw OutputError(path: path, cause: .isFile)
            default:
                try refuseSpecial(st.st_mode, path: path)
                throw OutputError(path: path, cause: .isFile)
            }
        }
        var target = path
        while target.count > 1, target.hasSuffix("/") { target.removeLast() }
        var lst = stat()
        if lstat(target, &lst) == 0, fileType(lst.st_mode) == S_IFLNK {
            target = try resolve(target)
        } else if lstat(target, &lst) != 0, errno != ENOENT {
            throw OutputError(path: path, errno: errno, folder: folder(of: target))
        }
        let parent = folder(of: target)
        var created: [String] = []
        var ps = stat()
        if parent != target, stat(parent, &ps) != 0 {
            guard errno == ENOENT else { throw OutputError(path: path, errno: errno, folder: parent) }
            created = try prepareFolder(parent, registering: registering)
        }
        if registering { TemporaryFiles.register(target) }
        if mkdir(target, 0o700) != 0 {
            let code = errno
            if registering { TemporaryFiles.unregister(target) }
            for dir in created.reversed() {
                rmdir(dir)
                if registering { TemporaryFiles.unregister(dir) }
            }
            throw OutputError(path: path, errno: code, folder: parent)
        }
        chmod(target, 0o700)
        return created + [target]
    }

    /// Several files written into folders, renamed into place together at the end: either every
    /// file is replaced, or (on any failure) none is and no temporary file remains.
    public final class Batch {
        private var pending: [Pending] = []
        private var createdFolders: [String] = []

        public init() {}

        /// Makes `folder` if needed (see `OutputFile.prepareFolder`); removed again if the batch fails or
        /// is interrupted (registered with `TemporaryFiles` until the batch is committed).
        public func prepareFolder(_ folder: String) throws {
            createdFolders += try TemporaryFiles.whole { try OutputFile.prepareFolder(folder, registering: true) }
            #if DEBUG || PETLOG_TEST_HOOKS
            // PETLOG_TEST_SIGNAL_ON_A_THREAD=N (the tests' build only): signal N taken by a thread started the
            // moment the folder is made, while this one goes on writing, as a worker thread starting then can
            // take a Ctrl-C sent to the process (it has every signal unblocked for a moment).
            if let sig = ProcessInfo.processInfo.environment["PETLOG_TEST_SIGNAL_ON_A_THREAD"].flatMap(Int32.init) {
                Thread.detachNewThread { pthread_kill(pthread_self(), sig) }
            }
            #endif
        }

        /// Writes one file of the batch to its temporary path.
        public func add(_ path: String, _ content: (OutputSink) throws -> Void) throws {
            let p = try OutputFile.begin(path)
            pending.append(p)
            try p.write(content)
        }

        /// Renames every file into place: each is synced first, then all are renamed and the folders the batch
        /// made unregistered in one `TemporaryFiles.whole`, so a signal finds the batch whole or not begun.
        public func commit() throws {
            var remaining = pending
            pending = []
            do {
                for (i, p) in remaining.enumerated() {
                    do { try OutputFile.flush(p) } catch { remaining.remove(at: i); throw error }
                }
                try TemporaryFiles.whole {
                    while let p = remaining.first {
                        try OutputFile.place(p)
                        remaining.removeFirst()
                    }
                    createdFolders.forEach(TemporaryFiles.unregister)
                }
            } catch {
                remaining.forEach(OutputFile.discard)
                throw error
            }
            createdFolders = []
        }

        /// Removes every temporary file, and the folders the batch made.
        public func discard() {
            pending.forEach(OutputFile.discard)
            pending = []
            for folder in createdFolders.reversed() {
                rmdir(folder)
                TemporaryFiles.unregister(folder)
            }
            createdFolders = []
        }
    }
}

#if canImport(Glibc)
private let systemWrite = Glibc.write
private let systemClose = Glibc.close
#else
private let systemWrite = Darwin.write
private let systemClose = Darwin.close
#endif

/// Buffered, checked writes to one descriptor: every failure is an `OutputError` naming the path.
public final class OutputSink {
    let descriptor: Int32
    let path: String
    private var buffer: [UInt8] = []
    private let capacity = 1 << 18

    init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
        buffer.reserveCapacity(capacity)
    }

    public func write(_ data: Data) throws {
        buffer.append(contentsOf: data)
        if buffer.count >= capacity { try flush() }
    }

    public func write(_ bytes: [UInt8]) throws {
        buffer.append(contentsOf: bytes)
        if buffer.count >= capacity { try flush() }
    }

    public func write(_ text: String) throws {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= capacity { try flush() }
    }

    public func flush() throws {
        guard !buffer.isEmpty else { return }
        try buffer.withUnsafeBytes { try writeAll($0) }
        buffer.removeAll(keepingCapacity: true)
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < bytes.count {
            // safe: the loop runs only while offset < bytes.count, so the buffer is not empty and has an address.
            let n = systemWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                throw OutputError(path: path, cause: OutputError.Cause(errno: errno))
            }
            offset += n
        }
    }

    /// Copies a whole file (a rendered chart) into the sink.
    func copy(from fd: Int32) throws {
        try flush()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            // safe: the chunk holds 64 KiB, so its buffer has an address.
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw OutputError(path: path, cause: OutputError.Cause(errno: errno))
            }
            if n == 0 { return }
            try chunk.withUnsafeBytes { try writeAll(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
        }
    }
}

/// Temporary files a signal must not leave behind. `register` a path before creating it and
/// `unregister` it once it is renamed or removed; on SIGINT, SIGTERM or SIGHUP every registered path
/// is unlinked and the process then dies of that signal (a shell sees 130, 143, 129; SIGPIPE too,
/// for a chart copied to a closed pipe). The handler is
/// installed on the first registration, so commands that write no file keep the default behaviour.
public enum TemporaryFiles {
    static let capacity = 256
    /// Slots of strdup'ed paths, read by the signal handler (unlink is async-signal-safe).
    nonisolated(unsafe) static let slots: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = {
        let p = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: capacity)
        p.initialize(repeating: nil, count: capacity)
        return p
    }()
    nonisolated(unsafe) static var installed = false
    static let lock = NSLock()

    /// The signals whose clean-up `whole` holds off (SIGPIPE too: a write to a closed pipe in a section would
    /// run the handler on that thread).
    static let held: sigset_t = {
        var set = sigset_t()
        sigemptyset(&set)
        for sig in [SIGINT, SIGTERM, SIGHUP, SIGPIPE] { sigaddset(&set, sig) }
        return set
    }()
    /// Sections (`whole`) running now, on any thread; and whether a signal's clean-up has begun.
    static let sections = Atomic<Int>(0)
    static let cleaning = Atomic<Bool>(false)

    /// Runs `body`, which makes a registered file or folder (registering it) or renames files into place
    /// (unregistering them), whole with respect to a signal's clean-up. A process-directed signal can run
    /// its handler on any thread that does not block it (a worker thread starting has every signal unblocked
    /// for a moment), and `onSignal`'s work runs on a thread of its own, so the clean-up may run while this
    /// thread goes on: without this, a file made just after the clean-up's unlinks kept its folder, and a
    /// failure that then removed the file left the folder empty. Here the signals are blocked on this thread
    /// for `body` (one that comes meanwhile is handled right after), and a clean-up on another thread waits
    /// until no section runs; once a clean-up has begun, no section starts (the thread waits for the process
    /// to end). Never nested: `body` must not call `whole`.
    public static func whole<T>(_ body: () throws -> T) rethrows -> T {
        var previous = sigset_t()
        var blocked = held
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        sections.add(1, ordering: .sequentiallyConsistent)
        guard !cleaning.load(ordering: .sequentiallyConsistent) else {
            sections.subtract(1, ordering: .sequentiallyConsistent)
            while true { pause() }
        }
        defer { sections.subtract(1, ordering: .sequentiallyConsistent) }
        return try body()
    }

    /// `lock` held with the signals blocked, so that a clean-up never runs on a thread that holds it.
    private static func locked<T>(_ body: () -> T) -> T {
        var previous = sigset_t()
        var blocked = held
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    /// For `petlog serve`: a registration installs no handler from now on, so the server's own handling stays
    /// (a graceful shutdown on SIGINT and SIGTERM that lets requests finish, each removing its own temporary
    /// files; SIGPIPE ignored, a client that went away ends its connection, not the server). Before this, the
    /// first upload made a later SIGTERM kill the server mid-request and a broken pipe end it.
    public static func leaveSignalsToTheServer() {
        lock.lock()
        defer { lock.unlock() }
        if installed {   // a registration before (the store's opening): the defaults back, for the server to replace
            for sig in [SIGINT, SIGTERM, SIGHUP] { signal(sig, SIG_DFL) }
            signal(SIGPIPE, SIG_IGN)
        }
        installed = true
    }

    public static func register(_ path: String) {
        locked {
            installHandlers()
            for i in 0..<capacity where slots[i] == nil {
                slots[i] = strdup(path)
                return
            }
        }
    }

    public static func unregister(_ path: String) {
        locked {
            for i in 0..<capacity {
                if let p = slots[i], String(cString: p) == path {
                    slots[i] = nil
                    free(p)
                }
            }
        }
    }

    /// The paths registered now (for tests).
    public static var registered: [String] {
        lock.lock()
        defer { lock.unlock() }
        return (0..<capacity).compactMap { slots[$0].map { String(cString: $0) } }
    }

    /// Unlinks every registered path; async-signal-safe, for another signal handler (a lock wait that
    /// honours Ctrl-C) to call before it ends the process. It first waits for the sections (`whole`) running
    /// on other threads to end, and no section starts after it: what they made is registered by then.
    public static func removeRegistered() {
        cleaning.store(true, ordering: .sequentiallyConsistent)
        while sections.load(ordering: .sequentiallyConsistent) > 0 { sched_yield() }
        for i in 0..<capacity {
            if let p = slots[i] { unlink(p) }
        }
        #if DEBUG || PETLOG_TEST_HOOKS
        // PETLOG_TEST_SLOW_CLEANUP=ms (the tests' build only): the clean-up pauses between its unlinks and its
        // folders, as a clean-up on a thread the scheduler sets aside does, while other threads go on.
        if slowCleanup > 0 {
            var pause = timespec(tv_sec: 0, tv_nsec: slowCleanup * 1_000_000)
            nanosleep(&pause, nil)
        }
        #endif
        // Then the folders a command made for its files (`Batch.prepareFolder`), deepest first: rmdir
        // takes only an empty folder, so a folder that holds anything else stays.
        for _ in 0..<2 {
            for i in (0..<capacity).reversed() {
                if let p = slots[i] { rmdir(p) }
            }
        }
    }

    /// The pipe the handler writes a signal's number to when a command asked for work before dying
    /// (`onSignal`); -1 when none did, or once the first signal has been handed over (a second one then
    /// ends the process at once).
    nonisolated(unsafe) static var deferredSignals: Int32 = -1

    nonisolated(unsafe) private static var ending = false

    /// True once a signal's work (`onSignal`) has begun: the process is about to die of that signal, and
    /// what fails because of the work (a statement it cancelled) is not to be reported as its own error.
    public static var endingOnSignal: Bool {
        lock.lock(); defer { lock.unlock() }
        return ending
    }

    static let signalThread = "petlog.signal"

    /// Waits for the signal's thread to end the process, when one is doing so; returns at once otherwise
    /// (and always on that thread itself, whose work may fail too).
    public static func awaitSignalEnd() {
        guard endingOnSignal, Thread.current.name != signalThread else { return }
        while true { pause() }
    }

    /// Runs `work` on a thread of its own when SIGINT, SIGTERM or SIGHUP arrives (what a signal
    /// handler may not do: a server's running statement is cancelled over a connection of its own), then
    /// removes the registered files and dies of the signal as before. Once per process; `work` must end
    /// by itself (bounded waits).
    public static func onSignal(_ work: @escaping @Sendable () -> Void) {
        lock.lock()
        defer { lock.unlock() }
        installHandlers()
        guard deferredSignals < 0 else { return }
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return }
        let reader = fds[0]
        Thread.detachNewThread {
            Thread.current.name = signalThread
            var sig: Int32 = 0
            while read(reader, &sig, MemoryLayout<Int32>.size) != MemoryLayout<Int32>.size {}
            lock.lock(); ending = true; lock.unlock()
            work()
            TemporaryFiles.removeRegistered()
            signal(sig, SIG_DFL)
            raise(sig)
        }
        deferredSignals = fds[1]
    }

    #if DEBUG || PETLOG_TEST_HOOKS
    nonisolated(unsafe) static var slowCleanup = 0
    #endif

    private static func installHandlers() {
        guard !installed else { return }
        installed = true
        _ = slots
        _ = held
        _ = sections.load(ordering: .relaxed)
        _ = cleaning.load(ordering: .relaxed)
        #if DEBUG || PETLOG_TEST_HOOKS
        slowCleanup = ProcessInfo.processInfo.environment["PETLOG_TEST_SLOW_CLEANUP"].flatMap(Int.init).map { min(max($0, 0), 999) } ?? 0
        #endif
        for sig in [SIGINT, SIGTERM, SIGHUP, SIGPIPE] {
            signal(sig) { sig in
                // write(2) is async-signal-safe: the work runs on onSignal's thread, which then dies of `sig`.
                // Not for SIGPIPE: a reader that went away (`petlog log | head`) ends petlog at once, as before.
                let pipe = TemporaryFiles.deferredSignals
                if pipe >= 0, sig != SIGPIPE {
                    TemporaryFiles.deferredSignals = -1
                    var number = sig
                    _ = write(pipe, &number, MemoryLayout<Int32>.size)
                    return
                }
                TemporaryFiles.removeRegistered()
                signal(sig, SIG_DFL)
                raise(sig)
            }
        }
    }
}
