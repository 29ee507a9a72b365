import SmokescreenStage

func run(on stage: Stage) throws {
    try stage.wait(0.1)
    try stage.write(to: "/tmp/somewhere-else")
}
