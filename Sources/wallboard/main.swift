import WallboardCLI

#if canImport(Glibc)
  import Glibc
#endif

exit(App().main(Array(CommandLine.arguments.dropFirst())))
