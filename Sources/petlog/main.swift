import ArgumentParser
import Foundation

// Files petlog creates are private (0600, folders 0700) whatever the user's umask.
umask(0o077)
let (settings, rest) = GlobalSettings.extract(from: Array(CommandLine.arguments.dropFirst()))
GlobalSettings.current = settings
do {
    var command = try Petlog.parseAsRoot(rest)
    try command.run()
} catch {
    Petlog.exit(oneLine: error, arguments: rest)
}
