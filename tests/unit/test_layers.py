"""The package reads like the architecture: floors import only floors below, and no cycles.

    0 base       config, errors, types, results, prompts, progress, inputs, text/
    1 io         documents/, storage/, cache/
    2 engines    engines/ (base, meter, factory, llm/, extractive/)
    3 memory     memory/
    4 graph      graph/ (build, state, chunking, collapse, nodes/)
    5 service    service, threads, batch/, studio
    6 surfaces   cli/, and the public API in pipeline/__init__.py
pipeline/ never imports api/.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.support import REPO

FLOORS = {
    "pipeline.config": 0,
    "pipeline.errors": 0,
    "pipeline.types": 0,
    "pipeline.results": 0,
    "pipeline.schemas": 0,
    "pipeline.prompts": 0,
    "pipeline.progress": 0,
    "pipeline.inputs": 0,
    "pipeline.text": 0,
    "pipeline.documents": 1,
    "pipeline.storage": 1,
    "pipeline.cache": 1,
    "pipeline.engines": 2,
    "pipeline.memory": 3,
    "pipeline.graph": 4,
    "pipeline.service": 5,
    "pipeline.threads": 5,
    "pipeline.batch": 5,
    "pipeline.studio": 5,
    "pipeline.cli": 6,
    "pipeline": 6,
}


def module_name(path: Path) -> str:
    parts = path.relative_to(REPO).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, set[str]]:
    """Every pipeline module and the pipeline/api modules it imports, anywhere in its body.

    `from pipeline import prompts` imports the module pipeline.prompts, not the package's
    public API; `from pipeline.types import Finding` imports pipeline.types.
    """
    paths = sorted((REPO / "pipeline").rglob("*.py"))
    names = {module_name(path) for path in paths}
    found: dict[str, set[str]] = {}
    for path in paths:
        imported: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                for alias in node.names:
                    submodule = f"{node.module}.{alias.name}"
                    imported.add(submodule if submodule in names else node.module)
            elif isinstance(node, ast.Import):
                imported.update(alias.name for alias in node.names)
        found[module_name(path)] = {m for m in imported if m.split(".")[0] in ("pipeline", "api")}
    return found


def floor(module: str) -> int:
    """The floor of the longest FLOORS prefix of `module`."""
    parts = module.split(".")
    for end in range(len(parts), 0, -1):
        prefix = ".".join(parts[:end])
        if prefix in FLOORS:
            return FLOORS[prefix]
    raise AssertionError(f"{module} has no floor: add it to FLOORS")


MODULES = modules()


def known(imports: set[str]) -> set[str]:
    """Imported names that are modules (`from pipeline.x import y` may name a function)."""
    return {m for m in imports if m in MODULES}


@pytest.mark.parametrize("module", sorted(MODULES))
def test_a_module_imports_nothing_from_a_floor_above_it(module: str) -> None:
    if module == "pipeline":
        return  # the public API re-exports every floor
    above = sorted(m for m in known(MODULES[module]) if floor(m) > floor(module))
    assert not above, f"{module} (floor {floor(module)}) imports {above}"


def test_the_library_never_imports_the_http_api() -> None:
    offenders = sorted(
        name for name, imports in MODULES.items() if any(m.split(".")[0] == "api" for m in imports)
    )
    assert offenders == []


def test_no_module_imports_itself_back_through_others() -> None:
    graph = {
        name: {m for m in known(imports) if m != name and not name.startswith(m + ".")}
        for name, imports in MODULES.items()
    }
    done: set[str] = set()

    def visit(name: str, path: list[str]) -> None:
        if name in path:
            raise AssertionError("import cycle: " + " -> ".join([*path[path.index(name) :], name]))
        if name in done:
            return
        for other in sorted(graph[name]):
            visit(other, [*path, name])
        done.add(name)

    for name in sorted(graph):
        visit(name, [])


@pytest.mark.parametrize("module", sorted(MODULES))
def test_every_module_says_what_it_defines(module: str) -> None:
    parts = module.split(".")
    path = REPO.joinpath(*parts)
    path = path / "__init__.py" if path.is_dir() else path.with_suffix(".py")
    assert ast.get_docstring(ast.parse(path.read_text())), f"{module} has no docstring"
