import ArgumentParser

/// The `petlog` command: every subcommand is one file in this folder.
struct Petlog: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "petlog",
        abstract: "Keep your pets' health records in one local file.",
        discussion: """
        Global options, accepted before or after the subcommand:
          --db PATH            database file (else $PETLOG_DB, else $XDG_DATA_HOME/petlog/petlog.sqlite)
          --lang en|ko|ja      language (else $PETLOG_LANG, else LC_ALL/LC_MESSAGES/LANG)
          --json               machine-readable output on read commands (docs/json.md)
          --no-color           no colours (also NO_COLOR)
          --unit metric|imperial  how weights are shown

        Times (--at): now, yesterday, -2d, -3h, 08:30, "yesterday 18:00", 2026-11-20, "2026-11-20 08:30".
        A pet is named by its name (any case) or its id.
        """,
        subcommands: [
            PetGroup.self,
            WeightCommand.self, MealCommand.self, StoolCommand.self, UrineCommand.self, SymptomCommand.self, DiaryCommand.self,
            VisitCommand.self, VaccineCommand.self, MedGroup.self,
            ChartGroup.self, ReportCommand.self, DueCommand.self, CalendarCommand.self, StatsCommand.self,
            LogCommand.self, SearchCommand.self, StarCommand.self, UnstarCommand.self, StarredCommand.self,
            EditCommand.self, DeleteCommand.self, ExportCommand.self, ImportCommand.self, BackupCommand.self, CheckCommand.self, DemoCommand.self,
        ]
    )
}

/// `--at` and `--note`, shared by every command that logs a record.
struct RecordOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "When it happened (default: now): -2d, yesterday, \"2026-11-20 08:30\".")
    var at: String?

    @Option(help: "A note to keep with the record.")
    var note: String?

    func noteText() throws -> String? {
        try note.map { try PetModelText.note($0) }
    }
}
