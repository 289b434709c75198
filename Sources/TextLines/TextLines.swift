// TextLines: the one line splitter of the small text files people write — config files,
// layouts, theme data. Lines end at LF or CRLF, found by bytes: in Swift "\r\n" is a single
// Character, so splitting a String at the Character "\n" read a CRLF file as one line.
//
// What it may import: nothing.

/// Splits text into lines.
public enum TextLines {
  /// The lines of `text`, in order, without their line ends: each ends at an LF (`\n`) or a
  /// CRLF (`\r\n`), and a CR just before the end of the text is dropped too. Text ending with
  /// a line end gives a last, empty line, so that line `n` (1-based) is element `n − 1` and
  /// blank lines keep their numbers. Empty text is one empty line.
  ///
  /// A CR elsewhere (not before an LF) is part of its line.
  public static func split(_ text: String) -> [Substring] {
    let utf8 = text.utf8
    var lines: [Substring] = []
    var start = utf8.startIndex
    var i = start
    // Every cut falls at an LF or at the CR before it: both are always Character boundaries
    // (Unicode text segmentation breaks before CR and LF, except between them, and after LF).
    func line(to end: String.Index) -> Substring {
      var end = end
      if end > start, utf8[utf8.index(before: end)] == 0x0D { end = utf8.index(before: end) }
      return text[start..<end]
    }
    while i != utf8.endIndex {
      if utf8[i] == 0x0A {
        lines.append(line(to: i))
        start = utf8.index(after: i)
      }
      i = utf8.index(after: i)
    }
    lines.append(line(to: utf8.endIndex))
    return lines
  }
}
