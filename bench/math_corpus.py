"""Measure TeX-to-MathML converters on the math corpus (tests/data/math-corpus.yaml).

    python bench/math_corpus.py [--failures NAME] [--only NAME,NAME]

For each converter: formulas converted correctly (every expectation holds, see
tests/mathcorpus.py), refused, and wrong (converted, but an expectation fails: the silent
kind); formulas that must be refused and were not; and the time per formula (the whole
corpus converted once in one process, after a warm-up; a converter's start-up, e.g. a
JavaScript engine loading its library, is timed apart).

Candidates, each installed from PyPI and working offline; those not installed are skipped:
- articlesite: what the build runs (math-core behind src/articlesite/render/mathsource.py);
- math-core, as it comes; latex2mathml, as the build used it before (its leftover checks),
  and behind the same front end as articlesite;
- KaTeX (MathML output) through PyKaTeX (KaTeX and QuickJS compiled into one module);
- MathJax 3 through siwei-pymath (its MathJax bundle in mini-racer's V8);
- Pandoc's texmath through pypandoc_binary, all formulas in one pandoc run.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO / "src"))

import mathcorpus
from mathcorpus import Result


def _articlesite():
    from articlesite.render.mathml import MathError, convert

    def run(tex, display):
        try:
            formula = convert.__wrapped__(tex, display)
        except MathError as exc:
            return Result(None, str(exc))
        return Result(formula.mathml, tag=formula.tag, label=formula.label)
    return run


def _math_core():
    from math_core import LatexError, LatexToMathML
    converter = LatexToMathML(fancy_error=False)

    def run(tex, display):
        try:
            return Result(converter.convert_with_local_state(tex, displaystyle=display))
        except LatexError as exc:
            return Result(None, str(exc))
    return run


_LEFTOVER = re.compile(r">\s*(\\[A-Za-z]+|\\.|&amp;|&)\s*<")


def _latex2mathml(front_end: bool):
    from latex2mathml.converter import convert

    from articlesite.render.mathsource import MathError, prepare

    def run(tex, display):
        tag = None
        try:
            if front_end:
                source = prepare(tex, display)
                tex, tag = source.tex, source.tag
            mathml = convert(tex, display="block" if display else "inline")
        except MathError as exc:
            return Result(None, str(exc))
        except Exception as exc:  # noqa: BLE001 - latex2mathml raises many kinds
            return Result(None, f"{type(exc).__name__}: {exc}")
        leftover = _LEFTOVER.search(mathml)
        if leftover:  # what the build refused before this change
            return Result(None, f"unsupported LaTeX: {leftover.group(1)}")
        return Result(mathml, tag=tag)
    return run


def _katex():
    import pykatex

    def run(tex, display):
        try:
            html = pykatex.renderToString(tex, displayMode=display, output="mathml",
                                          throwOnError=True)
        except Exception as exc:  # noqa: BLE001 - KaTeX's ParseError comes through as is
            return Result(None, str(exc))
        match = re.search(r"<math.*</math>", html, re.DOTALL)
        return Result(match.group(0) if match else None,
                      None if match else "no <math> in KaTeX's output")
    return run


def _mathjax():
    from latex.converter import LatexConverter
    converter = LatexConverter()

    def run(tex, display):
        try:
            mathml = converter.tex2mathml(tex, display=display)
        except Exception as exc:  # noqa: BLE001 - errors come from V8
            return Result(None, str(exc))
        if "<merror" in mathml:
            return Result(None, re.sub(r"<[^>]+>", "", mathml)[:120])
        return Result(mathml)
    return run


def _pandoc_batch(entries):
    """Every formula in one pandoc run: a paragraph each, in order."""
    import pypandoc
    marker = "\n\nXSEPX\n\n"
    parts = [(f"$${e.tex}$$" if e.display else f"${e.tex}$") for e in entries]
    html = pypandoc.convert_text(marker.join(parts), "html", format="markdown",
                                 extra_args=["--mathml", "--quiet"])
    chunks = html.split("<p>XSEPX</p>")
    results = []
    for chunk in chunks:
        match = re.search(r"<math.*</math>", chunk, re.DOTALL)
        results.append(Result(match.group(0)) if match else Result(None, "not converted"))
    return results


CONVERTERS = {
    "articlesite (math-core + front end)": lambda: _articlesite(),
    "math-core 0.9 as it comes": lambda: _math_core(),
    "latex2mathml 3.81 (as the build used it)": lambda: _latex2mathml(False),
    "latex2mathml 3.81 + front end": lambda: _latex2mathml(True),
    "KaTeX 0.16 (PyKaTeX)": lambda: _katex(),
    "MathJax 3.2 (siwei-pymath, mini-racer)": lambda: _mathjax(),
    "Pandoc texmath (pypandoc_binary)": None,
}


def measure(name, entries):
    start = time.perf_counter()
    if CONVERTERS[name] is None:
        import pypandoc  # noqa: F401 - skip when missing
        startup = 0.0
        results = _pandoc_batch(entries[:5])           # warm-up
        start = time.perf_counter()
        results = _pandoc_batch(entries)
        elapsed = time.perf_counter() - start
    else:
        run = CONVERTERS[name]()
        startup = time.perf_counter() - start
        for entry in entries[:20]:
            run(entry.tex, entry.display)
        start = time.perf_counter()
        results = [run(e.tex, e.display) for e in entries]
        elapsed = time.perf_counter() - start
    return results, startup, elapsed


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--failures", help="list the failures of converters whose name "
                        "contains this text")
    parser.add_argument("--only", help="comma-separated parts of converter names")
    args = parser.parse_args(argv)
    entries = mathcorpus.load()
    convert = [e for e in entries if e.reject is None]
    refuse = [e for e in entries if e.reject is not None]
    print(f"Corpus: {len(entries)} formulas ({len(convert)} to convert, {len(refuse)} to "
          f"refuse) from {len({e.source for e in entries})} sources\n")
    print("| converter | correct | refused | wrong (silent) | must refuse: refused | "
          "ms per formula | start-up |")
    print("|---|---|---|---|---|---|---|")
    for name in CONVERTERS:
        if args.only and not any(part in name for part in args.only.split(",")):
            continue
        try:
            results, startup, elapsed = measure(name, entries)
        except ImportError as exc:
            print(f"| {name} | not installed ({exc.name}) | | | | | |")
            continue
        correct = refused = wrong = refused_bad = 0
        failures = []
        for entry, result in zip(entries, results, strict=True):
            problems = mathcorpus.check(entry, result)
            if entry.reject is not None:
                refused_bad += not problems
                if problems:
                    failures.append((entry, problems))
                continue
            if not problems:
                correct += 1
            elif result.error is not None:
                refused += 1
                failures.append((entry, problems))
            else:
                wrong += 1
                failures.append((entry, problems))
        share = 100 * correct / len(convert)
        print(f"| {name} | {correct}/{len(convert)} ({share:.1f} %) | {refused} | {wrong} | "
              f"{refused_bad}/{len(refuse)} | {1000 * elapsed / len(entries):.3f} | "
              f"{startup:.2f} s |")
        if args.failures and args.failures in name:
            for entry, problems in failures:
                print(f"    {entry.tex!r} ({'display' if entry.display else 'inline'}): "
                      f"{'; '.join(problems)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
