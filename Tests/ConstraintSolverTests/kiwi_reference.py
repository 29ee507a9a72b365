"""Replays generated constraint systems on kiwisolver (Cassowary, Debian's python3-kiwisolver): the
independent solver ConstraintSolver's results are compared with.

Input (argv[1], JSON): a list of systems, each {"variables": n, "operations": [...]}, an operation being
  {"add": id, "terms": [[variable, coefficient], ...], "constant": c, "relation": "le"|"eq"|"ge", "strength": s}
  {"remove": id}
  {"change": id, "constant": c}   (the constraint again with another constant: removed and added)
  {"edit": variable, "strength": s}
  {"suggest": variable, "value": v}
Output (argv[2], JSON): per system {"added": {id: true|false}, "changed": [true|false, ...], "values": [...]}
(a change is false when the constraint with its new constant is unsatisfiable and so left out).

A required constraint kiwi finds unsatisfiable is left out; the solver is then built again from the
constraints that were accepted (kiwi's tableau is not specified after the exception), with the edit
variables and their last suggestions.
"""
import json
import sys

import kiwisolver as kiwi


def build(variables, live, edits):
    solver = kiwi.Solver()
    for constraint in live.values():
        solver.addConstraint(constraint)
    for variable, (strength, value) in edits.items():
        solver.addEditVariable(variables[variable], strength)
        if value is not None:
            solver.suggestValue(variables[variable], value)
    return solver


def make(variables, operation):
    expression = sum((coefficient * variables[v] for v, coefficient in operation["terms"]), kiwi.Expression([], 0.0))
    expression = expression + operation["constant"]
    relation = {"le": expression <= 0, "eq": expression == 0, "ge": expression >= 0}[operation["relation"]]
    return relation | operation["strength"]


def replay(system):
    variables = [kiwi.Variable("v%d" % i) for i in range(system["variables"])]
    solver = kiwi.Solver()
    live, edits, added, changed, definitions = {}, {}, {}, [], {}
    for operation in system["operations"]:
        if "change" in operation:
            if operation["change"] not in live:
                continue
            solver.removeConstraint(live.pop(operation["change"]))
            operation = dict(definitions[operation["change"]], constant=operation["constant"])
            definitions[operation["add"]] = operation
            constraint = make(variables, operation)
            try:
                solver.addConstraint(constraint)
                live[operation["add"]] = constraint
                changed.append(True)
            except kiwi.UnsatisfiableConstraint:
                changed.append(False)
                solver = build(variables, live, edits)
        elif "add" in operation:
            definitions[operation["add"]] = operation
            constraint = make(variables, operation)
            try:
                solver.addConstraint(constraint)
                live[operation["add"]] = constraint
                added[operation["add"]] = True
            except kiwi.UnsatisfiableConstraint:
                added[operation["add"]] = False
                solver = build(variables, live, edits)
        elif "remove" in operation:
            constraint = live.pop(operation["remove"], None)
            if constraint is not None:
                solver.removeConstraint(constraint)
        elif "edit" in operation:
            edits[operation["edit"]] = (operation["strength"], None)
            solver.addEditVariable(variables[operation["edit"]], operation["strength"])
        elif "suggest" in operation:
            strength, _ = edits[operation["suggest"]]
            edits[operation["suggest"]] = (strength, operation["value"])
            solver.suggestValue(variables[operation["suggest"]], operation["value"])
    solver.updateVariables()
    return {"added": added, "changed": changed, "values": [v.value() for v in variables]}


def main():
    with open(sys.argv[1]) as f:
        systems = json.load(f)
    with open(sys.argv[2], "w") as f:
        json.dump([replay(system) for system in systems], f)


if __name__ == "__main__":
    main()
