import Testing

/// Every test that opens a window, one at a time: SDL's video subsystem and event queue are
/// process-global. The suites that need a window are nested in this one (in extensions), so the
/// `.serialized` trait covers them all.
@Suite(.serialized) struct SDLTests {}
