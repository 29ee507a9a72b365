// Tables index rows with Foundation's `IndexPath` and UIKit's `IndexPath(row:section:)`; code that
// imports Containers gets those additions with it, from the module the UIKit layer exports too.
@_exported import TableIndexPaths
