import SmokescreenStage

// The stage script: open the card, a short drag that springs back, a long one that dismisses.
func run(on stage: Stage) throws {
    let host = HostViewController()
    stage.show(host)
    try stage.wait(0.2)
    host.openCard()
    try stage.waitUntilIdle()
    try stage.pan(from: CGPoint(x: 180, y: 300), to: CGPoint(x: 180, y: 380), duration: 0.3)
    try stage.waitUntilIdle()
    try stage.pan(from: CGPoint(x: 180, y: 300), to: CGPoint(x: 180, y: 600), duration: 0.5)
}
