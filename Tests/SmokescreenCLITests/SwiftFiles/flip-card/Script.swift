import SmokescreenStage

func run(on stage: Stage) throws {
    let controller = FlipViewController()
    stage.show(controller)
    try stage.wait(0.1)
    controller.flip()
    controller.turn()
}
