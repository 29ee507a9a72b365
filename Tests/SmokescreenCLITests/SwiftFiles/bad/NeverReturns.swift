import SmokescreenStage

func run(on stage: Stage) throws {
    var x = 0
    while true { x &+= 1 }
}
