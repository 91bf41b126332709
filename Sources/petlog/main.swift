import Foundation

// Files petlog creates are private (0600, folders 0700) whatever the user's umask.
umask(0o077)
let (settings, rest) = GlobalSettings.extract(from: Array(CommandLine.arguments.dropFirst()))
GlobalSettings.current = settings
Petlog.main(rest)
