#if canImport(Glibc)
  internal import Glibc
  internal import Synchronization

  /// Set by the `SIGWINCH` handler, cleared by `TerminalSyscalls.live.takeResize`.
  ///
  /// The handler does nothing but a relaxed atomic store to this flag, which is
  /// async-signal-safe. The global is initialised before the handler is installed, so the
  /// handler never runs its lazy initialiser. There is one flag per process: one live
  /// `TerminalDisplay` at a time reads it.
  private let resizeFlag = Atomic<Bool>(false)

  /// The input terminal's settings before `enterKeyMode`, for `restoreInput`.
  private final class SavedSettings: @unchecked Sendable {
    var settings: termios?
  }

  extension TerminalSyscalls {
    /// The C library's `write`, `poll`, `ioctl(TIOCGWINSZ)` and `signal(SIGWINCH)`.
    public static var live: TerminalSyscalls {
      let saved = SavedSettings()
      return TerminalSyscalls(
        write: { fd, bytes in
          let n = Glibc.write(fd, bytes.baseAddress, bytes.count)
          return n >= 0 ? n : -Int(errno)
        },
        waitWritable: { fd in
          var request = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
          let ready = poll(&request, 1, 5_000)
          return ready > 0 || (ready < 0 && errno == EINTR)
        },
        windowSize: { fd in
          var size = winsize()
          guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
          return (Int(size.ws_col), Int(size.ws_row))
        },
        installResizeHandler: {
          resizeFlag.store(false, ordering: .relaxed)
          _ = signal(SIGWINCH) { _ in resizeFlag.store(true, ordering: .relaxed) }
        },
        takeResize: { resizeFlag.exchange(false, ordering: .relaxed) },
        read: { fd, buffer in
          let n = Glibc.read(fd, buffer.baseAddress, buffer.count)
          return n >= 0 ? n : -Int(errno)
        },
        enterKeyMode: { fd in
          var t = termios()
          guard isatty(fd) == 1, tcgetattr(fd, &t) == 0 else { return false }
          saved.settings = t
          keepForEmergencyRestore(input: fd, settings: t)
          t.c_lflag &= ~tcflag_t(ICANON | ECHO)
          // VMIN 0, VTIME 0: a read returns at once with what is there.
          withUnsafeMutableBytes(of: &t.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 0
          }
          return tcsetattr(fd, TCSANOW, &t) == 0
        },
        restoreInput: { fd in
          guard var t = saved.settings else { return }
          saved.settings = nil
          _ = tcsetattr(fd, TCSANOW, &t)
          forgetEmergencyRestoreInput()
        })
    }
  }
#else
  extension TerminalSyscalls {
    /// Only Glibc (Linux) has a live implementation; elsewhere pass your own closures.
    public static var live: TerminalSyscalls {
      preconditionFailure("TerminalSyscalls.live is implemented over Glibc only")
    }
  }
#endif
