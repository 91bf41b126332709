import Cairo
import Foundation
import PetCharts

/// Lays a `ReportDocument` out on pages and writes it as a PDF.
public enum ReportRenderer {
    /// Writes the report to `path` as a PDF: laid out once to know the page count, then drawn,
    /// with permissions `permissions` (0600: health records are private by default); on a failure,
    /// what was written there is removed. petlog hands a temporary file of PetStore's `OutputFile`,
    /// which replaces the target atomically.
    @discardableResult
    public static func render(_ doc: ReportDocument, to path: String, permissions: Int = 0o600) throws -> ReportSummary {
        do {
            let summary = try write(doc, to: path)
            guard chmod(path, mode_t(permissions)) == 0 else { throw CairoError.writeError(path: path) }
            return summary
        } catch {
            unlink(path)
            throw error
        }
    }

    private static func write(_ doc: ReportDocument, to path: String) throws -> ReportSummary {
        let style = ReportStyle(paper: doc.paper, fontFamily: doc.fontFamily)
        let surface = try Surface.pdf(path: path, width: style.pageWidth, height: style.pageHeight,
                                      title: doc.title, date: doc.creationDate)
        let context = try Context(surface)
        context.setTextLanguage(doc.language)
        context.useDocumentFontSet()
        let typesetter = Typesetter(context: context, style: style)

        let frame = PageFrame(doc: doc, typesetter: typesetter)
        var skippedPhotos: [String] = []
        let flow = try ReportFlow.flowables(for: doc, height: frame.flowBottom - style.contentTop,
                                            typesetter: typesetter, skippedPhotos: &skippedPhotos)
        let pages = Paginator.paginate(flow, top: style.contentTop, bottom: frame.flowBottom)

        for (index, page) in pages.enumerated() {
            frame.draw(page: index + 1, of: pages.count, on: context)
            for placed in page {
                try placed.item.draw(x: style.marginX, y: placed.y, on: context)
            }
            context.showPage()
        }
        try context.checkStatus()
        try surface.finish()
        return ReportSummary(pageCount: pages.count, skippedPhotos: skippedPhotos)
    }
}

/// The running header and footer of every page, and the room they leave for the flow.
struct PageFrame {
    let doc: ReportDocument
    let typesetter: Typesetter
    let headerLeft: TextLayout
    let headerRight: TextLayout
    let footerNote: TextLayout
    /// Width kept for the page label at the right of the footer.
    let labelWidth: Double
    let footerTop: Double
    /// Where the flow must end on every page.
    let flowBottom: Double

    private var style: ReportStyle { typesetter.style }

    init(doc: ReportDocument, typesetter: Typesetter) {
        self.doc = doc
        self.typesetter = typesetter
        let style = typesetter.style
        let size = style.runningText
        headerRight = typesetter.layout(doc.headerRight, size: size)
        let leftWidth = max(40, style.textWidth - headerRight.extents.width - 16)
        headerLeft = typesetter.layout(doc.headerLeft, size: size, bold: true, width: leftWidth, ellipsize: true)
        // Room for the widest label the document could plausibly have.
        labelWidth = typesetter.layout(doc.pageLabel(888, 888), size: size).extents.width
        footerNote = typesetter.layout(doc.footerNote, size: size, width: max(40, style.textWidth - labelWidth - 16))
        let footerHeight = max(footerNote.extents.height, headerRight.extents.height)
        footerTop = style.pageHeight - style.footerBottom - footerHeight
        flowBottom = footerTop - 14
    }

    func draw(page: Int, of count: Int, on context: Context) {
        let style = self.style
        let x = style.marginX, right = style.marginX + style.textWidth
        context.setSource(style.muted)
        headerLeft.draw(x: x, y: style.headerTop)
        headerRight.draw(x: right - headerRight.extents.width, y: style.headerTop)
        let headerRule = style.headerTop + max(headerLeft.extents.height, headerRight.extents.height) + 4
        footerNote.draw(x: x, y: footerTop)
        let label = typesetter.layout(doc.pageLabel(page, count), size: style.runningText)
        label.draw(x: right - label.extents.width, y: footerTop)
        context.setSource(style.rule)
        context.setLineWidth(0.5)
        context.moveTo(x, headerRule)
        context.lineTo(right, headerRule)
        context.moveTo(x, footerTop - 5)
        context.lineTo(right, footerTop - 5)
        context.stroke()
    }
}

/// Blocks of a document turned into measured flowables.
enum ReportFlow {
    static func flowables(for doc: ReportDocument, height pageHeight: Double, typesetter: Typesetter,
                          skippedPhotos: inout [String]) throws -> [any Flowable] {
        let style = typesetter.style
        let width = style.textWidth
        var flow: [any Flowable] = []
        for block in doc.blocks {
            switch block {
            case .title(let title, let subtitle):
                flow.append(TextFlowable(title, size: style.title, bold: true, color: style.text, width: width,
                                         spaceBefore: 0, keepWithNext: true, typesetter: typesetter))
                if let subtitle, !subtitle.isEmpty {
                    flow.append(TextFlowable(subtitle, size: style.subtitle, color: style.muted, width: width,
                                             spaceBefore: 3, keepWithNext: true, typesetter: typesetter))
                }
                flow.append(SpaceFlowable(height: 4))
            case .heading(let text):
                flow.append(TextFlowable(text, size: style.heading, bold: true, color: style.accent, width: width,
                                         spaceBefore: 16, keepWithNext: true, rule: (3, style.rule),
                                         paddingBelow: 0, typesetter: typesetter))
            case .paragraph(let text):
                flow.append(TextFlowable(text, size: style.body, color: style.text, width: width,
                                         spaceBefore: 6, typesetter: typesetter))
            case .bullets(let items):
                for (i, item) in items.enumerated() {
                    let marker = typesetter.layout("•", size: style.body)
                    flow.append(TextFlowable(item, size: style.body, color: style.text, indent: 14, width: width,
                                             spaceBefore: i == 0 ? 6 : 2.5, marker: marker, typesetter: typesetter))
                }
            case .alerts(let items):
                guard !items.isEmpty else { continue }
                flow.append(AlertsFlowable(items, width: width, spaceBefore: 8, typesetter: typesetter))
            case .keyValues(let pairs, let photoPath):
                guard !pairs.isEmpty || photoPath != nil else { continue }
                var photo: Surface?
                if let photoPath {
                    // The profile photo: a PNG, else a JPEG embedded as it is (any other type is skipped).
                    photo = (try? Surface.image(readingPNG: photoPath)) ?? (try? Surface.image(embeddingJPEG: photoPath))
                    if photo == nil { skippedPhotos.append(photoPath) }
                }
                flow.append(KeyValuesFlowable(pairs, photo: photo, width: width, spaceBefore: 8, typesetter: typesetter))
            case .table(let table):
                flow.append(try TableFlowable(table, width: width, pageHeight: pageHeight, spaceBefore: 7,
                                              typesetter: typesetter))
            case .weightChart(let spec, let fraction):
                flow.append(try ChartFlowable(.weight(spec), width: width, height: chartHeight(fraction, pageHeight),
                                              spaceBefore: 8, language: doc.language))
            case .barChart(let spec, let fraction):
                flow.append(try ChartFlowable(.bars(spec), width: width, height: chartHeight(fraction, pageHeight),
                                              spaceBefore: 8, language: doc.language))
            case .photos(let photos):
                guard !photos.isEmpty else { continue }
                flow.append(PhotoGridFlowable(photos, width: width, spaceBefore: 8, typesetter: typesetter,
                                              skipped: &skippedPhotos))
            case .spacer(let points):
                flow.append(SpaceFlowable(height: max(0, points)))
            case .pageBreak:
                flow.append(PageBreakFlowable())
            }
        }
        return flow
    }

    /// A fraction of the flow area's height, 0.1...1 (NaN: a third).
    static func chartHeight(_ fraction: Double, _ pageHeight: Double) -> Double {
        let f = fraction.isNaN ? 1.0 / 3 : min(1, max(0.1, fraction))
        return (pageHeight * f).rounded(.down)
    }
}
