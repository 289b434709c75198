/// The system calls `TerminalDisplay` makes, as closures a test can replace.
///
/// `.live` calls the C library; a test passes closures that record writes, return short
/// counts or errors, report any window size and raise a pretend `SIGWINCH`.
public struct TerminalSyscalls {
  /// `write(2)`: the number of bytes written, or `-errno` on failure.
  public var write: (_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int
  /// `poll(2)` for `POLLOUT` after `EAGAIN`: true when `fd` can take more bytes (or may be
  /// retried), false when it stayed full for the whole wait.
  public var waitWritable: (_ fd: Int32) -> Bool
  /// `ioctl(fd, TIOCGWINSZ)`: the terminal's size in cells, or nil when `fd` is no terminal.
  public var windowSize: (_ fd: Int32) -> (columns: Int, rows: Int)?
  /// Installs the `SIGWINCH` handler (it only sets a flag); called once per display.
  public var installResizeHandler: () -> Void
  /// Reads and clears the flag the `SIGWINCH` handler sets: true when a resize arrived since
  /// the last call.
  public var takeResize: () -> Bool
  /// `read(2)` without waiting: the bytes read (0 when none are waiting), or `-errno`.
  public var read: (_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> Int
  /// Puts the input terminal in key-at-a-time mode (`tcsetattr`: no line buffering, no echo, no
  /// wait for bytes; signals such as Ctrl-C still work), keeping its settings for `restoreInput`.
  /// False when `fd` is no terminal, and keys are not read.
  public var enterKeyMode: (_ fd: Int32) -> Bool
  /// Puts back the settings `enterKeyMode` kept.
  public var restoreInput: (_ fd: Int32) -> Void

  public init(
    write: @escaping (_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int,
    waitWritable: @escaping (_ fd: Int32) -> Bool,
    windowSize: @escaping (_ fd: Int32) -> (columns: Int, rows: Int)?,
    installResizeHandler: @escaping () -> Void,
    takeResize: @escaping () -> Bool,
    read: @escaping (_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> Int = { _, _ in 0 },
    enterKeyMode: @escaping (_ fd: Int32) -> Bool = { _ in false },
    restoreInput: @escaping (_ fd: Int32) -> Void = { _ in }
  ) {
    self.write = write
    self.waitWritable = waitWritable
    self.windowSize = windowSize
    self.installResizeHandler = installResizeHandler
    self.takeResize = takeResize
    self.read = read
    self.enterKeyMode = enterKeyMode
    self.restoreInput = restoreInput
  }
}
