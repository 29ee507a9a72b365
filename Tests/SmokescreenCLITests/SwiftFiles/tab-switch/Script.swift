import SmokescreenStage

// Tap the last tab, then the middle one: the pages slide one way, then back.
func run(on stage: Stage) throws {
    stage.show(SlidingTabBarController())
    try stage.wait(0.1)
    try stage.tap(at: CGPoint(x: 312, y: 640))
    try stage.waitUntilIdle()
    try stage.tap(at: CGPoint(x: 187, y: 640))
}
