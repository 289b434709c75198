public import WallboardCore

extension BoardState {
  /// The feature of this id, in whichever project holds it: for tests whose ids are unique on
  /// the board (a board whose ids collide is tested by key).
  public func feature(_ id: String) -> Feature? {
    features.first { $0.key.id == id }?.value
  }

  /// The history of the feature of this id, in whichever project holds it (see `feature(_:)`).
  public func history(of id: String) -> FeatureHistory? {
    history.first { $0.key.id == id }?.value
  }
}
