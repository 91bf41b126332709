import XCTest
@testable import ArgumentParser
@testable import petlog

/// argument-parser checks a command's definition (unique names, positional arguments in an order that can be
/// parsed, no flag that cannot be turned off, coding keys) only in a DEBUG build, on every parse of every
/// command and option group it meets: a third of a debug `petlog` run's CPU. The end-to-end tests run a
/// `petlog` built without DEBUG (`make test`'s TEST_BUILD, docs/testing.md), so this test runs the same checks
/// once on every command and option group of the tree, in any build; a definition argument-parser would
/// refuse fails here with its words.
final class CommandDefinitionTests: XCTestCase {
    /// What argument-parser's checks say of `root`, its option groups and its subcommands, and how many types they saw.
    func definitionFailures(_ root: ParsableCommand.Type) -> (checked: Int, failures: [String]) {
        var checked = 0, failures: [String] = []
        func check(_ arguments: ParsableArguments.Type, parent: InputKey?, path: String) {
            checked += 1
            do { try arguments._validate(parent: parent) } catch { failures.append("\(path): \(error)") }
            for child in Mirror(reflecting: arguments.init()).children {
                guard let label = child.label, let group = child.value as? any OptionGroupValue else { continue }
                let key = InputKey(name: label, parent: parent)
                check(type(of: group).valueType, parent: key, path: path + " " + key.name)
            }
        }
        func walk(_ command: ParsableCommand.Type, path: String) {
            check(command, parent: nil, path: path)
            for sub in command.configuration.subcommands { walk(sub, path: path + " " + (sub.configuration.commandName ?? "\(sub)")) }
        }
        walk(root, path: root.configuration.commandName ?? "\(root)")
        return (checked, failures)
    }

    func testEveryCommandAndOptionGroupPassesArgumentParsersDefinitionChecks() throws {
        // The tree itself (a subcommand that contains its parent is refused here in any build).
        _ = CommandParser(Petlog.self)
        let (checked, failures) = definitionFailures(Petlog.self)
        XCTAssertEqual(failures, [], failures.joined(separator: "\n"))
        XCTAssertGreaterThan(checked, 60, "every command and option group is checked")
    }

    /// The walk finds what a DEBUG parse would stop at: two options of one name, in a subcommand's option group
    /// (named by the subcommand, which holds them, and by the group itself), and nothing in the root.
    func testADuplicatedOptionInASubcommandsOptionGroupIsFound() throws {
        #if DEBUG
        // Here argument-parser checks the bad group itself while the walk reads it, and stops the process.
        throw XCTSkip("a DEBUG build: argument-parser checks every definition it parses itself")
        #else
        let (checked, failures) = definitionFailures(Root.self)
        XCTAssertEqual(checked, 3)
        XCTAssertEqual(failures.map { String($0.prefix { $0 != ":" }) }, ["root sub", "root sub group"], failures.joined(separator: "\n"))
        XCTAssertTrue(failures.contains { $0.contains("\"--at\"") }, failures.joined(separator: "\n"))
        #endif
    }

    struct Root: ParsableCommand { static var configuration: CommandConfiguration { CommandConfiguration(commandName: "root", subcommands: [Sub.self]) } }
    struct Sub: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "sub") }
        @OptionGroup var group: Twice
    }
    struct Twice: ParsableArguments {
        @Option(name: .customLong("at")) var first: String?
        @Option(name: .customLong("at")) var second: String?
    }
}

/// An `@OptionGroup`'s type of arguments, which argument-parser validates with the group's key as parent.
protocol OptionGroupValue { static var valueType: ParsableArguments.Type { get } }
extension OptionGroup: OptionGroupValue { static var valueType: ParsableArguments.Type { Value.self } }
