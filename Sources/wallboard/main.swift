import WallboardCLI

#if canImport(Glibc)
  import Glibc
#endif

// A parent may have blocked signals (test runners do, and children inherit the mask); the board
// must stop on SIGINT/SIGTERM and reload on SIGHUP whoever started it.
var none = sigset_t()
sigemptyset(&none)
sigprocmask(SIG_SETMASK, &none, nil)

exit(App().main(Array(CommandLine.arguments.dropFirst())))
