"""The notebook that analyses a game step by step runs."""


def test_notebook_runs(run_notebook):
    run_notebook("analyse_a_game.ipynb")
