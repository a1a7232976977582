"""Beast: the one-vs-many hidden-movement game (rulebook: ../shared/rules/beast.en.txt)."""
