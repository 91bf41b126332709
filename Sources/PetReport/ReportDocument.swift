import Cairo
import PetCharts

/// Page size of a report.
public enum Paper: Sendable, Equatable, CaseIterable {
    case a4, letter

    /// Width and height in points (1/72 in).
    public var size: (width: Double, height: Double) {
        switch self {
        case .a4: return (595.28, 841.89)
        case .letter: return (612, 792)
        }
    }
}

/// Horizontal alignment of text in a table column.
public typealias TextAlignment = TextLayout.Alignment

/// A report as a list of blocks with already-translated, already-formatted strings.
public struct ReportDocument {
    /// PDF metadata title.
    public var title: String
    /// BCP 47 tag ("en", "ko", "ja") given to Pango, so that Han characters take the regional
    /// glyph forms of Noto Sans CJK.
    public var language: String
    public var paper: Paper
    /// Running header, left (e.g. "Coco — vet visit report") and right (e.g. "Generated 2026-11-23").
    public var headerLeft: String
    public var headerRight: String
    /// Printed in the footer of every page (e.g. "Owner-recorded data — not a medical record").
    public var footerNote: String
    /// The footer's page label from (page, page count), both from 1: "Page 1 of 3".
    public var pageLabel: (Int, Int) -> String
    public var blocks: [ReportBlock]
    /// ISO 8601 date written as the PDF's CreationDate and ModDate: fixed, so that the same
    /// document gives the same bytes.
    public var creationDate: String
    /// Pango family; "Sans" is the language's document family (`Cairo.FontFamily`: Noto Sans CJK KR/JP for
    /// every script of a Korean/Japanese report, the system's Sans for English).
    public var fontFamily: String

    public init(title: String, language: String = "en", paper: Paper = .a4,
                headerLeft: String = "", headerRight: String = "", footerNote: String = "",
                pageLabel: @escaping (Int, Int) -> String = { "\($0) / \($1)" },
                blocks: [ReportBlock] = [], creationDate: String = "2000-01-01T00:00:00Z",
                fontFamily: String = "Sans") {
        self.title = title
        self.language = language
        self.paper = paper
        self.headerLeft = headerLeft
        self.headerRight = headerRight
        self.footerNote = footerNote
        self.pageLabel = pageLabel
        self.blocks = blocks
        self.creationDate = creationDate
        self.fontFamily = fontFamily
    }
}

/// One piece of the report's flow, laid out top to bottom across pages.
public enum ReportBlock {
    /// Large title with an optional muted subtitle (the top of the first page).
    case title(String, subtitle: String?)
    /// Section heading; never left alone at the bottom of a page (kept with the next block).
    case heading(String)
    /// Wrapped text; splits between pages at line boundaries.
    case paragraph(String)
    /// A tinted box with a coloured left bar: allergies, chronic conditions, warnings.
    case alerts([String])
    /// Label/value grid (profile), with an optional photo at the right. Only PNG and JPEG photos are
    /// drawn; any other file is skipped and reported in `ReportSummary.skippedPhotos`.
    case keyValues([(String, String)], photoPNG: String? = nil)
    /// A table that flows across pages with its header row repeated; rows are never cut.
    case table(ReportTable)
    /// A chart the width of the text, `heightFraction` of the text area's height tall (0.1...1).
    case weightChart(WeightChartSpec, heightFraction: Double)
    case barChart(BarChartSpec, heightFraction: Double)
    case bullets([String])
    /// Photos as a grid of thumbnails with captions; a photo that cannot be read is skipped and
    /// reported in `ReportSummary.skippedPhotos`.
    case photos([ReportPhoto])
    /// Vertical space in points (dropped at the top of a page).
    case spacer(Double)
    /// Continue on a new page (ignored when the page is still empty).
    case pageBreak
}

/// A photo file for the report's photo grid.
public struct ReportPhoto: Sendable, Equatable {
    /// PNG is decoded and scaled down; JPEG is embedded in the PDF as it is (cairo 1.16 decodes no JPEG).
    public enum Format: Sendable, Equatable { case png, jpeg }
    public var path: String
    public var format: Format
    /// Under the thumbnail: e.g. "Nov 3, 2026 · Diary — rash on the left ear".
    public var caption: String

    public init(path: String, format: Format, caption: String) {
        self.path = path; self.format = format; self.caption = caption
    }
}

/// A table of already-formatted cells.
public struct ReportTable {
    public var header: [String]
    /// Each row has at most `header.count` cells (shorter rows are padded with empty cells).
    public var rows: [[String]]
    /// Columns size to their content (see `TableFlowable.columnWidths`); when every cell fits on one
    /// line, the spare width is shared by these relative weights (empty: equally).
    public var columnWeights: [Double]
    /// Per column; missing entries are `.left`. Numbers read best `.right`.
    public var alignments: [TextAlignment]
    /// Indices of rows drawn bold and red (e.g. overdue vaccinations).
    public var emphasizedRows: Set<Int>
    /// Shown under the header when there are no rows; nil shows "—".
    public var emptyText: String?
    /// Small caption above the repeated header on the pages the table continues on
    /// (e.g. "Visit history (continued)"); nil for none.
    public var continuationTitle: String?

    public init(header: [String], rows: [[String]], columnWeights: [Double] = [],
                alignments: [TextAlignment] = [], emphasizedRows: Set<Int> = [], emptyText: String? = nil,
                continuationTitle: String? = nil) {
        self.header = header
        self.rows = rows
        self.columnWeights = columnWeights
        self.alignments = alignments
        self.emphasizedRows = emphasizedRows
        self.emptyText = emptyText
        self.continuationTitle = continuationTitle
    }
}

/// What a render produced.
public struct ReportSummary: Sendable, Equatable {
    public var pageCount: Int
    /// Photo paths that could not be drawn (missing, unreadable or not PNG); the grid is drawn
    /// without them.
    public var skippedPhotos: [String]
}
