#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// An 8-bit sRGB colour with straight (not premultiplied) alpha.
public struct RGBA: Hashable, Sendable {
  public var r: UInt8
  public var g: UInt8
  public var b: UInt8
  /// Opacity: 255 is opaque, 0 fully transparent.
  public var a: UInt8

  public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8 = 255) {
    self.r = r
    self.g = g
    self.b = b
    self.a = a
  }

  /// Parses exactly `#rrggbb` or `#rrggbbaa` (hex digits in either case); anything else is nil.
  public init?(hex: String) {
    let bytes = Array(hex.utf8)
    guard bytes.count == 7 || bytes.count == 9, bytes[0] == UInt8(ascii: "#") else { return nil }
    var channels: [UInt8] = []
    channels.reserveCapacity(4)
    var index = 1
    while index < bytes.count {
      guard let high = Self.hexValue(bytes[index]), let low = Self.hexValue(bytes[index + 1]) else {
        return nil
      }
      channels.append(high << 4 | low)
      index += 2
    }
    self.init(
      r: channels[0], g: channels[1], b: channels[2], a: channels.count == 4 ? channels[3] : 255)
  }

  /// Lowercase `#rrggbb` when opaque, else `#rrggbbaa`; `RGBA(hex: c.hex) == c` always holds.
  public var hex: String {
    var text = "#"
    for channel in a == 255 ? [r, g, b] : [r, g, b, a] {
      text.append(Self.hexDigits[Int(channel >> 4)])
      text.append(Self.hexDigits[Int(channel & 0x0f)])
    }
    return text
  }

  /// This colour composited source-over onto an opaque background; the result is opaque.
  ///
  /// Each channel is `(src·a + dst·(255 − a)) / 255` rounded to the nearest integer, in exact
  /// integer arithmetic (the quotient is never exactly halfway, because 255 is odd).
  public func over(_ background: RGBA) -> RGBA {
    precondition(
      background.a == 255, "over(_:) composites onto an opaque background, not \(background.hex)")
    let alpha = UInt32(a)
    func mix(_ source: UInt8, _ destination: UInt8) -> UInt8 {
      let sum = UInt32(source) * alpha + UInt32(destination) * (255 - alpha)
      return UInt8((sum + 127) / 255)
    }
    return RGBA(r: mix(r, background.r), g: mix(g, background.g), b: mix(b, background.b))
  }

  /// WCAG 2.x relative luminance, 0 (black) … 1 (white). Alpha is ignored: composite first.
  public var relativeLuminance: Double {
    0.2126 * Self.linear(r) + 0.7152 * Self.linear(g) + 0.0722 * Self.linear(b)
  }

  /// WCAG 2.x contrast ratio `(L1 + 0.05) / (L2 + 0.05)`, 1 … 21, in either argument order.
  /// Alpha is ignored: composite translucent colours onto their background first.
  public static func contrastRatio(_ a: RGBA, _ b: RGBA) -> Double {
    let (la, lb) = (a.relativeLuminance, b.relativeLuminance)
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
  }

  /// An sRGB channel as linear light. The 0.04045 threshold is the sRGB standard's; WCAG 2.0's
  /// 0.03928 gives the same result for every 8-bit value.
  private static func linear(_ channel: UInt8) -> Double {
    let c = Double(channel) / 255
    return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
  }

  private static let hexDigits: [Character] = Array("0123456789abcdef")

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}

extension RGBA: CustomStringConvertible {
  public var description: String { hex }
}
