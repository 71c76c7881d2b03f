# ------------------------------------------------------------------ mutants
# Mutation testing (docs/mutants.md): every deliberate bug listed in
# tests/mutants/mutants.txt is applied to a copy of its header under
# $(BUILD)/mutants/<id>/, the suites run against it, and the table of what
# caught each one is rewritten in docs/mutants.md (tests/mutants/results.tsv
# holds the same rows for the runner). Not part of `make test`: a full run
# takes about an hour on two cores.
#   make mutants                   every mutant
#   make mutants MUTANTS=id1,id2   a subset (the table keeps the other rows)
#   make mutants-list              the mutants, one line each
MUTANTS ?=
MUTANTS_RUN := tests/mutants/run.py

mutants: test-deps
	nice -n 10 python3 $(MUTANTS_RUN) --build $(BUILD) \
	    $(if $(strip $(MUTANTS)),--only $(MUTANTS))

mutants-list:
	@python3 $(MUTANTS_RUN) --list

.PHONY: mutants mutants-list
