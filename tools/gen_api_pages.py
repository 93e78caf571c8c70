"""Write the API reference pages (docs/api/*.md) from the installed packages' ``__all__``.

Every public module (no path component starting with ``_``) is imported; each name of its
``__all__`` is documented once, under its *public path*: the topmost public module, among
the module and its ancestors, whose ``__all__`` lists the name for the same object
(``torch.nn.modules.linear.Linear`` is documented as ``torch.nn.Linear``). One page per
module that ends up with names, plus ``torch.Tensor``. Docstrings (Google style with reST
roles and ``Examples::`` blocks) are turned into Markdown here: roles become links to the
documented object, ``Examples::`` blocks become ``pycon`` code blocks.

    python tools/gen_api_pages.py          # rewrite docs/api/ and the nav of mkdocs.yml
    python tools/gen_api_pages.py --check  # exit 1 if they are out of date

tests/test_docs_names.py runs the check and compares the pages with ``__all__``.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
API = ROOT / "docs" / "api"
MKDOCS = ROOT / "mkdocs.yml"
NAV_BEGIN = "      # api-nav-begin (written by tools/gen_api_pages.py)"
NAV_END = "      # api-nav-end"
TENSOR_PAGE = "torch.Tensor"
UNRESOLVED: set[str] = set()

SECTION = re.compile(
    r"^(Args|Arguments|Parameters|Keyword [Aa]rgs|Kwargs|Returns?|Yields|Raises|Shape|"
    r"Attributes|Inputs?|Outputs?|Notes?|Warnings?|Examples?|Example usage|See [Aa]lso|"
    r"Methods|Variables)(::?)\s*$"
)
ROLE = re.compile(r":(?:py:)?(meth|class|func|attr|mod|data|exc|obj|ref|const):`([^`]+)`")
CODE = re.compile(r"``([^`]+?)``|`([^`]+?)`")
ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


# -- which names live where ------------------------------------------------------------


def public_modules() -> dict[str, object]:
    """Every importable public module of the torch namespace, by name."""
    import torch

    names = ["torch"] + [
        m.name
        for m in pkgutil.walk_packages(torch.__path__, "torch.")
        if not any(part.startswith("_") for part in m.name.split("."))
    ]
    return {name: importlib.import_module(name) for name in sorted(set(names))}


def public_path(modules: dict[str, object], module: str, name: str) -> str:
    """The topmost public module among ``module`` and its ancestors that exports ``name``
    (in its ``__all__``) as the same object."""
    obj = getattr(modules[module], name)
    parts = module.split(".")
    for i in range(1, len(parts) + 1):
        candidate = ".".join(parts[:i])
        mod = modules.get(candidate)
        if mod is not None and name in getattr(mod, "__all__", ()):
            if getattr(mod, name, None) is obj:
                return candidate
    return module


def documented_names(modules: dict[str, object]) -> dict[str, list[str]]:
    """Page (module name) -> the names documented on it, in ``__all__`` order."""
    pages: dict[str, list[str]] = {}
    for module, mod in modules.items():
        for name in getattr(mod, "__all__", ()):
            home = public_path(modules, module, name)
            names = pages.setdefault(home, [])
            if name not in names:
                names.append(name)
    return {page: names for page, names in pages.items() if names}


# -- cross-references ------------------------------------------------------------------


class Index:
    """Documented objects by every path they are known by (public, implementation)."""

    def __init__(self) -> None:
        self.anchors: dict[str, tuple[str, str]] = {}  # path -> (page, anchor)
        self.unresolved: set[str] = set()

    def add(self, path: str, page: str, anchor: str, obj: object = None) -> None:
        self.anchors.setdefault(path, (page, anchor))
        qualname = getattr(obj, "__qualname__", None)
        module = getattr(obj, "__module__", None)
        if isinstance(qualname, str) and isinstance(module, str) and "<" not in qualname:
            self.anchors.setdefault(f"{module}.{qualname}", (page, anchor))

    def resolve(self, target: str, context: list[str]) -> tuple[str, str] | None:
        target = target.strip().lstrip("~").lstrip(".").rstrip("()")
        candidates = [target] + [f"{prefix}.{target}" for prefix in context]
        candidates += [f"torch.{target}", f"torch.Tensor.{target}", f"torch.nn.{target}"]
        for candidate in candidates:
            if candidate in self.anchors:
                return self.anchors[candidate]
        return None


def inline(text: str, index: Index, context: list[str]) -> str:
    """One line of docstring prose as Markdown: roles as links, reST literals as code."""
    out = []
    pos = 0
    pattern = re.compile(ROLE.pattern + "|" + CODE.pattern)
    for match in pattern.finditer(text):
        out.append(escape(text[pos : match.start()]))
        pos = match.end()
        if match.group(1):  # a role
            target = match.group(2)
            shown = target.lstrip("~")
            if target.startswith("~"):
                shown = shown.rsplit(".", 1)[-1]
            if "<" in target:  # :ref:`text <label>`
                shown = target.split("<")[0].strip()
                target = target.split("<")[1].rstrip(">")
            found = index.resolve(target, context)
            if found is None:
                index.unresolved.add(target)
                out.append(f"`{shown}`")
            else:
                anchor = f"#{found[1]}" if found[1] else ""
                out.append(f"[`{shown}`]({found[0]}.md{anchor})")
        else:
            code = match.group(3) if match.group(3) is not None else match.group(4)
            out.append(f"`{code}`")
    out.append(escape(text[pos:]))
    return "".join(out)


def escape(text: str) -> str:
    for char in "\\*_[]":
        text = text.replace(char, "\\" + char)
    return text.replace("<", "&lt;").replace(">", "&gt;")


# -- docstrings ------------------------------------------------------------------------


def indented_block(lines: list[str], start: int) -> tuple[list[str], int]:
    """The indented (or blank) lines from ``start``, dedented, and the index after them."""
    end = start
    while end < len(lines) and (not lines[end].strip() or lines[end].startswith((" ", "\t"))):
        end += 1
    while end > start and not lines[end - 1].strip():
        end -= 1
    while start < end and not lines[start].strip():
        start += 1
    return textwrap.dedent("\n".join(lines[start:end])).splitlines(), end


def fence(lines: list[str]) -> list[str]:
    lang = "pycon" if any(line.lstrip().startswith(">>>") for line in lines) else "text"
    return ["", f"```{lang}", *lines, "```", ""]


def items(lines: list[str], index: Index, context: list[str]) -> list[str]:
    """``name (type): text`` entries (continuation lines indented) as a bullet list."""
    entries: list[str] = []
    for line in lines:
        if line.startswith((" ", "\t")) and entries:
            entries[-1] += " " + line.strip()
        elif line.strip():
            entries.append(re.sub(r"^[-*]\s+", "", line.strip()))
    out = []
    entry = re.compile(r"^([\w\*\\][\w\*, .\\]*?)\s*(\(([^()]*(\([^()]*\))?[^()]*)\))?\s*:\s+(.*)$")
    for text in entries:
        match = entry.match(text)
        if match and len(match.group(1)) < 60:
            kind = f" ({inline(match.group(3), index, context)})" if match.group(3) else ""
            out.append(f"- `{match.group(1)}`{kind}: {inline(match.group(5), index, context)}")
        else:
            out.append(f"- {inline(text, index, context)}")
    return ["", *out, ""]


def render_doc(doc: str | None, index: Index, context: list[str]) -> list[str]:
    if not doc:
        return []
    lines = inspect.cleandoc(doc).splitlines()
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        section = SECTION.match(line)
        if section:
            title = section.group(1)
            block, i = indented_block(lines, i + 1)
            if title.lower().startswith("example"):
                out += ["", "**Examples:**", *fence(block)]
            elif title.lower().startswith(("note", "warning")):
                kind = "note" if title.lower().startswith("note") else "warning"
                body = render_doc("\n".join(block), index, context)
                out += ["", f"!!! {kind}", "", *("    " + b if b else "" for b in body), ""]
            elif title in ("Returns", "Return", "Yields"):
                body = render_doc("\n".join(block), index, context)
                out += ["", f"**{title}:**", "", *body, ""]
            else:
                out += ["", f"**{title}:**", *items(block, index, context)]
            continue
        if line.lstrip().startswith(">>>"):
            end = i
            while end < len(lines) and lines[end].strip():
                end += 1
            out += fence(textwrap.dedent("\n".join(lines[i:end])).splitlines())
            i = end
            continue
        if line.rstrip().endswith("::") and i + 1 < len(lines):
            text = line.rstrip()[:-2].rstrip()
            block, end = indented_block(lines, i + 1)
            if block and any(b.strip() for b in block):
                if text:
                    out.append(inline(text.strip(), index, context) + ":")
                out += fence(block)
                i = end
                continue
        stripped = line.strip()
        bullet = re.match(r"^([-*]|\d+\.)\s", stripped)
        if bullet and out and out[-1].strip() and not re.match(r"^([-*]|\d+\.)\s", out[-1]):
            out.append("")  # Markdown lists need a blank line before them
        if stripped:
            if bullet:
                stripped = bullet.group(1) + " " + stripped[bullet.end() :]
                rest = inline(stripped[bullet.end() :], index, context)
                out.append(stripped[: bullet.end()] + rest)
            else:
                out.append(inline(stripped, index, context))
        else:
            out.append("")
        i += 1
    return out


# -- pages -----------------------------------------------------------------------------


def signature(obj: object, path: str) -> str | None:
    if not callable(obj):
        return None
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        return f"{path}(...)"
    sig = ADDRESS.sub("", str(unquoted(sig)))
    if inspect.isclass(obj):
        return f"class {path}{sig}"
    return f"{path}{sig}"


class _Annotation:
    """A string annotation (``from __future__ import annotations``) shown without quotes."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text


def unquoted(sig: inspect.Signature) -> inspect.Signature:
    def plain(annotation: object) -> object:
        return _Annotation(annotation) if isinstance(annotation, str) else annotation

    params = [p.replace(annotation=plain(p.annotation)) for p in sig.parameters.values()]
    return sig.replace(parameters=params, return_annotation=plain(sig.return_annotation))


def kind_of(obj: object) -> str:
    if inspect.ismodule(obj):
        return "Modules"
    if inspect.isclass(obj):
        return "Classes"
    if callable(obj):
        return "Functions"
    return "Constants and objects"


def own_doc(obj: object) -> str | None:
    doc = getattr(obj, "__doc__", None)
    if inspect.isclass(obj):
        return obj.__dict__.get("__doc__")
    if not callable(obj) and not inspect.ismodule(obj):
        return None  # an instance's doc is its class's: say what it is instead
    return doc if isinstance(doc, str) else None


def from_stdlib(obj: object) -> str | None:
    module = getattr(obj, "__module__", None) or ""
    if inspect.ismodule(obj) or not isinstance(module, str):
        return None
    top = module.split(".")[0]
    return top if top in sys.stdlib_module_names else None


def describe_object(path: str, obj: object, index: Index) -> list[str]:
    """Text for a non-callable, non-class object (a dtype, a constant, a module)."""
    if inspect.ismodule(obj):
        found = index.resolve(obj.__name__, [])
        target = f"[`{obj.__name__}`]({obj.__name__}.md)" if found else f"`{obj.__name__}`"
        return [f"The module {target}."]
    cls = type(obj)
    found = index.resolve(f"{cls.__module__}.{cls.__qualname__}", [])
    shown = f"[`{found[1]}`]({found[0]}.md#{found[1]})" if found else f"`{cls.__qualname__}`"
    if isinstance(obj, str) and path.endswith("__version__"):
        return ["The version string of the distribution that provides this module."]
    value = ADDRESS.sub("", repr(obj))
    if len(value) > 80 or isinstance(obj, (dict, list, set, tuple)):
        return [f"An instance of {shown}."]
    return [f"An instance of {shown}: `{value}`."]


def members(cls: type, path: str) -> list[tuple[str, object]]:
    """The public methods and properties a class defines itself, with a docstring."""
    found = []
    for name, value in cls.__dict__.items():
        if name.startswith("_"):
            continue
        func = value.__func__ if isinstance(value, (staticmethod, classmethod)) else value
        if isinstance(func, property):
            if func.__doc__:
                found.append((name, func))
        elif callable(func) and getattr(func, "__doc__", None):
            found.append((name, func))
    return found


def entry(path: str, obj: object, page: str, index: Index, level: int = 3) -> list[str]:
    parts = path.split(".")
    context = [".".join(parts[:i]) for i in range(len(parts), 0, -1)]
    out = ["", f"{'#' * level} `{path}` {{: #{path} }}", ""]
    stdlib = from_stdlib(obj)
    sig = signature(obj, path)
    if isinstance(obj, property):
        sig = None
    if sig:
        out += ["```python", sig, "```", ""]
    if stdlib:
        name = f"{obj.__module__}.{getattr(obj, '__qualname__', path.rsplit('.', 1)[-1])}"
        out.append(f"Python's `{name}`, re-exported unchanged (see Python's documentation).")
        return out
    doc = own_doc(obj) if not isinstance(obj, property) else obj.__doc__
    if doc:
        out += render_doc(doc, index, context)
    elif not callable(obj) and not isinstance(obj, property):
        out += describe_object(path, obj, index)
    if inspect.isclass(obj) and path == "torch.Tensor":
        link = f"[`torch.Tensor`]({TENSOR_PAGE}.md)"
        out += ["", f"Its methods and attributes are on the {link} page."]
    elif inspect.isclass(obj):
        for name, member in members(obj, path):
            out += entry(f"{path}.{name}", member, page, index, level=4)
    return out


def tensor_page(index: Index) -> str:
    import torch

    out = [
        "# `torch.Tensor`",
        "",
        "The methods and attributes of `torch.Tensor`. A method without its own text does "
        "what the `torch` function of the same name does, with the tensor as its first "
        "argument; a name ending in `_` works in place.",
    ]
    for name in sorted(n for n in dir(torch.Tensor) if not n.startswith("_")):
        obj = getattr(torch.Tensor, name)
        raw = inspect.getattr_static(torch.Tensor, name)
        path = f"torch.Tensor.{name}"
        out += ["", f"### `{path}` {{: #{path} }}", ""]
        doc = raw.__doc__ if isinstance(raw, property) else getattr(obj, "__doc__", None)
        if isinstance(raw, property) or not callable(obj):
            doc = doc if isinstance(raw, property) else None
        if doc and not (doc.startswith(type(obj).__doc__ or "\0")):
            out += render_doc(doc, index, [path, "torch.Tensor"])
            continue
        base = name[:-1] if name.endswith("_") and not name.endswith("__") else name
        found = index.resolve(f"torch.{base}", [])
        if found and found[0] != TENSOR_PAGE:
            how = "In place: " if base != name else ""
            out.append(f"{how}see [`torch.{base}`]({found[0]}.md#{found[1]}).")
        elif base != name and f"torch.Tensor.{base}" in index.anchors:
            out.append(f"In place: see [`torch.Tensor.{base}`](#torch.Tensor.{base}).")
        elif isinstance(raw, property) or not callable(obj):
            out.append("An attribute of the tensor.")
        else:
            out.append("A method of the tensor.")
    return tidy(out)


def module_page(module: str, mod: object, names: list[str], index: Index) -> str:
    out = [f"# `{module}`", ""]
    doc = inspect.getdoc(mod) or ""
    first = doc.split("\n\n")[0] if doc else ""
    if first:
        out += render_doc(first, index, [module]) + [""]
    groups: dict[str, list[str]] = {}
    for name in names:
        groups.setdefault(kind_of(getattr(mod, name)), []).append(name)
    for group in ("Modules", "Classes", "Functions", "Constants and objects"):
        if group not in groups:
            continue
        out += ["", f"## {group}"]
        for name in groups[group]:
            out += entry(f"{module}.{name}", getattr(mod, name), module, index)
    return tidy(out)


def tidy(lines: list[str]) -> str:
    text = "\n".join(line.rstrip() for line in lines)
    return re.sub(r"\n{3,}", "\n\n", text).strip() + "\n"


def build() -> dict[str, str]:
    """File name (under docs/api/) -> its text, and the nav lines, for the installed packages."""
    modules = public_modules()
    pages = documented_names(modules)
    import torch

    index = Index()
    for module, names in pages.items():
        for name in names:
            obj = getattr(modules[module], name)
            path = f"{module}.{name}"
            index.add(path, module, path, obj)
            if inspect.isclass(obj) and obj is not torch.Tensor:
                for member, _ in members(obj, path):
                    index.add(f"{path}.{member}", module, f"{path}.{member}")
    for name in dir(torch.Tensor):
        if not name.startswith("_"):
            index.add(f"torch.Tensor.{name}", TENSOR_PAGE, f"torch.Tensor.{name}")
    for module in pages:
        index.anchors.setdefault(module, (module, ""))

    files = {f"{m}.md": module_page(m, modules[m], pages[m], index) for m in sorted(pages)}
    files[f"{TENSOR_PAGE}.md"] = tensor_page(index)
    files["index.md"] = overview(pages)
    UNRESOLVED.update(index.unresolved)
    return files


def overview(pages: dict[str, list[str]]) -> str:
    out = [
        "# API reference",
        "",
        "Every name in the `__all__` of every public module, documented under its public "
        "path (the topmost module that exports it). The pages are written by "
        "`tools/gen_api_pages.py` from the installed packages; `tests/test_docs_names.py` "
        "fails when they are out of date.",
        "",
        "| module | names |",
        "|---|---|",
    ]
    for module in sorted(pages):
        out.append(f"| [`{module}`]({module}.md) | {len(pages[module])} |")
        if module == "torch":
            out.append(f"| [`torch.Tensor`]({TENSOR_PAGE}.md) | methods and attributes |")
    return "\n".join(out) + "\n"


def nav(files: dict[str, str]) -> list[str]:
    names = sorted(f[:-3] for f in files if f != "index.md")
    return [f"      - {name}: api/{name}.md" for name in names]


def with_nav(config: str, lines: list[str]) -> str:
    head, rest = config.split(NAV_BEGIN + "\n", 1)
    _, tail = rest.split(NAV_END + "\n", 1)
    return head + NAV_BEGIN + "\n" + "".join(line + "\n" for line in lines) + NAV_END + "\n" + tail


def stale(files: dict[str, str]) -> list[str]:
    """Files whose committed text differs from ``files`` (and stray pages, and the nav)."""
    problems = [
        name
        for name, text in files.items()
        if not (API / name).is_file() or (API / name).read_text() != text
    ]
    problems += [p.name for p in API.glob("*.md") if p.name not in files]
    config = MKDOCS.read_text()
    if with_nav(config, nav(files)) != config:
        problems.append("mkdocs.yml (nav)")
    return problems


def main(argv: list[str]) -> int:
    files = build()
    if "--check" in argv:
        problems = stale(files)
        for problem in problems:
            print(f"out of date: {problem}", file=sys.stderr)
        return 1 if problems else 0
    API.mkdir(parents=True, exist_ok=True)
    for stray in API.glob("*.md"):
        if stray.name not in files:
            stray.unlink()
    for name, text in files.items():
        (API / name).write_text(text)
    MKDOCS.write_text(with_nav(MKDOCS.read_text(), nav(files)))
    print(f"wrote {len(files)} pages to {API.relative_to(ROOT)}")
    if "-v" in argv:
        print("references left as code:", ", ".join(sorted(UNRESOLVED)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
