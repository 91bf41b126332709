import ArgumentParser
import Foundation
import PetModel
import PetStoreCore
import StoreOpening

/// `petlog pg …`: what only a PostgreSQL store has.
struct PgGroup: ParsableCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "pg", abstract: Help.s(.helpPgGroupAbstract), subcommands: [PgInitRolesCommand.self]) }
}

/// `petlog pg init-roles`: the shelter's group roles (owner, staff, volunteer) and their grants, or with
/// `--sql` the same SQL to read or to run with psql.
struct PgInitRolesCommand: ParsableCommand {
    @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "init-roles", abstract: Help.s(.helpPgInitRolesAbstract), discussion: Help.s(.helpPgInitRolesDiscussion)) }
    @Flag(help: ArgumentHelp(Help.s(.helpPgInitRolesSql))) var sql = false

    func run() throws {
        try Session.run(global) { s in
            if sql {
                s.terminal.line(ServerRoles.sql)
                return
            }
            guard case .postgres(let url) = s.settings.storeLocation else { throw UsageError(message: s.t(.errPgNeedsServer)) }
            let target = try s.serverTarget(url)
            do {
                try ServerRoles.create(target)
            } catch let e as ServerRoles.CannotCreateRoles {
                let command = "petlog pg init-roles --sql | sudo -u postgres psql " + ShellWord.quoted(e.database)
                throw UsageError(message: s.t(.errPgCannotCreateRoles(role: Terminal.sanitize(e.role), missing: e.missing.joined(separator: ", "),
                                                                        command: command)), code: Failure.noPermission)
            } catch let e as ServerRoles.NotTheOwner {
                throw UsageError(message: s.t(.errPgNotTheOwner(owner: Terminal.sanitize(e.owner), role: Terminal.sanitize(e.role))), code: Failure.noPermission)
            }
            s.terminal.line(s.t(.pgRolesCreated(target: Terminal.sanitize(target.redacted))))
        }
    }
}
