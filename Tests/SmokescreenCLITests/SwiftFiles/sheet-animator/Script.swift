import SmokescreenStage

// Drag the sheet a third of the way up and flick it; then a small drag down released slowly springs back open.
func run(on stage: Stage) throws {
    stage.show(SheetViewController())
    try stage.wait(0.1)
    try stage.pan(from: CGPoint(x: 180, y: 620), to: CGPoint(x: 180, y: 470), duration: 0.3, releaseVelocity: CGVector(dx: 0, dy: -900))
    try stage.waitUntilIdle()
    try stage.pan(from: CGPoint(x: 180, y: 300), to: CGPoint(x: 180, y: 360), duration: 0.3, releaseVelocity: CGVector(dx: 0, dy: -50))
}
