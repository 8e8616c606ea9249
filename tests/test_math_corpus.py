"""The math corpus (tests/data/math-corpus.yaml): every formula converted as the build
converts it, judged on its parsed MathML against its expectations.

At least 99 % must convert correctly; the rest must be refused with a message, never
converted wrong in silence; formulas that must be refused are refused. The measured share
is printed in pytest's terminal summary.
"""

from __future__ import annotations

import re

import mathcorpus

from articlesite.render.mathml import MathError, convert


def run(entry: mathcorpus.Entry) -> mathcorpus.Result:
    try:
        formula = convert(entry.tex, entry.display)
    except MathError as exc:
        return mathcorpus.Result(None, str(exc))
    return mathcorpus.Result(formula.mathml, tag=formula.tag, label=formula.label)


def test_the_corpus_is_real_and_every_formula_has_expectations():
    entries = mathcorpus.load()
    assert len(entries) >= 300
    for entry in entries:
        assert re.search(r"https?://|Written for this corpus|project's own|Must be refused",
                         entry.source), entry.source
        if entry.reject is None:
            expectations = mathcorpus.auto_expectations(entry.tex, entry.display) + entry.expect
            assert expectations, f"no structural expectation for {entry.tex!r}"


def test_the_corpus_converts_at_least_99_percent_and_nothing_wrong_in_silence():
    entries = mathcorpus.load()
    correct, refused, wrong, not_refused = [], [], [], []
    for entry in entries:
        result = run(entry)
        failures = mathcorpus.check(entry, result)
        if entry.reject is not None:
            if failures:
                not_refused.append(entry.tex)
            else:
                assert entry.reject in result.error, (entry.tex, result.error)
                assert result.error.strip()
        elif not failures:
            correct.append(entry)
        elif result.error is not None:
            refused.append(f"{entry.tex!r}: {result.error}")
        else:
            wrong.append(f"{entry.tex!r}: {'; '.join(failures)}")
    to_convert = len(entries) - sum(e.reject is not None for e in entries)
    share = len(correct) / to_convert
    mathcorpus.SUMMARY.append(
        f"math corpus: {len(correct)}/{to_convert} formulas converted correctly "
        f"({100 * share:.1f} %), {len(refused)} refused with a message, {len(wrong)} wrong; "
        f"{len(entries) - to_convert - len(not_refused)}/{len(entries) - to_convert} "
        "refused as they must be")
    mathcorpus.SUMMARY.extend(f"  refused: {line}" for line in refused)
    assert not wrong, "converted wrong in silence:\n" + "\n".join(wrong)
    assert not not_refused, f"converted, but must be refused: {not_refused}"
    assert share >= 0.99, "\n".join(refused)


def test_a_checker_that_cannot_fail_would_be_useless():
    """The expectations do catch the conversions the issue reported as silently wrong."""
    entry = mathcorpus.Entry(r"x \sim y", False, "test")
    assert mathcorpus.check(entry, mathcorpus.Result(
        "<math><mi>x</mi><mi>~</mi><mi>y</mi></math>")) == ["mo ∼"]
    entry = mathcorpus.Entry(r"\log n", False, "test")
    assert mathcorpus.check(entry, mathcorpus.Result(
        "<math><mi>log</mi><mi>n</mi></math>")) == ["fn log"]
    assert mathcorpus.check(entry, mathcorpus.Result(
        "<math><mi>log</mi><mo>&#x2061;</mo><mi>n</mi></math>")) == ["fn log"]
    entry = mathcorpus.Entry(r"\operatorname*{arg\,max}_x f", True, "test",
                             ["limits argmax", "absent *"])
    assert mathcorpus.check(entry, mathcorpus.Result(
        "<math><mo>*</mo><msub><mi>argmax</mi><mi>x</mi></msub><mi>f</mi></math>")) == [
        "limits argmax", "absent *"]
    entry = mathcorpus.Entry(r"E = mc^2 \tag{1}", True, "test", ["tag (1)"])
    assert mathcorpus.check(entry, mathcorpus.Result(
        "<math><mi>E</mi><mo>=</mo><mi>m</mi><msup><mi>c</mi><mn>2</mn></msup>"
        "<mtext>(1)</mtext></math>", tag=None)) == []
    assert mathcorpus.check(entry, mathcorpus.Result(
        "<math><mi>E</mi><mtext>tag</mtext></math>", tag=None)) == ["tag (1)"]
    entry = mathcorpus.Entry(r"\vec{v}", False, "test")
    result = mathcorpus.Result('<math><mover accent="true"><mi>v</mi>'
                               '<mo stretchy="false">&#x20D7;</mo></mover></math>')
    assert mathcorpus.check(entry, result) == ["a lone combining mark '⃗'"]
