// The view tree (being built).
