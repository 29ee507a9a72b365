import XCTest
@testable import FrameDiff
