import ArgumentParser
import Foundation

// Files petlog creates are private (0600, folders 0700) whatever the user's umask.
umask(0o077)
let arguments = Array(CommandLine.arguments.dropFirst())
do {
    var command = try Petlog.parseAsRoot(arguments)
    try command.run()
} catch {
    Petlog.exit(oneLine: error, arguments: arguments)
}
