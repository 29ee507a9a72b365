import XCTest
@testable import Typesetting
