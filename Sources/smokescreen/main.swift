import SmokescreenCLI

SmokescreenCommand.runMain()
