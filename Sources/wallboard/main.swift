import WallboardCLI

#if canImport(Glibc)
  import Glibc
#endif

// `wallboard --version` is answered before anything else is set up (environment, signals,
// options): the shortest path through the binary is its floor, which issue 25 measures.
if CommandLine.argc > 1, let first = CommandLine.unsafeArgv[1], strcmp(first, "--version") == 0 {
  Console.standard.out(App.versionLine)
  exit(0)
}

// A parent may have blocked signals (test runners do, and children inherit the mask); the board
// must stop on SIGINT/SIGTERM and reload on SIGHUP whoever started it.
var none = sigset_t()
sigemptyset(&none)
sigprocmask(SIG_SETMASK, &none, nil)
// A parent may also have set them to be ignored (a shell's background job, `nohup`): a board
// that cannot be stopped with Ctrl-C or `kill -INT` is a trap, so they get their defaults back.
// `run` then replaces them with `StopSignals`' handlers: a stop becomes a normal return from the
// run loop (journal flushed, screen restored), exit status 0 for SIGTERM and 130 for SIGINT; a
// second one ends the process at once.
signal(SIGINT, SIG_DFL)
signal(SIGTERM, SIG_DFL)

exit(App(stop: .signals).main(Array(CommandLine.arguments.dropFirst())))
