import Cairo
import Foundation

/// Page geometry, type sizes and colours of the report: calm, one accent colour, grey rules.
struct ReportStyle {
    let pageWidth: Double
    let pageHeight: Double
    let fontFamily: String

    // Geometry (points).
    let marginX = 50.0
    let headerTop = 28.0
    /// Top of the flow; the running header sits above it.
    let contentTop = 64.0
    let footerBottom = 26.0

    var textWidth: Double { pageWidth - 2 * marginX }

    // Type sizes (points).
    let body = 9.5
    let small = 8.5
    let tableText = 8.5
    let runningText = 7.5
    let heading = 12.0
    let title = 18.0
    let subtitle = 10.5

    // Colours.
    let text = Color(hex: 0x1F2328)
    let muted = Color(hex: 0x5E6670)
    let accent = Color(hex: 0x1D4F7C)
    let rule = Color(hex: 0xC9CFD6)
    let hairline = Color(hex: 0xE3E6EA)
    let tableHeaderFill = Color(hex: 0xE9EFF5)
    let zebraFill = Color(hex: 0xF5F7F9)
    let emphasis = Color(hex: 0xB42318)
    let emphasisFill = Color(hex: 0xFDECEA)
    let alertFill = Color(hex: 0xFDF1EE)
    let alertBar = Color(hex: 0xC8402B)
    let alertText = Color(hex: 0x7A1E12)
    let cardFill = Color(hex: 0xF6F8FA)

    init(paper: Paper, fontFamily: String) {
        (pageWidth, pageHeight) = paper.size
        self.fontFamily = fontFamily
    }

    func font(_ size: Double, bold: Bool = false) -> String {
        "\(fontFamily)\(bold ? " Bold" : "") \(String(format: "%.2f", size))"
    }
}
