public import WallboardCore

/// The zones a board's sprints name, as the caller read them (`ZoneBook` in ZoneFiles): the
/// projections read no file. A sprint whose zone is not here (none named, or one this system
/// lacks) counts its days in the board's zone.
public struct SprintZones: Sendable, Hashable {
  private var byName: [String: Zone]

  public init(_ zones: [Zone] = []) {
    byName = Dictionary(zones.map { ($0.identifier, $0) }, uniquingKeysWith: { a, _ in a })
  }

  /// The zone of `sprint`'s days: its own, else `board`.
  public func zone(of sprint: Sprint, else board: Zone) -> Zone {
    sprint.timeZone.flatMap { byName[$0] } ?? board
  }

  /// Every zone held, by name.
  public var zones: [Zone] { byName.keys.sorted().compactMap { byName[$0] } }
}
