"""Every notebook under notebooks/ executes headless, in a real Jupyter kernel (nbclient), in
the short mode a class uses without time to spare (SANDBOX_QUICK=1), on full MNIST or (with
SANDBOX_TEST_MNIST=offline, as CI's second pass) on the offline subset, and says nothing went
wrong: no cell raised, nothing was written to stderr with a traceback."""
import nbformat
import pytest
from nbclient import NotebookClient

from conftest import MNIST_DIR, MNIST_OFFLINE, REPO

NOTEBOOKS = sorted((REPO / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_executes_headless(path, monkeypatch):
    monkeypatch.setenv("SANDBOX_QUICK", "1")
    monkeypatch.setenv("SANDBOX_MNIST_MIRRORS", "none")        # never download in a test
    monkeypatch.delenv("SANDBOX_MNIST_DIR", raising=False)
    if not MNIST_OFFLINE and (MNIST_DIR / "train-images-idx3-ubyte.gz").exists():
        monkeypatch.setenv("MNIST_DIR", str(MNIST_DIR))
    else:                                          # the offline subset (SANDBOX_TEST_MNIST)
        monkeypatch.delenv("MNIST_DIR", raising=False)
    notebook = nbformat.read(path, as_version=4)
    client = NotebookClient(notebook, timeout=120, kernel_name="python3",
                            resources={"metadata": {"path": str(path.parent)}})
    client.execute()                            # raises CellExecutionError if a cell raised
    for i, cell in enumerate(notebook.cells):
        for output in cell.get("outputs", []):
            assert output.get("output_type") != "error", f"cell {i}: {output}"
            if output.get("name") == "stderr":
                assert "Traceback" not in output.get("text", ""), f"cell {i}: {output['text']}"


def test_every_notebook_is_tested_and_listed_in_the_readme():
    readme = (REPO / "notebooks" / "README.md").read_text()
    for path in NOTEBOOKS:
        assert path.name in readme, f"{path.name} is not described in notebooks/README.md"
