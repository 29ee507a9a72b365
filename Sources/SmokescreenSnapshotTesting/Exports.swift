// `import SmokescreenSnapshotTesting` is enough for `assertSnapshot`, `withSnapshotTesting` and the record
// modes: a test target needs no direct dependency on swift-snapshot-testing (one that has it still works).
@_exported import SnapshotTesting
