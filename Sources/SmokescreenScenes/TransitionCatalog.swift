import TransitionCompositor

/// The built-in transitions, by name.
public enum TransitionCatalog {
    /// Every built-in transition, in the order `smokescreen list` shows them; the first is the default.
    public static let all: [any Transition] = [
        VesperTransition(.timelineToDetail),
        VesperTransition(.detailToTimeline),
        ReferenceTransition(),
        VesperTransition(.detailToPicture),
        VesperTransition(.pictureToDetail),
    ] + TableTransition.Scene.allCases.map { TableTransition($0) as any Transition }
        + NavigationTransition.Scene.allCases.map { NavigationTransition($0) as any Transition }
        + [VesperTransition.detailToTimelineInteractive]
        + INipponTransition.Scene.allCases.map { INipponTransition($0) as any Transition }
        + INipponPagesTransition.Scene.allCases.map { INipponPagesTransition($0) as any Transition }

    /// What `smokescreen render` renders with no argument.
    public static var defaultName: String { all[0].name }

    /// The built-in called `name`, or nil.
    public static func transition(named name: String) -> (any Transition)? {
        all.first { $0.name == name }
    }
}
