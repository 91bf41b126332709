import Foundation
import PetFiles

/// Private files and folders: data dir 0700, every file petlog creates 0600, whatever the umask.
public enum FileSecurity {
    public static func makePrivateDirectory(_ url: URL) throws {
        var isDir: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDir) {
            if !isDir.boolValue { throw StoreError.file(path: url.path, .isFile) }
            return
        }
        if mkdirs(url.path) != 0 { throw StoreError.file(path: url.path, OutputError.Cause(errno: errno)) }
    }

    /// `mkdir -p` with mode 0700 for every folder it makes; 0 or -1 with errno set.
    private static func mkdirs(_ path: String) -> Int32 {
        if mkdir(path, 0o700) == 0 { chmod(path, 0o700); return 0 }
        if errno == EEXIST { return 0 }
        guard errno == ENOENT else { return -1 }
        let parent = (path as NSString).deletingLastPathComponent
        guard !parent.isEmpty, parent != path, mkdirs(parent) == 0 else { return -1 }
        if mkdir(path, 0o700) == 0 || errno == EEXIST { chmod(path, 0o700); return 0 }
        return -1
    }

    /// `path` made absolute against the working folder, as the system reads it: Foundation's URLs and file
    /// manager would expand a leading `~`, which a quoted `-o "~/x"` never meant.
    public static func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        return FileManager.default.currentDirectoryPath + "/" + path
    }

    /// Whether something is at `path` (a dangling link counts), read with lstat: the path as typed, with no
    /// `~` expansion, which Foundation's file manager does and the shell did not.
    public static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// Whether `path` is a folder (following links), read with stat.
    public static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path.isEmpty ? "." : path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    public static func restrict(_ path: String) {
        chmod(path, 0o600)
    }

    /// The folder holding `path` flushed to disk (a rename or a new file in it made durable).
    public static func syncDirectory(of path: String) {
        let fd = Foundation.open((path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent, O_RDONLY | O_DIRECTORY)
        if fd >= 0 { fsync(fd); close(fd) }
    }
}
