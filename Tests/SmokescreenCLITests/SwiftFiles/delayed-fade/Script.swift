import SmokescreenStage

func run(on stage: Stage) throws {
    let controller = DelayedFade()
    stage.show(controller)
    controller.start()
}
