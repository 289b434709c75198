import Foundation
import TestSupport
import Testing

/// The Python peers leave nothing in the tree: every way the tests start Python writes no
/// bytecode (`-B`), so no `__pycache__` appears beside the scripts they import.
@Suite struct PythonBytecodeTests {
  @Test func pythonStartedByTheTestsWritesNoBytecode() throws {
    // `-B` itself, not PYTHONDONTWRITEBYTECODE, which a developer's shell may or may not set.
    let out = try Python.run(["-c", "import sys; print('-B' in sys.orig_argv and sys.dont_write_bytecode)"])
    #expect(String(decoding: out, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == "True")
  }
}
