import ArgumentParser
import Foundation

// Files petlog creates are private (0600, folders 0700) whatever the user's umask.
umask(0o077)
let arguments = Array(CommandLine.arguments.dropFirst())
// A password typed in a `postgres://user:password@host/…` argument is blanked in the process's own
// argument memory, so `ps` and /proc show `x`s from here on (as libpq's tools advise, PGPASSWORD or
// ~/.pgpass keep it off the command line altogether).
ServerPassword.blankInArguments()
// The completion scripts, made safe for names from the database (CompletionScript).
if let shell = CompletionScript.requested(arguments) {
    print(CompletionScript.script(for: shell), terminator: "")
    exit(0)
}
// argument-parser answers `--version` itself (exit 0); `-V` alone is the same question.
if arguments == ["-V"] {
    print(Petlog.configuration.version)
    exit(0)
}
do {
    var command = try Petlog.parseAsRoot(arguments)
    try command.run()
} catch {
    Petlog.exit(oneLine: error, arguments: arguments)
}
