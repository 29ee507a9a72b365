import XCTest
@testable import SnapshotView
