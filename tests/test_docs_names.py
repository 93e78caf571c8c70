"""The documentation site: the API pages are up to date with the installed packages and
document every name of every public module's ``__all__`` under a public path; no reST
markup is left for the reader; the porting guides' examples run."""

import doctest
import importlib.util
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
ANCHOR = re.compile(r"^#+ `([\w.]+)` \{: #([\w.]+) \}$", re.M)


def load_generator():
    spec = importlib.util.spec_from_file_location("gen_api_pages", ROOT / "tools/gen_api_pages.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def gen():
    return load_generator()


@pytest.fixture(scope="module")
def documented():
    return {m.group(2) for p in (DOCS / "api").glob("*.md") for m in ANCHOR.finditer(p.read_text())}


def test_committed_pages_are_up_to_date(gen):
    problems = gen.stale(gen.build())
    assert not problems, f"run: python tools/gen_api_pages.py ({problems})"


def test_every_public_name_is_documented_under_a_public_path(gen, documented):
    modules = gen.public_modules()
    assert {"torch", "torch.nn", "torch.nn.functional", "torch.optim", "torch.linalg"} <= set(
        modules
    )
    missing = []
    for module, mod in modules.items():
        for name in getattr(mod, "__all__", ()):
            obj = getattr(mod, name)
            parts = module.split(".")
            homes = [".".join(parts[:i]) for i in range(1, len(parts) + 1)]
            if not any(
                f"{home}.{name}" in documented
                and name in getattr(modules.get(home), "__all__", ())
                and getattr(modules[home], name) is obj
                for home in homes
                if home in modules
            ):
                missing.append(f"{module}.{name}")
    assert not missing, missing
    assert len(documented) > 1500


def test_no_private_paths_and_no_stray_names(gen, documented):
    assert not [d for d in documented if any(p.startswith("_") for p in d.split(".")[:-1])]
    modules = gen.public_modules()
    import torch

    for path in documented:
        module, name = path.rsplit(".", 1)
        if module == "torch.Tensor":
            assert hasattr(torch.Tensor, name), path
        elif module in modules:  # a module-level name: it must still be exported
            assert name in modules[module].__all__, path


def test_tensor_methods_are_documented(documented):
    import torch

    public = {f"torch.Tensor.{n}" for n in dir(torch.Tensor) if not n.startswith("_")}
    assert public <= documented


@pytest.mark.parametrize("page", sorted(DOCS.rglob("*.md")), ids=lambda p: p.name)
def test_no_rest_markup_left(page):
    text = page.read_text()
    assert not re.search(r":(meth|class|func|attr|mod):`", text)
    assert "Examples::" not in text


def test_site_config():
    config = (ROOT / "mkdocs.yml").read_text()
    assert "example.invalid" not in config and "repo_url" not in config.replace("# No repo_url", "")
    assert "use_directory_urls: false" in config
    readme = (ROOT / "README.md").read_text()
    assert "mkdocs serve" in readme or "nox -s docs" in readme


@pytest.mark.parametrize("guide", ["porting-lua-torch.md", "porting-pytorch-0.3.md"])
def test_porting_guide_examples_run(guide):
    text = (DOCS / guide).read_text()
    blocks = re.findall(r"```pycon\n(.*?)```", text, re.S)
    assert blocks, f"{guide} has no examples"
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    # one session: later blocks use the names earlier ones made
    runner.run(parser.get_doctest("\n".join(blocks), {}, guide, guide, 0))
    assert runner.tries > 10
    assert runner.failures == 0, f"{runner.failures} failing examples in {guide}"
