import Foundation
import PackagePlugin

/// Makes the Localization target's strings at build time: runs `l10n-gen` over Strings/en.txt (which
/// declares every string) and the other languages' files beside it, into one Swift file in the plugin's
/// work folder that is compiled with the target. Nothing it writes is checked in.
@main
struct L10nPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        // `directoryURL` is PackageDescription 6.1; this package is 6.0, so the folder comes as a `Path`.
        let folder = URL(fileURLWithPath: target.directory.string).appending(path: "Strings")
        // English first: it declares the keys the others translate.
        let others = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".txt") && $0 != "en.txt" }.sorted()
        let inputs = (["en.txt"] + others).map { folder.appending(path: $0) }
        let output = context.pluginWorkDirectoryURL.appending(path: "Strings.swift")
        return [
            .buildCommand(
                displayName: "Generating the strings from \(inputs.map(\.lastPathComponent).joined(separator: ", "))",
                executable: try context.tool(named: "l10n-gen").url,
                arguments: [output.path] + inputs.map(\.path),
                inputFiles: inputs,
                outputFiles: [output]
            )
        ]
    }
}
