/// An sRGB colour with straight (not premultiplied) alpha, components in 0...1.
public struct Color: Sendable, Equatable, Hashable {
    public var red: Double
    public var green: Double
    public var blue: Double
    public var alpha: Double

    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }

    /// `Color(hex: 0x0072B2)`.
    public init(hex: UInt32, alpha: Double = 1) {
        self.init(red: Double((hex >> 16) & 0xFF) / 255,
                  green: Double((hex >> 8) & 0xFF) / 255,
                  blue: Double(hex & 0xFF) / 255,
                  alpha: alpha)
    }

    public func withAlpha(_ alpha: Double) -> Color {
        Color(red: red, green: green, blue: blue, alpha: alpha)
    }

    /// Linear mix towards `other`: t = 0 gives self, t = 1 gives other.
    public func mixed(with other: Color, _ t: Double) -> Color {
        Color(red: red + (other.red - red) * t,
              green: green + (other.green - green) * t,
              blue: blue + (other.blue - blue) * t,
              alpha: alpha + (other.alpha - alpha) * t)
    }

    public static let black = Color(red: 0, green: 0, blue: 0)
    public static let white = Color(red: 1, green: 1, blue: 1)
}
