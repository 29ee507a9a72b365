import SmokescreenStage

func run(on stage: Stage) throws {
    let views: [UIView] = []
    UIView.animate(withDuration: 0.2) { views[3].alpha = 0 }
}
