import EventSources
import Foundation
import NATS
import SourceKit
import TestSupport
import Testing
import WallboardCore

#if canImport(Glibc)
  import Glibc
#endif

/// The relay over TLS: the hub's certificate checked against `--nats-ca`, and a wall that
/// trusts another CA never shows the board.
@Suite(.serialized) struct RelayTLSTests {
  @Test func aBoardPublishedOverTLSIsShownByAWallThatTrustsTheHubsCA() throws {
    let hub = try NATSHub(tls: true)
    let ca = try #require(hub.caFile)
    let publisher = try BoardProcess([
      "publish", "--source", "sim", "--to", Relay.url(hub), "--stream-size", "32", "--nats-ca", ca,
    ])
    defer { publisher.stop() }
    let wall = try Relay.Wall(hub)
    let origin = wall.source.origin
    #expect(
      wall.live.wait(30) { $0.origins[origin]?.connection == .live && $0.features.count > 3 }, "\(publisher.stderr)")
  }

  @Test func aWallThatTrustsAnotherCAIsRefusedAndSaysWhy() throws {
    let hub = try NATSHub(tls: true)
    let other = try TempDir()
    let make = try Command.run(
      URL(fileURLWithPath: "/bin/bash"),
      [Paths.repoRoot.appendingPathComponent("Tests/OrchestraPeer/make-certs.sh").path, other.url.path], timeout: 60)
    #expect(make.status == 0, "\(make.err)")
    let wall = try BoardProcess([
      "inspect", "--source", Relay.url(hub), "--nats-ca", other.url.appendingPathComponent("ca.crt").path, "--wait",
      "3",
    ])
    #expect(wall.wait(timeout: 30))
    #expect(wall.stdout.contains("\"status\": \"offline\"") && wall.stdout.contains("cannot connect to the broker"))
    #expect(
      wall.stdout.lowercased().contains("ssl") || wall.stdout.lowercased().contains("certificate"), "\(wall.stdout)")
  }
}

/// A wall and a publisher dial the hub and listen on nothing.
@Suite struct RelayListeningTests {
  /// The TCP and UDP sockets `pid` holds that listen (TCP state 0A) or are bound without a peer
  /// (UDP), from /proc.
  static func listening(_ pid: Int32) -> [String] {
    let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
    var inodes: Set<String> = []
    for fd in fds {
      if let link = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(fd)"),
        link.hasPrefix("socket:[")
      {
        inodes.insert(String(link.dropFirst(8).dropLast()))
      }
    }
    var found: [String] = []
    for table in ["tcp", "tcp6", "udp", "udp6"] {
      guard let text = try? String(contentsOfFile: "/proc/\(pid)/net/\(table)", encoding: .utf8) else { continue }
      for line in text.split(separator: "\n").dropFirst() {
        let f = line.split(separator: " ")
        guard f.count > 9, inodes.contains(String(f[9])) else { continue }
        if table.hasPrefix("tcp") ? f[3] == "0A" : f[2].hasSuffix(":0000") { found.append("\(table) \(f[1])") }
      }
    }
    return found
  }

  @Test func aWallAndAPublisherOpenNoListeningSocket() throws {
    let hub = try NATSHub()
    let publisher = try BoardProcess(["publish", "--source", "sim", "--to", Relay.url(hub), "--stream-size", "32"])
    defer { publisher.stop() }
    let wall = try BoardProcess(["run", "--source", Relay.url(hub), "--display", "text", "--no-journal"])
    defer { wall.stop() }
    Thread.sleep(forTimeInterval: 3)
    #expect(publisher.isRunning && wall.isRunning)
    #expect(Self.listening(publisher.pid).isEmpty)
    #expect(Self.listening(wall.pid).isEmpty)
    // The check sees a listening socket when there is one: this process's own, for a moment.
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    #expect(bound == 0 && listen(fd, 1) == 0)
    #expect(!Self.listening(getpid()).isEmpty)
  }
}
