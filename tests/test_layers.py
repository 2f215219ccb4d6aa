"""Layers that import downward (issue 26). Each layer of the sandbox imports only the layers to
its left, so a student can read the code from the bottom up and never meet a name that is
defined above the file in hand:

    framework <- ops <- runtime <- client <- train <- estimator <- (facade) <- cluster <- experiments <- widgets

The walk reads every module's imports with `ast` (nothing is imported or run) and checks:

  * At module level (what runs when a module is loaded, class bodies and `try:` included):
    no edge goes up, and no circle closes -- not even inside one layer.
  * Inside functions (imports deferred to the first call): no edge goes up either. Deferring an
    import changes when a module is loaded, not what it depends on: the 12-file circle through
    client/session.py, framework/graph.py, ops/constant_op.py and runtime/executor.py that
    this test was written against was made of exactly such imports. A deferred import within
    a layer may close a circle: that is what deferring is for, as in TensorFlow -- an op's
    gradient sits next to its kernel here (framework/op_def.py), so math_ops.py's gradients
    call array_ops.zeros_like while array_ops.py's call math_ops.cast (TF puts its gradients
    in math_grad.py and array_grad.py instead); and Graph.create_op runs the shape functions
    of framework/op_def.py, whose apply_op adds ops to the default Graph.
  * Only the module named is an edge: `from ..framework.graph import Graph` depends on
    framework/graph.py, not on the packages Python loads before it (the sandbox package,
    whose __init__ is the facade, is loaded before any of its modules).

Where each module belongs (PLACES): a package by its name; the files beside them by what they
hold, said next to each. The facade, sandbox/__init__.py, only re-exports the TF-1 names of
framework .. train (tf.Session, tf.train, tf.nn ...), so it stands right after train: the
cluster, the experiments and the widgets may `import sandbox as tf`, nothing to its left may.

bench/ is checked the same way, with its own layers: what all benchmarks share, the workloads
they time, TensorFlow's baselines, the benchmarks, and the runner of them all.
"""
import ast
import collections
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

SANDBOX_LAYERS = ["framework", "ops", "runtime", "client", "train", "estimator", "facade",
                  "cluster", "experiments", "widgets"]
SANDBOX_PLACES = {
    "sandbox.framework": "framework",
    "sandbox.version": "framework",      # tf.VERSION: TF's python/framework/versions.py
    "sandbox.flags": "framework",        # tf.flags, tf.app: TF's python/platform/, what TF's
    "sandbox.app": "framework",          # framework itself stands on (they import no layer)
    "sandbox.platform": "framework",     # tf.gfile, tf.logging: TF's python/platform/
    "sandbox.ops": "ops",
    "sandbox.layers": "ops",             # tf.layers: functions that make ops and variables
    "sandbox.contrib": "train",          # tf.contrib: layers (ops), and slim/opt/training that
                                         # train models with the optimizers and hooks
    "sandbox.data": "ops",               # tf.data: datasets and iterators are ops
    "sandbox.metrics": "ops",            # tf.metrics: ops and local variables
    "sandbox.losses": "ops",             # tf.losses: ops and the LOSSES collection
    "sandbox.api": "ops",                # tf.math, tf.random, tf.io, tf.debugging: names only
    "sandbox.api.io": "train",           # tf.io: names too, and write_graph is train's
                                         # (train/graph_io.py writes the FileWriter's GraphDef)
    "sandbox.feature_column": "ops",     # tf.feature_column: functions that make ops and variables
    "sandbox.api.test": "train",         # tf.test: TestCase runs its graphs in Sessions, and
                                         # create_local_cluster starts tf.train.Servers
    "sandbox.keras": "train",            # tf.keras: layers, and Model.fit's Session and optimizers
    "sandbox.saved_model": "train",      # tf.saved_model: a Saver's checkpoint and a MetaGraphDef
    "sandbox.nn": "ops",                 # tf.nn: only the names of ops (nn_ops, nn_impl ...)
    "sandbox.runtime": "runtime",
    "sandbox.client": "client",
    "sandbox.profiler": "client",        # tf.profiler: reports on graphs and traced steps
    "sandbox.train": "train",
    "sandbox.estimator": "estimator",    # tf.estimator: sessions, hooks, TF_CONFIG (train's)
    "sandbox.summary": "train",          # tf.summary: the summary ops and the FileWriter that
                                         # the hooks and the Supervisor write events with
    "sandbox.datasets": "train",         # MNIST as a training program reads it
    "sandbox.examples": "train",         # tensorflow.examples.tutorials.mnist.input_data
    "sandbox": "facade",                 # sandbox/__init__.py
    "sandbox.compat": "facade",          # tf.compat: v1 is the sandbox package itself
    "sandbox.cluster": "cluster",
    "sandbox.experiments": "experiments",
    "sandbox.widgets": "widgets",
    "sandbox.testing": "widgets",        # the pytest plugin: starts clusters for checks
    "sandbox.demo": "widgets",           # the showcase: runs Experiments, draws the pictures
    "sandbox.__main__": "widgets",       # `python -m sandbox demo | task`
}

BENCH_LAYERS = ["common", "workloads", "baselines", "benchmarks", "runner"]
BENCH_PLACES = {
    "bench": "common",
    "bench.common": "common",            # tables, medians, ports, CPU samples
    "bench.seed_job": "workloads",       # the seed job both step benchmarks time
    "bench.corpus": "workloads",         # TF-1 tutorial programs, run under both (bench_corpus)
    "bench.seed_local_adam": "workloads",    # a TF-1 program, run under both
    "bench.tf_seed_baseline": "baselines",   # TensorFlow's side of a comparison
    "bench.tf_api_names": "baselines",   # TF 1.15's API names, read from TensorFlow
    "bench.tf_step_baseline": "baselines",
    "bench.bench_": "benchmarks",        # bench_*.py (a prefix)
    "bench.soak_async": "benchmarks",
    "bench.run_all": "runner",           # `make bench`
}

Import = collections.namedtuple("Import", "source target line deferred")


def modules_of(root, package):
    """{dotted module name: path} of every .py file under root/package."""
    found = {}
    for path in sorted((root / package).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def imports_of(name, path, modules):
    """The imports of one module that name modules of `modules`, each marked deferred when
    it sits inside a function (or lambda)."""
    is_package = path.name == "__init__.py"
    found = []

    def known(dotted):                    # the module itself, or the package that holds it
        while dotted and dotted not in modules:
            dotted = dotted.rpartition(".")[0]
        return dotted or None

    def walk(node, deferred):
        for child in ast.iter_child_nodes(node):
            inner = deferred or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                   ast.Lambda))
            targets = []
            if isinstance(child, ast.Import):
                targets = [alias.name for alias in child.names]
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    base = name.split(".") if is_package else name.split(".")[:-1]
                    base = base[:len(base) - (child.level - 1)]
                    base = ".".join(base + ([child.module] if child.module else []))
                else:
                    base = child.module
                # `from pkg import mod` names the module pkg.mod; `from mod import f`, mod
                targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                           for alias in child.names]
            for target in dict.fromkeys(known(t) for t in targets):    # each once
                if target is not None and target != name:
                    found.append(Import(name, target, child.lineno, inner))
            walk(child, inner)

    walk(ast.parse(path.read_text(), str(path)), False)
    return found


def place_of(module, places):
    """The layer of `module`: its longest matching entry of `places` (an entry ending in '_'
    is a prefix of file names)."""
    best = None
    for key in places:
        if module == key or module.startswith(key + ".") or \
                (key.endswith("_") and module.startswith(key)):
            if best is None or len(key) > len(best):
                best = key
    return None if best is None else places[best]


def shortest_circle(start, edges):
    """The shortest path start -> ... -> start along `edges`, as a list of modules."""
    parent, queue = {start: None}, collections.deque([start])
    while queue:
        node = queue.popleft()
        for nxt in sorted(edges.get(node, ())):
            if nxt == start:
                path = [node]
                while parent[path[-1]] is not None:
                    path.append(parent[path[-1]])
                return path[::-1] + [start]
            if nxt not in parent:
                parent[nxt] = node
                queue.append(nxt)
    return None


def circles(edges):
    """For each group of modules that import each other (a strongly connected component of
    more than one module): its shortest circle."""
    index, low, stack, on_stack, groups = {}, {}, [], set(), []

    def visit(v):                     # Tarjan's algorithm; the trees here are shallow
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return [shortest_circle(group[0], edges) for group in groups]


def problems(root, package, layers, places):
    """Every broken rule of the package `package` of the tree `root`, as sentences."""
    modules = modules_of(root, package)

    def file(module):
        return str(modules[module].relative_to(root))
    out = [f"{file(module)} has no layer: add it to the places in tests/test_layers.py, in "
           f"the layer its content belongs to." for module in modules
           if place_of(module, places) is None]
    if out:
        return out
    rule = " <- ".join(layers)
    module_level = collections.defaultdict(set)
    for module, path in modules.items():
        for imp in imports_of(module, path, modules):
            if not imp.deferred:
                module_level[imp.source].add(imp.target)
            source_layer, target_layer = place_of(imp.source, places), place_of(imp.target, places)
            if layers.index(target_layer) > layers.index(source_layer):
                where = "inside a function" if imp.deferred else "at module level"
                out.append(f"{file(imp.source)}:{imp.line} imports {file(imp.target)} {where}: "
                           f"{source_layer} -> {target_layer} goes up. Rule: each layer imports "
                           f"only the layers to its left ({rule}). Move what both need down "
                           f"to the lower layer, or let the upper layer register it into the "
                           f"lower one (as the ops register tensor conversions into the "
                           f"framework).")
    for circle in circles(module_level):
        out.append(f"{len(circle) - 1} modules import each other at module level: "
                   f"{' -> '.join(file(m) for m in circle)}. Rule: no circle of imports, even "
                   f"inside a layer; move what they share into a module they all import.")
    return out


@pytest.mark.parametrize("package, layers, places", [
    ("sandbox", SANDBOX_LAYERS, SANDBOX_PLACES), ("bench", BENCH_LAYERS, BENCH_PLACES)],
    ids=["sandbox", "bench"])
def test_every_import_goes_down_and_none_closes_a_circle(package, layers, places):
    found = problems(ROOT, package, layers, places)
    assert not found, "\n".join(found)


def test_the_facade_only_re_exports_names():
    tree = ast.parse((ROOT / "sandbox" / "__init__.py").read_text())
    body = tree.body[1:] if ast.get_docstring(tree) is not None else tree.body
    others = [f"line {node.lineno}: {ast.unparse(node).splitlines()[0]}" for node in body
              if not isinstance(node, (ast.Import, ast.ImportFrom))]
    assert not others, ("sandbox/__init__.py is the TF-1 facade: it only imports and re-exports "
                        "names; define these in the module of their layer instead: "
                        + "; ".join(others))


def test_the_product_imports_nothing_of_tests_benchmarks_or_lessons():
    outside = {"tests", "bench", "lessons", "notebooks"}
    found = []
    for path in modules_of(ROOT, "sandbox").values():
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level \
                else []
            found += [f"{path.relative_to(ROOT)}:{node.lineno} imports {n}" for n in names
                      if n.split(".")[0] in outside]
    assert not found, "\n".join(found)


# -- the checker itself, on small made-up trees -------------------------------------------

def _tree(root, files):
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def test_the_checker_names_an_upward_edge_and_its_rule(tmp_path):
    root = _tree(tmp_path, {"pkg/__init__.py": "", "pkg/low/__init__.py": "",
                            "pkg/high/__init__.py": "",
                            "pkg/low/a.py": "def f():\n    from ..high import b\n",
                            "pkg/high/b.py": "from ..low import a\n"})
    found = problems(root, "pkg", ["facade", "low", "high"],
                     {"pkg": "facade", "pkg.low": "low", "pkg.high": "high"})
    assert found == [
        "pkg/low/a.py:2 imports pkg/high/b.py inside a function: low -> high goes up. Rule: "
        "each layer imports only the layers to its left (facade <- low <- high). Move what "
        "both need down to the lower layer, or let the upper layer register it into the lower "
        "one (as the ops register tensor conversions into the framework)."]


def test_the_checker_names_a_circle_at_module_level_but_not_a_deferred_one(tmp_path):
    root = _tree(tmp_path, {"pkg/__init__.py": "", "pkg/a.py": "from . import b\n",
                            "pkg/b.py": "from .c import f\n",
                            "pkg/c.py": "import pkg.a\n\ndef f():\n    pass\n",
                            "pkg/d.py": "def g():\n    from . import e\n",
                            "pkg/e.py": "from . import d\n"})
    assert problems(root, "pkg", ["one"], {"pkg": "one"}) == [
        "3 modules import each other at module level: pkg/a.py -> pkg/b.py -> pkg/c.py -> "
        "pkg/a.py. Rule: no circle of imports, even inside a layer; move what they share into "
        "a module they all import."]


def test_the_checker_asks_for_a_place_for_a_new_file(tmp_path):
    root = _tree(tmp_path, {"pkg/__init__.py": "", "pkg/known.py": "", "pkg/stray.py": ""})
    assert problems(root, "pkg", ["one"], {"pkg.known": "one"}) == [
        "pkg/__init__.py has no layer: add it to the places in tests/test_layers.py, in the "
        "layer its content belongs to.",
        "pkg/stray.py has no layer: add it to the places in tests/test_layers.py, in the layer "
        "its content belongs to."]
