import UIKit
import SmokescreenStage

func run(on stage: Stage) throws {
    let view = UIView()
    view.frobnicate()
}
