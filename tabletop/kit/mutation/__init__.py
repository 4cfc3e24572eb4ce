"""Mutation testing of rule suites: how strong are a game's scenarios and golden games?

``tabletop test --mutate --game ID`` changes the game's rules code one small mutation at a
time (:mod:`~tabletop.kit.mutation.operators`), runs the game's scenario cases and golden
games against each mutant in a worker process (:mod:`~tabletop.kit.mutation.runner`) and
reports the mutation score per module and per rule ID with every surviving mutant as a
diff (:mod:`~tabletop.kit.mutation.report`). A surviving mutant is a change to the rules that
no case notices: a rule no case pins down.

Why not mutmut or cosmic-ray: both own the test run (mutmut 3 copies the project into
``mutants/`` and runs pytest there, tracing which tests reach which function; cosmic-ray
keeps a session database and runs a configured test command per mutant). The suite here
is not a pytest run but the scenario runner and golden games in process, the code to
mutate is an installed plugin package (an editable install, possibly outside the current
folder), and the report must name rule IDs. A small ``ast`` mutator that swaps the
mutated module in a worker (and a per-mutant timeout that ends a hanging worker) does
that in a few hundred lines, with no extra dependency, and reruns the suite in
milliseconds instead of a pytest start per mutant.
"""
