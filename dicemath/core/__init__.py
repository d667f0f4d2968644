"""The shared core: dice, exact distributions, Markov chains, MDP solvers, caching.

Nothing here knows about a particular game; games build on these modules.
"""
