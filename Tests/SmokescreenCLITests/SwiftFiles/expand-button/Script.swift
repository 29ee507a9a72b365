import SmokescreenStage

func run(on stage: Stage) throws {
    let controller = ButtonViewController()
    stage.show(controller)
    try stage.wait(0.1)
    controller.expand()
}
