import Foundation
import Cairo

/// Colours and type sizes of one chart, from its theme and size.
struct ChartStyle {
    let background: Color
    let text: Color
    let mutedText: Color
    let grid: Color
    let axis: Color
    let palette: [Color]
    /// Base font size in user units; margins, line widths and other type sizes follow it.
    let base: Double
    let fontFamily: String
    let theme: ChartTheme

    init(theme: ChartTheme, width: Double, height: Double, fontFamily: String) {
        self.theme = theme
        self.fontFamily = fontFamily
        // 25 px on 1600×900 (9 pt at 200 dpi); grows with the area, not with one side only.
        base = max(9, (width * height).squareRoot() / 48)
        switch theme {
        case .light:
            background = Color(hex: 0xFFFFFF)
            text = Color(hex: 0x202124)
            mutedText = Color(hex: 0x55585E)
            grid = Color(hex: 0xE4E6EA)
            axis = Color(hex: 0x8A8D93)
            // Okabe–Ito: distinguishable with the common colour-vision deficiencies.
            palette = [0x0072B2, 0xE69F00, 0x009E73, 0xD55E00, 0xCC79A7, 0x56B4E9, 0x6B6B6B, 0xC9B800]
                .map { Color(hex: $0) }
        case .dark:
            background = Color(hex: 0x1C1D21)
            text = Color(hex: 0xECEDEF)
            mutedText = Color(hex: 0xB4B7BD)
            grid = Color(hex: 0x33363C)
            axis = Color(hex: 0x7C8088)
            // The same hues, lightened where they would sink into the background.
            palette = [0x56B4E9, 0xE69F00, 0x2CC898, 0xFF7A3D, 0xE58FC4, 0x8FD0F5, 0xC8C8C8, 0xF0E442]
                .map { Color(hex: $0) }
        }
    }

    /// Series past the palette's length repeat its colours with this dash.
    func isDashed(_ index: Int) -> Bool { index >= palette.count }
    var dashPattern: [Double] { [lineWidth * 4, lineWidth * 2.5] }

    func seriesColor(_ index: Int) -> Color { palette[((index % palette.count) + palette.count) % palette.count] }

    /// Severity 1 (mild, pale yellow) to 5 (severe, dark red): ordered by lightness, so the scale
    /// reads without colour vision too.
    func severityColor(_ severity: Int) -> Color {
        let scale: [UInt32] = [0xFFE08A, 0xFDB863, 0xF4793B, 0xD7301F, 0x8C0D25]
        return Color(hex: scale[min(max(severity, 1), 5) - 1])
    }

    func color(of bar: BarColor) -> Color {
        switch bar {
        // Past the palette's length, bars take its colours again as lighter tints (a bar has no dash).
        case .palette(let i):
            let round = i / palette.count
            return round == 0 || i < 0 ? seriesColor(i) : seriesColor(i).mixed(with: background, min(0.8, 0.45 * Double(round)))
        case .severity(let s): return severityColor(s)
        }
    }

    var lineWidth: Double { base / 12.5 }
    var hairline: Double { max(1, base / 25) }
    var padding: Double { base * 0.9 }
    var titleSize: Double { base * 1.3 }
    var tickSize: Double { base * 0.88 }

    func font(_ size: Double, bold: Bool = false) -> String {
        "\(fontFamily)\(bold ? " Bold" : "") \(String(format: "%.2f", size))"
    }
}
