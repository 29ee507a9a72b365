import SmokescreenCLI

SmokescreenCommand.main()
