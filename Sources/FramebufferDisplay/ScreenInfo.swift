/// One colour channel's place in a pixel (`struct fb_bitfield`).
public struct Bitfield: Equatable, Sendable {
  /// The channel's lowest bit in the pixel value (`offset`).
  public var offset: Int
  /// The channel's width in bits (`length`); 0 when the pixel has no such channel.
  public var length: Int
  /// Whether the channel's most significant bit is on the right (`msb_right`); rare, unsupported.
  public var msbRight: Bool

  public init(offset: Int, length: Int, msbRight: Bool = false) {
    self.offset = offset
    self.length = length
    self.msbRight = msbRight
  }
}

/// The variable screen information of a framebuffer (`struct fb_var_screeninfo`): the fields the
/// display reads or changes. Fields it does not model keep their value across a put or a pan.
public struct VarScreenInfo: Equatable, Sendable {
  /// The visible resolution (`xres`, `yres`).
  public var xres: Int
  public var yres: Int
  /// The resolution of the whole screen memory (`xres_virtual`, `yres_virtual`); a
  /// `yresVirtual` of at least twice `yres` allows double buffering by panning.
  public var xresVirtual: Int
  public var yresVirtual: Int
  /// Where the visible part starts in the virtual screen (`xoffset`, `yoffset`).
  public var xoffset: Int
  public var yoffset: Int
  /// Bits per pixel (`bits_per_pixel`).
  public var bitsPerPixel: Int
  /// The channels' bitfields (`red`, `green`, `blue`, `transp`).
  public var red: Bitfield
  public var green: Bitfield
  public var blue: Bitfield
  public var transp: Bitfield

  public init(
    xres: Int, yres: Int, xresVirtual: Int? = nil, yresVirtual: Int? = nil, xoffset: Int = 0, yoffset: Int = 0,
    bitsPerPixel: Int, red: Bitfield, green: Bitfield, blue: Bitfield, transp: Bitfield = Bitfield(offset: 0, length: 0)
  ) {
    self.xres = xres
    self.yres = yres
    self.xresVirtual = xresVirtual ?? xres
    self.yresVirtual = yresVirtual ?? yres
    self.xoffset = xoffset
    self.yoffset = yoffset
    self.bitsPerPixel = bitsPerPixel
    self.red = red
    self.green = green
    self.blue = blue
    self.transp = transp
  }
}

/// The fixed screen information of a framebuffer (`struct fb_fix_screeninfo`): the fields the
/// display needs.
public struct FixScreenInfo: Equatable, Sendable {
  /// Bytes from one row to the next (`line_length`); may exceed `xres × bytes per pixel`.
  public var lineLength: Int
  /// The size of the screen memory in bytes (`smem_len`): what may be mapped.
  public var memoryLength: Int

  public init(lineLength: Int, memoryLength: Int) {
    self.lineLength = lineLength
    self.memoryLength = memoryLength
  }
}
