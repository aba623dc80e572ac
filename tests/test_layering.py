"""The frontend's layers import only downward, at module level.

The core (``gtensor.tensor_base``) sits below graph recording (``gtensor.graph``),
which sits below the ops, and the ops below the autograd engine and the public
``Tensor``; imports placed inside functions to
dodge a cycle are the exception, with a reason beside each.
"""

import ast
import json
import pathlib
import subprocess
import sys

import gtensor

PACKAGE = pathlib.Path(gtensor.__file__).parent
MAX_INNER_IMPORTS = 10

# Imports ``gtensor.tensor_base`` and then every module of ``gtensor.ops``, those of its
# subpackages included, in a fresh interpreter, under a bare ``gtensor`` package: its
# __init__ would import every layer.
_PROBE = """
import importlib, importlib.util, json, pkgutil, sys, types

spec = importlib.util.find_spec("gtensor")
root = types.ModuleType("gtensor")
root.__path__ = list(spec.submodule_search_locations)
root.__spec__ = spec
sys.modules["gtensor"] = root
importlib.import_module("gtensor.tensor_base")
core = sorted(m for m in sys.modules if m.startswith("gtensor."))
ops = importlib.import_module("gtensor.ops")
for info in pkgutil.walk_packages(ops.__path__, "gtensor.ops."):
    importlib.import_module(info.name)
print(json.dumps({"core": core, "ops": sorted(m for m in sys.modules if m.startswith("gtensor."))}))
"""


def _own_module(node: ast.AST) -> bool:
    if isinstance(node, ast.ImportFrom):
        return node.level > 0 or (node.module or "").startswith(("gtensor", "kernels"))
    if isinstance(node, ast.Import):
        return any(a.name.startswith(("gtensor", "kernels")) for a in node.names)
    return False


def _inner_imports() -> list[str]:
    found = set()
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text())
        for fn in ast.walk(tree):
            if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for node in ast.walk(fn):
                    if _own_module(node):
                        found.add(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}")
    return sorted(found)


def _probe() -> dict[str, list[str]]:
    out = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True,
                         check=True)
    return json.loads(out.stdout.splitlines()[-1])


def test_few_imports_inside_functions():
    inner = _inner_imports()
    assert len(inner) <= MAX_INNER_IMPORTS, "imports of gtensor modules inside functions:\n" + \
        "\n".join(inner)


def test_core_and_ops_do_not_import_the_layers_above():
    loaded = _probe()
    assert not _within(loaded["core"], ("gtensor.ops", "gtensor.graph", "gtensor.autograd"))
    above = ("gtensor.autograd", "gtensor.tensor", "gtensor.mixins", "gtensor.func",
             "gtensor.nn", "gtensor.compiler", "gtensor.linalg", "gtensor.array_api",
             "gtensor.special", "gtensor.amp")
    assert not _within(loaded["ops"], above)
    assert "gtensor.ops.elementwise" in loaded["ops"]


def _within(modules: list[str], packages: tuple[str, ...]) -> list[str]:
    return [m for m in modules if any(m == p or m.startswith(p + ".") for p in packages)]
